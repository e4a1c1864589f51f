# Our fstests test (generic/788, tests/fstests/*.patch) and our LTP test
# (msync05, tests/ltp/*.patch) on one pair of kernels: the patched one
# must pass both, the unpatched one must fail each in exactly the
# sub-checks the series changes there.  The functions of tests/fstests.sh
# (v3.5) and tests/fstests-6.12.sh (6.12), sourced after tests/lib.sh.
# make fstests and make ltp run the whole lists (docs/fstests.md).
# shellcheck shell=bash

. "$TOP/scripts/fstests-lib.sh"

# ours_setup: the packages, fstests, LTP and the guest's root file system
# (built once, then kept under build/suites and build/rootfs); 0 if ready.
ours_setup() {
	expect_ok "packages for fstests and LTP (scripts/deps.sh fstests)" \
		scripts/deps.sh fstests || return 1
	expect_ok "fstests, LTP (static) and the Debian guest build, with our tests" \
		scripts/rootfs-image.sh
	[ -s "$BUILD_DIR/suites/rootfs.img" ] && [ -s "$BUILD_DIR/suites/boot.cpio.gz" ]
}

# ours_boot KERNEL SUITE: one boot running our test of SUITE (for boot_bg).
ours_boot() {
	local t=generic/788
	[ "$2" = ltp ] && t="msync05 msync05"
	SUITE_TAG=-ours scripts/suite-run.sh "$1" "$2" "$t" \
		>"$TESTS_LOG/ours-$1-$2.out" 2>&1 || true
}

# ours_failed KERNEL SUITE: the sub-checks our test failed, "MS_SYNC",
# "MS_ASYNC", "data" (generic/788's data after the remount), "broken"
# (msync05's TBROK), in that order, or "none"; "no-result" if the guest
# did not run it.
ours_failed() {
	local res=$OUT_DIR/suites/$1-$2-ours bad log got=""
	if [ "$2" = fstests ]; then
		case $(awk '$1 == "generic/788" { print $2 }' "$res/summary" 2>/dev/null) in
		passed) echo none; return ;;
		failed) ;;
		*) echo no-result; return ;;
		esac
		bad=$res/results/fstests/generic/788.out.bad
		[ -f "$bad" ] || { echo no-result; return; }
		grep -A1 -x 'MS_SYNC of chunk 4' "$bad" | tail -n 1 |
			grep -qx 'ddddAddddddddddd' || got="$got MS_SYNC"
		grep -qx 'within 10 seconds: AAAAAAAAAAAAAAAA' "$bad" || got="$got MS_ASYNC"
		[ "$(grep -c -x -e ' 5a\( 5a\)\{15\}' -e ' a5\( a5\)\{15\}' "$bad")" = 2 ] ||
			got="$got data"
	else
		log=$res/results/ltp/msync05.log
		grep -q '^msync05 ' "$res/summary" 2>/dev/null && [ -f "$log" ] ||
			{ echo no-result; return; }
		grep -q 'TFAIL: MS_SYNC:' "$log" && got="$got MS_SYNC"
		grep -q 'TFAIL: MS_ASYNC:' "$log" && got="$got MS_ASYNC"
		grep -q 'TBROK' "$log" && got="$got broken"
		# every file system it ran on, and passes there when nothing failed
		[ -n "$got" ] || grep -q '^msync05 passed' "$res/summary" || got=" broken"
	fi
	got=${got# }
	echo "${got:-none}"
}

# ours_judge KERNEL SUITE WANT TITLE: WANT is what ours_failed must say
# ("none" for a patched kernel); the guest must also have run to the end
# with no kernel error on its console.
ours_judge() {
	local k=$1 suite=$2 want=$3 title=$4 got out=$TESTS_LOG/ours-$1-$2.out
	local summary=$OUT_DIR/suites/$k-$suite-ours/summary
	got=$(ours_failed "$k" "$suite")
	if [ "$got" = "$want" ] && ! grep -q '^error:' "$out" &&
	   grep -qx 'console-errors 0' "$summary"; then
		pass "$title"
	else
		fail "$title" "failed sub-checks: $got (expected: $want)" \
			"$(tail -n 4 "$out")" "console log: $OUT_DIR/$k-$suite-ours.log"
	fi
	[ "$got" = none ] || echo "       $k: $suite: failed $got"
}

# ours_pair UNPATCHED PATCHED UNPATCHED_FAILS: both suites on both
# kernels, two guests at a time; UNPATCHED_FAILS is what the unpatched
# kernel must fail ("MS_SYNC MS_ASYNC" on v3.5, "MS_ASYNC" on 6.12, where
# MS_SYNC syncs the range since 3.16).
ours_pair() {
	local u=$1 p=$2 want=$3
	boot_bg ours_boot "$p" fstests
	boot_bg ours_boot "$u" fstests
	boot_bg ours_boot "$p" ltp
	boot_bg ours_boot "$u" ltp
	wait
	ours_judge "$p" fstests none "$p: our fstests test generic/788 passes (MS_SYNC's range, MS_ASYNC)"
	ours_judge "$u" fstests "$want" "$u: generic/788 fails $want (expected)"
	ours_judge "$p" ltp none "$p: our LTP test msync05 passes on ext2, ext3, ext4"
	ours_judge "$u" ltp "$want" "$u: msync05 fails $want (expected)"
}
