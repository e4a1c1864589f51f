#!/bin/sh
# report.sh - turn msync_bench outputs into tables and a plot.
#
#   report.sh <unpatched.out> <patched.out> <outdir> [<name>=<file> ...]
#
# The inputs may be bare msync_bench output or a whole guest console log
# (then only the part between "=== BEGIN msync_bench output ===" and
# "=== END" is read).  Writes <outdir>/bench.csv, <outdir>/bench.md, the
# plot data <outdir>/bench_plot_*.dat and, with gnuplot, <outdir>/bench.png
# (plot script: bench.gp beside this file).
#
# M1-M5 compare unpatched and patched.  Further kernels, given as
# name=file (e.g. aprime=out/aprime-bench.log v4=out/v4-bench.log, the
# other MS_ASYNC designs of patch 2), appear only in the design
# comparison section (M3, M4 ms_async, M6), beside unpatched and patched;
# i386-unpatched=file and i386-patched=file (an M1-only run of the i386
# kernels) only as i386 rows of the M1 table.
set -eu

if [ $# -lt 3 ]; then
	echo "usage: $0 <unpatched.out> <patched.out> <outdir> [<name>=<file> ...]" >&2
	exit 2
fi
unp=$1
pat=$2
out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
for f in "$unp" "$pat"; do
	[ -r "$f" ] || { echo "report.sh: cannot read $f" >&2; exit 1; }
done
# the extra kernels: names and files, in the order given
extra_names=""
i386_names=""
for a in "$@"; do
	n=${a%%=*}
	f=${a#*=}
	case $n in
	''|*[!a-z0-9_-]*|unpatched|patched|"$a")
		echo "report.sh: bad extra kernel '$a' (want name=file, name in [a-z0-9_-])" >&2
		exit 2 ;;
	esac
	[ -r "$f" ] || { echo "report.sh: cannot read $f" >&2; exit 1; }
	case $n in
	i386-*) i386_names="$i386_names $n" ;;
	*) extra_names="$extra_names $n" ;;
	esac
done
mkdir -p "$out"

# extract: print the msync_bench lines of one output, \r removed
extract() {
	tr -d '\r' <"$1" | awk '
		/^=== BEGIN msync_bench output ===/ { n = 0; inside = 1; marked = 1; next }
		/^=== END msync_bench output/ { inside = 0; next }
		{ all[++na] = $0; if (inside) part[++n] = $0 }
		END {
			if (marked) for (i = 1; i <= n; i++) print part[i]
			else for (i = 1; i <= na; i++) print all[i]
		}' | grep -E '^(csv|meta),' || true
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
extract "$unp" >"$tmp/unpatched"
extract "$pat" >"$tmp/patched"
extra_files=""
for a in "$@"; do
	extract "${a#*=}" >"$tmp/${a%%=*}"
	case ${a%%=*} in
	i386-*) ;;
	*) extra_files="$extra_files ${a#*=}" ;;
	esac
done
kernels="unpatched patched$extra_names"
for k in $kernels $i386_names; do
	if ! grep -q '^csv,' "$tmp/$k"; then
		echo "report.sh: no csv lines in the $k output" >&2
		exit 1
	fi
done

# bench.csv: every row, with a kernel column
{
	echo "kernel,measurement,param,metric,median,min,max,unit,n"
	for k in $kernels $i386_names; do
		grep '^csv,' "$tmp/$k" | sed "s/^csv,/$k,/"
	done
} >"$out/bench.csv"

# bench.md and the plot data
# kernel names are checked above ([a-z0-9_-]): the file list splits safely
# shellcheck disable=SC2046
awk -F, -v out="$out" -v unpf="$unp" -v patf="$pat" -v kernels="$kernels" \
	-v extraf="$extra_files" '
function num(x) { return x + 0 }
function fmt(x,   a) {
	if (x == "" || x == "NA") return "n/a"
	a = x < 0 ? -x : x
	if (x == int(x)) return sprintf("%d", x)
	if (a >= 100) return sprintf("%.0f", x)
	if (a >= 10) return sprintf("%.1f", x)
	if (a >= 1) return sprintf("%.2f", x)
	if (a >= 0.01 || a == 0) return sprintf("%.3f", x)
	if (a < 0.0001) return sprintf("%.1e", x)
	return sprintf("%.4f", x)
}
function ratio(p, u,   r) {
	if (p == "" || u == "" || p == "NA" || u == "NA" || num(u) == 0)
		return "-"
	r = num(p) / num(u)
	if (r >= 10) return sprintf("%.0f", r)
	if (r >= 0.1) return sprintf("%.2f", r)
	if (r >= 0.001) return sprintf("%.3f", r)
	return sprintf("%.2g", r)
}
function has(k, m, p, t) { return ((k, m, p, t) in med) }
function get(k, m, p, t) { return has(k, m, p, t) ? med[k, m, p, t] : "NA" }
# "median [min-max]" or just the median when all reps agree or n==1
function cell(k, m, p, t,   s) {
	if (!has(k, m, p, t)) return "n/a"
	s = fmt(med[k, m, p, t])
	if (cnt[k, m, p, t] > 1 && fmt(mn[k, m, p, t]) != fmt(mx[k, m, p, t]))
		s = s " [" fmt(mn[k, m, p, t]) "-" fmt(mx[k, m, p, t]) "]"
	return s
}
# the longest of the per-repetition values, "n/a" if none
function maxcell(k, m, p, t) { return has(k, m, p, t) ? fmt(mx[k, m, p, t]) : "n/a" }
# what each kernel of the design comparison is
function design(k) {
	if (k == "unpatched") return "v3.5: MS_ASYNC is a no-op"
	if (k == "patched") return "v5 (the series, design E): the inode is expired and the flusher thread of its device asked for a kupdate pass within a second; nothing allocated, no file or inode held"
	if (k == "aprime") return "design A\047 (test variant, the 2012 v2): the caller writes the range, WB_SYNC_NONE, unless the device is write-congested"
	if (k == "v4") return "v4 (test variant, design D): a request naming the mapping and range, queued to an unbound workqueue after one jiffy; the worker writes WB_SYNC_NONE in 1 MiB chunks, holding no file"
	if (k == "dfixed") return "design D fixed (test variant): v4\047s requests with the faults of its review fixed: per-device lanes, round robin by 1 MiB chunk, frozen file systems parked, evict() always looks the mapping up, written a second after the first call"
	if (k == "caller") return "design A (test variant): the caller writes the range, WB_SYNC_NONE, and may sleep in the request queue of a congested device"
	if (k == "pin") return "v3 (test variant): one work item per call, holding get_file() until its writeback is started; at most 1024 pending, then the caller writes"
	return k
}
# time until clean, with "not within N s" when it never got clean
function cleancell(k, m, p, t, tmo, lim,   n, to, s) {
	if (!has(k, m, p, t)) return "n/a"
	n = cnt[k, m, p, t]
	to = num(get(k, m, p, tmo))
	if (n == 0)
		return "not within " fmt(get(k, m, p, lim)) " s"
	s = cell(k, m, p, t) " ms"
	if (to > 0)
		s = s " (" to " of " n + to " reps not within " fmt(get(k, m, p, lim)) " s)"
	return s
}
function pval(p) { sub(/^[A-Za-z_]*=/, "", p); return p }
FNR == 1 { kern = FILENAME; sub(/.*\//, "", kern) }
$1 == "meta" {
	v = $3
	for (i = 4; i <= NF; i++) v = v "," $i
	meta[kern, $2] = v
	next
}
$1 == "csv" {
	m = $2; p = $3; t = $4
	med[kern, m, p, t] = $5; mn[kern, m, p, t] = $6; mx[kern, m, p, t] = $7
	unit[m, t] = $8; cnt[kern, m, p, t] = $9
	if (!((m, p) in seen)) { seen[m, p] = 1; params[m, ++np[m]] = p }
}
END {
	md = out "/bench.md"
	print "# msync benchmark: unpatched vs patched v3.5" > md
	print "" > md
	print "Inputs: `" unpf "` (unpatched), `" patf "` (patched)." > md
	print "" > md
	print "| | unpatched | patched |" > md
	print "| --- | --- | --- |" > md
	split("kernel_version mode clocksource ncpus memtotal_mib sizes reps runtime_s", mk, " ")
	for (i = 1; i in mk; i++)
		print "| " mk[i] " | " meta["unpatched", mk[i]] " | " meta["patched", mk[i]] " |" > md
	print "" > md
	print "Cells: median [min-max] over the repetitions; ratio = patched / unpatched (medians)." > md
	if (meta["unpatched", "mode"] != meta["patched", "mode"] || meta["unpatched", "sizes"] != meta["patched", "sizes"]) {
		print "" > md
		print "**Warning: the two runs used different modes or sizes; rows do not compare.**" > md
	}

	# ---- M1
	print "" > md
	print "## M1: msync(MS_SYNC) of one 4 KiB page while D MiB of the same file are dirty" > md
	print "" > md
	print "| D (MiB) | latency unpatched (ms) | latency patched (ms) | ratio | written unpatched (KiB) | written patched (KiB) | ratio | D pages left dirty unpatched / patched |" > md
	print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" > md
	f = out "/bench_plot_m1.dat"
	print "# D_MiB lat_unpatched_ms lat_patched_ms kib_unpatched kib_patched" > f
	for (i = 1; i <= np["M1"]; i++) {
		p = params["M1", i]
		print "| " pval(p) " | " cell("unpatched", "M1", p, "latency") " | " cell("patched", "M1", p, "latency") " | " \
			ratio(get("patched", "M1", p, "latency"), get("unpatched", "M1", p, "latency")) " | " \
			cell("unpatched", "M1", p, "written") " | " cell("patched", "M1", p, "written") " | " \
			ratio(get("patched", "M1", p, "written"), get("unpatched", "M1", p, "written")) " | " \
			fmt(get("unpatched", "M1", p, "dirty_left")) " / " fmt(get("patched", "M1", p, "dirty_left")) " |" > md
		print pval(p), get("unpatched", "M1", p, "latency"), get("patched", "M1", p, "latency"), \
			get("unpatched", "M1", p, "written"), get("patched", "M1", p, "written") > f
	}
	# i386 rows: the same measurement on the i386 kernels
	for (i = 1; i <= np["M1"]; i++) {
		p = params["M1", i]
		if (!has("i386-patched", "M1", p, "latency") && !has("i386-unpatched", "M1", p, "latency"))
			continue
		print "| i386: " pval(p) " | " cell("i386-unpatched", "M1", p, "latency") " | " cell("i386-patched", "M1", p, "latency") " | " \
			ratio(get("i386-patched", "M1", p, "latency"), get("i386-unpatched", "M1", p, "latency")) " | " \
			cell("i386-unpatched", "M1", p, "written") " | " cell("i386-patched", "M1", p, "written") " | " \
			ratio(get("i386-patched", "M1", p, "written"), get("i386-unpatched", "M1", p, "written")) " | " \
			fmt(get("i386-unpatched", "M1", p, "dirty_left")) " / " fmt(get("i386-patched", "M1", p, "dirty_left")) " |" > md
	}
	if (("unpatched", "M1", "D=0", "latency") in med) {
		last = params["M1", np["M1"]]
		print "" > md
		printf("Latency at D=%s vs D=0: unpatched x%s, patched x%s.\n", pval(last),
			ratio(get("unpatched", "M1", last, "latency"), get("unpatched", "M1", "D=0", "latency")),
			ratio(get("patched", "M1", last, "latency"), get("patched", "M1", "D=0", "latency"))) > md
	}
	close(f)

	# ---- M2
	print "" > md
	print "## M2: msync(MS_SYNC) of R MiB of a fully dirty file" > md
	print "" > md
	print "| R (MiB) | written unpatched (KiB) | written patched (KiB) | ratio | latency unpatched (ms) | latency patched (ms) | ratio | pages outside the range left dirty, unpatched / patched (of N) |" > md
	print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" > md
	f = out "/bench_plot_m2.dat"
	print "# R_MiB kib_unpatched kib_patched lat_unpatched_ms lat_patched_ms" > f
	for (i = 1; i <= np["M2"]; i++) {
		p = params["M2", i]
		print "| " pval(p) " | " cell("unpatched", "M2", p, "written") " | " cell("patched", "M2", p, "written") " | " \
			ratio(get("patched", "M2", p, "written"), get("unpatched", "M2", p, "written")) " | " \
			cell("unpatched", "M2", p, "latency") " | " cell("patched", "M2", p, "latency") " | " \
			ratio(get("patched", "M2", p, "latency"), get("unpatched", "M2", p, "latency")) " | " \
			fmt(get("unpatched", "M2", p, "outside_dirty_left")) " / " fmt(get("patched", "M2", p, "outside_dirty_left")) \
			" (of " fmt(get("unpatched", "M2", p, "outside_pages")) ") |" > md
		print pval(p), get("unpatched", "M2", p, "written"), get("patched", "M2", p, "written"), \
			get("unpatched", "M2", p, "latency"), get("patched", "M2", p, "latency") > f
	}
	close(f)

	# ---- M3
	p = params["M3", 1]
	print "" > md
	print "## M3: msync(MS_ASYNC) of " pval(p) " MiB of dirty pages, idle device" > md
	print "" > md
	print "| | unpatched | patched | ratio |" > md
	print "| --- | ---: | ---: | ---: |" > md
	print "| time in the call (ms) | " cell("unpatched", "M3", p, "call") " | " cell("patched", "M3", p, "call") " | " \
		ratio(get("patched", "M3", p, "call"), get("unpatched", "M3", p, "call")) " |" > md
	print "| time until the range is clean | " cleancell("unpatched", "M3", p, "clean", "clean_timeout", "clean_limit") " | " \
		cleancell("patched", "M3", p, "clean", "clean_timeout", "clean_limit") " | - |" > md
	print "| range pages not clean at the limit | " fmt(get("unpatched", "M3", p, "range_not_clean_at_limit")) " | " \
		fmt(get("patched", "M3", p, "range_not_clean_at_limit")) " | - |" > md
	print "| pages outside the range left dirty (of " fmt(get("unpatched", "M3", p, "outside_pages")) ") | " \
		cell("unpatched", "M3", p, "outside_dirty_left") " | " cell("patched", "M3", p, "outside_dirty_left") " | - |" > md
	print "| written (KiB) | " cell("unpatched", "M3", p, "written") " | " cell("patched", "M3", p, "written") " | - |" > md

	# ---- M4
	print "" > md
	print "## M4: time the caller spends in the call, " fmt(get("unpatched", "M4", "all", "range_pages") * 4 / 1024) \
		" MiB dirty, saturated device" > md
	print "" > md
	print "| method | unpatched median (ms) | unpatched longest (ms) | patched median (ms) | patched longest (ms) | longest ratio | range pages still dirty after the call, unpatched / patched | write requests in flight, unpatched / patched |" > md
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" > md
	f = out "/bench_plot_m4.dat"
	print "# idx method longest_unpatched_ms longest_patched_ms median_unpatched_ms median_patched_ms" > f
	for (i = 1; i <= np["M4"]; i++) {
		p = params["M4", i]
		if (p == "all") continue
		print "| " p " | " fmt(get("unpatched", "M4", p, "call")) " | " fmt(mx["unpatched", "M4", p, "call"]) " | " \
			fmt(get("patched", "M4", p, "call")) " | " fmt(mx["patched", "M4", p, "call"]) " | " \
			ratio(mx["patched", "M4", p, "call"], mx["unpatched", "M4", p, "call"]) " | " \
			fmt(get("unpatched", "M4", p, "range_dirty_after")) " / " fmt(get("patched", "M4", p, "range_dirty_after")) " | " \
			fmt(get("unpatched", "M4", p, "inflight_writes")) " / " fmt(get("patched", "M4", p, "inflight_writes")) " |" > md
		print i - 1, p, mx["unpatched", "M4", p, "call"], mx["patched", "M4", p, "call"], \
			get("unpatched", "M4", p, "call"), get("patched", "M4", p, "call") > f
	}
	close(f)

	# ---- M5
	p = "bitmap"
	print "" > md
	print "## M5: persistent dirty bitmap (set bit + MS_SYNC, 4 KiB write + fdatasync; clear every 64 writes + MS_ASYNC)" > md
	print "" > md
	print "| | unpatched | patched | ratio |" > md
	print "| --- | ---: | ---: | ---: |" > md
	print "| writes per second | " cell("unpatched", "M5", p, "ops") " | " cell("patched", "M5", p, "ops") " | " \
		ratio(get("patched", "M5", p, "ops"), get("unpatched", "M5", p, "ops")) " |" > md
	print "| KiB written to the device per write | " cell("unpatched", "M5", p, "written_per_op") " | " \
		cell("patched", "M5", p, "written_per_op") " | " \
		ratio(get("patched", "M5", p, "written_per_op"), get("unpatched", "M5", p, "written_per_op")) " |" > md
	print "| set bit: msync(MS_SYNC) of the bitmap page (ms) | " cell("unpatched", "M5", p, "set_sync") " | " \
		cell("patched", "M5", p, "set_sync") " | " \
		ratio(get("patched", "M5", p, "set_sync"), get("unpatched", "M5", p, "set_sync")) " |" > md
	print "| clear bits: msync(MS_ASYNC) of the bitmap page (ms) | " cell("unpatched", "M5", p, "clear_async") " | " \
		cell("patched", "M5", p, "clear_async") " | " \
		ratio(get("patched", "M5", p, "clear_async"), get("unpatched", "M5", p, "clear_async")) " |" > md
	print "| bitmap page clean after the last MS_ASYNC | " \
		cleancell("unpatched", "M5", p, "bitmap_clean", "bitmap_clean_timeout", "bitmap_clean_limit") " | " \
		cleancell("patched", "M5", p, "bitmap_clean", "bitmap_clean_timeout", "bitmap_clean_limit") " | - |" > md
	print "| run length per repetition (s) | " fmt(get("unpatched", "M5", p, "run_length")) " | " \
		fmt(get("patched", "M5", p, "run_length")) " | - |" > md

	# ---- design comparison: every kernel, M3, M4 ms_async, M6
	nk = split(kernels, ks, " ")
	print "" > md
	print "## Design comparison: the MS_ASYNC of patch 2, " nk " kernels (TCG timings)" > md
	print "" > md
	print "Every kernel of this run, booted one after the other with the same guest, disks and program." > md
	print "All times are those of the emulated machine (QEMU TCG, no KVM, on a shared 2-core host):" > md
	print "compare the kernels with each other, not with hardware.  Cells: median [min-max] over the" > md
	print "repetitions; \"longest\" is the longest single call or store of all repetitions; KiB written" > md
	print "are counted by the device itself." > md
	if (extraf != "")
		print "Further inputs: `" substr(extraf, 2) "`." > md
	print "" > md
	print "| kernel | MS_ASYNC design | kernel_version | mode | runtime_s |" > md
	print "| --- | --- | --- | --- | ---: |" > md
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		print "| " k " | " design(k) " | " meta[k, "kernel_version"] " | " meta[k, "mode"] " | " meta[k, "runtime_s"] " |" > md
	}
	for (i = 2; i <= nk; i++)
		if (meta[ks[i], "mode"] != meta[ks[1], "mode"] || meta[ks[i], "sizes"] != meta[ks[1], "sizes"]) {
			print "" > md
			print "**Warning: the runs used different modes or sizes; rows do not compare.**" > md
			break
		}

	p = params["M3", 1]
	print "" > md
	print "### M3: msync(MS_ASYNC) of " pval(p) " MiB of dirty pages, idle device" > md
	print "" > md
	print "| kernel | time in the call (ms, TCG) | time until the range is clean (TCG) | written (KiB) |" > md
	print "| --- | ---: | ---: | ---: |" > md
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		print "| " k " | " cell(k, "M3", p, "call") " | " \
			cleancell(k, "M3", p, "clean", "clean_timeout", "clean_limit") " | " \
			cell(k, "M3", p, "written") " |" > md
	}

	p = "ms_async"
	print "" > md
	print "### M4: msync(MS_ASYNC) of " fmt(get("unpatched", "M4", "all", "range_pages") * 4 / 1024) \
		" MiB of dirty pages, saturated throttled device" > md
	print "" > md
	print "| kernel | median time in the call (ms, TCG) | longest (ms, TCG) | range pages still dirty after the call (of " \
		fmt(get("unpatched", "M4", "all", "range_pages")) ") | under writeback after the call | write requests in flight |" > md
	print "| --- | ---: | ---: | ---: | ---: | ---: |" > md
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		print "| " k " | " cell(k, "M4", p, "call") " | " maxcell(k, "M4", p, "call") " | " \
			cell(k, "M4", p, "range_dirty_after") " | " cell(k, "M4", p, "range_writeback_after") " | " \
			fmt(get(k, "M4", p, "inflight_writes")) " |" > md
	}

	print "" > md
	print "### M6: hot page, a store to one page of a mapped file then msync(MS_ASYNC) of that page, in a loop (" \
		fmt(get("patched", "M6", "store_msync", "run_length")) " s per repetition)" > md
	print "" > md
	print "An iteration is one store and one msync(MS_ASYNC) of the page; \"store only\" is the same loop without the msync, on the" > md
	print "same kernel: what the timing itself costs, and what the device sees when nothing pushes the page.  A store to a page" > md
	print "that writeback has cleaned takes a write fault (faults per iteration) and waits in ->page_mkwrite while that" > md
	print "writeback is in flight: the median store is one that does not fault, the mean and the longest show the waits." > md
	print "" > md
	print "| kernel | loop | iterations per s (TCG) | KiB written per iteration | KiB written per s | write faults per iteration | store median (us, TCG) | store mean (us, TCG) | store longest (us, TCG) | msync median (us, TCG) | msync mean (us, TCG) | msync longest (us, TCG) |" > md
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" > md
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		for (j = 1; j <= 2; j++) {
			p = j == 1 ? "store_msync" : "store_only"
			print "| " k " | " (j == 1 ? "store + MS_ASYNC" : "store only") " | " \
				cell(k, "M6", p, "ops") " | " cell(k, "M6", p, "written_per_op") " | " \
				cell(k, "M6", p, "written_per_s") " | " cell(k, "M6", p, "faults_per_op") " | " \
				cell(k, "M6", p, "store") " | " cell(k, "M6", p, "store_mean") " | " \
				maxcell(k, "M6", p, "store_max") " | " \
				(j == 1 ? cell(k, "M6", p, "msync") : "-") " | " \
				(j == 1 ? cell(k, "M6", p, "msync_mean") : "-") " | " \
				(j == 1 ? maxcell(k, "M6", p, "msync_max") : "-") " |" > md
		}
	}
	close(md)
}' $(for k in $kernels $i386_names; do echo "$tmp/$k"; done)

# the plot
if command -v gnuplot >/dev/null 2>&1; then
	if gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo; then
		term=pngcairo
	else
		term=png
	fi
	gnuplot -e "outdir='$out'; term='$term'" "$here/bench.gp"
	echo "report.sh: wrote $out/bench.csv $out/bench.md $out/bench.png" >&2
else
	echo "report.sh: gnuplot not found (apt-get install -y gnuplot-nox); no plot" >&2
	echo "report.sh: wrote $out/bench.csv $out/bench.md" >&2
fi
