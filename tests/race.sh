# The race test (guest/msync_race.c, guest/run-race.sh) on debug kernels
# (config/debug.config on top of config/msync.config: lockdep, debug
# objects, DEBUG_VM, DEBUG_PAGEALLOC, SLUB_DEBUG_ON, kmemleak, hung task
# and lockup detectors):
#   debug            the series: the stress must run clean on every disk
#   debug-unpatched  v3.5: the same, a control of the harness (no
#                    false report); RACE_CONTROL=1, which make torture
#                    sets (make check leaves out its 3-minute build)
#   debug-mmapsem    the series with the test-only change
#                    tests/variants/mmapsem.patch (MS_SYNC syncs with
#                    mmap_sem held), built from debug's objects: lockdep
#                    must report it in the same stress (on ext4, stopped at
#                    the report)
# and, beside debug's stress, the selftest on the debug kernel (ext2 and
# raw, RACE_SELFTEST_FS; empty: not run), judged on kernel reports.
# RACE_SECONDS (60; make torture: 600) is the stress time per kernel,
# spread over the disks ext4, ext3, ext2, raw and ext4-sat (ext4 on a
# disk throttled to RACE_BPS, 4 MiB/s, kept saturated by a flood thread).
# With the control, the debug and debug-unpatched guests run at the same
# time (RACE_PARALLEL=0: one after the other).  RACE_SEED (default: the date)
# repeats the choices of a run.  With 300 s per kernel or more, kmemleak
# also scans after every disk, not only at the end.  The guests boot with
# acpi=off: kmemleak and SLUB's user tracking take a stack trace per
# allocation, and the ACPI interpreter's allocations at boot then take
# 40 s under TCG (1.7 s in all with acpi=off).  Counts of operations and
# of the kernel's reports are printed per kernel and disk.  Sourced by
# tests/run.sh and tests/torture.sh.
# shellcheck shell=bash

RACE_SECONDS=${RACE_SECONDS:-60}
RACE_SEED=${RACE_SEED:-$(date +%s)}
RACE_BPS=${RACE_BPS:-4194304}
race_frag="$TOP/config/msync.config $TOP/config/debug.config"
race_disks="ext4 ext3 ext2 raw ext4-sat"
race_secs=$((RACE_SECONDS / 5))
[ $race_secs -ge 1 ] || race_secs=1
race_scans=end
[ "$RACE_SECONDS" -ge 300 ] && race_scans=each
race_started=$(date +%s)
# lockdep, BUG/WARN/oops, hung tasks: as scripts/verdict.sh sees them
race_lockdep=$KERNEL_LOCKDEP_RE
race_bug=$KERNEL_BUG_RE
race_hung=$KERNEL_HUNG_RE

# race_build NAME REV [FROM]: build a debug kernel; 0 if it built.
race_build() {
	local t0=$SECONDS log=$TESTS_LOG/race-build-$1.log
	if CONFIG_FRAGMENT="$race_frag" scripts/build.sh "$@" >"$log" 2>&1; then
		pass "debug kernel $1 builds ($2)"
		echo "       $1: built in $((SECONDS - t0)) s, bzImage $(stat -c %s "$BUILD_DIR/o-$1/arch/x86/boot/bzImage") bytes"
		return 0
	fi
	fail "debug kernel $1 builds ($2)" "$(tail -n 8 "$log")"
	return 1
}

# race_counts LOG: the kernel's reports in a console log, one line.
race_counts() {
	local text
	text=$(tr -d '\r' <"$1" 2>/dev/null || true)
	echo "lockdep $(grep -cE "$race_lockdep" <<<"$text" || true)," \
		"BUG/WARN $(grep -cE "$race_bug" <<<"$text" || true)," \
		"hung tasks $(grep -cE "$race_hung" <<<"$text" || true)"
}

# race_boot KERNEL KIND: the stress on every disk (KIND: patched or
# unpatched); the status of guest.sh (verdict.sh: no kernel report, every
# result exit=0) goes to a file, for race_judge.
race_boot() {
	local k=$1 kind=$2 rc=0
	env FSLIST="$race_disks" THROTTLE_ONLY=ext4-sat \
		THROTTLE_BPS="$RACE_BPS" EIO_SECTOR= MEM=512 \
		TIMEOUT=$((RACE_SECONDS + 400)) \
		APPEND="acpi=off msync.arg=$race_secs:$RACE_SEED:$kind:$race_scans" \
		scripts/guest.sh "$k" race >"$TESTS_LOG/race-$k.out" 2>&1 || rc=$?
	echo $rc >"$TESTS_LOG/race-$k.rc"
}

# race_judge KERNEL SECONDS: every disk must have a clean result line,
# and the kernel no report.
race_judge() {
	local k=$1 out=$TESTS_LOG/race-$1.out log=$OUT_DIR/$1-race.log d missing=""
	if [ "$(cat "$TESTS_LOG/race-$k.rc" 2>/dev/null)" = 0 ]; then
		for d in $race_disks kmemleak debug-on; do
			grep -q "^msync-guest: result race $d exit=0$" "$out" ||
				missing="$missing $d"
		done
	else
		missing=" $(tail -n 1 "$out")"
	fi
	if [ -z "$missing" ]; then
		pass "$k: msync race, $RACE_SECONDS s on $race_disks: no problem, no kernel report (seed $RACE_SEED)"
	else
		fail "$k: msync race, $RACE_SECONDS s on $race_disks (seed $RACE_SEED): failed:$missing" \
			"$(grep -E '^(msync-guest: result race .* exit=[^0]|# PROBLEM|not ok|FAIL)|^  ' "$out" | head -n 8)" \
			"console log: $log"
	fi
	echo "       $k: $(race_counts "$log"), $2 s"
	grep -E '^((not )?ok 1 - msync race on |# race [^:]*: files)' "$out" |
		sed "s/^# /       $k: /; s/^ok 1 - msync race on /       $k: /;
		     s/^not ok 1 - msync race on /       $k: NOT OK: /" || true
}

# race_mmapsem: the variant must draw a lockdep report in its run (ext4:
# its fsync takes i_mutex, and write() faults under i_mutex); the run
# stops at the report.
race_mmapsem() {
	local k=debug-mmapsem out=$TESTS_LOG/race-debug-mmapsem.out
	local log=$OUT_DIR/debug-mmapsem-race.log t0=$SECONDS text block
	env FSLIST=ext4 THROTTLE_BPS= EIO_SECTOR= MEM=512 TIMEOUT=240 \
		APPEND="acpi=off msync.arg=30:$RACE_SEED" \
		scripts/guest.sh "$k" race >"$out" 2>&1 || true
	text=$(tr -d '\r' <"$log" 2>/dev/null || true)
	# The report itself (up to its backtrace) must be this inversion:
	# mmap_sem and i_mutex, one chain taken in sys_msync.
	block=$(sed -n '/possible circular locking dependency/,/stack backtrace:/p' <<<"$text")
	if grep -q 'mmap_sem' <<<"$block" && grep -q 'i_mutex' <<<"$block" &&
	   grep -q 'sys_msync' <<<"$block"; then
		pass "$k: MS_SYNC with mmap_sem held draws lockdep's mmap_sem/i_mutex report (seed $RACE_SEED)"
	else
		fail "$k: MS_SYNC with mmap_sem held: no lockdep report of mmap_sem against i_mutex in sys_msync" \
			"first lockdep line: $(grep -m 1 -E "$race_lockdep" <<<"$text" || echo none)" \
			"$(grep -E '^(msync-guest|# [0-9]+ operations)' <<<"$text" | tail -n 4)" \
			"console log: $log"
	fi
	echo "       $k: $(race_counts "$log"), $((SECONDS - t0)) s"
	grep -A1 -E '^ *(-> #[0-9]|\[ INFO: possible)|is trying to acquire|already holding' <<<"$text" |
		grep -v '^--' | sed "s/^ */       $k: /" || true
	grep -m 2 -E 'sys_msync|vfs_fsync_range' <<<"$text" | sed "s/^ */       $k: /" || true
	grep -E '^# [0-9]+ operations' "$out" | sed "s/^# /       $k: /" || true
}

# race_selftest: the selftest on the debug kernel, on RACE_SELFTEST_FS
# (ext2 and the raw disk: the MS_ASYNC passes over files and over a
# block device), beside the stress: its MS_ASYNC and MS_SYNC paths under
# lockdep, list and timer debugging and might_sleep checks.  Judged on
# kernel reports only (verdict.sh): the cases' deadlines are not made for
# a debug kernel under TCG, so their outcomes are printed, not judged.
RACE_SELFTEST_FS=${RACE_SELFTEST_FS-ext2 raw}
race_selftest_boot() {
	local rc=0
	rm -f "$TESTS_LOG/race-selftest.rc"
	VERDICT=--sane FSLIST="$RACE_SELFTEST_FS" TIMEOUT=1800 APPEND=acpi=off \
		scripts/guest.sh debug selftest >"$TESTS_LOG/race-selftest.out" 2>&1 ||
		rc=$?
	echo $rc >"$TESTS_LOG/race-selftest.rc"
}
race_selftest_judge() {
	local fs tap c
	if [ "$(cat "$TESTS_LOG/race-selftest.rc" 2>/dev/null)" = 0 ]; then
		pass "debug: the selftest on $RACE_SELFTEST_FS runs to the end, no kernel report"
	else
		fail "debug: the selftest on $RACE_SELFTEST_FS runs to the end, no kernel report" \
			"$(tail -n 8 "$TESTS_LOG/race-selftest.out")" \
			"console log: $OUT_DIR/debug-selftest.log"
	fi
	for fs in $RACE_SELFTEST_FS; do
		tap=$(tap_of "$OUT_DIR/debug-selftest.log" "$fs")
		echo "       debug, $fs (not judged): $(for c in $CASES; do
			printf '%s:%s ' "$c" "$(case_result "$tap" "$c")"; done)"
	done
}

# race_leak: the planted kernel's fault 'leak' (MS_ASYNC takes a
# reference to the file and never puts it), a short stress on ext2 beside
# the debug guests: the census after the run must fail, umount refused
# and the struct files kept.  It shows that the census, which the series
# passes, sees a file that outlives its last close().
race_leak_boot() {
	env FSLIST=ext2 THROTTLE_BPS= EIO_SECTOR= MEM=512 TIMEOUT=240 \
		APPEND="slub_nomerge msync.arg=10:$RACE_SEED:patched:end" \
		scripts/guest.sh leak race >"$TESTS_LOG/race-leak.out" 2>&1 || true
}
race_leak_judge() {
	local log=$OUT_DIR/leak-race.log line
	local title="leak: a file reference MS_ASYNC never puts fails the race census (umount EBUSY, files kept)"
	line=$(grep -m 1 '^msync-guest: result race ext2 ' "$TESTS_LOG/race-leak.out" || true)
	if ! plant_seen leak "$log"; then
		fail "$title" "its console does not say" \
			"msync: test-only fault 'leak' planted" "console log: $log"
	elif [[ $line == *"umount EBUSY"* ]] &&
	     [[ $line == *" files "* || $line == *"file-nr "* ]]; then
		pass "$title"
	else
		fail "$title" "ext2: ${line:-no result line}" "console log: $log"
	fi
	grep -E '^# race ext2: files' "$TESTS_LOG/race-leak.out" |
		sed 's/^# race /       leak: /' || true
}

# The two stress runs go in parallel (RACE_PARALLEL=0: one after the
# other): each is RACE_SECONDS of wall time, and on 2 cores in parallel
# each does about half the operations, which are printed.
RACE_PARALLEL=${RACE_PARALLEL:-1}
race_ok=""
race_build debug series && race_ok="$race_ok debug"
if [ "${RACE_CONTROL:-0}" = 1 ]; then
	race_build debug-unpatched base && race_ok="$race_ok debug-unpatched"
fi
race_leak=0
build_planted && race_leak=1
race_t0=$SECONDS
case " $race_ok " in *" debug "*)
	[ -z "$RACE_SELFTEST_FS" ] || boot_bg race_selftest_boot ;;
esac
for race_k in $race_ok; do
	race_kind=patched
	[ $race_k = debug-unpatched ] && race_kind=unpatched
	if [ "$RACE_PARALLEL" = 1 ]; then
		boot_bg race_boot $race_k $race_kind
	else
		race_boot $race_k $race_kind
	fi
done
[ $race_leak = 0 ] || boot_bg race_leak_boot
wait
for race_k in $race_ok; do
	race_judge $race_k $((SECONDS - race_t0))
done
[ $race_leak = 0 ] || race_leak_judge
case " $race_ok " in *" debug "*)
	[ -z "$RACE_SELFTEST_FS" ] || race_selftest_judge
	if scripts/variant.sh mmapsem >"$TESTS_LOG/race-variant.log" 2>&1; then
		race_build debug-mmapsem variant-mmapsem debug && race_mmapsem
	else
		fail "test variant mmapsem applies to the series" \
			"$(tail -n 4 "$TESTS_LOG/race-variant.log")"
	fi ;;
esac
echo "       race group: $(($(date +%s) - race_started)) s"
