#!/usr/bin/env bash
# build.sh NAME REV [FROM]: build the kernel at REV of build/linux in its
# object directory build/o-NAME, incrementally.  Every kernel of a tree is
# built from one worktree of it (build/src-linux), checked out at REV:
# git rewrites only the files that differ from the last checkout, so the
# objects of any kernel built before are recompiled only where they
# depend on those.  With FROM, a kernel that differs from FROM's in a few
# files (a test-only variant) starts from a fresh copy of build/o-FROM;
# with SEED=NAME2 in the environment, a kernel that has no object
# directory yet starts from a copy of build/o-NAME2 (a series prefix from
# the unpatched kernel).  GUEST_ARCH (x86_64 or i386: the kernel's ARCH)
# and CONFIG_FRAGMENT go to config.sh.  The log is out/build-NAME.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1 rev=$2 from=${3:-}
src=$BUILD_DIR/src-$(basename "$TREE")
obj=$BUILD_DIR/o-$name
log=$OUT_DIR/build-$name.log
arch=${GUEST_ARCH:-x86_64}
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
if [ -n "$from" ]; then
	[ -f "$BUILD_DIR/o-$from/.config" ] ||
		die "$name: build $from first (no $BUILD_DIR/o-$from/.config)"
	# A fresh copy each time: the variant's object directory must match
	# FROM's configuration and every file the variant does not change.
	rm -rf "$obj"
	cp -a "$BUILD_DIR/o-$from" "$obj"
elif [ -n "${SEED:-}" ] && ! [ -d "$obj" ]; then
	[ -f "$BUILD_DIR/o-$SEED/.config" ] ||
		die "$name: build $SEED first (no $BUILD_DIR/o-$SEED/.config)"
	cp -a "$BUILD_DIR/o-$SEED" "$obj"
fi

"$TOP/scripts/config.sh" "$src" "$obj"
# No kernel from an earlier build may pass for this one if make fails.
rm -f "$obj/arch/x86/boot/bzImage"
if ! make -C "$src" O="$obj" ARCH="$arch" -j"$(jobs_n)" bzImage >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2 || true
	show_tail "$log"
	die "building $name ($arch, $(git -C "$src" log -1 --format='%h %s')) failed; full log: $log"
fi
[ -f "$obj/arch/x86/boot/bzImage" ] || die "$name: no bzImage after make"
