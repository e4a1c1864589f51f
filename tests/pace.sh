# Programs that never call MS_ASYNC, with the periodic flusher on
# (guest/msync_pace.c: dirty_expire 3 s, writeback interval 1 s): a page
# dirtied by write() or through a mapping, a file stored to again after
# an MS_ASYNC was written, a file dirtied beside another's MS_ASYNC, and
# one whose MS_ASYNC request fsync() ended, each written by the periodic
# pass, not before the expire time and by expire + interval; and the
# CPUs idle while an MS_ASYNC request waits for its turn.  The same
# on both kernels: patch 2 lives in fs/fs-writeback.c, on the path of
# every dirty page.  Three planted faults (tests/variants/planted.patch)
# must fail their check, on ext2: nokupdate (no periodic pass unless
# MS_ASYNC asked for one) check 1, stale (a request outlives the file's
# clean state) check 5, spin (the flusher polls for an MS_ASYNC pass's
# turn instead of sleeping) check 6, the CPU time while a request waits.
# Sourced by tests/run.sh, and by tests/run-6.12.sh for both 6.12
# kernels (no planted fault there).  The guest gives each disk min_ratio
# 1 (guest/run-pace.sh: without it a quiet device has no share of the
# background threshold on 6.12, and its first dirty page is written at
# the flusher's next wakeup, a second after t0, on both 6.12 kernels).
# shellcheck shell=bash

PACE_CHECKS=6

# pace_boot KERNEL [DISKS]: boot it running msync_pace on DISKS (ext4 and
# ext2).
pace_boot() {
	VERDICT= FSLIST="${2:-ext4 ext2}" THROTTLE_BPS= EIO_SECTOR= \
		scripts/guest.sh "$1" pace >"$TESTS_LOG/pace-$1.out" 2>&1 || true
}

# pace_results KERNEL: its "ok N" and "not ok N" lines.
pace_results() {
	tr -d '\r' <"$OUT_DIR/$1-pace.log" 2>/dev/null |
		grep -E '^(ok|not ok) [0-9]+ ' || true
}

# pace_judge KERNEL: every check passed on ext4 and ext2.
pace_judge() {
	local k=$1 log=$TESTS_LOG/pace-$1.out got
	got=$(pace_results "$k")
	if grep -q '^PASS: pace ext4, pace ext2' "$log" &&
	   [ "$(grep -c '^ok ' <<<"$got")" = $((2 * PACE_CHECKS)) ]; then
		pass "$k: programs that never call MS_ASYNC keep the flusher's pace (ext4, ext2)"
	else
		fail "$k: programs that never call MS_ASYNC keep the flusher's pace (ext4, ext2)" \
			"$(grep -E '^not ok' <<<"$got" | head -n 4)" \
			"$(tail -n 3 "$log")" "console log: $OUT_DIR/$k-pace.log"
	fi
	sed 's/^/       '"$k"': /' <<<"$got"
}

# pace_planted NAME CHECK MAYFAIL TITLE: planted fault NAME, booted on
# ext2, fails check CHECK and passes every other but those of MAYFAIL.
pace_planted() {
	local k=$1 n=$2 may=$3 title=$4 got bad="" i
	got=$(pace_results "$k")
	if ! plant_seen "$k" "$OUT_DIR/$k-pace.log"; then
		fail "$k: $title" "its console does not say" \
			"msync: test-only fault '$k' planted" \
			"console log: $OUT_DIR/$k-pace.log"
		return
	fi
	grep -q "^not ok $n " <<<"$got" || bad="check $n did not fail"
	for i in $(seq "$PACE_CHECKS"); do
		[ "$i" = "$n" ] || [[ " $may " == *" $i "* ]] ||
			grep -q "^ok $i " <<<"$got" || bad="$bad; check $i did not pass"
	done
	if [ -z "$bad" ]; then
		pass "$k: $title"
	else
		fail "$k: $title" "${bad#; }" "console log: $OUT_DIR/$k-pace.log"
	fi
	sed 's/^/       '"$k"': /' <<<"$got"
}

PACE_PLANTED=${PACE_PLANTED-nokupdate stale spin}
[ -z "$PACE_PLANTED" ] || build_planted || PACE_PLANTED=
for k in ${PACE_KERNELS:-patched unpatched}; do
	boot_bg pace_boot "$k"
done
for k in $PACE_PLANTED; do
	boot_bg pace_boot "$k" ext2
done
wait
for k in ${PACE_KERNELS:-patched unpatched}; do
	pace_judge "$k"
done
for k in $PACE_PLANTED; do
	case $k in
	nokupdate) pace_planted nokupdate 1 "2 3 4 5" \
		"planted nokupdate: a page dirtied by write() is not written at the flusher's pace" ;;
	spin) pace_planted spin 6 "" \
		"planted spin: a flusher that polls while a request waits for its turn spends a CPU" ;;
	stale) pace_planted stale 5 "" \
		"planted stale: a file whose MS_ASYNC request ended is written by another file's pass" ;;
	esac
done
