# Harness checks: bad downloads, a patch that does not apply, a config
# option Kconfig drops, a hanging guest, a panicking guest, kernel errors in
# a log whose result line says pass.  Sourced by tests/run.sh.
# shellcheck shell=bash

tmp=$(mktemp -d "$BUILD_DIR/.test.XXXXXX")
good=$("$TOP/scripts/fetch.sh")

# A truncated tarball and one with the wrong content are refused, and
# nothing is extracted.
mkdir -p "$tmp/dl-trunc" "$tmp/b1"
head -c 1000000 "$good" >"$tmp/dl-trunc/$KTAR"
expect_fail "truncated tarball is refused" "dl-trunc/$KTAR: sha256 mismatch" \
	env DL_DIR="$tmp/dl-trunc" BUILD_DIR="$tmp/b1" "$TOP/scripts/tree.sh"
if [ -z "$(ls -A "$tmp/b1")" ]; then
	pass "refused tarball: nothing extracted, nothing left behind"
else
	fail "refused tarball: nothing extracted, nothing left behind" \
		"$(ls -A "$tmp/b1")"
fi

# A tree that is there already is never replaced by an extraction.
mkdir -p "$tmp/b0/linux"
echo keep >"$tmp/b0/linux/sentinel"
expect_fail "an existing directory in place of the tree is not replaced" \
	"not a tree this harness made" \
	env DL_DIR="$(dirname "$good")" BUILD_DIR="$tmp/b0" "$TOP/scripts/tree.sh"
[ "$(cat "$tmp/b0/linux/sentinel")" = keep ] &&
	pass "existing tree directory untouched" ||
	fail "existing tree directory untouched"

mkdir -p "$tmp/dl-wrong" "$tmp/src"
echo "not a kernel" >"$tmp/src/x" && tar -C "$tmp/src" -cJf "$tmp/dl-wrong/$KTAR" x
expect_fail "tarball with a wrong checksum is refused" "sha256 mismatch" \
	env DL_DIR="$tmp/dl-wrong" BUILD_DIR="$tmp/b2" "$TOP/scripts/tree.sh"
[ ! -e "$tmp/b2/linux" ] && pass "wrong checksum: nothing extracted" ||
	fail "wrong checksum: nothing extracted"

# The download path, with a file:// URL: a good file lands in DL_DIR, a
# corrupt one is refused and leaves nothing behind, an unpinned one is
# refused with its sha256 and how to pin it.
mkdir -p "$tmp/mirror" "$tmp/dl-new"
cp "$good" "$tmp/mirror/$KTAR"
expect_ok "download from KERNEL_URL (file://) verifies and lands in DL_DIR" \
	env DL_DIR="$tmp/dl-new" KERNEL_URL="file://$tmp/mirror/$KTAR" \
	"$TOP/scripts/fetch.sh"
head -c 5000000 "$good" >"$tmp/mirror/bad.tar.xz"
expect_fail "corrupt download is refused" "sha256 mismatch" \
	env DL_DIR="$tmp/dl-bad" KERNEL_URL="file://$tmp/mirror/bad.tar.xz" \
	"$TOP/scripts/fetch.sh"
[ -z "$(ls -A "$tmp/dl-bad" 2>/dev/null)" ] &&
	pass "corrupt download: nothing left in DL_DIR" ||
	fail "corrupt download: nothing left in DL_DIR" "$(ls -A "$tmp/dl-bad")"
grep -v "^sha256" "$TOP/linux.hash" >"$tmp/empty.hash"
expect_fail "unpinned tarball is refused with its sha256" \
	"no sha256 is pinned.*|sha256  [0-9a-f]{64}  $KTAR" \
	env DL_DIR="$tmp/dl-new" HASH_FILE="$tmp/empty.hash" "$TOP/scripts/fetch.sh"

# A built tree needs no tarball: make tree (and make series after it)
# with an empty DL_DIR and no way to download, as after 'make run' with
# a DL_DIR the next command does not repeat.
mkdir -p "$tmp/dl-empty"
expect_ok "make tree with the tree built needs no download (empty DL_DIR)" \
	env DL_DIR="$tmp/dl-empty" KERNEL_URL="file://$tmp/nowhere/$KTAR" \
	make -s -C "$TOP" tree

# A patch that does not apply stops the tree step, names the patch and
# leaves the tree where it was: here the first patch of the series
# applies and the second does not.
git clone -q --shared "$TREE" "$tmp/b3/linux"
git -C "$tmp/b3/linux" checkout -q -B series origin/series
cp "$TREE/.git/msync-state" "$tmp/b3/linux/.git/msync-state"
mkdir -p "$tmp/bad-patches"
cp "$TOP"/patches/0001-*.patch "$tmp/bad-patches/"
cat >"$tmp/bad-patches/0002-does-not-apply.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: msync series <msync-series@example.invalid>
Date: Sat, 21 Jul 2012 12:00:00 +0000
Subject: [PATCH] test: a patch whose context is not in v3.5

---
 mm/msync.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/mm/msync.c b/mm/msync.c
--- a/mm/msync.c
+++ b/mm/msync.c
@@ -1,3 +1,3 @@
 /*
- *	this line is not in mm/msync.c
+ *	neither is this one
  *
PATCH
before=$(git -C "$tmp/b3/linux" rev-parse HEAD)
expect_fail "a patch that does not apply is named" \
	"patch does not apply: .*0002-does-not-apply.patch" \
	env BUILD_DIR="$tmp/b3" PATCHES_DIR="$tmp/bad-patches" "$TOP/scripts/tree.sh"
if [ "$(git -C "$tmp/b3/linux" rev-parse HEAD)" = "$before" ] &&
   [ -z "$(git -C "$tmp/b3/linux" status --porcelain)" ] &&
   [ ! -d "$tmp/b3/linux/.git/rebase-apply" ]; then
	pass "failed patch: no half-applied state"
else
	fail "failed patch: no half-applied state" \
		"$(git -C "$tmp/b3/linux" status --short | head -n 5)"
fi

# An option with an unmet dependency is reported by name.
printf 'CONFIG_VIRTIO_BLK=y\nCONFIG_EXT4_FS=y\n' >"$tmp/unmet.config"
expect_fail "config option with an unmet dependency is named" \
	"CONFIG_VIRTIO_BLK=y.*unmet dependency" \
	env CONFIG_FRAGMENT="$tmp/unmet.config" "$TOP/scripts/config.sh" \
	"$BUILD_DIR/src-linux" "$tmp/o-unmet"

# make bench without one of the two kernels its tables compare stops
# before building anything (timeout: a regression would run the bench).
expect_fail "make bench names a kernel missing from BENCH_KERNELS" \
	'BENCH_KERNELS="patched 6.12-patched" lacks unpatched' \
	env BENCH_KERNELS="patched 6.12-patched" OUT_DIR="$tmp/bench-out" \
	timeout 60 "$TOP/bench/run.sh"

# The watchdog kills a guest that stops printing (SILENCE), not one that
# runs long: a guest that prints every 2 s for 40 s passes with a 10 s
# window; one whose init hangs is killed 10 s after its last line, which
# the error names with the console log; TIMEOUT still caps any guest.
# The long guest boots in the background, beside the others in turn.
guest_boot unpatched chatty SILENCE=10 FSLIST=ext2 APPEND=msync.arg=40 \
	OUT_DIR="$tmp" RUN_TAG=-long &
chatty_long=$!
# A host that stops QEMU for a while (CI saw 23 s) is no kernel error,
# though the guest's clock runs on (scripts/qemu-run.sh, guest/init): a
# chatty guest stopped for 25 s after its third line passes, and its
# uptime shows the gap.
(
	env FSLIST=ext2 APPEND=msync.arg=30 OUT_DIR="$tmp" RUN_TAG=-stall \
		"$TOP/scripts/guest.sh" unpatched chatty >"$TESTS_LOG/chatty-stall.out" 2>&1 &
	g=$! rc=0
	while kill -0 $g 2>/dev/null &&
	      ! grep -q 'still here after 4s' "$tmp/unpatched-chatty-stall.log" 2>/dev/null; do
		sleep 1
	done
	q=$(pgrep -f '^([^ ]*/)?qemu-system-x86_64 .*/run-unpatched-chatty-stall/') &&
		kill -STOP $q && sleep 25 && kill -CONT $q ||
		echo "the guest's QEMU was not found or not stopped" >&2
	wait $g || rc=$?
	echo $rc >"$TESTS_LOG/chatty-stall.out.rc"
) 2>"$TESTS_LOG/chatty-stall.err" &
chatty_stall=$!
expect_fail "a silent guest is killed by the watchdog" \
	"printed nothing for 10s.*last line: msync-guest: hanging on purpose" \
	env SILENCE=10 FSLIST=ext2 OUT_DIR="$tmp" "$TOP/scripts/guest.sh" unpatched hang
grep -q "console log: $tmp/unpatched-hang.log" "$LAST_LOG" &&
	pass "silent guest: its console log named" ||
	fail "silent guest: its console log named" "see $LAST_LOG"
expect_fail "a chatty guest is still killed at TIMEOUT" \
	"still running after 20s.*last line: msync-guest: still here" \
	env SILENCE=10 TIMEOUT=20 FSLIST=ext2 APPEND=msync.arg=60 OUT_DIR="$tmp" \
	"$TOP/scripts/guest.sh" unpatched chatty

# qemu-run.sh stopped by a signal (or by an error such as a full disk)
# takes its QEMU with it: one left running holds its images' locks, and
# the next guest on them fails with "Failed to get \"write\" lock".
printf '#!/bin/sh\necho $$ >"$QEMU_PIDFILE"\nexec sleep 300\n' >"$tmp/fake-qemu"
chmod +x "$tmp/fake-qemu"
qemu_left() {
	local run q
	KERNEL="$tmp/fake-qemu" INITRD="$tmp/fake-qemu" LOG="$tmp/fake.log" \
		QEMU_SYSTEM="$tmp/fake-qemu" QEMU_PIDFILE="$tmp/fake.pid" \
		"$TOP/scripts/qemu-run.sh" &
	run=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ ! -s "$tmp/fake.pid" ] || break
		sleep 1
	done
	q=$(cat "$tmp/fake.pid")
	sleep 2 # past the line that sets the trap, into the watchdog
	kill -TERM $run
	wait $run || true
	sleep 1
	# Killed, it may stay a zombie until init reaps it.
	case $(ps -o stat= -p "$q" || true) in
	"" | Z*) ;;
	*)	kill -9 "$q"
		echo "QEMU (pid $q) still running"
		return 1 ;;
	esac
}
expect_ok "qemu-run.sh killed by a signal leaves no QEMU running" qemu_left

# A guest that panics is a failure, whatever else it printed.
expect_fail "panicking guest is a failure" "FAIL: kernel error" \
	env TIMEOUT=60 FSLIST=ext2 OUT_DIR="$tmp" "$TOP/scripts/guest.sh" unpatched panic
wait $chatty_long || true
expect_ok "a guest that keeps printing outlives the silence window" \
	sh -c 'cat "$1"; exit "$(cat "$1.rc")"' sh "$TESTS_LOG/chatty-unpatched.out"
wait $chatty_stall || true
expect_ok "a guest the host stops for 25 s reports no lockup" \
	sh -c 'cat "$1" "$2"; [ ! -s "$2" ] && exit "$(cat "$1.rc")"' sh \
	"$TESTS_LOG/chatty-stall.out" "$TESTS_LOG/chatty-stall.err"
expect_ok "the stopped guest's clock ran on: 20 s or more between two lines" \
	awk '/still here after/ { t = $(NF - 1); if (n++ && t - last >= 20) gap = 1; last = t }
	     END { print "largest gap seen: " (gap ? ">= 20 s" : "none"); exit !gap }' \
	"$tmp/unpatched-chatty-stall.log"

# An oops in the log fails the verdict even if every result says exit=0.
printf '%s\n' 'msync-guest: run selftest ext4' 'ok 1 - x' \
	'BUG: unable to handle kernel NULL pointer dereference at (null)' \
	'msync-guest: result selftest ext4 exit=0' 'msync-guest: done' >"$tmp/oops.log"
expect_fail "oops in the log fails a passing run" "FAIL: kernel error" \
	"$TOP/scripts/verdict.sh" "$tmp/oops.log"
sed '/BUG:/d' "$tmp/oops.log" >"$tmp/clean.log"
expect_ok "the same log without the oops passes" "$TOP/scripts/verdict.sh" "$tmp/clean.log"
# So do a lockdep report and a WARN_ON(), which the console must show:
# both are printed at KERN_WARNING, hidden below loglevel=5.
sed 's/^BUG:.*/[ INFO: possible circular locking dependency detected ]/' \
	"$tmp/oops.log" >"$tmp/lockdep.log"
expect_fail "a lockdep report in the log fails a passing run" \
	"FAIL: kernel error" "$TOP/scripts/verdict.sh" "$tmp/lockdep.log"
# The debug kernels' other reports: BUG_ON (VM_BUG_ON), SLUB's poison
# check (on a clean and on a tainted kernel), lockdep's irq-safety
# reports and lockdep turning itself off, an RCU stall, inodes busy at
# umount, and a file system that found itself corrupt.
for report in 'kernel BUG at mm/filemap.c:1234!' \
	'BUG kmalloc-64 (Not tainted): Poison overwritten' \
	'BUG filp (Tainted: G    B       ): Redzone overwritten' \
	'[ INFO: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected ]' \
	'turning off the locking correctness validator.' \
	'INFO: rcu_sched self-detected stall on CPU { 1}  (t=60000 jiffies)' \
	'VFS: Busy inodes after unmount of vdb. Self-destruct in 5 seconds.' \
	'EXT4-fs error (device vda): ext4_lookup:1052: inode #2: comm ls' \
	'Aborting journal on device vda-8.' \
	'EXT3-fs (vdb): error: remounting filesystem read-only' \
	'EXT4-fs (vda): Remounting filesystem read-only' \
	'divide error: 0000 [#1] SMP' \
	'stack segment: 0000 [#1] SMP' \
	'double fault: 0000 [#1] SMP' \
	'WARNING: CPU: 1 PID: 123 at fs/fs-writeback.c:1476 writeback_inode_soon+0x2b/0x90' \
	'---[ end trace 0000000000000000 ]---' \
	'msync_test: page allocation failure: order:0, mode:0x20' \
	'EXT2-fs (vdc): error: ext2_check_page: bad entry in directory #2' \
	'EXT4-fs warning (device vda): ext4_end_bio:317: I/O error -5 writing to inode 12' \
	'EXT3-fs warning (device vdb): ext3_unlink: Deleting nonexistent file (13), 0' \
	'EXT4-fs (vda): delayed block allocation failed for inode 12 at logical offset 0 with max blocks 1 with error -5' \
	'EXT4-fs (vda): This should not happen!! Data will be lost' \
	'jbd2_start: 4 - Journal aborted' \
	'JBD2: Spotted dirty metadata buffer (dev = vda, blocknr = 1234). There is a risk of filesystem corruption in case of system crash.' \
	'end_request: I/O error, dev vda, sector 123456' \
	'blk_update_request: I/O error, dev vdb, sector 8 op 0x1:(WRITE) flags 0x0' \
	'Buffer I/O error on device vdc, logical block 42' \
	'lost page write due to I/O error on vdc' \
	'UBSAN: shift-out-of-bounds in fs/fs-writeback.c:250:3' \
	'Out of memory: Killed process 123 (msync_test) total-vm:1234kB' \
	'INFO: trying to register non-static key.' \
	'EXT4-fs (vda): failed to convert unwritten extents to written extents -- potential data loss!  (inode 12, offset 0, size 4096, error -5)' \
	'attempt to access beyond end of device' \
	'JBD2: Detected IO errors while flushing file data on vda-8'; do
	printf '%s\n' 'msync-guest: run selftest ext4' 'ok 1 - x' "$report" \
		'msync-guest: result selftest ext4 exit=0' 'msync-guest: done' \
		>"$tmp/report.log"
	expect_fail "verdict fails on: ${report:0:40}" "FAIL: kernel error" \
		"$TOP/scripts/verdict.sh" "$tmp/report.log"
done
# I/O errors of a disk that fails writes on purpose (VERDICT_IO_OK) pass,
# the same on another disk fail.
printf '%s\n' 'msync-guest: run selftest raw' 'ok 1 - x' \
	'end_request: I/O error, dev vdd, sector 10485888' \
	'Buffer I/O error on device vdd, logical block 1310736' \
	'lost page write due to I/O error on vdd' \
	'msync-guest: result selftest raw exit=0' 'msync-guest: done' >"$tmp/io.log"
expect_ok "verdict: I/O errors of the disk in VERDICT_IO_OK pass" \
	env VERDICT_IO_OK=vdd "$TOP/scripts/verdict.sh" "$tmp/io.log"
expect_ok "verdict: I/O errors of the sector in VERDICT_IO_OK pass" \
	env VERDICT_IO_OK=vdd:10485888 "$TOP/scripts/verdict.sh" "$tmp/io.log"
expect_fail "verdict: I/O errors of another disk fail" "FAIL: kernel error" \
	env VERDICT_IO_OK=vda "$TOP/scripts/verdict.sh" "$tmp/io.log"
sed 's/sector 10485888/sector 8/' "$tmp/io.log" >"$tmp/io8.log"
expect_fail "verdict: I/O errors of another sector of that disk fail" \
	"FAIL: kernel error" \
	env VERDICT_IO_OK=vdd:10485888 "$TOP/scripts/verdict.sh" "$tmp/io8.log"
sed 's/logical block 1310736/logical block 7/' "$tmp/io.log" >"$tmp/io7.log"
expect_fail "verdict: a buffer error of another block of that disk fails" \
	"FAIL: kernel error" \
	env VERDICT_IO_OK=vdd:10485888 "$TOP/scripts/verdict.sh" "$tmp/io7.log"
# Reports a run causes on purpose (VERDICT_OK_RE) pass; the same with
# another report fail.
printf '%s\n' 'msync-guest: run abort ext3' 'ok 1 - x' \
	'EXT3-fs (vda): error: ext3_remount: Abort forced by user' \
	'msync-guest: result abort ext3 exit=0' 'msync-guest: done' >"$tmp/abort.log"
expect_ok "verdict: a report VERDICT_OK_RE names passes" \
	env VERDICT_OK_RE='Abort forced by user' "$TOP/scripts/verdict.sh" "$tmp/abort.log"
sed 's/^ok 1 - x$/BUG: unable to handle kernel paging request/' "$tmp/abort.log" >"$tmp/abort2.log"
expect_fail "verdict: another report beside it fails" "FAIL: kernel error" \
	env VERDICT_OK_RE='Abort forced by user' "$TOP/scripts/verdict.sh" "$tmp/abort2.log"
grep -q 'loglevel=[5-9]' "$TOP/scripts/qemu-run.sh" &&
	pass "the guest console shows KERN_WARNING (WARN_ON, lockdep)" ||
	fail "the guest console shows KERN_WARNING (WARN_ON, lockdep)" \
		"scripts/qemu-run.sh boots with a loglevel that hides them"

# Every setting the scripts read with a default (the :- and - expansions)
# is named in the first column of the table of docs/settings.md (not in
# its prose nor in another setting's row); not the harness's own state
# (BOOTED, PASSED, FAILED, TESTS_LOG) nor the guest's (MSYNC_ARG, set by
# /init).
settings_missing() {
	local v table
	table=$(awk -F'|' '/^\|/ { print $2 }' "$1")
	grep -ohE '\$\{[A-Z][A-Z0-9_]*:?[-=]' "$TOP"/scripts/*.sh \
		"$TOP"/tests/*.sh "$TOP"/bench/*.sh "$TOP"/guest/*.sh |
		sed -E 's/^\$\{//; s/:?[-=]$//' | sort -u | while read -r v; do
			case " BOOTED PASSED FAILED TESTS_LOG MSYNC_ARG " in
			*" $v "*) continue ;;
			esac
			grep -q "\`$v\`" <<<"$table" || echo "$v"
		done | paste -sd ' ' -
}
missing=$(settings_missing "$TOP/docs/settings.md")
[ -z "$missing" ] &&
	pass "docs/settings.md's table names every setting the scripts read" ||
	fail "docs/settings.md's table names every setting the scripts read" \
		"not in it: $missing"

# Every benchmark figure docs/results.md, the README's headline numbers
# and the cover letters quote is what bench/tables.sh prints from
# bench/results/; a figure changed in a copy of the csv makes the same
# check name the texts that no longer agree.
expect_ok "docs/results.md, README and cover letters quote bench/results/ as generated" \
	"$TOP/bench/results.sh" check
# bench_changed CSV TEXT...: double the first row's median (column 5) in
# a copy of bench/results/CSV; check must fail and name every TEXT.
bench_changed() {
	local csv=$1 text out rc=0
	shift
	rm -rf "$tmp/results"
	cp -r "$TOP/bench/results" "$tmp/results"
	awk -F, -v OFS=, '!done && $2 != "meta" && $5 + 0 > 0 { $5 = $5 * 2; done = 1 } { print }' \
		"$TOP/bench/results/$csv" >"$tmp/results/$csv"
	out=$(RESULTS="$tmp/results" "$TOP/bench/results.sh" check 2>&1) || rc=$?
	[ $rc != 0 ] || { echo "check passed"; return 1; }
	for text in "$@"; do
		grep -q "$text does not quote bench/results/" <<<"$out" ||
			{ echo "$out" | head -n 5; echo "$text not named"; return 1; }
	done
}
expect_ok "a figure changed in bench.csv is caught in docs/results.md and the cover letter" \
	bench_changed bench.csv docs/results.md patches/0000-cover-letter.patch
expect_ok "a figure changed in bench-lmdb.csv is caught in docs/results.md, the README and both cover letters" \
	bench_changed bench-lmdb.csv docs/results.md README.md \
	patches/0000-cover-letter.patch patches-6.12/0000-cover-letter.patch

rm -rf "$tmp"
