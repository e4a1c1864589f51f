# The 6.12 kernels of make check-6.12 and how they are built, for
# tests/run-6.12.sh and tests/prebuild-6.12.sh.  Sourced after
# tests/lib.sh.
# shellcheck shell=bash

tree612=$BUILD_DIR/linux-6.12
frag612=$TOP/config/linux-6.12.config

# build612 NAME REV: one 6.12 kernel, with its build time.  All 6.12
# kernels are built in one object directory, build/o-6.12: in a new one,
# even a copy of another kernel's, make rebuilds objtool and with it every
# object, while here the port (which changes include/linux/fs.h) rebuilds
# about half of them.  Each kernel's bzImage and .config are kept in
# build/o-NAME, with the source tree and configuration they were built
# from (built-from): a kernel whose sources have not changed is not
# built again.
build612() {
	local name=$1 rev=$2 t0=$SECONDS log=$TESTS_LOG/build-$1.log
	local keep=$BUILD_DIR/o-$1 work=$BUILD_DIR/o-6.12 stamp
	stamp="$(git -C "$tree612" rev-parse "$rev^{tree}") $(sha256sum <"$frag612" | cut -c1-64)"
	if [ "$(cat "$keep/built-from" 2>/dev/null)" = "$stamp" ] &&
	   [ -f "$keep/arch/x86/boot/bzImage" ]; then
		pass "$name kernel builds (config/linux-6.12.config)"
		echo "       $name: built before from the same sources"
		return 0
	fi
	if TREE=$tree612 CONFIG_FRAGMENT=$frag612 scripts/build.sh 6.12 "$rev" \
		>"$log" 2>&1; then
		rm -rf "$keep"
		mkdir -p "$keep/arch/x86/boot"
		cp "$work/.config" "$keep/"
		cp "$work/arch/x86/boot/bzImage" "$keep/arch/x86/boot/"
		echo "$stamp" >"$keep/built-from"
		pass "$name kernel builds (config/linux-6.12.config)"
		echo "       $name: built in $((SECONDS - t0)) s"
		return 0
	fi
	fail "$name kernel builds" "$(tail -n 12 "$log")"
	return 1
}

# planted612: the planted 6.12 kernel, the port with
# tests/variants-6.12/planted.patch on top (branch variant-planted), whose
# faults a boot plants with msync_plant=NAME (kernel 6.12-NAME: see
# scripts/lib.sh).
planted612() {
	local patch=$TOP/tests/variants-6.12/planted.patch
	if ! (
		cd "$tree612" &&
		git checkout -q -B variant-planted series &&
		git apply --whitespace=nowarn "$patch" &&
		git commit -q -a -m "test variant planted" &&
		git checkout -q series
	) >"$TESTS_LOG/variant-6.12-planted.log" 2>&1; then
		fail "tests/variants-6.12/planted.patch applies to the port" \
			"$(tail -n 8 "$TESTS_LOG/variant-6.12-planted.log")"
		return 1
	fi
	build612 6.12-planted variant-planted || return 1
	echo "       6.12-planted: tests/variants-6.12/planted.patch: $(plants 6.12)"
}
