#!/usr/bin/env bash
# bench/many.sh [KERNEL...]: what the flusher costs with many dirty inodes
# on one device (guest/msync_many.c, run "many"): N = 1, 10,000 and
# 100,000 files of one dirty 4 KiB page each (MANY_N), on ext4, each
# measurement MANY_REPS times (default 3) in one boot per kernel:
#   async     an MS_ASYNC pass, the periodic flusher off: time until the
#             msync'ed page of a small file is clean, the flusher's CPU
#             time (review question a: a pass walks the device's b_io and
#             b_dirty lists, N inodes long);
#   sync      sync() of the N files: its time, the flusher's CPU time;
#   periodic  the periodic flusher (dirty_writeback_centisecs 100) writing
#             the N files once they expire: time until written, CPU time
#             (b: programs that never call MS_ASYNC see no change).
# Kernels (default: unpatched patched, and 6.12-unpatched 6.12-patched if
# built): they must be built (make bench or make check-6.12 builds them).
# The guest gets its own initramfs (build/guest-many/) and its scratch
# image under build/run-bench/ (a 2 GiB ext4 image, FS_SIZE=2G: mkfs's
# default of one inode per 16 KiB gives 131,072 inodes, where the 1 GiB
# image of the other benchmarks has 65,536).  Writes out/bench-many.csv
# and out/bench-many.md.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

kernels=${*:-}
if [ -z "$kernels" ]; then
	kernels="unpatched patched"
	for k in 6.12-unpatched 6.12-patched; do
		[ -f "$(kernel_image "$k")" ] && kernels="$kernels $k"
	done
fi
for k in $kernels; do
	[ -f "$(kernel_image "$k")" ] ||
		die "no $k kernel: make bench (or make check-6.12) builds it"
done
reps=${MANY_REPS:-3}
ns=${MANY_N:-1 10000 100000}
export MEM=2048 SMP=2 FSLIST=ext4 THROTTLE_BPS='' DISK_CACHE=unsafe
export DISK_DEVICE_OPTS='' FS_SIZE=2G EIO_SECTOR='' TIMEOUT=${MANY_TIMEOUT:-1800}

initrd=$BUILD_DIR/guest-many/initramfs.cpio.gz
step "[1/2]" "building the guest's initramfs ($initrd)"
scripts/initramfs.sh "$initrd"
mkdir -p "$OUT_DIR"
csv=$OUT_DIR/bench-many.csv
echo "kernel,n,metric,median,min,max,unit,reps" >"$csv"
for k in $kernels; do
	step "[2/2]" "the flusher with many dirty inodes, $k kernel"
	KERNEL=$(kernel_image "$k") INITRD=$initrd \
	BUILD_DIR=$BUILD_DIR/run-bench VERDICT=--sane QUIET=1 \
	APPEND="msync.arg=$(echo "--reps $reps $ns" | tr ' ' :)" \
		scripts/guest.sh "$k" many >/dev/null ||
		die "msync_many failed on $k; console log: $OUT_DIR/$k-many.log"
	log=$OUT_DIR/$k-many.log
	tr -d '\r' <"$log" | grep -q '^msync-guest: result many exit=0' ||
		die "msync_many failed on $k; console log: $log"
	tr -d '\r' <"$log" | awk -F, -v k="$k" '
		$1 == "csv" && $2 == "many" {
			sub(/^N=/, "", $3)
			print k "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9
		}
		$1 == "meta" && ($2 == "create_s" || $2 == "create_sync_s" ||
				 $2 == "runtime_s" || $2 == "sysctl_restored" ||
				 $2 == "flusher") {
			print k ",meta," $2 "," $3 ",,,,"
		}' >>"$csv"
done

# The tables, from the csv alone: medians, [min-max] where they differ.
md=${csv%.csv}.md
awk -F, -v reps="$reps" -v date="$(date -u +%Y-%m-%d)" '
	NR == 1 { next }
	$2 == "meta" { meta[$1, $3] = $4; next }
	{
		if (!(($1) in seen)) { seen[$1] = 1; ks[++nk] = $1 }
		if (!(($2) in seenn)) { seenn[$2] = 1; nn[++nns] = $2 }
		v[$1, $2, $3] = $8 == 0 ? "NA" : \
			($5 == $6 ? fmt($4) : fmt($4) " [" fmt($5) "-" fmt($6) "]")
		med[$1, $2, $3] = $4
	}
	function fmt(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x) }
	function cell(k, n, m) { return ((k, n, m) in v) ? v[k, n, m] : "-" }
	END {
		print "# The flusher with many dirty inodes (bench/many.sh, " date ")"
		print ""
		print "N files of one dirty 4 KiB page each (written by write()) on"
		print "ext4, one device; median [min-max] of " reps " repetitions in"
		print "one boot per kernel; CPU times in clock ticks of 10 ms (the"
		print "flusher: flush-MAJ:MIN on v3.5, the sum over the kworker"
		print "threads on 6.12). Emulated machine (TCG) on a shared host."
		print ""
		print "## (a) An MS_ASYNC pass: msync(MS_ASYNC) of one page of a small file, N other files dirty, periodic flusher off"
		print ""
		print "| N | kernel | call ms | page clean after ms | not clean in 5 s | flusher CPU ms | flusher CPU ms, mean | KiB written |"
		print "|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nns; i++) for (j = 1; j <= nk; j++) {
			n = nn[i]; k = ks[j]
			print "| " n " | " k " | " cell(k, n, "async_call") " | " \
				cell(k, n, "async_clean") " | " \
				med[k, n, "async_clean_timeout"] " | " \
				cell(k, n, "async_flusher_cpu") " | " \
				cell(k, n, "async_flusher_cpu_mean") " | " \
				cell(k, n, "async_written") " |"
		}
		print ""
		print "## (b) No MS_ASYNC: sync() of the N files, and periodic writeback (dirty_writeback_centisecs 100) once they expire"
		print ""
		print "| N | kernel | sync() ms | sync: flusher CPU ms | sync: caller sys ms | periodic: first write after ms | periodic: all written after ms | periodic: flusher CPU ms | periodic KiB |"
		print "|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nns; i++) for (j = 1; j <= nk; j++) {
			n = nn[i]; k = ks[j]
			print "| " n " | " k " | " cell(k, n, "sync_time") " | " \
				cell(k, n, "sync_flusher_cpu") " | " \
				cell(k, n, "sync_caller_sys") " | " \
				cell(k, n, "periodic_first") " | " \
				cell(k, n, "periodic_written_all") " | " \
				cell(k, n, "periodic_flusher_cpu") " | " \
				cell(k, n, "periodic_written") " |"
		}
		print ""
		print "| kernel | flusher | creating the files s | their first sync s | in the guest s | knobs restored |"
		print "|---|---|---|---|---|---|"
		for (j = 1; j <= nk; j++) {
			k = ks[j]
			print "| " k " | " meta[k, "flusher"] " | " meta[k, "create_s"] " | " \
				meta[k, "create_sync_s"] " | " meta[k, "runtime_s"] " | " \
				meta[k, "sysctl_restored"] " |"
		}
	}' "$csv" >"$md"
cat "$md"
