# Crash consistency and I/O errors of msync(MS_SYNC), on both kernels.
# Sourced by tests/run.sh (CRASH_RANGES=20) and tests/torture.sh (200).
#
# Crash points: the patched kernel (and with CRASH_CONTROL=1, make
# torture, the unpatched one, which passes alike: a control that make
# check leaves out for time) boots once with three disks (ext4, ext3,
# ext2) behind QEMU's blklogwrites driver, which logs every write and
# flush the guest sends (cache=writeback, so that the guest sees a
# volatile cache and flushes it).  guest/msync_crash.c stores records in
# a mapped file, MS_SYNCs CRASH_RANGES random ranges and after each sync
# that returned 0 writes a marker past the file system with O_DIRECT.
# The mapping holds a preallocated file (overwrites in place) and, after
# it, a file that starts empty and grows, mapped from a non-zero offset
# (each first store allocates a block, i_size grows).
# tests/crash/check.sh then rebuilds each disk at every flush and at
# CRASH_SAMPLES points between flushes (tests/crash/replay.c), runs
# e2fsck and checks that every range synced by then holds its records.
# v3.5's ext2 fsync never flushes the disk cache (generic_file_fsync has
# no blkdev_issue_flush): its losses are reported as a finding about
# v3.5 on both kernels, only the write-through points must be clean, and
# the losses must be found (a control of the checker).  The planted
# kernels 'noflush' (MS_SYNC waits for the data, no commit, no flush) and
# 'late' (MS_SYNC returns, the range is synced 50 ms later) must lose
# ranges on ext4.
#
# I/O errors: guest/msync_eio.c on an ext4 disk one of whose file pages
# lies on a sector every write of which fails (QEMU blkdebug); each
# kernel's results are compared with what it must return.
#
# Settings: CRASH_RANGES (20), CRASH_SAMPLES (4 * CRASH_RANGES),
# CRASH_SEED (default: the date; the guest writer and the sampling),
# CRASH_INITRD (the guest initramfs).
# shellcheck shell=bash

CRASH_RANGES=${CRASH_RANGES:-20}
CRASH_SAMPLES=${CRASH_SAMPLES:-$((4 * CRASH_RANGES))}
CRASH_SEED=${CRASH_SEED:-$(date +%s)}
CRASH_INITRD=${CRASH_INITRD:-$BUILD_DIR/guest/initramfs.cpio.gz}
crash_dir=$BUILD_DIR/crash
crash_replay=$crash_dir/replay
crash_fslist="ext4 ext3 ext2"

# crash_mkfs FS IMG ROOT: a file system of CRASH_FS_BLOCKS blocks holding
# the files of ROOT, on an image with room for the marker area after it.
# The mkfs options are those of every scratch disk (mkfs_for).
crash_mkfs() {
	rm -f "$2"
	# CRASH_DISK_SIZE and CRASH_FS_BLOCKS of guest/msync_crash.h.
	truncate -s $(((8192 + 256) * 4096)) "$2"
	$(mkfs_for "$1") -d "$3" "$2" 8192
}

# crash_setup: the replayer, the file of initial records and the empty
# one that grows.
crash_setup() {
	rm -rf "$crash_dir"
	mkdir -p "$crash_dir/root" "$crash_dir/eio-root"
	gcc -O2 -Wall -Wextra -Werror -o "$crash_replay" tests/crash/replay.c &&
		"$crash_replay" mkfile "$crash_dir/root/crash.dat" &&
		: >"$crash_dir/root/grow.dat" &&
		"$crash_replay" mkfile "$crash_dir/eio-root/eio.dat"
}

# crash_boot K: boot kernel K with the three logged disks; the disks'
# images before and after, and their logs, go to build/crash/K-FS.*.
crash_boot() {
	local k=$1 fs i=0 qargs="" run
	run=$crash_dir/$k
	mkdir -p "$run"
	for fs in $crash_fslist; do
		crash_mkfs "$fs" "$run/$fs.base" "$crash_dir/root" || return 1
		cp --sparse=always "$run/$fs.base" "$run/$fs.img"
		: >"$run/$fs.log"
		qargs="$qargs -drive if=none,id=logged$i,driver=blklogwrites,file.driver=file,file.filename=$run/$fs.img,log.driver=file,log.filename=$run/$fs.log,log-sector-size=512,cache=writeback"
		qargs="$qargs -device virtio-blk-pci,drive=logged$i"
		i=$((i + 1))
	done
	KERNEL=$(kernel_image "$k") INITRD=$CRASH_INITRD \
		LOG=$OUT_DIR/crash-$k.log QEMU_ARGS=$qargs \
		TIMEOUT=$((120 + CRASH_RANGES)) \
		APPEND="msync.run=crash msync.disks=$(echo $crash_fslist | tr ' ' ,) msync.arg=$CRASH_RANGES:$CRASH_SEED $(plant_append "$k")" \
		scripts/qemu-run.sh && scripts/verdict.sh "$OUT_DIR/crash-$k.log"
}

# crash_field LINE NAME: the number after NAME in a check.sh figures line.
crash_field() {
	echo "$1" | sed -n "s/.* $2 \([0-9]*\).*/\1/p; s/^$2 \([0-9]*\).*/\1/p" | head -n 1
}

# crash_check K FS: check every crash point of one disk; one result line.
crash_check() {
	local k=$1 fs=$2 run out rc=0 line info flushes
	run=$crash_dir/$k
	out=$TESTS_LOG/crash-$k-$fs.out
	info=$("$crash_replay" info "$run/$fs.log" 2>&1) || {
		fail "$k $fs: write log readable" "$info"
		return
	}
	flushes=$(crash_field "$info" flushes)
	echo "  ... $k $fs: checking crash points ($info)"
	tests/crash/check.sh "$crash_replay" "$run/$fs.log" "$run/$fs.base" \
		"$run/work-$fs" "$CRASH_SAMPLES" "$CRASH_SEED" >"$out" 2>&1 ||
		rc=$?
	line=$(grep '^points ' "$out" || true)
	if [ -z "$line" ]; then
		fail "$k $fs: crash points checked" "see $out" "$(tail -n 5 "$out")"
		return
	fi
	local points ranges checks lf lp ls lr corrupt rep garbage
	points=$(crash_field "$line" points)
	ranges=$(crash_field "$line" ranges)
	checks=$(crash_field "$line" checks)
	lf=$(crash_field "$line" lost-flush)
	lp=$(crash_field "$line" lost-prefix)
	ls=$(crash_field "$line" lost-subset)
	lr=$(crash_field "$line" lost-ranges)
	corrupt=$(crash_field "$line" corrupt)
	rep=$(crash_field "$line" repaired)
	garbage=$(crash_field "$line" garbage)
	CRASH_FIGURES="$CRASH_FIGURES
       $k $fs: $points crash points ($(crash_field "$line" flush) at flushes), $ranges synced ranges, $checks range checks, $lr ranges lost, $corrupt corrupt, $garbage garbage, $(crash_field "$line" torn) torn pages, $rep repaired by e2fsck beyond the journal; log: $flushes flushes"
	if [ "$ranges" -lt "$CRASH_RANGES" ]; then
		fail "$k $fs: $CRASH_RANGES synced ranges in the log" \
			"only $ranges markers in $run/$fs.log"
	elif [ "$fs" = ext2 ]; then
		# v3.5's ext2 fdatasync writes the data but never flushes
		# the cache: only the points with every completed write on
		# the disk can hold every synced range.
		if [ "$lp$corrupt$garbage" = 000 ]; then
			pass "$k ext2: every synced range written before msync returned ($points crash points, $checks range checks, 0 lost with the writes on the disk)"
		else
			fail "$k ext2: every synced range written before msync returned" \
				"lost at write-through points: $lp, corrupt $corrupt, garbage $garbage; see $out" \
				"$(sed -n '2,4p' "$out")"
		fi
		# The standing control: the checker must see what a sync
		# without a flush leaves in the cache.
		if [ "$lr" -gt 0 ]; then
			pass "$k ext2: the checker finds the ranges fdatasync left in the disk cache ($lr of $ranges)"
		else
			fail "$k ext2: the checker finds the ranges fdatasync left in the disk cache" \
				"0 of $ranges lost, with $flushes flushes in the log: the replay does not model the volatile cache; see $out"
		fi
		CRASH_FIGURES="$CRASH_FIGURES
       $k ext2 (v3.5 finding, not a failure): no cache flush in fdatasync: $lr of $ranges synced ranges lost at some crash point ($lf at flush points, $ls at partly written points)"
	elif [ $rc = 0 ] && [ "$flushes" -gt 0 ] && [ "$rep" = 0 ]; then
		# A journal's replay must leave nothing for e2fsck to repair.
		pass "$k $fs: 0 of $ranges synced ranges lost at $points crash points ($checks range checks), e2fsck clean after the journal replay"
	else
		fail "$k $fs: 0 synced ranges lost at every crash point, e2fsck clean" \
			"lost: $lr ranges ($lf at flush points, $lp write-through, $ls partly written), corrupt $corrupt, repaired $rep, garbage $garbage, flushes in the log $flushes; see $out" \
			"$(sed -n '2,4p' "$out")"
	fi
}

# crash_selftest: a replay that is wrong on purpose (the syncs of one
# more flush interval claimed as done) must find ranges lost.
crash_selftest() {
	local run out rc=0 lr
	run=$crash_dir/patched
	out=$TESTS_LOG/crash-selftest.out
	tests/crash/check.sh "$crash_replay" "$run/ext4.log" "$run/ext4.base" \
		"$run/work-selftest" 0 "$CRASH_SEED" break >"$out" 2>&1 || rc=$?
	lr=$(crash_field "$(grep '^points ' "$out" || true)" lost-ranges)
	if [ $rc = 1 ] && [ "${lr:-0}" -gt 0 ]; then
		pass "checker self-test: a replay that claims one flush interval too many finds $lr ranges lost"
	else
		fail "checker self-test: a wrong replay must find ranges lost" \
			"check.sh exit $rc, lost ranges '${lr:-}'; see $out"
	fi
}

# crash_planted K WHAT: the planted kernel with fault K (scripts/lib.sh,
# plants), whose MS_SYNC breaks durability as WHAT says, must lose synced
# ranges on ext4:
#   noflush: MS_SYNC waits for the range's data but neither commits the
#            journal nor flushes the disk cache;
#   late:    MS_SYNC returns at once and syncs the range 50 ms later, so
#            the marker written after it reaches the log before the data.
crash_planted() {
	local k=$1 what=$2 out line lr crash_fslist=ext4
	out=$TESTS_LOG/crash-$k-ext4.out
	build_planted || return 0
	if ! crash_boot "$k" >"$TESTS_LOG/crash-boot-$k.out" 2>&1 ||
	   ! plant_seen "$k" "$OUT_DIR/crash-$k.log"; then
		fail "planted $k: crash writer on a logged ext4 disk" \
			"$(tail -n 4 "$TESTS_LOG/crash-boot-$k.out")" \
			"console log: $OUT_DIR/crash-$k.log"
		return
	fi
	tests/crash/check.sh "$crash_replay" "$crash_dir/$k/ext4.log" \
		"$crash_dir/$k/ext4.base" "$crash_dir/$k/work-ext4" \
		"$CRASH_SAMPLES" "$CRASH_SEED" >"$out" 2>&1 || true
	line=$(grep '^points ' "$out" || true)
	lr=$(crash_field "$line" lost-ranges)
	if [ "${lr:-0}" -gt 0 ]; then
		pass "planted $k: MS_SYNC $what loses $lr of $(crash_field "$line" ranges) synced ranges on ext4"
	else
		fail "planted $k: MS_SYNC $what must lose synced ranges on ext4" \
			"lost ranges '${lr:-}'; see $out"
	fi
}

# What each kernel's msync/fdatasync return under write errors: a range
# sync leaves the dirty failing page outside its range alone (patched)
# where a whole-file sync writes it and fails (unpatched); the rest is
# the same on both, fdatasync included: after a failed write the page is
# clean (v3.5 drops its dirty bit), so the same sync again returns 0.
crash_eio_same="sync-bad=EIO bad-page-after-sync=clean resync-bad=0 fdatasync-bad=EIO bad-page-after-fdatasync=clean refdatasync-bad=0"
crash_eio_expect_patched="$crash_eio_same sync-good-bad-dirty=0 fsync-after=EIO bad-page-after-writeback=clean sync-good-sticky=EIO resync-good=0"
crash_eio_expect_unpatched="$crash_eio_same sync-good-bad-dirty=EIO fsync-after=0 bad-page-after-writeback=clean sync-good-sticky=EIO resync-good=0"

# crash_eio K: msync_eio on an ext4 disk whose file page 4 cannot be
# written; page 12 is healthy.
crash_eio() {
	local k=$1 run log blk got want bad good seq
	run=$crash_dir/eio-$k
	log=$OUT_DIR/crash-eio-$k.log
	mkdir -p "$run"
	crash_mkfs ext4 "$run/ext4.img" "$crash_dir/eio-root" &&
		blk=$(debugfs -R "bmap /eio.dat 4" "$run/ext4.img" 2>/dev/null) ||
		{ fail "$k: I/O error cases" "making the ext4 image failed"; return; }
	printf '[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\nsector = "%s"\n' \
		$((blk * 8)) >"$run/blkdebug"
	if ! KERNEL=$BUILD_DIR/o-$k/arch/x86/boot/bzImage INITRD=$CRASH_INITRD \
		LOG=$log DISKS="blkdebug:$run/blkdebug:$run/ext4.img" TIMEOUT=120 \
		APPEND="msync.run=eio msync.disks=ext4 msync.arg=4:12" \
		scripts/qemu-run.sh >"$TESTS_LOG/crash-eio-$k.out" 2>&1 ||
	   ! VERDICT_IO_OK="vda:$((blk * 8))" scripts/verdict.sh "$log" \
		>>"$TESTS_LOG/crash-eio-$k.out" 2>&1; then
		fail "$k: I/O error cases" "$(tail -n 3 "$TESTS_LOG/crash-eio-$k.out")" \
			"console log: $log"
		return
	fi
	got=$(tr -d '\r' <"$log" | sed -n 's/^# eio \([a-z-]*\) = \(.*\)$/\1=\2/p' |
		grep -v '^good-seq=' | paste -sd' ')
	seq=$(tr -d '\r' <"$log" | sed -n 's/^# eio good-seq = //p')
	eval "want=\$crash_eio_expect_$k"
	debugfs -R "dump /eio.dat $run/eio.dat" "$run/ext4.img" >/dev/null 2>&1 || true
	bad=$("$crash_replay" page "$run/eio.dat" 4 2>/dev/null || echo none)
	good=$("$crash_replay" page "$run/eio.dat" 12 2>/dev/null || echo none)
	if [ "$got" = "$want" ] && [ "$bad" = 0 ] && [ "$good" = "$seq" ]; then
		pass "$k: I/O errors: each MS_SYNC/fdatasync returns what it must; the failed page never reached the disk, the healthy one did"
	else
		fail "$k: I/O errors" "got:  $got" "want: $want" \
			"on disk: failing page seq $bad (want 0), healthy page seq $good (want $seq)"
	fi
	echo "       $k: $got"
}

CRASH_FIGURES=""
echo "  crash: $CRASH_RANGES synced ranges per file system, $CRASH_SAMPLES points between flushes, seed $CRASH_SEED"
if crash_setup >"$TESTS_LOG/crash-setup.out" 2>&1; then
	for crash_k in patched unpatched; do
		if [ "$crash_k" = unpatched ] && [ "${CRASH_CONTROL:-0}" != 1 ]; then
			crash_eio "$crash_k"
			continue
		fi
		if crash_boot "$crash_k" >"$TESTS_LOG/crash-boot-$crash_k.out" 2>&1; then
			pass "$crash_k: crash writer ran on $crash_fslist, every write and flush logged"
			for crash_fs in $crash_fslist; do
				crash_check "$crash_k" "$crash_fs"
			done
			if [ "$crash_k" = patched ]; then
				crash_selftest
				crash_planted noflush "without a cache flush"
				crash_planted late "that returns before its writes"
			fi
		else
			fail "$crash_k: crash writer on logged disks" \
				"$(tail -n 4 "$TESTS_LOG/crash-boot-$crash_k.out")" \
				"console log: $OUT_DIR/crash-$crash_k.log"
		fi
		crash_eio "$crash_k"
	done
	echo "       crash figures:$CRASH_FIGURES"
else
	fail "crash: replayer builds" "$(tail -n 5 "$TESTS_LOG/crash-setup.out")"
fi
