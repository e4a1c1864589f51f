#!/usr/bin/env bash
# Find the kernel tarball in DL_DIR or download it, and verify it against
# linux.hash.  Prints the path of the verified tarball.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HASH_FILE=${HASH_FILE:-$TOP/linux.hash}

# pinned FILE: the sha256 values linux.hash lists for a file name.
pinned() {
	awk -v f="$1" '$1 == "sha256" && $3 == f { print $2 }' "$HASH_FILE"
}

# verify PATH NAME: succeed if the file's sha256 is pinned for NAME.
verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	if [ -z "$(pinned "$2")" ]; then
		echo "error: $1: no sha256 is pinned for $2 in $HASH_FILE" >&2
		echo "  its sha256 is $sum" >&2
		echo "  check it against kernel.org's signed sha256sums.asc, then add:" >&2
		echo "  sha256  $sum  $2" >&2
		return 1
	fi
	if ! grep -qx "$sum" <<<"$(pinned "$2")"; then
		echo "error: $1: sha256 mismatch (truncated, corrupt or not $2)" >&2
		echo "  got      $sum" >&2
		echo "  expected $(pinned "$2" | paste -sd' ')" >&2
		return 1
	fi
}

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
