# The 6.12 kernels of make check-6.12 and how they are built, for
# tests/run-6.12.sh and tests/prebuild-6.12.sh.  Sourced after
# tests/lib.sh.
# shellcheck shell=bash

tree612=$BUILD_DIR/linux-6.12

# build612 NAME REV: one 6.12 kernel (scripts/build-6.12.sh: not built
# again from the same sources), with its build time.
build612() {
	local log=$TESTS_LOG/build-$1.log said
	if said=$("$TOP/scripts/build-6.12.sh" "$1" "$2" "$log"); then
		pass "$1 kernel builds (config/linux-6.12.config)"
		echo "       $1: $said"
		return 0
	fi
	fail "$1 kernel builds" "$(tail -n 12 "$log")"
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
