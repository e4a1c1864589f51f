# Helpers for the test groups in tests/: each check prints one line and is
# counted; tests/run.sh prints the totals.
# shellcheck shell=bash

. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
TESTS_LOG=${TESTS_LOG:-$OUT_DIR/tests}
mkdir -p "$TESTS_LOG"
PASSED=${PASSED:-0}
FAILED=${FAILED:-0}

pass() {
	PASSED=$((PASSED + 1))
	echo "  ok   $1"
}

fail() {
	FAILED=$((FAILED + 1))
	echo "  FAIL $1"
	shift
	[ $# -gt 0 ] && printf '       %s\n' "$@"
	return 0
}

# boot_bg CMD...: run CMD (a guest boot) in the background, with at most
# BOOT_JOBS (default 3) background jobs of the run at once: a guest under
# TCG mostly waits for its throttled disk, so three share two cores well.
# The one place where the groups start boots in the background; $! is
# the job's PID, wait collects it.
boot_bg() {
	while [ "$(jobs -pr | wc -l)" -ge "${BOOT_JOBS:-3}" ]; do
		wait -n || true
	done
	"$@" &
}

# expect_fail NAME PATTERN CMD...: CMD must fail and print PATTERN (an
# extended regex) on stdout or stderr.
expect_fail() {
	local name=$1 pat=$2 log rc=0
	shift 2
	log=$TESTS_LOG/$(echo "$name" | tr -c 'a-zA-Z0-9\n' - | cut -c1-60).log
	LAST_LOG=$log
	"$@" >"$log" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		fail "$name" "command succeeded; see $log"
	elif ! grep -Eq "$pat" "$log"; then
		fail "$name" "failed but did not say /$pat/; see $log" \
			"$(tail -n 5 "$log")"
	else
		pass "$name"
	fi
}

# expect_ok NAME CMD...: CMD must succeed.
expect_ok() {
	local name=$1 log
	shift
	log=$TESTS_LOG/$(echo "$name" | tr -c 'a-zA-Z0-9\n' - | cut -c1-60).log
	if "$@" >"$log" 2>&1; then
		pass "$name"
	else
		fail "$name" "see $log" "$(tail -n 8 "$log")"
	fi
}

# guest_check KERNEL RUN TITLE SHOW SUMMARY [VAR=value...]: boot KERNEL
# running RUN in the guest (settings as VAR=value); it must end without a
# kernel error and print "ok 1 - ".  On failure the lines matching SHOW
# are shown; the lines matching SUMMARY are printed either way.
guest_check() {
	local k=$1 run=$2 title=$3 show=$4 summary=$5 log
	shift 5
	log=$TESTS_LOG/$run-$k.out
	[ "${BOOTED:-0}" = 1 ] || guest_boot "$k" "$run" "$@"
	if [ "$(cat "$log.rc" 2>/dev/null)" = 0 ] &&
	   grep -q '^ok 1 - ' "$log"; then
		pass "$title"
	else
		fail "$title" "$(grep -E "$show" "$log" | tail -n 6)" \
			"console log: $OUT_DIR/$k-$run.log"
	fi
	grep -E "$summary" "$log" | sed "s/^# //; s/^/       $k: /" || true
}

# guest_boot KERNEL RUN [VAR=value...]: guest_check's boot alone (for
# boot_bg; BOOTED=1 guest_check then judges it); its exit status goes to
# $TESTS_LOG/RUN-KERNEL.out.rc.
guest_boot() {
	local k=$1 run=$2 log rc=0
	shift 2
	log=$TESTS_LOG/$run-$k.out
	rm -f "$log.rc"
	env "$@" scripts/guest.sh "$k" "$run" >"$log" 2>&1 || rc=$?
	echo $rc >"$log.rc"
}

# build_variant NAME: build the test-only kernel tests/variants/NAME.patch
# from a copy of the patched kernel's objects (it differs in a few files).
build_variant() {
	local log=$TESTS_LOG/variant-$1.log
	if scripts/variant.sh "$1" >"$log" 2>&1 &&
	   scripts/build.sh "$1" "variant-$1" patched >>"$log" 2>&1; then
		pass "test-only kernel '$1' builds (tests/variants/$1.patch)"
		return 0
	fi
	fail "test-only kernel '$1' builds (tests/variants/$1.patch)" \
		"$(tail -n 8 "$log")"
	return 1
}

# build_planted: build the planted kernel (scripts/lib.sh, plants), once
# a run; 0 if it is there.
build_planted() {
	case ${planted_built:-} in
	yes) return 0 ;;
	no) return 1 ;;
	esac
	planted_built=no
	build_variant planted || return 1
	planted_built=yes
}

# plant_seen NAME LOG: the planted kernel's console LOG says fault NAME
# was planted (a boot that planted nothing proves nothing).
plant_seen() {
	grep -aqF "msync: test-only fault '$1' planted" "$2" 2>/dev/null
}
