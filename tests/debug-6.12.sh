# make torture, on 6.12: the port on a debug kernel, 6.12-dbg
# (config/debug-6.12.config on top of config/linux-6.12.config: lockdep,
# debug objects, KASAN, DEBUG_VM, DEBUG_LIST, kmemleak, hang detectors),
# built in an object directory of its own (a full build, 30-60 min on 2
# cores): MS_ASYNC across cgroup wb switches (tests/cgswitch.sh: both
# checks ok, no kernel report), and the selftest on ext4 run to the end
# with no kernel report (its timings are not judged: a debug kernel is
# several times slower).  Sourced by tests/torture.sh after tests/lib.sh.
# shellcheck shell=bash

dbg612_frag="$TOP/config/linux-6.12.config $TOP/config/debug-6.12.config"
dbg612_log=$TESTS_LOG/build-6.12-dbg.log
if ! scripts/deps.sh 6.12 >"$TESTS_LOG/deps-6.12.log" 2>&1 ||
   ! scripts/tree-6.12.sh >"$TESTS_LOG/tree-6.12.log" 2>&1; then
	fail "linux-6.12 prepared for its debug kernel" \
		"$(tail -n 6 "$TESTS_LOG/tree-6.12.log" "$TESTS_LOG/deps-6.12.log" 2>/dev/null)"
elif TREE=$BUILD_DIR/linux-6.12 CONFIG_FRAGMENT="$dbg612_frag" \
	scripts/build.sh 6.12-dbg series >"$dbg612_log" 2>&1; then
	pass "6.12-dbg debug kernel builds (config/debug-6.12.config)"
	CGSWITCH_DEBUG=6.12-dbg . tests/cgswitch.sh
	if APPEND=acpi=off VERDICT=--sane FSLIST=ext4 TIMEOUT=2400 \
		scripts/guest.sh 6.12-dbg selftest >"$TESTS_LOG/selftest-6.12-dbg.out" 2>&1; then
		pass "6.12-dbg: the selftest on ext4 runs to the end, no kernel report"
	else
		fail "6.12-dbg: the selftest on ext4 runs to the end, no kernel report" \
			"$(tail -n 6 "$TESTS_LOG/selftest-6.12-dbg.out")" \
			"console log: $OUT_DIR/6.12-dbg-selftest.log"
	fi
else
	fail "6.12-dbg debug kernel builds (config/debug-6.12.config)" \
		"$(tail -n 8 "$dbg612_log")"
fi
