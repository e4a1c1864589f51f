#!/usr/bin/env bash
# The whole test suite (make check).  Prepares what the checks stand on,
# runs every group and ends with "N passed, N failed"; exits non-zero on
# any failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"

started=$(date +%s)
# The groups, in the order they run; T="GROUP..." (make check T=crash)
# or tests/run.sh GROUP... runs only those, after the steps they all
# stand on (the patched kernel is built when bisect, which builds it, is
# not among them).
all_groups="harness series bisect selftest unpatched crash variants pace i386 freeze sibling fstests fuzz race bench"
groups=${*:-${T:-$all_groups}}
for g in $groups; do
	[[ " $all_groups " == *" $g "* ]] ||
		die "make check: no group '$g' (groups: $all_groups)"
done
want() { [[ " $groups " == *" $1 "* ]]; }
total=$(( $(wc -w <<<"$groups") + 2 ))
# The checks every group declares, all together: a run that made fewer
# (a group dropped or cut short without a failure) is a failure.
checks_min=160

# The long groups' settings: lower values than these would weaken make
# check silently, so they are refused (make torture runs more).
for setting in FUZZ_CALLS:100000 RACE_SECONDS:60 CRASH_RANGES:20 CRASH_SAMPLES:80; do
	value=$(printenv "${setting%%:*}" || echo "${setting#*:}")
	[[ $value =~ ^[0-9]+$ ]] && [ "$value" -ge "${setting#*:}" ] ||
		die "make check: ${setting%%:*}=$value, below make check's ${setting#*:}"
done
n=0
progress() {
	n=$((n + 1))
	echo "[$n/$total] $1... (at $(( $(date +%s) - started )) s)"
}

# setup NAME CMD...: a step everything after it needs; a failure is
# counted and ends the run.
setup() {
	local name=$1 log
	shift
	log=$TESTS_LOG/setup-$(echo "$name" | tr -c 'a-zA-Z0-9\n' - | cut -c1-50).log
	if "$@" >"$log" 2>&1; then
		pass "$name"
	else
		fail "$name" "see $log"
		tail -n 30 "$log" | sed 's/^/       /'
		finish
	fi
}

finish() {
	echo "check took $(( $(date +%s) - started )) s;" \
		"FUZZ_CALLS=${FUZZ_CALLS:-} RACE_SECONDS=${RACE_SECONDS:-}" \
		"CRASH_RANGES=${CRASH_RANGES:-} CRASH_SAMPLES=${CRASH_SAMPLES:-}"
	if [ "$groups" = "$all_groups" ] && [ $n = $total ] &&
	   [ $((PASSED + FAILED)) -lt $checks_min ]; then
		fail "every group made its checks" \
			"$((PASSED + FAILED)) checks made, $checks_min expected"
	fi
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ] && exit 0
	exit 1
}

# A full disk makes guests fail in ways that hide it (QEMU cannot lock
# an image, a console log ends early): a whole run keeps about 16 GiB in
# build/ and out/ (kernel objects, scratch images), so it wants 20 in
# all, counting what a run before left there.
space_for_run() {
	local have free
	mkdir -p "$BUILD_DIR" "$OUT_DIR"
	have=$(du -skc "$BUILD_DIR" "$OUT_DIR" | awk 'END { print $1 }')
	free=$(df -Pk "$BUILD_DIR" | awk 'NR == 2 { print $4 }')
	echo "$(( (have + free) >> 20 )) GiB for build/ and out/:" \
		"$((have >> 20)) used, $((free >> 20)) free"
	[ $((have + free)) -ge $((20 << 20)) ] || {
		echo "a whole make check needs 20 GiB for build/ and out/"
		return 1
	}
}

progress "checking packages, fetching and preparing the tree"
[ "$groups" != "$all_groups" ] ||
	setup "disk space for a whole run (20 GiB)" space_for_run
setup "packages installed" scripts/deps.sh
setup "linux-3.5 fetched and verified" scripts/fetch.sh
setup "tree: v3.5 + fixes + series" scripts/tree.sh

progress "building linux-3.5 (unpatched: v3.5 + build fixes)"
setup "unpatched kernel builds" scripts/build.sh unpatched base
setup "guest initramfs builds" scripts/initramfs.sh "$BUILD_DIR/guest/initramfs.cpio.gz"

if [ "$groups" != "$all_groups" ] && ! want bisect; then
	setup "patched kernel builds" env SEED=unpatched scripts/build.sh patched series
fi
. tests/selftest.sh
# The unpatched kernel's selftest boots in the background from here on
# (its changed cases mostly wait out their deadlines, about seven
# minutes), beside the harness, series, bisect, selftest and crash
# groups, and is judged after the crash group.
unpatched_pid=""
if want unpatched; then
	boot_bg run_selftest unpatched "$JUDGE_FS"
	unpatched_pid=$!
fi

# group NAME TITLE COMMAND...: one group of checks, if T selects it; a
# group file (". FILE") is sourced with no positional parameters.
group() {
	want "$1" || return 0
	progress "$2"
	shift 2
	if [ "$1" = . ]; then
		local group_file=$2
		set --
		. "$group_file"
	else
		"$@"
	fi
}

group harness "checking the harness" . tests/harness.sh
group series "checking the series (git am, checkpatch, export, make series)" \
	. tests/series.sh
group bisect "building and booting every prefix of the series (patched last)" \
	. tests/bisect.sh
# The four throttled disks and the plain one boot at once.
group selftest "running the selftest on the patched kernel" \
	eval 'boot_bg run_selftest patched "$JUDGE_FS"; selftest_pids=$!
	      boot_bg plain_boot; wait $selftest_pids $! || true
	      BOOTED=1 selftest_patched; BOOTED=1 selftest_plain'
group unpatched "the selftest on the unpatched kernel (expected failures), booted at the start, judged after the crash group" \
	true
# The crash group builds the planted kernel (tests/variants/planted.patch)
# that the variants group boots again.
group crash "crash points and I/O errors of MS_SYNC (both kernels)" \
	. tests/crash.sh
if want unpatched; then
	wait "$unpatched_pid" || true
	echo "       the selftest on the unpatched kernel:"
	BOOTED=1 selftest_unpatched
fi
# make check-all builds the 6.12 kernels at idle priority beside make
# check (process group PREBUILD_PGID); the build is stopped during the
# variants group, whose planted faults must not escape because a build
# slows their guests (beside one, chase wrote its file 4.5 times in
# stream, want at most 5, instead of 13-14).
prebuild_signal() {
	[ -z "${PREBUILD_PGID:-}" ] || kill -"$1" -- "-$PREBUILD_PGID" 2>/dev/null || true
}
trap 'prebuild_signal CONT' EXIT
prebuild_signal STOP
group variants "running the selftest on test-only broken kernels (expected failures)" \
	selftest_variants
prebuild_signal CONT
group pace "programs that never call MS_ASYNC keep the flusher's pace (both kernels)" \
	. tests/pace.sh
group i386 "the selftest on i386 (patched, offset in unsigned long)" \
	. tests/i386.sh
group freeze "freezing with MS_ASYNC writeback pending (both kernels)" \
	. tests/freeze.sh
group sibling "MS_ASYNC beside a frozen file system of the same disk" \
	. tests/sibling.sh
group fstests "our fstests and LTP tests, generic/788 and msync05 (both kernels)" \
	. tests/fstests.sh
group fuzz "fuzzing msync() against its error contract (both kernels)" \
	. tests/fuzz.sh
group race "racing msync() on debug kernels (lockdep, kmemleak, debug objects)" \
	. tests/race.sh
group bench "benchmark smoke run" . tests/bench.sh

finish
