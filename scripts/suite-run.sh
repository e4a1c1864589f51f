#!/usr/bin/env bash
# suite-run.sh KERNEL fstests|ltp [TEST...]: boot build/o-KERNEL's kernel on
# the suites' guest (scripts/rootfs-image.sh) and run fstests or LTP: the
# tests named, or those of tests/fstests/list or tests/ltp/list.  The
# console goes to out/KERNEL-SUITE.log, the guest's results to
# out/suites/KERNEL-SUITE/, and one line a test, "TEST STATUS [REASON]"
# (STATUS: passed, failed, notrun, missing: the guest ended before it),
# to out/suites/KERNEL-SUITE/summary, which is printed.  Exit status 0 if
# the guest ran to the end, whatever the tests said.
# Settings: SUITE_FS (ext4), the file system of TEST_DEV and SCRATCH_DEV;
# SUITE_DISK_SIZE (3G), their size; SUITE_TAG, a suffix of the names above
# for another run of the same kernel and suite; SUITE_TEST_TIMEOUT (900),
# the seconds an fstests test may run before the guest kills it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

name=$1 suite=$2
shift 2
case $suite in
fstests|ltp) ;;
*) die "suite-run.sh: suite '$suite': fstests or ltp" ;;
esac
fs=${SUITE_FS:-ext4}
tag=$name-$suite${SUITE_TAG:-}
export KERNEL=${KERNEL:-$(kernel_image "$name")}
[ -f "$KERNEL" ] || die "kernel $name not built ($KERNEL missing)"
{ read -r img; read -r initrd; } < <("$TOP/scripts/rootfs-image.sh")
[ -s "$img" ] && [ -s "$initrd" ] || die "the suites' guest image is missing"
export INITRD=$initrd

if [ $# -gt 0 ]; then
	tests=$(printf '%s\n' "$@")
elif [ $suite = fstests ]; then
	tests=$(grep -v '^#' "$TOP/tests/fstests/list" | awk 'NF { print $1 }')
else
	tests=$(grep -v '^#' "$TOP/tests/ltp/list" | awk 'NF { $3 = ""; print }')
fi

# The disks: TEST_DEV made here, SCRATCH_DEV left to the tests, the job.
# v3.5's ext4 gets the features it knows (scripts/lib.sh mkfs_for); 6.12
# Debian's defaults.
rundir=$BUILD_DIR/run-suite-$tag
rm -rf "$rundir"
mkdir -p "$rundir/job/job"
size=${SUITE_DISK_SIZE:-3G}
truncate -s "$size" "$rundir/test.img" "$rundir/scratch.img"
mkfs_opts=""
case $name in
6.12*) mkfs_test="mkfs.$fs -q -F" ;;
*) mkfs_test=$(mkfs_for "$fs")
   [ "$fs" = ext4 ] && mkfs_opts="-O ^metadata_csum,^metadata_csum_seed,^orphan_file,^64bit" ;;
esac
$mkfs_test "$rundir/test.img" >/dev/null 2>&1 || die "mkfs of TEST_DEV ($fs) failed"
{
	echo "SUITE=$suite"
	echo "FSTYP=$fs"
	echo "MKFS_OPTIONS='$mkfs_opts'"
	echo "MOUNT_OPTIONS=''"
	echo "TEST_TIMEOUT=${SUITE_TEST_TIMEOUT:-900}"
} >"$rundir/job/job/env"
echo "$tests" >"$rundir/job/job/tests"
tar -C "$rundir/job" -cf "$rundir/job.img" job
truncate -s 512M "$rundir/job.img"

export LOG=$OUT_DIR/$tag.log
export DISKS="$img,snapshot=on $rundir/test.img $rundir/scratch.img $rundir/job.img"
export MEM=${MEM:-2048}
# fstests prints a test's line when it ends: a long one is silent.
export SILENCE=${SILENCE:-1200}
export TIMEOUT=${TIMEOUT:-7200}
res=$OUT_DIR/suites/$tag
rm -rf "$res" "$LOG"
mkdir -p "$res"
qrc=0
"$TOP/scripts/qemu-run.sh" || qrc=$?
tar -C "$res" -xf "$rundir/job.img" 2>/dev/null || true
ended=0
tr -d '\r' <"$LOG" | grep -q '^suite: done' && ended=1

# One line a test.
summary=$res/summary
: >"$summary"
if [ $suite = fstests ]; then
	rb=$res/results/fstests
	failures=$(sed -n 's/^Failures: //p' "$rb/check.log" 2>/dev/null | tail -n 1)
	ran=$(sed -n 's/^Ran: //p' "$rb/check.log" 2>/dev/null | tail -n 1)
	for t in $tests; do
		if [ -e "$rb/$t.notrun" ]; then
			echo "$t notrun $(head -n 1 "$rb/$t.notrun")"
		elif grep -qx "$t" "$res/results/wedged" 2>/dev/null; then
			echo "$t failed hung: killed after ${SUITE_TEST_TIMEOUT:-900} s (SUITE_TEST_TIMEOUT), its processes would not end; the guest stopped there"
		elif grep -qx "$t" "$res/results/timeouts" 2>/dev/null; then
			echo "$t failed killed after ${SUITE_TEST_TIMEOUT:-900} s (SUITE_TEST_TIMEOUT)"
		elif [[ " $failures " == *" $t "* ]]; then
			why=$(tr -d '\r' <"$res/results/check.out" 2>/dev/null |
				grep -m1 "^$t " | sed "s|^$t *||; s|([^)]*)||g; s|^- *||; s| *$||")
			echo "$t failed ${why:-}"
		elif [[ " $ran " == *" $t "* ]]; then
			echo "$t passed"
		else
			echo "$t missing"
		fi
	done >>"$summary"
else
	for t in $(awk '{ print $1 }' <<<"$tests"); do
		line=$(tr -d '\r' <"$LOG" | grep -m1 "^suite: result $t " || true)
		if [ -n "$line" ]; then
			echo "${line#suite: result }"
		else
			echo "$t missing"
		fi
	done >>"$summary"
fi
# Kernel errors on the console (scripts/lib.sh's patterns).
kerr=$(tr -d '\r' <"$LOG" | grep -cE "$KERNEL_ERROR_RE" || true)
echo "console-errors $kerr" >>"$summary"
cat "$summary"
if [ $qrc != 0 ] || [ $ended != 1 ]; then
	echo "error: the $name guest did not run $suite to the end; console: $LOG" >&2
	tr -d '\r' <"$LOG" | tail -n 15 >&2
	exit 1
fi
