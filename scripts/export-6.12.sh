#!/usr/bin/env bash
# export-6.12.sh: write the 6.12 series (base..series of build/linux-6.12)
# back into patches-6.12/ as git format-patch files, with the cover letter
# from series-6.12/cover-letter.txt (its figures filled in by
# bench/results.sh, as scripts/export.sh does for patches/).  The patches
# keep their author dates; the cover letter takes the last one's.  The
# same commits always give the same bytes.  patches-6.12/man-pages/ is
# left alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$BUILD_DIR/linux-6.12
OUT=${OUT:-$TOP/patches-6.12}
COVER=$TOP/series-6.12/cover-letter.txt
prefix="PATCH v3"

[ -d "$tree/.git" ] || die "no tree at $tree: run scripts/tree-6.12.sh first"
[ -f "$COVER" ] || die "$COVER is missing"
cd "$tree"
[ -z "$(git status --porcelain -uno)" ] ||
	die "$tree has uncommitted changes: commit them first"
n=$(git rev-list --count base..series)
[ "$n" -gt 0 ] || die "no commits on top of base in $tree"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -c core.abbrev=7 format-patch -q -o "$tmp" --cover-letter --subject-prefix="$prefix" \
	--zero-commit --no-signature --no-renames base..series

last=$(grep -h -m1 '^Date: ' "$(ls "$tmp"/[0-9]*.patch | tail -n 1)")
sed -i "s/^Date: .*/$last/" "$tmp/0000-cover-letter.patch"
cover_fill "$COVER" "$tmp/0000-cover-letter.patch"

mkdir -p "$OUT"
rm -f "$OUT"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$OUT"/
# tree-6.12.sh: the tree holds what patches-6.12/ now says
find "$OUT" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
	! -name '0000-cover-letter.patch' | sort | xargs cat /dev/null |
	sha256sum | cut -d' ' -f1 >"$tree/.git/msync-state"
echo "exported $n patches and a cover letter to $OUT"
