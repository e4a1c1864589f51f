# The msync selftest on both kernels, one boot each with every scratch
# disk (ext4, ext3, ext2, raw), judged case by case.  Sourced by
# tests/run.sh.
# shellcheck shell=bash

SELFTEST_CASES=9
# Cases that test what the series changes (they must fail on v3.5) and
# cases whose behaviour it keeps (they must pass on v3.5 too).
CHANGED="1 2 3 5 6 9"
KEPT="4 7 8"

# tap_of LOG FS: the selftest's TAP output for one file system.
tap_of() {
	[ -f "$1" ] || return 0
	tr -d '\r' <"$1" | awk -v fs="$2" '
		$0 == "msync-guest: run selftest " fs { on = 1; next }
		on && /^msync-guest: result selftest / { print; on = 0 }
		on && /^(ok |not ok |1\.\.|#)/ { print }'
}

# case_result TAP N: ok, not-ok, skip or missing.
case_result() {
	local line
	line=$(awk -v n="$2" '($1 == "ok" && $2 == n) ||
		($1 == "not" && $2 == "ok" && $3 == n) { print; exit }' <<<"$1")
	case $line in
	"") echo missing ;;
	*"# SKIP"*) echo skip ;;
	"not ok"*) echo not-ok ;;
	*) echo ok ;;
	esac
}

# boot_selftest NAME: one boot of kernel NAME running the selftest on
# every disk; the guest must run to the end without a kernel error.
boot_selftest() {
	local log=$TESTS_LOG/selftest-$1.out
	if VERDICT=--sane TIMEOUT=${SELFTEST_TIMEOUT:-600} scripts/guest.sh "$1" selftest \
		>"$log" 2>&1; then
		pass "$1 kernel runs the selftest to the end, no kernel error"
	else
		fail "$1 kernel runs the selftest to the end, no kernel error" \
			"$(tail -n 15 "$log")"
	fi
}

# judge KERNEL TITLE EXIT OK-CASES NOT-OK-CASES: one check per disk; every
# case must have the expected outcome (a skip is never a pass), the plan
# must be there and the test must exit with EXIT.
judge() {
	local kernel=$1 title=$2 want_exit=$3 fs tap c r bad
	boot_selftest "$kernel"
	for fs in ext4 ext3 ext2 raw; do
		tap=$(tap_of "$OUT_DIR/$kernel-selftest.log" "$fs")
		bad=""
		grep -qx "1\.\.$SELFTEST_CASES" <<<"$tap" ||
			bad="no plan 1..$SELFTEST_CASES;"
		for c in $4; do
			r=$(case_result "$tap" "$c")
			[ "$r" = ok ] || bad="$bad case $c $r (must pass);"
		done
		for c in $5; do
			r=$(case_result "$tap" "$c")
			[ "$r" = not-ok ] || bad="$bad case $c $r (must fail);"
		done
		grep -q "exit=$want_exit\$" <<<"$tap" ||
			bad="$bad $(echo "$tap" | tail -n 1) (want exit=$want_exit);"
		if [ -z "$bad" ]; then
			pass "$kernel, $fs: $title"
		else
			fail "$kernel, $fs: $title" "$bad" \
				"$(echo "$tap" | grep -E '^not ok|# SKIP' | head -n 5)"
		fi
	done
}

selftest_patched() {
	judge patched "all $SELFTEST_CASES cases ok" 0 "$(seq 1 $SELFTEST_CASES)" ""
}

# On v3.5 the cases that test the change must fail, or they test nothing.
selftest_unpatched() {
	judge unpatched "cases $CHANGED fail, $KEPT pass" 1 "$KEPT" "$CHANGED"
}
