# MS_ASYNC on one file system of a disk while the other is frozen
# (guest/msync_sibling.c on the partitioned disk, disks.sh type parts):
# the patched kernel writes the other file system's range during the
# freeze (ok 1) and the frozen one's after the thaw (ok 2).  On v3.5
# nothing is written (not ok 1); on the planted kernel v4 (v4's patch 2,
# tests/variants/v4.patch), whose request for the frozen file system
# stays active and holds its device, the other file system's range waits
# for the thaw (not ok 1).  Sourced by tests/run.sh.
# shellcheck shell=bash

# sibling_run KERNEL WANT TITLE: WANT is "ok" (both lines ok) or "not-ok"
# (line 1 not ok); the guest must end without a kernel error either way.
# With BOOTED=1, sibling_boot has booted it.
sibling_boot() {
	VERDICT=--sane FSLIST=parts THROTTLE_BPS= FS_SIZE=1G TIMEOUT=180 \
		scripts/guest.sh "$1" sibling >"$TESTS_LOG/sibling-$1.out" 2>&1 || true
}
sibling_run() {
	local k=$1 want=$2 title=$3 log got
	log=$TESTS_LOG/sibling-$k.out
	[ "${BOOTED:-0}" = 1 ] || sibling_boot "$k"
	got=$(tr -d '\r' <"$log" | grep -E '^(ok|not ok) [12] ')
	case $want in
	ok) [ "$(grep -c '^ok [12] ' <<<"$got")" = 2 ] &&
	    grep -q '^PASS: guest ran to the end' "$log" ;;
	not-ok) grep -q '^not ok 1 ' <<<"$got" &&
		grep -q '^PASS: guest ran to the end' "$log" ;;
	esac && pass "$title" ||
		fail "$title" "$(tail -n 6 "$log")" "console log: $OUT_DIR/$k-sibling.log"
	sed 's/^/       '"$k"': /' <<<"$got"
}

# The two kernels boot while the planted one builds.
boot_bg sibling_boot patched
boot_bg sibling_boot unpatched
sibling_v4=0
build_variant v4 && sibling_v4=1
wait
BOOTED=1 sibling_run patched ok \
	"patched: MS_ASYNC on ext4 written while its sibling partition is frozen, the frozen one's after the thaw"
BOOTED=1 sibling_run unpatched not-ok \
	"unpatched: MS_ASYNC writes nothing (not ok 1, expected)"
if [ $sibling_v4 = 1 ]; then
	sibling_run v4 not-ok \
		"planted v4: the frozen file system's request holds the disk (not ok 1, expected)"
fi
