#!/usr/bin/env bash
# Boot a kernel in QEMU and save its serial console to LOG.  Settings (env):
#   KERNEL   bzImage                     INITRD  initramfs
#   APPEND   extra kernel command line   LOG     console log file
#   MEM      guest MiB (1024)            SMP     vCPUs (2)
#   SILENCE  seconds the console may stay silent before QEMU is killed
#            (300): a guest is killed when it stops making progress
#   TIMEOUT  seconds before QEMU is killed however much it prints (3600)
#   ACCEL    tcg (default) or kvm
#   DISKS    space-separated "image[,drive-option...]" for virtio-blk disks
#            (vda, vdb, ... in order), e.g. "x.img,throttling.bps-write=8388608"
#   DISK_CACHE  QEMU cache mode of the disks (writeback)
#   DISK_DEVICE_OPTS  options of every virtio-blk-pci device, e.g.
#            "request-merging=off"
#   QEMU_ARGS  more QEMU arguments, word-split (e.g. a -drive/-device pair
#            that DISKS cannot express, such as a blklogwrites disk)
#   QEMU_SYSTEM  the emulator (qemu-system-x86_64; qemu-system-i386 for
#            an i386 kernel)
#   INTERACTIVE=1  console on this terminal, no timeout (make boot)
# The console shows KERN_WARNING and above (loglevel=5): WARN_ON() and
# lockdep reports are printed at that level, and verdict.sh must see them.
# no_timer_check: the IO-APIC timer check at boot counts ticks against a
# busy loop, which TCG on a loaded host can make fail ("IO-APIC + timer
# doesn't work!", a panic seen on 6.12); the check is for real hardware.
# The host may stop QEMU for tens of seconds (CI saw 23 s): under TCG the
# guest's clock runs on, and on resuming it would report whatever ran as
# a lockup.  The RCU stall warning (6.12: after 21 s, v3.5: 60 s) waits
# 120 s here, as the init's soft lockup detector does; a CPU really stuck
# is still reported, later.  Each kernel ignores the other's name.
# Exit 0 when the guest powered off by itself, 1 on timeout or QEMU error.
# The longest silence of the console, in seconds, is left in LOG.silence.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: "${KERNEL:?KERNEL must be set}" "${INITRD:?INITRD must be set}"
MEM=${MEM:-1024} SMP=${SMP:-2} TIMEOUT=${TIMEOUT:-3600}
SILENCE=${SILENCE:-300} ACCEL=${ACCEL:-tcg}
LOG=${LOG:-$OUT_DIR/qemu.log}
QEMU_SYSTEM=${QEMU_SYSTEM:-qemu-system-x86_64}
need "$QEMU_SYSTEM" qemu-system-x86
[ -f "$KERNEL" ] || die "kernel image $KERNEL not found"
[ -f "$INITRD" ] || die "initramfs $INITRD not found"

STALL_APPEND="rcutree.rcu_cpu_stall_timeout=120 rcupdate.rcu_cpu_stall_timeout=120"
args=(-accel "$ACCEL" -nographic -no-reboot -m "$MEM" -smp "$SMP"
	-kernel "$KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 panic=-1 loglevel=5 no_timer_check $STALL_APPEND ${APPEND:-}")
i=0
for d in ${DISKS:-}; do
	opts=""
	[ "$d" = "${d#*,}" ] || opts=",${d#*,}"
	args+=(-drive "file=${d%%,*},if=none,id=disk$i,format=raw,cache=${DISK_CACHE:-writeback}$opts"
		-device "virtio-blk-pci,drive=disk$i${DISK_DEVICE_OPTS:+,$DISK_DEVICE_OPTS}")
	i=$((i + 1))
done
# shellcheck disable=SC2206
args+=(${QEMU_ARGS:-})

if [ "${INTERACTIVE:-0}" = 1 ]; then
	exec "$QEMU_SYSTEM" "${args[@]}"
fi

mkdir -p "$(dirname "$LOG")"
"$QEMU_SYSTEM" "${args[@]}" </dev/null >"$LOG" 2>&1 &
pid=$!
# QEMU ends with this script, however the script ends (a full disk, a
# signal): a QEMU left running keeps its images locked and its CPU busy.
trap 'kill -9 $pid 2>/dev/null || true' EXIT
trap 'exit 1' HUP INT TERM
# The watchdog: the console log's size, once a second.
start=$SECONDS last=$SECONDS size=0 longest=0 why=""
while kill -0 $pid 2>/dev/null; do
	sleep 1
	now=$(stat -c %s "$LOG")
	if [ "$now" != "$size" ]; then
		size=$now last=$SECONDS
	fi
	[ $((SECONDS - last)) -le $longest ] || longest=$((SECONDS - last))
	if [ $((SECONDS - last)) -ge "$SILENCE" ]; then
		why="printed nothing for ${SILENCE}s (SILENCE)"
	elif [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
		why="was still running after ${TIMEOUT}s (TIMEOUT)"
	fi
	[ -z "$why" ] || break
done
echo "$longest" >"$LOG.silence"
if [ -n "$why" ]; then
	# The guest's last line, read before QEMU's own "terminating on
	# signal" line lands in the same log.
	lastline=$(tr -d '\r' <"$LOG" | awk 'NF { l = $0 } END { print l }')
	kill $pid 2>/dev/null || true
	sleep 2
	kill -9 $pid 2>/dev/null || true
fi
rc=0
wait $pid || rc=$?
trap - EXIT
if [ -n "$why" ]; then
	show_tail "$LOG" 50
	echo "error: guest $why and was killed; its last line: ${lastline:-(none)}" >&2
	echo "  console log: $LOG" >&2
	exit 1
elif [ $rc != 0 ]; then
	show_tail "$LOG" 50
	echo "error: QEMU exited with status $rc; console log: $LOG" >&2
	exit 1
fi
