#!/usr/bin/env bash
# rootfs.sh: the base of the fstests/LTP guest's root file system, Debian
# bookworm (debootstrap --variant=minbase) with guest/fstests/packages,
# as a tarball under build/rootfs, made once per package list (its name
# carries the list's hash).  Prints the tarball's path.
# Settings: ROOTFS_MIRROR (Debian mirror, default: apt's own),
# ROOTFS_SUITE (bookworm).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list=$TOP/guest/fstests/packages
suite=${ROOTFS_SUITE:-bookworm}
# apt's mirror, as the host's sources name it
mirror=${ROOTFS_MIRROR:-$( { grep -shoE '^(URIs:|deb) +https?://[^ ]+' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources || true; } |
	awk '$2 !~ /security/ && m == "" { m = $2 } END { print m }')}
mirror=${mirror:-http://deb.debian.org/debian}
pkgs=$(grep -v '^#' "$list" | grep . | paste -sd, -)
key=$(printf '%s\n' "$suite" "$pkgs" | sha256sum | cut -c1-12)
dir=$BUILD_DIR/rootfs
out=$dir/base-$suite-$key.tar
if [ -s "$out" ]; then
	echo "$out"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "debootstrap needs root (the base rootfs $out is missing)"
need debootstrap debootstrap
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.base.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$dir/base-$suite-$key.log
echo "debootstrap $suite from $mirror (log: $log)" >&2
debootstrap --variant=minbase --include="$pkgs" "$suite" "$tmp/root" "$mirror" \
	>"$log" 2>&1 || { show_tail "$log" 30; die "debootstrap failed"; }
# What the image does not need: apt's caches and lists, the docs.
rm -rf "$tmp/root"/var/cache/apt/archives/*.deb "$tmp/root"/var/lib/apt/lists/* \
	"$tmp/root"/usr/share/doc/* "$tmp/root"/usr/share/man/* "$tmp/root"/usr/share/locale/*
tar -C "$tmp/root" --numeric-owner -cf "$out.tmp" . ||
	die "packing the base rootfs failed"
mv "$out.tmp" "$out"
echo "$out"
