#!/usr/bin/env bash
# Make build/linux: a git tree of pristine v3.5 (tag v3.5), the build fixes
# from fixes/ (tag base), then the series from patches/ (branch series).
# Idempotent: does nothing when fixes/ and patches/ are what the tree holds.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

FIXES_DIR=${FIXES_DIR:-$TOP/fixes}
PATCHES_DIR=${PATCHES_DIR:-$TOP/patches}
STATE=$TREE/.git/msync-state

series_patches() {
	find "$PATCHES_DIR" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-cover-letter.patch' | sort
}

fix_patches() {
	find "$FIXES_DIR" -maxdepth 1 -name '*.patch' | sort
}

sum_of() {
	# shellcheck disable=SC2046
	cat /dev/null $("$@") | sha256sum | cut -d' ' -f1
}

state() {
	sed -n "s/^$1=//p" "$STATE" 2>/dev/null
}

save_state() {
	printf 'fixes=%s\npatches=%s\nhead=%s\n' "$(sum_of fix_patches)" \
		"$(sum_of series_patches)" "$(git -C "$TREE" rev-parse HEAD)" >"$STATE"
}

# am_all LISTER UNDO: apply the patches LISTER lists one by one; if one
# fails, put branch series back to UNDO (where the tree was before this
# run) and name the patch.
am_all() {
	local p
	for p in $("$1"); do
		if ! git am -q --whitespace=nowarn "$p" >"$TREE/.git/am.log" 2>&1; then
			cat "$TREE/.git/am.log" >&2
			git am --abort >/dev/null 2>&1 || true
			git checkout -q -B series "$2"
			git reset -q --hard "$2"
			die "patch does not apply: $p (the tree is as it was before)"
		fi
	done
}

extract() {
	local tarball
	tarball=$("$TOP/scripts/fetch.sh")
	git_tree_from "$tarball" "linux-$KVER" "$TREE" "Linux $KVER" "v$KVER"
}

# The series as the tree holds it, exported, equals patches/?
tree_matches_patches() {
	local tmp rc=0
	tmp=$(mktemp -d)
	OUT=$tmp "$TOP/scripts/export.sh" >/dev/null 2>&1 || rc=1
	if [ $rc = 0 ]; then
		diff -r -q "$tmp" "$PATCHES_DIR" >/dev/null 2>&1 || rc=1
	fi
	rm -rf "$tmp"
	return $rc
}

if ! [ -e "$TREE" ]; then
	extract
elif ! git -C "$TREE" rev-parse -q --verify "v$KVER" >/dev/null 2>&1; then
	die "$TREE is not a tree this harness made (no tag v$KVER); move it away or run 'make distclean'"
fi
cd "$TREE"
head=$(git rev-parse HEAD)

# rebuild FROM: make branch series anew from FROM, either v3.5 (the build
# fixes, tagged base, then the series) or base (the series alone).  A
# patch that does not apply puts the branch back to $head.
rebuild() {
	git checkout -q -B series "$1"
	git reset -q --hard "$1"
	if [ "$1" = "v$KVER" ]; then
		am_all fix_patches "$head"
		git tag -f base >/dev/null
	fi
	am_all series_patches "$head"
}

# No state: a new tree, or 'make tree-reset'.  Build it all from v3.5.
if ! [ -f "$STATE" ]; then
	echo "applying the build fixes and the series"
	rebuild "v$KVER"
	save_state
	exit 0
fi

branch=$(git symbolic-ref -q --short HEAD || echo "a detached HEAD")
[ "$branch" = series ] ||
	die "$TREE is on $branch, not on branch series: check out series"

# The tree moved (commits or edits made in it): keep it if patches/ is
# its export, else it holds work that patches/ does not have, which is
# never overwritten.
dirty=$(git status --porcelain -uno)
if [ "$(state head)" != "$head" ] || [ -n "$dirty" ]; then
	if [ -z "$dirty" ] &&
	   [ "$(state fixes)" = "$(sum_of fix_patches)" ] && tree_matches_patches; then
		save_state
		exit 0
	fi
	die "$TREE has changes that are not in patches/: run 'make export' to keep them, or 'make tree-reset' to drop them"
fi

if [ "$(state fixes)" != "$(sum_of fix_patches)" ]; then
	echo "fixes/ changed: applying the build fixes and the series again"
	rebuild "v$KVER"
elif [ "$(state patches)" != "$(sum_of series_patches)" ]; then
	echo "patches/ changed: applying the series again"
	rebuild base
fi
save_state
