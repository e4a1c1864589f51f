# MS_ASYNC on one file system of a disk while the other is frozen, synced
# or unmounted (guest/msync_sibling.c on the partitioned disk, disks.sh
# type parts): the patched kernel writes the other file system's range
# during the freeze (ok 1) and the frozen one's after the thaw (ok 2),
# and a pass gives way to the sync of the other file system, by syncfs()
# (3), a freeze cycle (4) or umount (5), which neither waits for the pass
# nor is held behind it, and goes on after it with no other call.  On
# v3.5 nothing is written (not ok 1); on the planted kernel v4 (v4's
# patch 2, tests/variants/v4.patch), whose request for the frozen file
# system stays active and holds its device, the other file system's
# range waits for the thaw (not ok 1); on the planted fault noresume (a
# pass that gives way to queued work forgets the rest of its round) the
# big file's rest is never written, and on nogiveway (the pass does not
# give way to queued work) the sync waits while the pass goes on: each
# fails one of 3-5 at least (which ones varies with where the pass is
# when the sync comes), with 1 and 2 ok.  The disk is throttled
# (THROTTLE_BPS, 16 MiB/s), so that the sync comes while the pass runs.
# Sourced by tests/run.sh.
# shellcheck shell=bash

# sibling_run KERNEL WANT TITLE: WANT is "ok" (the five lines ok),
# "not-ok" (line 1 not ok; booted with checks 1 and 2 only), "noresume" or "nogiveway" (lines 1 and 2 ok,
# one of 3-5 at least not ok for that fault's reason); the guest must end
# without a kernel error either way.
# With BOOTED=1, sibling_boot has booted it.
# sibling_boot KERNEL [2]: with 2, checks 1 and 2 only (the kernels
# judged on check 1: checks 3-5 would wait out their bounds for nothing).
sibling_boot() {
	VERDICT=--sane FSLIST=parts FS_SIZE=1G TIMEOUT=300 \
		APPEND=${2:+msync.arg=$2} \
		scripts/guest.sh "$1" sibling >"$TESTS_LOG/sibling-$1.out" 2>&1 || true
}
sibling_run() {
	local k=$1 want=$2 title=$3 log got checks=
	log=$TESTS_LOG/sibling-$k.out
	[ "$want" = not-ok ] && checks=2
	[ "${BOOTED:-0}" = 1 ] || sibling_boot "$k" $checks
	got=$(tr -d '\r' <"$log" | grep -E '^(ok|not ok) [1-5] ' || true)
	case $want in
	ok) [ "$(grep -c '^ok [1-5] ' <<<"$got")" = 5 ] ;;
	not-ok) grep -q '^not ok 1 ' <<<"$got" ;;
	noresume) sibling_planted "$k" "$got" 'not done [0-9]+ ms after' ;;
	nogiveway) sibling_planted "$k" "$got" \
		'pages of .* submitted during|took [0-9]+ ms, want at most' ;;
	esac && grep -q '^PASS: guest ran to the end' "$log" && pass "$title" ||
		fail "$title" "$(tail -n 8 "$log")" "console log: $OUT_DIR/$k-sibling.log"
	sed 's/^/       '"$k"': /' <<<"$got"
}

# sibling_planted FAULT LINES RE: 1 and 2 ok, one of 3-5 not ok matching
# RE, and the fault planted.
sibling_planted() {
	grep -q '^ok 1 ' <<<"$2" && grep -q '^ok 2 ' <<<"$2" &&
		grep -Eq "^not ok [345] - .*($3)" <<<"$2" &&
		plant_seen "$1" "$OUT_DIR/$1-sibling.log"
}

# The two kernels boot while the planted one builds.
boot_bg sibling_boot patched
boot_bg sibling_boot unpatched 2
sibling_v4=0
build_variant v4 && sibling_v4=1
build_planted && boot_bg sibling_boot noresume &&
	boot_bg sibling_boot nogiveway
wait
BOOTED=1 sibling_run patched ok \
	"patched: MS_ASYNC on ext4 written while its sibling partition is frozen, the frozen one's after the thaw; a pass gives way to the sibling's syncfs(), freeze and umount, and goes on after"
BOOTED=1 sibling_run unpatched not-ok \
	"unpatched: MS_ASYNC writes nothing (not ok 1, expected)"
if [ $sibling_v4 = 1 ]; then
	sibling_run v4 not-ok \
		"planted v4: the frozen file system's request holds the disk (not ok 1, expected)"
fi
if build_planted; then
	BOOTED=1 sibling_run noresume noresume \
		"planted noresume: a pass that gave way to the sibling's sync does not go on (expected)"
	BOOTED=1 sibling_run nogiveway nogiveway \
		"planted nogiveway: the sibling's sync (syncfs, freeze, umount) waits while the pass goes on (expected)"
fi
