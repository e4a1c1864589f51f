# The msync selftest on the kernels, one boot each with every scratch disk
# (ext4, ext3, ext2, raw), judged case by case.  Sourced by tests/run.sh.
# shellcheck shell=bash

SELFTEST_CASES=16
# Cases that test what the series changes (they must fail on v3.5) and
# cases whose behaviour it keeps (they must pass on v3.5 too).  Case 10
# (nothing holds the file after MS_ASYNC, munmap and close) passes on v3.5,
# where MS_ASYNC does nothing.
CHANGED="1 2 3 5 6 9 11 12 13 14 15 16"
KEPT="4 7 8 10"
# Case 12 needs the raw disk that fails a write; it skips on the others.
RAW_ONLY="12"
# Case 14 (fdatasync, not fsync, semantics) has no timestamps or block
# allocations to tell them apart on a raw device: it passes there on
# every kernel.
RAW_SAME="14"

# tap_of LOG FS: the selftest's TAP output for one file system.
tap_of() {
	[ -f "$1" ] || return 0
	tr -d '\r' <"$1" | awk -v fs="$2" '
		$0 == "msync-guest: run selftest " fs { on = 1; next }
		on && /^msync-guest: result selftest / { print; on = 0 }
		on && /^(TAP version|ok |not ok |1\.\.|#|Bail out!)/ { print }'
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
	if VERDICT=--sane TIMEOUT=${SELFTEST_TIMEOUT:-600} FSLIST="$JUDGE_FS" \
		scripts/guest.sh "$1" selftest >"$log" 2>&1; then
		pass "$1 kernel runs the selftest to the end, no kernel error"
	else
		fail "$1 kernel runs the selftest to the end, no kernel error" \
			"$(tail -n 15 "$log")"
	fi
}

# SKIP_ON: "FS:CASE ..." pairs that skip on that disk whatever the kernel
# (case 15 wants two files of one device; tests/i386.sh adds case 16,
# which wants a 64-bit kernel).
SKIP_ON="raw:15"

# JUDGE_FS: the disks a kernel is booted with and judged on (a planted
# kernel only on those where its fault shows, to keep make check short).
JUDGE_FS="ext4 ext3 ext2 raw"

# ANY_ON: "FS:CASE ..." pairs whose outcome on that disk is not judged
# (set for one judge call: a planted fault that timing may hide there).
ANY_ON=""

# expect_cases TAP WANT CASES: the cases (those of RAW_ONLY skip on a file
# system) have the outcome WANT (ok or not-ok); prints what is wrong.
expect_cases() {
	local tap=$1 want=$2 fs=$4 c r w
	for c in $3; do
		w=$want
		[ "$fs" != raw ] && [[ " $RAW_ONLY " == *" $c "* ]] && w=skip
		[ "$fs" = raw ] && [[ " $RAW_SAME " == *" $c "* ]] && w=ok
		[[ " $SKIP_ON " == *" $fs:$c "* ]] && w=skip
		[[ " $ANY_ON " == *" $fs:$c "* ]] && continue
		r=$(case_result "$tap" "$c")
		[ "$r" = "$w" ] || printf ' case %s %s (want %s);' "$c" "$r" "$w"
	done
}

# judge KERNEL TITLE EXIT OK-CASES NOT-OK-CASES: one check per disk; every
# case must have the expected outcome (a skip is never a pass), the TAP
# header and plan must be there and the test must exit with EXIT (any, if
# empty).  Every case's outcome is printed, pass or fail.
judge() {
	local kernel=$1 title=$2 want_exit=$3 fs tap bad table
	boot_selftest "$kernel"
	for fs in $JUDGE_FS; do
		tap=$(tap_of "$OUT_DIR/$kernel-selftest.log" "$fs")
		bad=""
		grep -qx "TAP version 13" <<<"$tap" || bad="no TAP version 13 line;"
		grep -qx "1\.\.$SELFTEST_CASES" <<<"$tap" ||
			bad="$bad no plan 1..$SELFTEST_CASES;"
		bad="$bad$(expect_cases "$tap" ok "$4" "$fs")"
		bad="$bad$(expect_cases "$tap" not-ok "$5" "$fs")"
		if [ -n "$want_exit" ] && ! grep -q "exit=$want_exit\$" <<<"$tap"; then
			bad="$bad $(echo "$tap" | tail -n 1) (want exit=$want_exit);"
		fi
		table=$(for c in $(seq 1 $SELFTEST_CASES); do
			printf '%s:%s ' "$c" "$(case_result "$tap" "$c")"; done)
		if [ -z "$bad" ]; then
			pass "$kernel, $fs: $title"
		else
			fail "$kernel, $fs: $title" "$bad" \
				"$(echo "$tap" | grep -E '^not ok|# FAIL|Bail out!' | head -n 5)"
		fi
		echo "       $kernel, $fs: $table"
	done
}

selftest_patched() {
	judge patched "all $SELFTEST_CASES cases ok (on file systems, $RAW_ONLY skips)" 0 \
		"$(seq 1 $SELFTEST_CASES)" ""
}

# On v3.5 the cases that test the change must fail, or they test nothing.
selftest_unpatched() {
	# Every case is judged on v3.5, one way or the other.
	if [ "$(echo $CHANGED $KEPT | tr ' ' '\n' | sort -n | paste -sd ' ')" != \
	     "$(seq 1 $SELFTEST_CASES | paste -sd ' ')" ]; then
		fail "CHANGED and KEPT list every case 1-$SELFTEST_CASES once" \
			"CHANGED=$CHANGED KEPT=$KEPT"
	fi
	judge unpatched "cases ${CHANGED// /,} fail, ${KEPT// /,} pass" 1 "$KEPT" "$CHANGED"
}

# variant NAME: build the test-only kernel tests/variants/NAME.patch, from
# a copy of the patched kernel's objects (it differs in a few files).
build_variant() {
	local log=$TESTS_LOG/variant-$1.log
	if scripts/variant.sh "$1" >"$log" 2>&1 &&
	   scripts/build.sh "$1" "variant-$1" patched >>"$log" 2>&1; then
		pass "test-only kernel '$1' builds (tests/variants/$1.patch)"
		return 0
	fi
	fail "test-only kernel '$1' builds (tests/variants/$1.patch)" \
		"$(tail -n 8 "$log")"
	return 1
}

# Deliberately broken kernels: each claim of patch 2 has a case that
# catches the kernel that breaks it.
#   pin:    v3's MS_ASYNC worker, which holds the file (get_file) until its
#           writeback is done: case 10 must fail.
#   caller: MS_ASYNC writes in the caller, sleeping in the request queue of
#           a congested device: case 3 must fail.
#   fsync:  MS_SYNC syncs the range with fsync semantics (datasync 0), so
#           the write fault's timestamp update is written: case 14 must
#           fail on ext4, ext3 and ext2.
#   whole:  the pass MS_ASYNC asks for writes each inode whole, in one
#           go (tagged, no chunks): case 15 must fail on the file systems.
#   noretry: the flusher does not come back for an inode that MS_ASYNC
#           asked for while it was being written, nor for a page stored
#           to while under writeback: case 13 must fail on ext4 (the
#           store waits in ->page_mkwrite, then the inode is put back
#           unexpired) and ext2 (no ->page_mkwrite: the page is skipped).
#           (Seen failing on ext3 too; on raw the flusher's pass may
#           still be running over the device's pages and write it.)
# Each planted kernel boots only with the disks its fault shows on.
# pin comes last: it changes a header, which the others would recompile
# after it (each variant is built in the patched kernel's worktree).
selftest_variants() {
	if build_variant caller; then
		JUDGE_FS="ext4" judge caller "case 3 (MS_ASYNC does not wait) fails" \
			"" "" "3"
	fi
	if build_variant fsync; then
		JUDGE_FS="ext4 ext2" judge fsync \
			"case 14 (fdatasync semantics) fails" "" "" "14"
	fi
	if build_variant noretry; then
		JUDGE_FS="ext4 ext2" judge noretry \
			"case 13 (a page redirtied under writeback) fails" "" "" "13"
	fi
	if build_variant whole; then
		JUDGE_FS="ext2" judge whole \
			"case 15 (small file not held behind a big one) fails" \
			"" "" "15"
	fi
	if build_variant pin; then
		JUDGE_FS="ext4 raw" judge pin \
			"case 10 (nothing holds the file) fails" "" "" "10"
	fi
}
