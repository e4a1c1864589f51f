#!/usr/bin/env bash
# bench/many.sh [KERNEL...]: what the flusher costs with many dirty inodes
# on one device (guest/msync_many.c, run "many"): N = 1, 10,000 and
# 100,000 files of one dirty 4 KiB page each (MANY_N), on ext4, each
# measurement MANY_REPS times (default 3) in each of MANY_RUNS boots per
# kernel (default 1; the kernels interleaved), those MANY_ONLY names
# (default async,sync,periodic):
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
# (one row per repetition) and out/bench-many.md (medians); MANY_OUT
# names them otherwise.
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
runs=${MANY_RUNS:-1}
ns=${MANY_N:-1 10000 100000}
only=${MANY_ONLY:-async,sync,periodic}
export MEM=2048 SMP=2 FSLIST=ext4 THROTTLE_BPS='' DISK_CACHE=unsafe
export DISK_DEVICE_OPTS='' FS_SIZE=2G EIO_SECTOR='' TIMEOUT=${MANY_TIMEOUT:-1800}

initrd=$BUILD_DIR/guest-many/initramfs.cpio.gz
step "[1/2]" "building the guest's initramfs ($initrd)"
scripts/initramfs.sh "$initrd"
mkdir -p "$OUT_DIR"
# One row per repetition: the guest's "rep" lines, and its run facts.
csv=$OUT_DIR/${MANY_OUT:-bench-many}.csv
echo "kernel,run,n,measure,rep,metric,value" >"$csv"
for r in $(seq 1 "$runs"); do
	for k in $kernels; do
		step "[2/2]" "the flusher with many dirty inodes, $k kernel, run $r of $runs"
		KERNEL=$(kernel_image "$k") INITRD=$initrd \
		BUILD_DIR=$BUILD_DIR/run-bench VERDICT=--sane QUIET=1 \
		APPEND="msync.arg=$(echo "--reps $reps --only $only $ns" | tr ' ' :)" \
			scripts/guest.sh "$k" many >/dev/null ||
			die "msync_many failed on $k; console log: $OUT_DIR/$k-many.log"
		log=$OUT_DIR/$k-many.log
		tr -d '\r' <"$log" | grep -q '^msync-guest: result many exit=0' ||
			die "msync_many failed on $k; console log: $log"
		tr -d '\r' <"$log" | awk -F, -v k="$k" -v r="$r" '
			$1 == "rep" {
				for (i = 5; i <= NF; i++) {
					split($i, kv, "=")
					print k "," r "," $2 "," $3 "," $4 "," kv[1] "," kv[2]
				}
			}
			$1 == "meta" && ($2 == "create_s" || $2 == "create_sync_s" ||
					 $2 == "runtime_s" || $2 == "sysctl_restored" ||
					 $2 == "flusher") {
				print k "," r ",,meta,," $2 "," $3
			}' >>"$csv"
	done
done

# The tables, from the csv alone: the median [min-max] over every
# repetition of every run ("nan": the page was not clean in time).
md=${csv%.csv}.md
awk -F, -v reps="$reps" -v runs="$runs" -v date="$(date -u +%Y-%m-%d)" '
	function fmt(x) {
		return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
	}
	# median [min-max] of the values of key c, or NA
	function stat(c,   n, i, j, t, a, m) {
		n = cnt[c]
		if (!n) return "NA"
		for (i = 1; i <= n; i++) a[i] = val[c, i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		return fmt(a[1]) == fmt(a[n]) ? fmt(m) : fmt(m) " [" fmt(a[1]) "-" fmt(a[n]) "]"
	}
	function mean(c,   i, s) {
		if (!cnt[c]) return "NA"
		for (i = 1; i <= cnt[c]; i++) s += val[c, i]
		return fmt(s / cnt[c])
	}
	function cell(k, n, m, x) { return stat(k SUBSEP n SUBSEP m SUBSEP x) }
	NR == 1 { next }
	$4 == "meta" {
		if (($1, $6) in meta) meta[$1, $6] = meta[$1, $6] " " $7
		else meta[$1, $6] = $7
		next
	}
	{
		if (!(($1) in seen)) { seen[$1] = 1; ks[++nk] = $1 }
		if (!(($3) in seenn)) { seenn[$3] = 1; nn[++nns] = $3 }
		c = $1 SUBSEP $3 SUBSEP $4 SUBSEP $6
		if ($7 == "nan") { lost[c]++; next }
		val[c, ++cnt[c]] = $7
	}
	END {
		print "# The flusher with many dirty inodes (bench/many.sh, " date ")"
		print ""
		print "N files of one dirty 4 KiB page each (written by write()) on"
		print "ext4, one device; median [min-max] over " reps " repetitions in"
		print "each of " runs " boot(s) per kernel; CPU times in clock ticks of"
		print "10 ms (the flusher: flush-MAJ:MIN on v3.5, the sum over the"
		print "kworker threads on 6.12). Emulated machine (TCG) on a shared"
		print "host: a vCPU the host does not run still counts guest time."
		print ""
		print "## (a) An MS_ASYNC pass: msync(MS_ASYNC) of one page of a small file, N other files dirty, periodic flusher off"
		print ""
		print "| N | kernel | call ms | page clean after ms | not clean in 5 s | flusher CPU ms | flusher CPU ms, mean | KiB written |"
		print "|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nns; i++) for (j = 1; j <= nk; j++) {
			n = nn[i]; k = ks[j]
			c = k SUBSEP n SUBSEP "async" SUBSEP "clean_ms"
			print "| " n " | " k " | " cell(k, n, "async", "call_ms") " | " \
				cell(k, n, "async", "clean_ms") " | " lost[c] + 0 " | " \
				cell(k, n, "async", "flusher_ms") " | " \
				mean(k SUBSEP n SUBSEP "async" SUBSEP "flusher_ms") " | " \
				cell(k, n, "async", "written_kib") " |"
		}
		print ""
		print "## (b) No MS_ASYNC: sync() of the N files, and periodic writeback (dirty_writeback_centisecs 100) once they expire"
		print ""
		print "| N | kernel | sync() ms | sync: flusher CPU ms | sync: caller sys ms | periodic: first write after ms | periodic: all written after ms | periodic: flusher CPU ms |"
		print "|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= nns; i++) for (j = 1; j <= nk; j++) {
			n = nn[i]; k = ks[j]
			print "| " n " | " k " | " cell(k, n, "sync", "sync_ms") " | " \
				cell(k, n, "sync", "flusher_ms") " | " \
				cell(k, n, "sync", "caller_sys_ms") " | " \
				cell(k, n, "periodic", "first_ms") " | " \
				cell(k, n, "periodic", "written_ms") " | " \
				cell(k, n, "periodic", "flusher_ms") " |"
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
