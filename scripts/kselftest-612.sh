#!/usr/bin/env bash
# kselftest-612.sh KERNEL|--build [CATEGORY]: the mm selftests of
# build/linux-6.12 as a kernel developer runs them, on 6.12 kernel KERNEL
# (build/o-KERNEL, or a planted one such as 6.12-nowait): msync_test
# built on the host by the kselftest Makefile of tools/testing/selftests/mm
# (against the tree's own uapi headers, made by 'make headers'), then run
# in the Debian guest of make fstests (scripts/rootfs-image.sh) by
# run_vmtests.sh -t CATEGORY (msync), with MSYNC_DIR on an ext4 scratch
# disk whose writes are throttled to KSELFTEST_BPS bytes a second (16
# MiB/s).  The console goes to out/KERNEL-kselftest.log, the runner's
# output to out/kselftest/KERNEL.tap, which is printed.  Exit status 0 if
# the guest ran the runner to the end, whatever it said.  --build: build
# msync_test only.  KSELFTEST_ONLY="CASE ...": run only those cases of
# msync_test, by the harness's own filter (msync_test -t CASE), without
# the runner (a planted kernel whose fault one case must catch).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

name=$1 category=${2:-msync}
tree=$BUILD_DIR/linux-6.12 ks=$BUILD_DIR/kselftest-6.12
[ -d "$tree/.git" ] || die "no $tree: run scripts/tree-6.12.sh first"
[ "$(git -C "$tree" rev-parse --abbrev-ref HEAD)" = series ] ||
	die "$tree is not on branch series (the selftest is built from there)"

# The build: uapi headers of the tree, then the one program with the
# directory's Makefile (make TARGETS=mm stops at khugepaged.c in
# Debian's 6.12.118, which uses KSFT_SKIP without kselftest.h).
mkdir -p "$ks/mm" "$OUT_DIR/kselftest"
log=$ks/build.log
{
	make -s -C "$tree" O="$ks/obj" headers &&
	make -C "$tree/tools/testing/selftests/mm" OUTPUT="$ks/mm" \
		KHDR_INCLUDES="-isystem $ks/obj/usr/include" "$ks/mm/msync_test"
} >"$log" 2>&1 || { show_tail "$log"; die "msync_test does not build (log: $log)"; }
[ "$name" != --build ] || exit 0
export KERNEL=${KERNEL:-$(kernel_image "$name")}
[ -f "$KERNEL" ] || die "kernel $name not built ($KERNEL missing)"

{ read -r img; read -r _; } < <("$TOP/scripts/rootfs-image.sh")
[ -s "$img" ] || die "the Debian guest image is missing (scripts/rootfs-image.sh)"

# The job disk, the scratch disk and the initramfs that joins them.
run=$BUILD_DIR/run-kselftest-$name
rm -rf "$run"
mkdir -p "$run/job/job/mm" "$run/initrd"/{bin,dev,proc,sys,newroot}
cp "$ks/mm/msync_test" "$tree/tools/testing/selftests/mm/run_vmtests.sh" \
	"$tree/tools/testing/selftests/mm/settings" "$run/job/job/mm/"
install -m 755 "$TOP/guest/kselftest/init" "$run/job/job/init"
only=${KSELFTEST_ONLY:-}
[ -z "$only" ] || [[ $only =~ ^[a-z_]+( [a-z_]+)*$ ]] ||
	die "KSELFTEST_ONLY='$only': case names, one space apart"
printf "CATEGORY='%s'\nONLY='%s'\n" "$category" "$only" >"$run/job/job/env"
tar -C "$run/job" -cf "$run/job.img" job
truncate -s 64M "$run/job.img"
truncate -s 1G "$run/scratch.img"
mkfs.ext4 -q -F "$run/scratch.img" || die "mkfs.ext4 of the scratch disk failed"
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] && file -L "$BUSYBOX" | grep -q static ||
	die "$BUSYBOX is not a static busybox: install busybox-static"
cp "$BUSYBOX" "$run/initrd/bin/busybox"
install -m 755 "$TOP/guest/kselftest/boot" "$run/initrd/init"
(cd "$run/initrd" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
	gzip -n >"$run/boot.cpio.gz"

export INITRD=$run/boot.cpio.gz
export LOG=$OUT_DIR/$name-kselftest.log
bps=${KSELFTEST_BPS:-16777216}
# As make check's guests: QEMU's throttle admits a merged request whole.
export DISK_DEVICE_OPTS=${DISK_DEVICE_OPTS-request-merging=off}
export DISKS="$img,snapshot=on $run/scratch.img,throttling.bps-write=$bps $run/job.img"
# a planted 6.12 kernel (scripts/lib.sh) boots with its fault's word
plant=$(plant_append "$name")
export APPEND="${APPEND:-} $plant"
export MEM=${MEM:-2048}
export TIMEOUT=${TIMEOUT:-1800}
rm -f "$LOG"
qrc=0
"$TOP/scripts/qemu-run.sh" || qrc=$?
tap=$OUT_DIR/kselftest/$name.tap
tr -d '\r' <"$LOG" | sed -n '/^kselftest: kernel /,/^kselftest: exit /p' >"$tap"
cat "$tap"
if [ $qrc != 0 ] || ! tr -d '\r' <"$LOG" | grep -q '^kselftest: done' ||
   ! grep -q '^kselftest: exit ' "$tap"; then
	echo "error: the $name guest did not run ${only:+msync_test alone}${only:-run_vmtests.sh} to the end; console: $LOG" >&2
	tr -d '\r' <"$LOG" | tail -n 15 >&2
	exit 1
fi
