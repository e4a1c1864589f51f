#!/usr/bin/env bash
# Export the series (base..series of build/linux) as git format-patch files
# with the cover letter from series/cover-letter.txt.  OUT (default
# patches/) is replaced.  The same commits always give the same bytes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${OUT:-$TOP/patches}
COVER=$TOP/series/cover-letter.txt

[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"
[ -f "$COVER" ] || die "$COVER is missing"
cd "$TREE"
[ -z "$(git status --porcelain -uno)" ] ||
	die "$TREE has uncommitted changes: commit them first"
n=$(git rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of base in $TREE"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -c core.abbrev=12 format-patch -q -o "$tmp" --cover-letter \
	--subject-prefix="PATCH v7" --zero-commit --no-signature \
	--no-renames base..HEAD

# Fixed dates, and the cover letter's subject and blurb from the repo,
# its figures from bench/results/.
sed -i "s/^Date: .*/Date: $(LC_ALL=C date -R -d "$PROJECT_DATE")/" "$tmp"/*.patch
cover_fill "$COVER" "$tmp/0000-cover-letter.patch"

mkdir -p "$OUT"
rm -f "$OUT"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$OUT"/
echo "exported $n patches and a cover letter to $OUT"
