#!/usr/bin/env bash
# Find the kernel tarball in DL_DIR or download it, and verify it against
# linux.hash.  Prints the path of the verified tarball.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$DL_DIR"
dest=$DL_DIR/$KTAR
if [ -e "$dest" ]; then
	verify "$dest" "$KTAR" || die "refusing $dest; remove it to download again"
	echo "$dest"
	exit 0
fi

need curl curl
tmp=$(mktemp "$DL_DIR/.$KTAR.XXXXXX")
trap 'rm -f "$tmp"' EXIT
echo "downloading $KERNEL_URL" >&2
curl -fsSL --retry 2 -o "$tmp" "$KERNEL_URL" ||
	die "download of $KERNEL_URL failed (set DL_DIR to a directory holding $KTAR)"
verify "$tmp" "$KTAR" || die "downloaded file from $KERNEL_URL refused"
mv "$tmp" "$dest"
trap - EXIT
echo "$dest"
