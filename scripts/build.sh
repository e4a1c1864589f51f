#!/usr/bin/env bash
# build.sh NAME REV: build the kernel at REV of build/linux in its own
# source worktree build/src-NAME and object directory build/o-NAME,
# incrementally.  The log is out/build-NAME.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1 rev=$2
src=$BUILD_DIR/src-$name
obj=$BUILD_DIR/o-$name
log=$OUT_DIR/build-$name.log
mkdir -p "$OUT_DIR"

want=$(git -C "$TREE" rev-parse "$rev^{commit}") || die "no revision $rev in $TREE"
if ! [ -e "$src/.git" ] || ! git -C "$src" rev-parse -q HEAD >/dev/null 2>&1; then
	rm -rf "$src"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$src" "$want" >/dev/null
elif [ "$(git -C "$src" rev-parse HEAD)" != "$want" ]; then
	# Only the files that differ are rewritten, so make stays incremental.
	git -C "$src" checkout -q --detach "$want"
fi

"$TOP/scripts/config.sh" "$src" "$obj"
# No kernel from an earlier build may pass for this one if make fails.
rm -f "$obj/arch/x86/boot/bzImage"
if ! make -C "$src" O="$obj" -j"$(jobs_n)" bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2 || true
	show_tail "$log"
	die "building $name ($(git -C "$src" log -1 --format='%h %s')) failed; full log: $log"
fi
[ -f "$obj/arch/x86/boot/bzImage" ] || die "$name: no bzImage after make"
