#!/usr/bin/env bash
# fstests-build.sh: fstests (xfstests) at the commit suites.hash pins, with
# our tests (tests/fstests/*.patch, git format-patch files against it),
# built on the host in build/suites/xfstests; the guest runs it from a copy
# of that tree (scripts/rootfs-image.sh).  Not built again from the same
# tarball and patches.  Prints the tree's path.
set -euo pipefail
shopt -s nullglob
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

tarball=$("$TOP/scripts/fetch-suite.sh" fstests)
dest=$SUITES_DIR/xfstests
patches=("$TOP"/tests/fstests/*.patch)
key=$(tree_key "$TOP/suites.hash" "${patches[@]}" "$0")
if [ "$(cat "$dest/.built" 2>/dev/null)" = "$key" ]; then
	echo "$dest"
	exit 0
fi
for h in xfs/xfs.h uuid/uuid.h attr/attributes.h sys/acl.h libaio.h; do
	[ -e "/usr/include/$h" ] ||
		die "/usr/include/$h missing: run scripts/deps.sh fstests (as root)"
done
unpack_suite "$tarball" "$FSTESTS_SRC" "$dest" "${patches[@]}"
log=$SUITES_DIR/xfstests-build.log
make -C "$dest" -j"$(jobs_n)" >"$log" 2>&1 ||
	{ show_tail "$log" 30; die "building fstests failed (log: $log)"; }
[ -x "$dest/ltp/fsx" ] && [ -x "$dest/src/feature" ] ||
	die "fstests built, but ltp/fsx or src/feature is missing (log: $log)"
echo "$key" >"$dest/.built"
echo "$dest"
