# The fuzzer (guest/msync_fuzz.c): random msync() calls checked against
# the error contract, on both kernels, with one seed for both so that
# they see the same calls.  FUZZ_CALLS (100000 here; make torture: a
# million) and FUZZ_SEED (default: the date) are settings.  Sourced by
# tests/run.sh and tests/torture.sh.
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
