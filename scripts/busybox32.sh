#!/usr/bin/env bash
# busybox32.sh: print the path of a static i386 busybox for the i386
# guest, unpacked from Debian's busybox-static:i386 package.  The .deb is
# kept in DL_DIR and checked against the SHA256 apt lists for it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=busybox-static:i386
dest=$BUILD_DIR/busybox-i386
bin=$dest/bin/busybox
if [ -x "$bin" ] && file -L "$bin" | grep 'ELF 32-bit.*static' >/dev/null; then
	echo "$bin"
	exit 0
fi
dpkg --print-foreign-architectures | grep -x i386 >/dev/null ||
	die "dpkg does not know i386: run 'make deps' as root (dpkg --add-architecture i386 && apt-get update)"
ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
	awk '/^Version:/ { print $2; exit }')
sum=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
	awk '/^SHA256:/ { print $2; exit }')
[ -n "$ver" ] && [ -n "$sum" ] ||
	die "apt knows no $pkg: run 'apt-get update' (as root) after 'dpkg --add-architecture i386'"
# The download cache, or build/ where the cache is not writable.
cache=$DL_DIR
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=$BUILD_DIR
deb=$cache/busybox-static_${ver#*:}_i386.deb
if ! [ -f "$deb" ] || [ "$(sha256sum <"$deb" | cut -d' ' -f1)" != "$sum" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "$pkg=$ver") >&2 ||
		die "apt-get download $pkg=$ver failed"
	got=$(echo "$tmp"/*.deb)
	[ "$(sha256sum <"$got" | cut -d' ' -f1)" = "$sum" ] ||
		die "$got: sha256 differs from apt's $sum"
	mv "$got" "$deb"
fi
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest"
dpkg-deb -x "$deb" "$dest.tmp" || die "unpacking $deb failed"
mv "$dest.tmp/bin" "$dest/bin"
rm -rf "$dest.tmp"
file -L "$bin" | grep 'ELF 32-bit.*static' >/dev/null ||
	die "$deb holds no static i386 busybox at /bin/busybox"
echo "$bin"
