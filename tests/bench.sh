# Benchmark smoke run: the program runs in the guest of both kernels (and
# M1 on the patched i386 kernel, when tests/i386.sh built it) and
# report.sh turns the outputs into the six tables, M1's i386 row and the
# design comparison (M3, M4, M6).  No figure is asserted: numbers belong
# to make bench.  Sourced by tests/run.sh.
# shellcheck shell=bash

bench_ok=1
for k in patched unpatched; do
	log=$TESTS_LOG/bench-quick-$k.out
	if ! (. bench/guest.env && VERDICT= TIMEOUT=300 scripts/guest.sh "$k" bench-quick) \
		>"$log" 2>&1; then
		fail "bench smoke run on $k" "$(tail -n 10 "$log")"
		bench_ok=0
		continue
	fi
	missing=""
	text=$(tr -d '\r' <"$OUT_DIR/$k-bench-quick.log")
	for m in M1 M2 M3 M4 M5 M6 M7; do
		grep -q "^csv,$m," <<<"$text" || missing="$missing $m"
	done
	if [ -z "$missing" ]; then
		pass "bench smoke run on $k: M1-M7 rows"
	else
		fail "bench smoke run on $k: M1-M7 rows" "no rows for:$missing"
		bench_ok=0
	fi
done
i386=""
if [ -f "$BUILD_DIR/o-i386-patched/arch/x86/boot/bzImage" ]; then
	log=$TESTS_LOG/bench-quick-i386-patched.out
	if (. bench/guest.env && APPEND=msync.arg=--only:M1 VERDICT= TIMEOUT=300 \
		scripts/guest.sh i386-patched bench-quick) >"$log" 2>&1 &&
	   tr -d '\r' <"$OUT_DIR/i386-patched-bench-quick.log" | grep '^csv,M1,' >/dev/null; then
		pass "bench smoke run on i386-patched: M1 rows"
		i386=i386-patched=$OUT_DIR/i386-patched-bench-quick.log
	else
		fail "bench smoke run on i386-patched: M1 rows" "$(tail -n 10 "$log")"
		bench_ok=0
	fi
fi
if [ $bench_ok = 1 ]; then
	rm -rf "$TESTS_LOG/bench-report"
	# shellcheck disable=SC2086
	if bench/report.sh "$OUT_DIR/unpatched-bench-quick.log" \
		"$OUT_DIR/patched-bench-quick.log" "$TESTS_LOG/bench-report" $i386 \
		>"$TESTS_LOG/bench-report.log" 2>&1 &&
	   [ "$(grep -c '^## M[1-57]' "$TESTS_LOG/bench-report/bench.md")" = 6 ] &&
	   { [ -z "$i386" ] || grep -q '^| i386: ' "$TESTS_LOG/bench-report/bench.md"; } &&
	   grep -q '^## Design comparison' "$TESTS_LOG/bench-report/bench.md" &&
	   [ "$(grep -c '^### M[346]' "$TESTS_LOG/bench-report/bench.md")" = 3 ] &&
	   [ -s "$TESTS_LOG/bench-report/bench.csv" ]; then
		pass "bench report: six tables (M1-M5, M7), the design comparison and the csv from the smoke outputs"
	else
		fail "bench report: six tables (M1-M5, M7), the design comparison and the csv from the smoke outputs" \
			"see $TESTS_LOG/bench-report.log"
	fi
fi
