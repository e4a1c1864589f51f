#!/usr/bin/env bash
# make check-all: make check, then make check-6.12, with the 6.12 kernels
# built beside make check at idle priority (SCHED_IDLE, tests/
# prebuild-6.12.sh): make check's guests mostly wait for their throttled
# disks and leave the cores idle, and a kernel build there costs make
# check little, while check-6.12 is left its guests.  Ends with the
# totals of both runs, "N passed, N failed"; exits non-zero on any
# failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"

started=$(date +%s)
# The package installs first, once: apt takes a lock.
scripts/deps.sh >/dev/null
scripts/deps.sh 6.12 >/dev/null
prebuild_log=$OUT_DIR/prebuild-6.12.log
# In a session of its own, so that an interrupted run stops its make too
setsid chrt --idle 0 nice -n 19 tests/prebuild-6.12.sh >"$prebuild_log" 2>&1 &
prebuild=$!
trap 'kill -- -$prebuild 2>/dev/null; kill -CONT -- -$prebuild 2>/dev/null || true' EXIT

# run NAME SCRIPT: one suite, its output shown and kept; its totals added.
passed=0 failed=0
run() {
	local log=$OUT_DIR/$1.log totals
	"$2" | tee "$log" || true
	totals=$(tail -n 1 "$log")
	if [[ $totals =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else
		echo "check-all: $2 ended without its totals (see $log)"
		failed=$((failed + 1))
	fi
}

PREBUILD_PGID=$prebuild run check tests/run.sh
t=$(date +%s)
if wait $prebuild; then
	echo "check-all: the 6.12 kernels built beside make check" \
		"(waited $(( $(date +%s) - t )) s for them)"
else
	echo "check-all: building the 6.12 kernels ahead failed" \
		"(check-6.12 builds them; see $prebuild_log)"
fi
trap - EXIT
run check-6.12 tests/run-6.12.sh
echo "check-all took $(( $(date +%s) - started )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
