# MS_ASYNC on one file system of a disk while the other is frozen
# (guest/msync_sibling.c on the partitioned disk, disks.sh type parts):
# the patched kernel writes the other file system's range during the
# freeze (ok 1) and the frozen one's after the thaw (ok 2), and a pass
# that gave way to syncfs() of the other file system goes on after it
# with no other call (ok 3).  On v3.5 nothing is written (not ok 1); on
# the planted kernel v4 (v4's patch 2, tests/variants/v4.patch), whose
# request for the frozen file system stays active and holds its device,
# the other file system's range waits for the thaw (not ok 1); on the
# planted fault noresume (a pass that gives way to queued work forgets
# the rest of its round) the big file's rest is never written (not ok 3,
# 1 and 2 ok).  The disk is throttled (THROTTLE_BPS, 16 MiB/s), so that
# syncfs() comes while the pass runs.  Sourced by tests/run.sh.
# shellcheck shell=bash

# sibling_run KERNEL WANT TITLE: WANT is "ok" (the three lines ok),
# "not-ok" (line 1 not ok) or "not-ok-3" (lines 1 and 2 ok, 3 not ok);
# the guest must end without a kernel error either way.
# With BOOTED=1, sibling_boot has booted it.
sibling_boot() {
	VERDICT=--sane FSLIST=parts FS_SIZE=1G TIMEOUT=180 \
		scripts/guest.sh "$1" sibling >"$TESTS_LOG/sibling-$1.out" 2>&1 || true
}
sibling_run() {
	local k=$1 want=$2 title=$3 log got
	log=$TESTS_LOG/sibling-$k.out
	[ "${BOOTED:-0}" = 1 ] || sibling_boot "$k"
	got=$(tr -d '\r' <"$log" | grep -E '^(ok|not ok) [123] ')
	case $want in
	ok) [ "$(grep -c '^ok [123] ' <<<"$got")" = 3 ] ;;
	not-ok) grep -q '^not ok 1 ' <<<"$got" ;;
	not-ok-3) grep -q '^ok 1 ' <<<"$got" && grep -q '^ok 2 ' <<<"$got" &&
		  grep -Eq '^not ok 3 .* not done [0-9]+ ms after syncfs' <<<"$got" &&
		  plant_seen "$k" "$OUT_DIR/$k-sibling.log" ;;
	esac && grep -q '^PASS: guest ran to the end' "$log" && pass "$title" ||
		fail "$title" "$(tail -n 6 "$log")" "console log: $OUT_DIR/$k-sibling.log"
	sed 's/^/       '"$k"': /' <<<"$got"
}

# The two kernels boot while the planted one builds.
boot_bg sibling_boot patched
boot_bg sibling_boot unpatched
sibling_v4=0
build_variant v4 && sibling_v4=1
build_planted && boot_bg sibling_boot noresume
wait
BOOTED=1 sibling_run patched ok \
	"patched: MS_ASYNC on ext4 written while its sibling partition is frozen, the frozen one's after the thaw, a pass goes on after syncfs() of the sibling"
BOOTED=1 sibling_run unpatched not-ok \
	"unpatched: MS_ASYNC writes nothing (not ok 1, expected)"
if [ $sibling_v4 = 1 ]; then
	sibling_run v4 not-ok \
		"planted v4: the frozen file system's request holds the disk (not ok 1, expected)"
fi
if build_planted; then
	BOOTED=1 sibling_run noresume not-ok-3 \
		"planted noresume: a pass that gave way to syncfs() of the sibling does not go on (not ok 3, expected)"
fi
