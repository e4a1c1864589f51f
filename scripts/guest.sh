#!/usr/bin/env bash
# guest.sh NAME RUN: boot build/o-NAME's kernel with the guest initramfs
# and scratch disks, running RUN (selftest, bench, bench-quick, shell, ...)
# in the guest.  The console goes to out/NAME-RUN.log; the guest's own
# lines are printed.  Exit status: that of verdict.sh (VERDICT=--sane
# only checks that the guest ran to the end without a kernel error).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1 run=$2
FSLIST=${FSLIST:-ext4 ext3 ext2 raw}
# The selftest's MS_ASYNC case needs a disk slower than the call: writes
# are throttled (bytes/s; empty: no throttling), and request merging is
# off, since QEMU's throttle admits a merged request whole and merging
# would let the whole range through at once.
THROTTLE_BPS=${THROTTLE_BPS-16777216}
THROTTLE_BURST=${THROTTLE_BURST-}
# Names in FSLIST to throttle (empty: all of them).
THROTTLE_ONLY=${THROTTLE_ONLY-}
export DISK_DEVICE_OPTS=${DISK_DEVICE_OPTS-request-merging=off}

export KERNEL=${KERNEL:-$BUILD_DIR/o-$name/arch/x86/boot/bzImage}
export INITRD=${INITRD:-$BUILD_DIR/guest/initramfs.cpio.gz}
export LOG=$OUT_DIR/$name-$run.log
rundir=$BUILD_DIR/run-$name
disks=""
imgs=$("$TOP/scripts/disks.sh" "$rundir" $FSLIST) || exit 1
for img in $imgs; do
	opts=""
	fs=$(basename "$img" .img)
	if [ -z "$THROTTLE_ONLY" ] || echo " $THROTTLE_ONLY " | grep -q " $fs "; then
		[ -n "$THROTTLE_BPS" ] && opts=",throttling.bps-write=$THROTTLE_BPS"
		[ -n "$THROTTLE_BURST" ] && opts="$opts,throttling.bps-write-max=$THROTTLE_BURST"
	fi
	disks="$disks $img$opts"
done
export DISKS=$disks
export APPEND="msync.run=$run msync.disks=$(echo $FSLIST | tr ' ' ,) ${APPEND:-}"

if [ "$run" = shell ]; then
	INTERACTIVE=1 exec "$TOP/scripts/qemu-run.sh"
fi
rm -f "$LOG"
qrc=0
"$TOP/scripts/qemu-run.sh" || qrc=$?
if [ "${QUIET:-0}" != 1 ]; then
	tr -d '\r' <"$LOG" | grep -E '^(msync-guest: |ok |not ok |#|1\.\.|csv,)' || true
fi
[ $qrc = 0 ] || exit 1
"$TOP/scripts/verdict.sh" ${VERDICT:-} "$LOG"
