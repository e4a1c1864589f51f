#!/usr/bin/env bash
# make torture: the long runs that make check keeps short: the fuzzer
# with a million msync() calls on each kernel (FUZZ_CALLS, FUZZ_SEED) and
# every crash point of 200 synced ranges per file system and kernel
# (CRASH_RANGES, CRASH_SEED), and the race test on the debug kernels for
# 10 minutes per kernel (RACE_SECONDS, RACE_SEED).  Ends with "N passed,
# N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"

echo "[1/5] preparing and building both kernels..."
setup() {
	"$@" >"$TESTS_LOG/torture-setup.log" 2>&1 ||
		{ show_tail "$TESTS_LOG/torture-setup.log"; die "$* failed"; }
}
setup scripts/deps.sh
setup scripts/fetch.sh
setup scripts/tree.sh
setup scripts/build.sh unpatched base
setup scripts/build.sh patched series
setup scripts/initramfs.sh "$BUILD_DIR/guest/initramfs.cpio.gz"
echo "[2/5] fuzzing msync(): ${FUZZ_CALLS:=1000000} calls per kernel..."
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-1800}
. tests/fuzz.sh
echo "[3/5] crash points of MS_SYNC: ${CRASH_RANGES:=200} synced ranges per file system and kernel..."
. tests/crash.sh
echo "[4/5] racing msync() on the debug kernels: ${RACE_SECONDS:=600} s per kernel..."
. tests/race.sh
echo "[5/5] done"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
