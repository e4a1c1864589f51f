#!/usr/bin/env bash
# build-6.12.sh NAME REV LOG: build Debian's Linux 6.12 at REV of
# build/linux-6.12 (base, series, variant-*) with config/linux-6.12.config
# as kernel NAME; the build's output goes to LOG.  Prints "built in N s",
# or "built before from the same sources" when build/o-NAME holds a
# kernel of the same source tree and configuration (its built-from line):
# such a kernel is not built again.  All 6.12 kernels are built in one
# object directory, build/o-6.12: in a new one, even a copy of another
# kernel's, make rebuilds objtool and with it every object, while here
# the port (which changes include/linux/fs.h) rebuilds about half of
# them.  build/o-NAME keeps only the bzImage and .config.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1 rev=$2 log=$3
tree=$BUILD_DIR/linux-6.12 frag=$TOP/config/linux-6.12.config
keep=$BUILD_DIR/o-$name work=$BUILD_DIR/o-6.12 t0=$SECONDS
# The kernel of REV is that of its last commit that changes more than the
# selftests: a selftest patch on top of the port builds no new kernel.
krev=$(git -C "$tree" log -1 --format=%H "$rev" -- . ':(exclude)tools/testing/selftests')
[ -n "$krev" ] || die "$rev: no such revision in $tree"
stamp="$(git -C "$tree" rev-parse "$krev^{tree}") $(sha256sum <"$frag" | cut -c1-64)"
if [ "$(cat "$keep/built-from" 2>/dev/null)" = "$stamp" ] &&
   [ -f "$keep/arch/x86/boot/bzImage" ]; then
	echo "built before from the same sources"
	exit 0
fi
mkdir -p "$(dirname "$log")"
TREE=$tree CONFIG_FRAGMENT=$frag "$TOP/scripts/build.sh" 6.12 "$krev" >"$log" 2>&1
rm -rf "$keep"
mkdir -p "$keep/arch/x86/boot"
cp "$work/.config" "$keep/"
cp "$work/arch/x86/boot/bzImage" "$keep/arch/x86/boot/"
echo "$stamp" >"$keep/built-from"
echo "built in $((SECONDS - t0)) s"
