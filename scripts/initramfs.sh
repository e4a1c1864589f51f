#!/usr/bin/env bash
# initramfs.sh OUT.cpio.gz: the guest's initramfs: static busybox, /init,
# the msync selftest as committed on branch series of build/linux, the
# benchmark, the freeze test and the fuzzer, all static.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$1
BUSYBOX=${BUSYBOX:-/bin/busybox}
selftest=tools/testing/selftests/msync
work=$BUILD_DIR/guest
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install busybox-static"

rm -rf "$work/root" "$work/selftest"
mkdir -p "$work/root"/{bin,dev,proc,sys,tmp,mnt} "$work/selftest"
git -C "$TREE" archive series "$selftest" | tar -C "$work/selftest" -x \
	--strip-components=4 ||
	die "branch series of $TREE has no $selftest"
make -s -C "$work/selftest" CC="gcc -static" all >"$work/selftest.log" 2>&1 ||
	{ cat "$work/selftest.log" >&2; die "building the selftest failed"; }
cp "$work/selftest/msync_test" "$work/root/bin/"
gcc -static -O2 -Wall -Wextra -o "$work/root/bin/msync_bench" \
	"$TOP/bench/msync_bench.c" || die "building bench/msync_bench.c failed"
gcc -static -O2 -Wall -Wextra -o "$work/root/bin/msync_freeze" \
	"$TOP/guest/msync_freeze.c" || die "building guest/msync_freeze.c failed"
gcc -static -O2 -Wall -Wextra -o "$work/root/bin/msync_fuzz" \
	"$TOP/guest/msync_fuzz.c" || die "building guest/msync_fuzz.c failed"
cp "$BUSYBOX" "$work/root/bin/busybox"
cp "$TOP/guest/init" "$work/root/init"
chmod 755 "$work/root/init"
(cd "$work/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
	gzip -n >"$out.tmp"
mv "$out.tmp" "$out"
