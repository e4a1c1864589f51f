#!/usr/bin/env bash
# make bench: the same benchmark, same scratch image and same QEMU settings,
# on the unpatched and the patched kernel; then out/bench.md, bench.csv
# and bench.png.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

. "$TOP/bench/guest.env"
export TIMEOUT=${BENCH_TIMEOUT:-900}

echo "[1/6] checking packages and preparing the tree..."
scripts/deps.sh
scripts/fetch.sh >/dev/null
scripts/tree.sh
echo "[2/6] building linux-3.5 (unpatched)..."
scripts/build.sh unpatched base
echo "[3/6] building linux-3.5 (patched)..."
scripts/build.sh patched series
mkdir -p "$BUILD_DIR/guest"
scripts/initramfs.sh "$BUILD_DIR/guest/initramfs.cpio.gz"
for k in unpatched patched; do
	n=$([ $k = unpatched ] && echo 4 || echo 5)
	echo "[$n/6] benchmarking the $k kernel (up to $((TIMEOUT / 60)) min)..."
	VERDICT= QUIET=1 scripts/guest.sh $k bench ||
		die "the benchmark failed on the $k kernel; console log: $OUT_DIR/$k-bench.log"
done
echo "[6/6] writing out/bench.md, out/bench.csv and out/bench.png..."
bench/report.sh "$OUT_DIR/unpatched-bench.log" "$OUT_DIR/patched-bench.log" "$OUT_DIR"
echo "done: $OUT_DIR/bench.md"
