#!/usr/bin/env bash
# ltp-build.sh: the Linux Test Project at the commit suites.hash pins, with
# our test (tests/ltp/*.patch, git format-patch files against it), built
# static on the host: its library and the directories of the tests
# tests/ltp/list names, installed under build/suites/ltp-install/opt/ltp
# (the guest's /opt/ltp).  Not built again from the same inputs.  Prints
# the install directory.
set -euo pipefail
shopt -s nullglob
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

tarball=$("$TOP/scripts/fetch-suite.sh" ltp)
src=$SUITES_DIR/ltp
inst=$SUITES_DIR/ltp-install
list=$TOP/tests/ltp/list
patches=("$TOP"/tests/ltp/*.patch)
key=$(tree_key "$TOP/suites.hash" "${patches[@]}" "$list" "$0")
if [ "$(cat "$inst/.built" 2>/dev/null)" = "$key" ]; then
	echo "$inst"
	exit 0
fi
need autoreconf autoconf
need aclocal automake
need pkg-config pkg-config
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || die "no static libc: install libc6-dev"
unpack_suite "$tarball" "$LTP_SRC" "$src" "${patches[@]}"
log=$SUITES_DIR/ltp-build.log
: >"$log"
echo "  configuring LTP (static)" >&2
(cd "$src" && make autotools && ./configure LDFLAGS=-static) >>"$log" 2>&1 ||
	{ show_tail "$log" 30; die "configuring LTP failed (log: $log)"; }
# The directories of the listed tests: the third field of the list.
dirs=$(grep -v '^#' "$list" | awk 'NF { print $3 }' | sort -u)
echo "  building LTP's library and $(wc -w <<<"$dirs") test directories" >&2
make -C "$src/lib" -j"$(jobs_n)" >>"$log" 2>&1 ||
	{ show_tail "$log" 30; die "building LTP's library failed (log: $log)"; }
rm -rf "$inst"
for d in $dirs; do
	[ -d "$src/$d" ] || die "tests/ltp/list: no directory $d in LTP"
	make -C "$src/$d" -j"$(jobs_n)" >>"$log" 2>&1 &&
	make -C "$src/$d" install DESTDIR="$inst" >>"$log" 2>&1 ||
		{ show_tail "$log" 30; die "building LTP's $d failed (log: $log)"; }
done
# Every listed program is there, and static (they run in the busybox
# initramfs as well as in the Debian guest).
for t in $(grep -v '^#' "$list" | awk 'NF { print $2 }' | sort -u); do
	bin=$inst/opt/ltp/testcases/bin/$t
	[ -x "$bin" ] || die "LTP built, but $t is missing (log: $log)"
	file -L "$bin" | grep -Eq 'statically linked|static-pie' ||
		die "$bin is not a static program"
done
echo "$key" >"$inst/.built"
echo "$inst"
