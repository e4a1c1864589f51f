# make check-6.12's run of patch 2, tools/testing/selftests/mm/msync_test,
# as a kernel developer runs it: built by the kselftest Makefile, run by
# run_vmtests.sh -t msync in the Debian guest (scripts/kselftest-612.sh),
# judged on the runner's TAP lines.  The patched kernel passes every case;
# the unpatched one fails the MS_ASYNC cases, each on its own sub-check,
# and passes the others (MS_SYNC has had its range since 3.16).  A case
# that skips counts as not passed.  Sourced by tests/run-6.12.sh.
# shellcheck shell=bash

KSELFTEST_CASES="sync_range sync_datasync async_start async_rate async_fair no_pin clean_map no_write errors"
# What must fail where, one "CASE:SUB-CHECK" a line: the case fails, and
# each of its failure lines has SUB-CHECK (its TH_LOG text; "*": the case
# may pass or fail).  Unpatched 6.12: MS_ASYNC is a no-op.  The planted
# nowait (tests/variants-6.12/planted.patch: MS_SYNC starts the range's
# writeback and returns): MS_SYNC's cases can fail on 6.12 too.  The
# planted wholefile (a pass writes each inode whole, not a chunk of it in
# turn with the others): the small file waits behind the big one.  A
# planted kernel runs only the cases its fault is for (KSELFTEST_ONLY):
# the others are judged on the port.
KSELFTEST_UNPATCHED="async_start:(a) no writeback within 5000 ms
async_rate:(a) page written 0 times
async_fair:(a) one-page file not written 5000 ms after MS_ASYNC"
KSELFTEST_NOWAIT="sync_range:(a) 
sync_datasync:*"
KSELFTEST_WHOLEFILE="async_fair:(d) small page dirty with "

# kselftest_case TAP CASE: ok, fail, skip or missing
kselftest_case() {
	local line
	line=$(grep -E "^# (not )?ok [0-9]+ msync\\.$2( |\$)" "$1" | head -n 1)
	case $line in
	"") echo missing ;;
	*"# SKIP"*) echo skip ;;
	"# not ok "*) echo fail ;;
	*) echo ok ;;
	esac
}

# kselftest_msgs TAP CASE: the case's failure lines, but the harness's own
# "Expected ..." lines
kselftest_msgs() {
	grep -E "^# # msync_test\\.c:[0-9]+:$2:" "$1" |
		sed -E "s/^# # msync_test\\.c:[0-9]+:$2://" | grep -v '^Expected ' || true
}

# kselftest_run KERNEL TITLE [SPEC [CASES]]: boot KERNEL's run and judge
# it: the cases of SPEC fail as it says, every other case passes (a skip
# is not a pass), the runner's own line agrees (with CASES, run alone:
# msync_test's exit status), the console has no kernel error.  CASES:
# run only those (KSELFTEST_ONLY).
kselftest_run() {
	local k=$1 title=$2 spec=${3:-} only=${4:-} tap=$OUT_DIR/kselftest/$1.tap
	local out=$TESTS_LOG/kselftest-$1.out c got want sub msgs bad="" runner kerr
	if ! KSELFTEST_ONLY=$only scripts/kselftest-612.sh "$k" >"$out" 2>&1; then
		fail "$k: $title" "$(tail -n 6 "$out")"
		return
	fi
	for c in ${only:-$KSELFTEST_CASES}; do
		got=$(kselftest_case "$tap" "$c")
		sub=$(grep "^$c:" <<<"$spec" | cut -d: -f2- || true)
		want=ok
		[ -z "$sub" ] || want=fail
		[ "$sub" = "*" ] && [ "$got" = ok ] && continue
		[ "$got" = "$want" ] || { bad="$bad $c: $got (want $want);"; continue; }
		if [ "$want" != fail ] || [ "$sub" = "*" ]; then
			continue
		fi
		msgs=$(kselftest_msgs "$tap" "$c")
		[ -n "$msgs" ] && ! grep -vqF "$sub" <<<"$msgs" ||
			bad="$bad $c failed on: $(head -n 1 <<<"${msgs:-nothing}") (want: $sub);"
	done
	if [ -n "$only" ]; then
		runner=$(grep -E '^kselftest: exit [0-9]+ ' "$tap" | cut -d' ' -f3 || true)
		[ "$runner" = "$([ -n "$spec" ] && echo 1 || echo 0)" ] ||
			bad="$bad msync_test exited with '$runner';"
	else
		runner=$(grep -E '^(not )?ok 1 msync_test' "$tap" || true)
		if [ -n "$spec" ]; then
			[ "$runner" = "not ok 1 msync_test # exit=1" ] || bad="$bad runner said '$runner';"
		else
			[ "$runner" = "ok 1 msync_test" ] || bad="$bad runner said '$runner';"
		fi
	fi
	kerr=$(tr -d '\r' <"$OUT_DIR/$k-kselftest.log" | grep -cE "$KERNEL_ERROR_RE" || true)
	[ "$kerr" = 0 ] || bad="$bad $kerr kernel error lines on the console;"
	if [ -z "$bad" ]; then
		pass "$k: $title"
	else
		fail "$k: $title" "${bad# }" "runner output: $tap, console: $OUT_DIR/$k-kselftest.log"
	fi
}

expect_ok "msync_test builds with the kselftest Makefile of selftests/mm" \
	scripts/kselftest-612.sh --build
kselftest_run 6.12-patched \
	"run_vmtests.sh -t msync: all $(wc -w <<<"$KSELFTEST_CASES") cases of msync_test pass"
kselftest_run 6.12-unpatched \
	"run_vmtests.sh -t msync: the MS_ASYNC cases fail on their sub-checks, 6 pass" \
	"$KSELFTEST_UNPATCHED"
if [ "${planted612_ok:-0}" = 1 ]; then
	kselftest_run 6.12-nowait \
		"msync_test -t sync_range -t sync_datasync: MS_SYNC that does not wait fails sync_range (a)" \
		"$KSELFTEST_NOWAIT" "sync_range sync_datasync"
	kselftest_run 6.12-wholefile \
		"msync_test -t async_fair: a pass that writes each inode whole fails async_fair (d)" \
		"$KSELFTEST_WHOLEFILE" async_fair
fi
