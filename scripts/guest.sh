#!/usr/bin/env bash
# guest.sh NAME RUN: boot build/o-NAME's kernel with the guest initramfs
# and scratch disks, running RUN (selftest, bench, bench-quick, shell, ...)
# in the guest.  The console goes to out/NAME-RUN.log (with RUN_TAG, to
# out/NAME-RUN$RUN_TAG.log); the guest's own lines are printed.  Exit
# status: 1 if a scratch file system is left inconsistent (e2fsck -fn),
# else that of verdict.sh (VERDICT=--sane only checks that the guest ran
# to the end without a kernel error).
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
# A sector of the raw disk (6 GiB) whose writes fail (empty: none): 64 KiB
# past 5 GiB, beyond what the selftest's other cases write (it checks).
EIO_SECTOR=${EIO_SECTOR-$((5 * 2097152 + 128))}

KERNEL=${KERNEL:-$(kernel_image "$name")}
export KERNEL
# An i386 kernel gets the 32-bit initramfs and emulator.
if grep -qx CONFIG_X86_32=y "$BUILD_DIR/o-$name/.config" 2>/dev/null; then
	export INITRD=${INITRD:-$BUILD_DIR/guest/initramfs-i386.cpio.gz}
	export QEMU_SYSTEM=${QEMU_SYSTEM:-qemu-system-i386}
fi
export INITRD=${INITRD:-$BUILD_DIR/guest/initramfs.cpio.gz}
# RUN_TAG: a suffix of the console log's and the scratch images' names,
# for two boots of one kernel and run at once.
export LOG=$OUT_DIR/$name-$run${RUN_TAG:-}.log
# Scratch images of this kernel and run (two runs of one kernel may boot
# at once).
rundir=$BUILD_DIR/run-$name-$run${RUN_TAG:-}
disks=""
imgs=$("$TOP/scripts/disks.sh" "$rundir" $FSLIST) || exit 1
for img in $imgs; do
	opts=""
	fs=$(basename "$img" .img)
	if [ -z "$THROTTLE_ONLY" ] || echo " $THROTTLE_ONLY " | grep -q " $fs "; then
		[ -n "$THROTTLE_BPS" ] && opts=",throttling.bps-write=$THROTTLE_BPS"
		[ -n "$THROTTLE_BURST" ] && opts="$opts,throttling.bps-write-max=$THROTTLE_BURST"
	fi
	# The raw disk fails every write of one sector (QEMU's blkdebug),
	# for the selftest's MS_ASYNC write error case.
	if [ "${fs%%-*}" = raw ] && [ -n "$EIO_SECTOR" ]; then
		printf '[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\nsector = "%s"\n' \
			"$EIO_SECTOR" >"$rundir/$fs.blkdebug"
		img=blkdebug:$rundir/$fs.blkdebug:$img
	fi
	disks="$disks $img$opts"
done
export DISKS=$disks
# The raw disk's writes of EIO_SECTOR fail on purpose: its I/O errors at
# that sector are not a kernel's (verdict.sh).
if [ -n "$EIO_SECTOR" ]; then
	i=0
	for fs in $FSLIST; do
		[ "${fs%%-*}" = raw ] &&
			export VERDICT_IO_OK="vd$(printf "\\$(printf %o $((97 + i)))"):$EIO_SECTOR"
		i=$((i + 1))
	done
fi
extra=""
[ -n "$EIO_SECTOR" ] && extra="msync.eio_sector=$EIO_SECTOR"
# MSYNC_CASES: the selftest runs only these cases (comma-separated names).
[ -n "${MSYNC_CASES:-}" ] && extra="$extra msync.cases=$MSYNC_CASES"
export APPEND="msync.run=$run msync.disks=$(echo $FSLIST | tr ' ' ,) $extra $(plant_append "$name") ${APPEND:-}"

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
# Every scratch file system the guest unmounted must be consistent
# (FSCK=0: not checked).
if [ "${FSCK:-1}" = 1 ]; then
	for img in $imgs; do
		case $(basename "$img" .img) in ext[234]*) ;; *) continue ;; esac
		if ! e2fsck -fn "$img" >"$img.fsck" 2>&1; then
			sed -n 's/^/  /; 1,15p' "$img.fsck" >&2
			echo "FAIL: e2fsck -fn $img found errors (guest log $LOG)"
			exit 1
		fi
	done
fi
"$TOP/scripts/verdict.sh" ${VERDICT:-} "$LOG"
