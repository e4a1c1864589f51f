#!/usr/bin/env bash
# bench/lmdb.sh [KERNEL...]: LMDB's commit loop (bench/lmdb_bench.c) on
# each kernel, MS_ASYNC commits (MDB_MAPASYNC) and MS_SYNC commits, ext4 on
# an unthrottled disk, the kernel's default flusher settings; RUNS boots
# per kernel, interleaved (default 3), LMDB_SECONDS per mode (default 10).
# Kernels: unpatched, patched and variants of patch 2 (tests/variants/):
# delay0, delay10, delay100, delay500 (how soon the flusher writes after
# MS_ASYNC, in ms; 1000 in the series), aprime (2012 v2: the caller
# writes, skips a congested device), v4 (v4's patch 2), dfixed (v4 with
# its review's faults fixed).  Writes out/LMDB_OUT.csv and
# out/LMDB_OUT.md (LMDB_OUT: default bench-lmdb; bench-lmdb-6.12 for the
# 6.12 kernels, which make check-6.12 builds).  Variants are built from
# the patched kernel's objects.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

kernels=${*:-unpatched patched delay0 delay10 delay100 delay500 aprime v4 dfixed}
# bench-lmdb or bench-lmdb-6.12: bench/tables.sh knows their tables
out=${LMDB_OUT:-bench-lmdb}
case $out in
bench-lmdb|bench-lmdb-6.12) ;;
*) die "LMDB_OUT=$out: bench-lmdb or bench-lmdb-6.12" ;;
esac
runs=${RUNS:-3}
secs=${LMDB_SECONDS:-10}
export MEM=2048 SMP=2 FSLIST=ext4 THROTTLE_BPS= DISK_CACHE=unsafe
export DISK_DEVICE_OPTS= FS_SIZE=1G TIMEOUT=$((secs * 3 + 180))

n=0
total=$(( $(echo $kernels | wc -w) + 1 ))
for k in $kernels; do
	n=$((n + 1))
	# bench/run.sh has built them (in an order that spares rebuilds)
	[ -n "${LMDB_NO_BUILD:-}" ] && continue
	case $k in
	6.12-*) [ -f "$(kernel_image "$k")" ] ||
		die "no $k kernel: make bench or make check-6.12 builds it"
		continue ;;
	esac
	step "[$n/$total]" "building linux-3.5 ($k)"
	case $k in
	unpatched) scripts/build.sh unpatched base ;;
	patched) scripts/build.sh patched series ;;
	*) scripts/variant.sh "$k"
	   scripts/build.sh "$k" "variant-$k" patched ;;
	esac
done
[ -f "$BUILD_DIR/guest/initramfs.cpio.gz" ] ||
	scripts/initramfs.sh "$BUILD_DIR/guest/initramfs.cpio.gz"
mkdir -p "$OUT_DIR"
csv=$OUT_DIR/$out.csv
echo "kernel,run,mode,commits,rate,kib_per_commit,median_us,max_us,clean_ms,faults_per_commit,sys_us_per_commit" >"$csv"
for r in $(seq 1 "$runs"); do
	for k in $kernels; do
		step "[$total/$total]" "LMDB on $k, run $r of $runs"
		KERNEL=$(kernel_image "$k") \
		INITRD=$BUILD_DIR/guest/initramfs.cpio.gz \
		BUILD_DIR=$BUILD_DIR/run-bench VERDICT= QUIET=1 APPEND="msync.arg=$secs" \
			scripts/guest.sh "$k" lmdb >/dev/null ||
			die "LMDB failed on $k; console log: $OUT_DIR/$k-lmdb.log"
		tr -d '\r' <"$OUT_DIR/$k-lmdb.log" | awk -v k="$k" -v r="$r" '
			/^lmdb mode=/ {
				for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
				sub(/\/s$/, "", v["rate"])
				print k "," r "," v["mode"] "," v["commits"] "," v["rate"] "," \
					v["kib_per_commit"] "," v["median_us"] "," v["max_us"] "," v["clean_ms"] "," \
					v["faults_per_commit"] "," v["sys_us_per_commit"]
			}' >>"$csv"
	done
done
# The 6.12 run joins the source note of the make bench run before it
[ "$out" = bench-lmdb ] || [ ! -f "$OUT_DIR/bench-source.txt" ] ||
	echo "bench/lmdb.sh $kernels of $(date -u +%Y-%m-%d) after it ($out.csv)" \
		>>"$OUT_DIR/bench-source.txt"
# Table: per kernel and mode, the range over the runs.
"$TOP/bench/tables.sh" "$OUT_DIR" "${out#bench-}" >"${csv%.csv}.md"
cat "${csv%.csv}.md"
