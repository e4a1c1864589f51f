#!/usr/bin/env bash
# variant.sh NAME: branch variant-NAME of build/linux, the series with the
# test-only change tests/variants/NAME.patch on top (a kernel built to show
# that a test fails where it must).  Never part of patches/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1
patch=$TOP/tests/variants/$name.patch
[ -f "$patch" ] || die "no variant $name: $patch is missing"
cd "$TREE"
series=$(git rev-parse series)
# Up to date: the branch is one commit on series, made from this patch.
if [ "$(git rev-parse -q --verify "variant-$name~1" 2>/dev/null)" = "$series" ] &&
   [ "$(git log -1 --format=%b "variant-$name")" = "$(sha256sum <"$patch" | cut -c1-16)" ]; then
	exit 0
fi
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp" >/dev/null 2>&1 || rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp" "$series"
git -C "$tmp" apply --whitespace=nowarn "$patch" ||
	die "variant $name: $patch does not apply to the series; regenerate it"
git -C "$tmp" commit -q -a -m "test variant $name" \
	-m "$(sha256sum <"$patch" | cut -c1-16)"
git branch -f "variant-$name" "$(git -C "$tmp" rev-parse HEAD)"
