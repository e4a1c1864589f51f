# The fuzzer (guest/msync_fuzz.c): random msync() calls checked against
# the error contract, on both kernels, with one seed for both so that
# they see the same calls.  FUZZ_CALLS (100000 here; make torture: a
# million) and FUZZ_SEED (default: the date) are settings.  Sourced by
# tests/run.sh and tests/torture.sh.
# shellcheck shell=bash

FUZZ_CALLS=${FUZZ_CALLS:-100000}
FUZZ_SEED=${FUZZ_SEED:-$(date +%s)}
for k in patched unpatched; do
	log=$TESTS_LOG/fuzz-$k.out
	title="$k: $FUZZ_CALLS fuzzed msync() calls, no contract violation, no kernel error (seed $FUZZ_SEED)"
	if FSLIST="ext4 raw" THROTTLE_BPS= TIMEOUT=${FUZZ_TIMEOUT:-600} \
		APPEND="msync.fuzz=$FUZZ_CALLS:$FUZZ_SEED" \
		scripts/guest.sh "$k" fuzz >"$log" 2>&1 &&
	   grep -q '^ok 1 - ' "$log"; then
		pass "$title"
	else
		fail "$title" "$(grep -E '^(not ok|# VIOLATION|FAIL)' "$log" | head -n 6)" \
			"console log: $OUT_DIR/$k-fuzz.log"
	fi
	grep -E '^# [0-9]+ calls' "$log" | sed "s/^# /       $k: /" || true
done
