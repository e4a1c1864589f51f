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

# The data contract can fail, on planted kernels (each with the
# violation it must show): nowait (MS_SYNC starts its range's writeback
# and returns at once: MS_SYNC calls whose pages are still dirty or under
# writeback, every return code as the contract says), holefirst (ENOMEM
# at the first hole, the mapped parts after it not synced: pages left
# dirty) and busylate (MS_SYNC|MS_INVALIDATE syncs the locked mapping
# before its EBUSY: the locked page clean).  The two last run
# FUZZ_PLANTED_CALLS calls (20000).
fuzz_planted() {
	local k=$1 calls=$2 want=$3 strict=$4 title=$5 out
	guest_boot "$k" fuzz FSLIST="ext4 raw" THROTTLE_BPS= \
		TIMEOUT="${FUZZ_TIMEOUT:-600}" APPEND="msync.fuzz=$calls:$FUZZ_SEED"
	out=$TESTS_LOG/fuzz-$k.out
	title="$k: $title (seed $FUZZ_SEED)"
	if ! plant_seen "$k" "$OUT_DIR/$k-fuzz.log"; then
		fail "$title" "its console does not say msync: test-only fault '$k' planted" \
			"console log: $OUT_DIR/$k-fuzz.log"
	elif grep -Eq "^# VIOLATION call .*$want" "$out" &&
	     { [ "$strict" = 0 ] || ! grep -q '^# VIOLATION call .* contract says' "$out"; }; then
		pass "$title"
	else
		fail "$title" "$(grep -E '^(# VIOLATION|not ok|ok 1)' "$out" | head -n 4)" \
			"console log: $OUT_DIR/$k-fuzz.log"
	fi
	grep -E "^# VIOLATION call .*$want" "$out" | head -n 1 |
		sed 's/^# /       '"$k"': /' || true
}

if build_planted; then
	fuzz_planted nowait "$FUZZ_CALLS" 'left dirty$' 1 \
		"the fuzzer's data contract catches MS_SYNC that does not wait"
	fuzz_planted holefirst "${FUZZ_PLANTED_CALLS:-20000}" 'left dirty$' 0 \
		"the fuzzer catches ENOMEM returned before the mapped parts after a hole are synced"
	fuzz_planted busylate "${FUZZ_PLANTED_CALLS:-20000}" 'EBUSY after syncing the locked page' 1 \
		"the fuzzer catches EBUSY returned after the locked mapping was synced"
fi
