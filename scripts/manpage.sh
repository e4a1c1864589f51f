#!/usr/bin/env bash
# manpage.sh: apply patches-6.12/man-pages/ to msync(2) as Debian's
# manpages-dev ships it (in a git tree under build/man-pages) and render
# the result with man -l to out/msync.2.txt.  A patch that does not apply
# is named.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

page=/usr/share/man/man2/msync.2.gz
dir=$BUILD_DIR/man-pages
[ -f $page ] || die "$page is missing: install manpages-dev"
command -v man >/dev/null || die "man is missing: install man-db"
rm -rf "$dir"
mkdir -p "$dir/man2" "$OUT_DIR"
zcat $page >"$dir/man2/msync.2"
cd "$dir"
git init -q
git add -A
git commit -q -m "msync.2 of $(dpkg-query -W -f '${Package} ${Version}' manpages-dev)"
for p in "$TOP"/patches-6.12/man-pages/[0-9][0-9][0-9][0-9]-*.patch; do
	git am -q "$p" || die "man-pages patch does not apply to Debian's msync.2: $p"
done
MANWIDTH=80 man -l man2/msync.2 2>/dev/null | col -bx >"$OUT_DIR/msync.2.txt"
echo "$OUT_DIR/msync.2.txt"
