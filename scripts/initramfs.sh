#!/usr/bin/env bash
# initramfs.sh OUT.cpio.gz: the guest's initramfs: static busybox, /init,
# the msync selftest as committed on branch series of build/linux, the
# benchmarks (LMDB's linked with Debian's static liblmdb) and every
# guest/*.c program (static; all linked with the selftest's observation
# library, msync_util.c), and the run scripts
# guest/run-*.sh (run RUN in the guest: /lib/msync/run-RUN.sh).
# GUEST_ARCH=i386 builds 32-bit programs (gcc -m32) around a 32-bit busybox
# (BUSYBOX, default: the one scripts/busybox32.sh unpacks): the selftest
# and the benchmark only, the 32-bit checks are theirs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$1
arch=${GUEST_ARCH:-x86_64}
selftest=tools/testing/selftests/msync
# Its own work directory: two initramfs builds may run at once.
work=${out%.cpio.gz}.work
progs=("$TOP/bench/msync_bench.c")
case $arch in
x86_64) cc="gcc -static" ; BUSYBOX=${BUSYBOX:-/bin/busybox}
	progs+=("$TOP"/guest/*.c "$TOP/bench/lmdb_bench.c") ;;
i386) cc="gcc -m32 -static"
	BUSYBOX=${BUSYBOX:-$("$TOP/scripts/busybox32.sh")} ;;
*) die "GUEST_ARCH=$arch: x86_64 or i386" ;;
esac
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install busybox-static"

rm -rf "$work"
mkdir -p "$(dirname "$out")"
mkdir -p "$work/root"/{bin,dev,proc,sys,tmp,mnt,lib/msync} "$work/selftest"
git -C "$TREE" archive series "$selftest" | tar -C "$work/selftest" -x \
	--strip-components=4 ||
	die "branch series of $TREE has no $selftest"
make -s -C "$work/selftest" CC="$cc" all >"$work/selftest.log" 2>&1 ||
	{ cat "$work/selftest.log" >&2; die "building the selftest ($arch) failed"; }
cp "$work/selftest/msync_test" "$work/root/bin/"
for c in "${progs[@]}"; do
	libs=""
	[ "$(basename "$c")" = lmdb_bench.c ] && libs=-llmdb
	# shellcheck disable=SC2086
	$cc -O2 -Wall -Wextra -D_FILE_OFFSET_BITS=64 -pthread \
		-I"$work/selftest" -o "$work/root/bin/$(basename "$c" .c)" \
		"$c" "$work/selftest/msync_util.c" $libs ||
		die "building ${c#"$TOP"/} ($arch) failed"
done
cp "$BUSYBOX" "$work/root/bin/busybox"
cp "$TOP/guest/init" "$work/root/init"
chmod 755 "$work/root/init"
for s in "$TOP"/guest/run-*.sh; do
	[ -e "$s" ] && cp "$s" "$work/root/lib/msync/"
done
(cd "$work/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
	gzip -n >"$out.tmp"
mv "$out.tmp" "$out"
