# Programs that never call MS_ASYNC, with the periodic flusher on
# (guest/msync_pace.c: dirty_expire 3 s, writeback interval 1 s): a page
# dirtied by write() or through a mapping, a file stored to again after
# an MS_ASYNC was written, and a file dirtied beside another's MS_ASYNC,
# each written by the periodic pass, not before the expire time and by
# expire + interval.  The same on both kernels: patch 2 lives in
# fs/fs-writeback.c, on the path of every dirty page.  Sourced by
# tests/run.sh (and tests/run-6.12.sh, with PACE_KERNELS).
# shellcheck shell=bash

# pace_boot KERNEL: boot it running msync_pace on ext4 and ext2.
pace_boot() {
	VERDICT= FSLIST="ext4 ext2" THROTTLE_BPS= EIO_SECTOR= \
		scripts/guest.sh "$1" pace >"$TESTS_LOG/pace-$1.out" 2>&1 || true
}

# pace_judge KERNEL: all eight checks (four per file system) passed.
pace_judge() {
	local k=$1 log=$TESTS_LOG/pace-$1.out got
	got=$(tr -d '\r' <"$OUT_DIR/$k-pace.log" 2>/dev/null |
		grep -E '^(ok|not ok) [0-9]+ ' || true)
	if grep -q '^PASS: pace ext4, pace ext2' "$log" &&
	   [ "$(grep -c '^ok ' <<<"$got")" = 8 ]; then
		pass "$k: programs that never call MS_ASYNC keep the flusher's pace (ext4, ext2)"
	else
		fail "$k: programs that never call MS_ASYNC keep the flusher's pace (ext4, ext2)" \
			"$(grep -E '^not ok' <<<"$got" | head -n 4)" \
			"$(tail -n 3 "$log")" "console log: $OUT_DIR/$k-pace.log"
	fi
	sed 's/^/       '"$k"': /' <<<"$got"
}

for k in ${PACE_KERNELS:-patched unpatched}; do
	boot_bg pace_boot "$k"
done
wait
for k in ${PACE_KERNELS:-patched unpatched}; do
	pace_judge "$k"
done
