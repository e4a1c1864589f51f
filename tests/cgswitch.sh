# MS_ASYNC while cgroup writeback moves the file to another wb, on 6.12
# (guest/msync_cgswitch.c, on ext4 throttled to THROTTLE_BPS): a request
# pending when the inode moves (1) and a pass writing the inode when it
# moves (2) must both see the file written with no other call.
#   6.12-patched     ok 1, ok 2
#   6.12-unpatched   not ok 1 and 2: no pass, so the one-page file of
#                    check 1 and the file of check 2 are not written
#                    (their setups fail)
#   6.12-switchlost  the planted fault: the switch does not ask the new wb
#                    for a pass (neither where the inode moves from a
#                    list nor where it moved while the pass wrote it):
#                    not ok 1 and not ok 2, each "not written"
# The new wb is given a share of recent writeout first (the program says
# why): without it, the wakeup that ends every switch starts background
# writeback of the new wb, which writes the moved file on every kernel
# and hides a lost request.  Sourced by tests/run-6.12.sh (planted612
# must have run) and tests/torture.sh (the debug kernel).
# shellcheck shell=bash

cgswitch_boot() {
	VERDICT=--sane FSLIST=ext4 TIMEOUT=400 \
		scripts/guest.sh "$1" cgswitch >"$TESTS_LOG/cgswitch-$1.out" 2>&1 || true
}

# cgswitch_judge KERNEL WANT TITLE: WANT is "ok" (both ok), "lost" (both
# "not written") or "unpatched" (both not ok at their setup, for want of
# a pass); the guest must end without a kernel error either way.
cgswitch_judge() {
	local k=$1 want=$2 title=$3 log got
	log=$TESTS_LOG/cgswitch-$k.out
	got=$(tr -d '\r' <"$OUT_DIR/$k-cgswitch.log" 2>/dev/null |
		grep -aE '^(ok|not ok) [12] ' || true)
	case $want in
	ok) [ "$(grep -c '^ok [12] ' <<<"$got")" = 2 ] ;;
	lost) [ "$(grep -cE '^not ok [12] - [^:]*: not written' <<<"$got")" = 2 ] &&
	      plant_seen switchlost "$OUT_DIR/$k-cgswitch.log" ;;
	unpatched) grep -q "^not ok 1 - setup: the old wb's pass did not write" <<<"$got" &&
		   grep -q '^not ok 2 - setup: the inode did not move' <<<"$got" ;;
	esac && grep -q '^PASS: guest ran to the end' "$log" && pass "$title" ||
		fail "$title" "$(tail -n 4 "$log")" "console log: $OUT_DIR/$k-cgswitch.log"
	sed 's/^/       '"$k"': /' <<<"$got"
}

if [ -n "${CGSWITCH_DEBUG:-}" ]; then
	# acpi=off: the debug kernel's ACPI interpreter crawls under TCG
	APPEND=acpi=off cgswitch_boot "$CGSWITCH_DEBUG"
	cgswitch_judge "$CGSWITCH_DEBUG" ok \
		"$CGSWITCH_DEBUG: MS_ASYNC across cgroup wb switches on the debug kernel, no kernel report"
	if grep -aq '^# cgswitch kmemleak: 0 ' "$OUT_DIR/$CGSWITCH_DEBUG-cgswitch.log"; then
		pass "$CGSWITCH_DEBUG: kmemleak finds nothing allocated during the switches"
	else
		fail "$CGSWITCH_DEBUG: kmemleak finds nothing allocated during the switches" \
			"$(grep -a 'cgswitch kmemleak' "$OUT_DIR/$CGSWITCH_DEBUG-cgswitch.log" || echo 'no kmemleak line')"
	fi
else
	boot_bg cgswitch_boot 6.12-patched
	boot_bg cgswitch_boot 6.12-unpatched
	boot_bg cgswitch_boot 6.12-switchlost
	wait
	cgswitch_judge 6.12-patched ok \
		"6.12-patched: an MS_ASYNC request moves with its inode to another cgroup's wb, pending or mid-pass"
	cgswitch_judge 6.12-unpatched unpatched \
		"6.12-unpatched: MS_ASYNC writes nothing, before or after a switch (not ok 1 and 2, expected)"
	cgswitch_judge 6.12-switchlost lost \
		"6.12-switchlost: a switch that does not ask the new wb loses the request (not ok 1 and 2, expected)"
fi
