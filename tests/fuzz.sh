# The fuzzer (guest/msync_fuzz.c): random msync() calls checked against
# the error contract, on both kernels, with one seed for both so that
# they see the same calls, and on the planted kernel nowait, whose
# MS_SYNC calls break the data contract.  FUZZ_CALLS (100000 here; make
# torture: a million) and FUZZ_SEED (default: the date) are settings.
# Sourced by tests/run.sh and tests/torture.sh.
# shellcheck shell=bash

FUZZ_CALLS=${FUZZ_CALLS:-100000}
FUZZ_SEED=${FUZZ_SEED:-$(date +%s)}
for k in patched unpatched; do
	guest_check "$k" fuzz \
		"$k: $FUZZ_CALLS fuzzed msync() calls, no contract violation, no kernel error (seed $FUZZ_SEED)" \
		'^(not ok|# VIOLATION|FAIL)' '^# [0-9]+ calls' \
		FSLIST="ext4 raw" THROTTLE_BPS= TIMEOUT="${FUZZ_TIMEOUT:-600}" \
		APPEND="msync.fuzz=$FUZZ_CALLS:$FUZZ_SEED"
done

# The data contract can fail: on the planted kernel nowait (MS_SYNC
# starts its range's writeback and returns at once) the fuzzer must
# report MS_SYNC calls whose pages are still dirty or under writeback,
# with every return code as the contract says.
if build_planted; then
	guest_boot nowait fuzz FSLIST="ext4 raw" THROTTLE_BPS= \
		TIMEOUT="${FUZZ_TIMEOUT:-600}" APPEND="msync.fuzz=$FUZZ_CALLS:$FUZZ_SEED"
	out=$TESTS_LOG/fuzz-nowait.out
	title="nowait: the fuzzer's data contract catches MS_SYNC that does not wait (seed $FUZZ_SEED)"
	if ! plant_seen nowait "$OUT_DIR/nowait-fuzz.log"; then
		fail "$title" "its console does not say msync: test-only fault 'nowait' planted" \
			"console log: $OUT_DIR/nowait-fuzz.log"
	elif grep -q '^# VIOLATION call .* left dirty$' "$out" &&
	     ! grep -q '^# VIOLATION call .* contract says' "$out"; then
		pass "$title"
	else
		fail "$title" "$(grep -E '^(# VIOLATION|not ok|ok 1)' "$out" | head -n 4)" \
			"console log: $OUT_DIR/nowait-fuzz.log"
	fi
	grep -E '^# VIOLATION call' "$out" | head -n 1 | sed 's/^# /       nowait: /' || true
fi
