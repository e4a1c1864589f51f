# Benchmark smoke run: the program runs in the guest of both kernels and
# its output parses.  No figure is asserted: numbers belong to make bench.
# Sourced by tests/run.sh.
# shellcheck shell=bash

for k in patched unpatched; do
	log=$TESTS_LOG/bench-quick-$k.out
	if ! VERDICT= FSLIST="ext4 ext2" TIMEOUT=300 scripts/guest.sh "$k" bench-quick \
		>"$log" 2>&1; then
		fail "bench smoke run on $k" "$(tail -n 10 "$log")"
		continue
	fi
	missing=""
	for m in M1 M2 M3 M4 M5; do
		grep -q "^csv,$m," "$OUT_DIR/$k-bench-quick.log" 2>/dev/null ||
			tr -d '\r' <"$OUT_DIR/$k-bench-quick.log" | grep -q "^csv,$m," ||
			missing="$missing $m"
	done
	if [ -z "$missing" ]; then
		pass "bench smoke run on $k: M1-M5 rows parse"
	else
		fail "bench smoke run on $k: M1-M5 rows parse" "no rows for:$missing"
	fi
done
