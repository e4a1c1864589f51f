#!/usr/bin/env bash
# rootfs-image.sh: the fstests/LTP guest: build/suites/rootfs.img, an ext4
# image of the Debian root file system (scripts/rootfs.sh) with fstests
# in /var/lib/xfstests (scripts/fstests-build.sh), LTP in /opt/ltp
# (scripts/ltp-build.sh) and guest/fstests/init as /sbin/suite-init; and
# build/suites/boot.cpio.gz, the initramfs that mounts it (busybox,
# guest/fstests/boot).  Made again only when one of these changed.
# Prints the two paths.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

img=$SUITES_DIR/rootfs.img
initrd=$SUITES_DIR/boot.cpio.gz
ROOTFS_SIZE=${ROOTFS_SIZE:-1536M}
BUSYBOX=${BUSYBOX:-/bin/busybox}
base=$("$TOP/scripts/rootfs.sh")
xfstests=$("$TOP/scripts/fstests-build.sh")
ltp=$("$TOP/scripts/ltp-build.sh")
key=$(printf '%s\n' "$(basename "$base")" "$(cat "$xfstests/.built")" \
	"$(cat "$ltp/.built")" "$ROOTFS_SIZE" "$(tree_key "$TOP/guest/fstests/init" \
	"$TOP/guest/fstests/boot" "$0")" | sha256sum | cut -c1-16)
if [ "$(cat "$img.key" 2>/dev/null)" = "$key" ] && [ -s "$initrd" ]; then
	printf '%s\n%s\n' "$img" "$initrd"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "making the root file system image needs root (owners of its files)"
stage=$(mktemp -d "$SUITES_DIR/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/root" "$stage/initrd"
tar -C "$stage/root" --numeric-owner -xf "$base"
mkdir -p "$stage/root/var/lib/xfstests" "$stage/root/opt"
tar -C "$xfstests" --exclude=.git --exclude='*.o' -cf - . |
	tar -C "$stage/root/var/lib/xfstests" -xf -
cp -a "$ltp/opt/ltp" "$stage/root/opt/ltp"
install -m 755 "$TOP/guest/fstests/init" "$stage/root/sbin/suite-init"
rm -f "$img.tmp"
truncate -s "$ROOTFS_SIZE" "$img.tmp"
# shellcheck disable=SC2046
$(mkfs_for ext4) -L suite-root -d "$stage/root" "$img.tmp" >"$SUITES_DIR/mkfs.log" 2>&1 ||
	{ show_tail "$SUITES_DIR/mkfs.log"; die "making $img failed (is ROOTFS_SIZE=$ROOTFS_SIZE enough?)"; }
mv "$img.tmp" "$img"
echo "$key" >"$img.key"

[ -x "$BUSYBOX" ] && file -L "$BUSYBOX" | grep -q static ||
	die "$BUSYBOX is not a static busybox: install busybox-static"
mkdir -p "$stage/initrd"/{bin,dev,proc,sys,newroot}
cp "$BUSYBOX" "$stage/initrd/bin/busybox"
install -m 755 "$TOP/guest/fstests/boot" "$stage/initrd/init"
(cd "$stage/initrd" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) |
	gzip -n >"$initrd.tmp"
mv "$initrd.tmp" "$initrd"
printf '%s\n%s\n' "$img" "$initrd"
