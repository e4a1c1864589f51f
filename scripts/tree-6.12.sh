#!/usr/bin/env bash
# tree-6.12.sh: make build/linux-6.12, a git tree of Debian's
# linux-source-6.12 (SRC_612, the tarball the package installs, pinned in
# linux.hash; tag base) with the port from patches-6.12/ on branch series.
# Idempotent: does nothing when patches-6.12/ is what the tree holds.  A
# patch that does not apply is named and the tree is left as it was.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$BUILD_DIR/linux-6.12
patches=${PATCHES_612:-$TOP/patches-6.12}
state=$tree/.git/msync-state

series_patches() {
	find "$patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-cover-letter.patch' | sort
}
sum=$(cat /dev/null $(series_patches) | sha256sum | cut -d' ' -f1)

[ -f "$SRC_612" ] ||
	die "$SRC_612 is missing: install Debian's linux-source-6.12=$DEB_612 (scripts/deps.sh 6.12)"
if ! [ -e "$tree" ]; then
	verify "$SRC_612" "$(basename "$SRC_612")" ||
		die "refusing $SRC_612 (reinstall linux-source-6.12=$DEB_612)"
	git_tree_from "$SRC_612" linux-source-6.12 "$tree" \
		"Debian linux-source-6.12 $DEB_612" base
elif ! git -C "$tree" rev-parse -q --verify base >/dev/null; then
	die "$tree is not a tree this harness made (no tag base); move it away"
fi
[ "$(cat "$state" 2>/dev/null)" = "$sum" ] && exit 0

cd "$tree"
[ -z "$(git status --porcelain -uno)" ] ||
	die "$tree has uncommitted changes; commit them to patches-6.12/ or drop them"
head=$(git rev-parse HEAD)
git checkout -q -B series base
for p in $(series_patches); do
	if ! git am -q --whitespace=nowarn "$p" >.git/am.log 2>&1; then
		cat .git/am.log >&2
		git am --abort >/dev/null 2>&1 || true
		git checkout -q -B series "$head"
		die "patch does not apply to 6.12: $p (the tree is as it was before)"
	fi
done
echo "$sum" >"$state"
