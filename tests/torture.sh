#!/usr/bin/env bash
# make torture: the long runs that make check keeps short: the fuzzer
# with a million msync() calls on each kernel (FUZZ_CALLS, FUZZ_SEED) and
# every crash point of 200 synced ranges per file system and kernel
# (CRASH_RANGES, CRASH_SEED; the unpatched kernel's too, a control), and the race test on the debug kernels for
# 10 minutes per kernel (RACE_SECONDS, RACE_SEED) with the unpatched
# debug kernel as control, the selftest on the unpatched i386 kernel
# (the controls make check leaves out for time), the planted kernels
# with every case of the selftest (make check runs only the cases that
# must catch each fault: here the others must pass), and the 6.12 port on
# a debug kernel of its own (tests/debug-6.12.sh).  Ends with "N passed,
# N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"

echo "[1/8] preparing and building both kernels..."
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
echo "[2/8] fuzzing msync(): ${FUZZ_CALLS:=1000000} calls per kernel..."
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-1800}
CRASH_CONTROL=1
. tests/fuzz.sh
echo "[3/8] crash points of MS_SYNC: ${CRASH_RANGES:=200} synced ranges per file system and kernel..."
. tests/crash.sh
echo "[4/8] racing msync() on the debug kernels: ${RACE_SECONDS:=600} s per kernel..."
RACE_CONTROL=1
. tests/selftest.sh
. tests/race.sh
echo "[5/8] the selftest on i386 (patched, unpatched, offset in unsigned long)..."
I386_UNPATCHED=1
I386_FS="ext4 ext3 ext2 raw"
PLANTED_ALL_CASES=1 . tests/i386.sh
echo "[6/8] the planted kernels, every case of the selftest on each..."
PLANTED_ALL_CASES=1 selftest_variants
echo "[7/8] 6.12 on a debug kernel: MS_ASYNC across cgroup wb switches, the selftest..."
. tests/debug-6.12.sh
echo "[8/8] done"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
