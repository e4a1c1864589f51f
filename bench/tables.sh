#!/bin/sh
# tables.sh - the benchmark's tables, from its csv files and nothing else.
#
#   tables.sh [-H LEVEL] [-p PLOTDIR] DIR [PART]
#
# DIR holds bench.csv (bench/report.sh), bench-lmdb.csv (bench/lmdb.sh;
# optional), bench-lmdb-6.12.csv (bench/lmdb.sh on the 6.12 kernels;
# optional) and bench-source.txt (optional: which runs they are).
# bench/results/ is the committed copy docs/results.md, the README and
# the cover letters quote: a figure is written once, in a csv, and printed
# from there.
#
# PART (default md):
#   md                 Markdown: every table of the benchmark (headings at
#                      LEVEL, default 2); with -p, also the plot data
#                      PLOTDIR/bench_plot_m{1,2,4}.dat for bench.gp
#   lmdb               Markdown: LMDB
#   lmdb-6.12          Markdown: LMDB on Linux 6.12
#   headline           Markdown: a few figures of bench.csv and
#                      bench-lmdb.csv, unpatched against patched (the
#                      README's headline numbers)
#   cover-m1           plain text blocks of the cover letters
#   cover-lmdb-sync
#   cover-lmdb-async
#   cover-m4
#   cover-soon         (M3 and M7, unpatched and patched)
#   cover-612-soon     (the same, the 6.12 kernels)
#   cover-612-v35
#   cover-612-lmdb
set -eu

level=2
plotdir=
while getopts H:p: opt; do
	case $opt in
	H) level=$OPTARG ;;
	p) plotdir=$OPTARG ;;
	*) echo "usage: $0 [-H LEVEL] [-p PLOTDIR] DIR [PART]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 [-H LEVEL] [-p PLOTDIR] DIR [PART]" >&2
	exit 2
fi
dir=$1
part=${2:-md}
need() {
	[ -r "$dir/$1" ] || { echo "tables.sh: cannot read $dir/$1" >&2; exit 1; }
}
source_line=
[ ! -r "$dir/bench-source.txt" ] || source_line=$(paste -sd ';' "$dir/bench-source.txt" | sed 's/;/; /g')

# lmdb CSV PART: LMDB tables, per kernel and mode the range over the runs
# (bench/lmdb.sh: kernel,run,mode,commits,rate,kib_per_commit,median_us,
# max_us,clean_ms and, since 2026-12-06, faults_per_commit,
# sys_us_per_commit: tabled when the CSV has them).  "x unpatched" is the
# rate against unpatched's, the range of run-to-run ratios: lowest over
# highest to highest over lowest.
lmdb() {
	need "$1"
	awk -F, -v part="$2" '
function fmt(x,   a) {
	a = x < 0 ? -x : x
	if (x == int(x)) return sprintf("%d", x)
	if (a >= 100) return sprintf("%.0f", x)
	if (a >= 10) return sprintf("%.1f", x)
	if (a >= 1) return sprintf("%.2f", x)
	return sprintf("%.2g", x)
}
function rg(key, i,   a, b) {
	a = fmt(lo[key, i]); b = fmt(hi[key, i])
	return a == b ? a : a "-" b
}
function x(key, mode,   ref, a, b) {
	ref = base SUBSEP mode
	if (key == ref) return "1"
	if (!((ref, 5) in lo) || lo[ref, 5] == 0) return "-"
	a = sprintf("%.2f", lo[key, 5] / hi[ref, 5])
	b = sprintf("%.2f", hi[key, 5] / lo[ref, 5])
	return a == b ? a : a "-" b
}
# the faults and system time per commit, when the CSV has them: head,
# separator and cells of their two columns
function costhead() {
	return cost ? " faults/commit | system us/commit |" : ""
}
function costsep() {
	return cost ? " ---: | ---: |" : ""
}
function costcells(key) {
	return cost ? " " rg(key, 10) " | " rg(key, 11) " |" : ""
}
function mode(m) {
	if (m == "async") return "MS_ASYNC"
	if (m == "async-dirty") return "MS_ASYNC, 64 MiB of another file dirty"
	return "MS_SYNC"
}
# cover letter label of a kernel of the v3.5 LMDB run
function label(k) {
	if (k == "unpatched") return "v3.5"
	if (k == "patched") return "this series"
	if (k == "delay0") return "2/4, no limit"
	if (k ~ /^delay/) return "2/4, 1 per " substr(k, 6) "ms"
	if (k == "v4") return "v4 of this series"
	if (k == "dfixed") return "v4 fixed, after 1s"
	if (k == "aprime") return "v2 (caller writes)"
	return k
}
function label612(k) {
	if (k == "unpatched") return "unpatched (a no-op)"
	if (k == "patched") return "the flusher, <= 1 pass a second"
	if (k == "aprime") return "the caller writes the range"
	if (k == "v4") return "a worker writes the range at once"
	return k
}
NR == 1 { cost = NF >= 11 }
NR > 1 {
	# the kernel the others are compared with: unpatched (6.12-unpatched)
	if (base == "" && $1 ~ /unpatched$/) base = $1
	key = $1 SUBSEP $3
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	for (i = 5; i <= (cost ? 11 : 9); i++) {
		if (!((key, i) in lo) || $i + 0 < lo[key, i]) lo[key, i] = $i + 0
		if (!((key, i) in hi) || $i + 0 > hi[key, i]) hi[key, i] = $i + 0
	}
	if (!($1 in runs) || $2 + 0 > runs[$1]) runs[$1] = $2 + 0
}
# boots: "N boots of each kernel" (the runs of bench/lmdb.sh)
function boots(   k, lo, hi) {
	for (k in runs) {
		if (lo == "" || runs[k] < lo) lo = runs[k]
		if (hi == "" || runs[k] > hi) hi = runs[k]
	}
	return (lo == hi ? lo : lo "-" hi) " boots of each kernel, interleaved; ranges over them"
}
END {
	# the rows by mode: MS_ASYNC, MS_ASYNC beside dirty data, MS_SYNC
	split("async async-dirty sync", modes, " ")
	for (m = 1; m <= 3; m++)
		for (j = 1; j <= n; j++) {
			split(order[j], a, SUBSEP)
			if (a[2] == modes[m]) bymode[++nm] = order[j]
		}
	if (part == "md") {
		print "| kernel | mode | commits/s | x unpatched | device KiB/commit | median commit (us) | longest commit (us) |" costhead()
		print "| --- | --- | ---: | ---: | ---: | ---: | ---: |" costsep()
		for (j = 1; j <= n; j++) {
			split(order[j], a, SUBSEP)
			printf "| %s | %s | %s | %s | %s | %s | %s |%s\n", a[1], mode(a[2]),
				rg(order[j], 5), x(order[j], a[2]), rg(order[j], 6),
				rg(order[j], 7), rg(order[j], 8), costcells(order[j])
		}
		print ""
		print boots() "."
	} else if (part == "headline") {
		# rows of the headline table (its head: the bench.csv part)
		split("sync async async-dirty", hm, " ")
		for (m = 1; m <= 3; m++) {
			md = hm[m]
			if (!(("patched" SUBSEP md) in seen)) continue
			printf "| LMDB, %s at every commit%s: commits per second | %s | %s |\n",
				mode(md == "async-dirty" ? "async" : md),
				md == "async-dirty" ? ", 64 MiB of another file dirty" : "",
				rg("unpatched" SUBSEP md, 5), rg("patched" SUBSEP md, 5)
		}
		print ""
		print "Medians of the repetitions; LMDB: " boots() "."
	} else if (part == "6.12") {
		print "| kernel | mode | commits/s | x unpatched | device KiB/commit | longest commit (us) |" costhead()
		print "| --- | --- | ---: | ---: | ---: | ---: |" costsep()
		for (j = 1; j <= nm; j++) {
			split(bymode[j], a, SUBSEP)
			k = a[1]
			sub(/^6\.12-/, "6.12 ", k)
			printf "| %s | %s | %s | %s | %s | %s |%s\n", k, mode(a[2]),
				rg(bymode[j], 5), x(bymode[j], a[2]),
				rg(bymode[j], 6), rg(bymode[j], 8), costcells(bymode[j])
		}
		print ""
		print boots() "."
	} else if (part == "sync") {
		printf "     %-18s %11s %16s\n", "kernel", "commits/s", "KiB per commit"
		for (j = 1; j <= n; j++) {
			split(order[j], a, SUBSEP)
			if (a[2] != "sync" || (a[1] != "unpatched" && a[1] != "patched")) continue
			printf "     %-18s %11s %16s\n", label(a[1]),
				rg(order[j], 5), rg(order[j], 6)
		}
		print "     (" boots() ".)"
	} else if (part == "async") {
		printf "     %-18s %11s %10s %11s %13s\n", "kernel", "commits/s", "x v3.5",
			"KiB/commit", "longest (us)"
		for (j = 1; j <= nm; j++) {
			split(bymode[j], a, SUBSEP)
			if (a[2] != "async" && a[2] != "async-dirty") continue
			if (a[2] == "async-dirty" && !said++)
				print "     beside 64 MiB of another file, dirty and unexpired:"
			printf "     %-18s %11s %10s %11s %13s\n", label(a[1]), rg(bymode[j], 5),
				x(bymode[j], a[2]), rg(bymode[j], 6), rg(bymode[j], 8)
		}
		print "     (" boots() ".)"
	} else if (part == "612-v35") {
		printf "  %-34s %-12s %s\n", "v3.5, MS_ASYNC at every commit", "commits/s", "device KiB/commit"
		for (j = 1; j <= n; j++) {
			split(order[j], a, SUBSEP)
			if (a[2] != "async" || label612(a[1]) == a[1]) continue
			printf "  %-34s %-12s %s\n", label612(a[1]), rg(order[j], 5), rg(order[j], 6)
		}
	} else if (part == "612-lmdb") {
		printf "  %-13s %-9s %-12s %-18s %s\n", "6.12", "mode", "commits/s",
			"device KiB/commit", "longest (us)"
		for (j = 1; j <= nm; j++) {
			split(bymode[j], a, SUBSEP)
			k = a[1]
			sub(/^6\.12-/, "", k)
			printf "  %-13s %-9s %-12s %-18s %s\n", k, mode(a[2]),
				rg(bymode[j], 5), rg(bymode[j], 6), rg(bymode[j], 8)
		}
		print ""
		print "(" boots() ".)"
	}
}' "$dir/$1"
}

case $part in
md) ;;
lmdb) lmdb bench-lmdb.csv md; exit ;;
lmdb-6.12) lmdb bench-lmdb-6.12.csv 6.12; exit ;;
cover-lmdb-sync) lmdb bench-lmdb.csv sync; exit ;;
cover-lmdb-async) lmdb bench-lmdb.csv async; exit ;;
cover-612-v35) lmdb bench-lmdb.csv 612-v35; exit ;;
cover-612-lmdb) lmdb bench-lmdb-6.12.csv 612-lmdb; exit ;;
cover-m1|cover-m4|cover-soon|cover-612-soon) ;;
headline) need bench-lmdb.csv ;;
*) echo "tables.sh: unknown part '$part'" >&2; exit 2 ;;
esac

need bench.csv
[ -z "$plotdir" ] || mkdir -p "$plotdir"
awk -F, -v part="$part" -v lv="$level" -v plotdir="$plotdir" -v src="$source_line" '
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
function hd(n, text,   s) {
	s = ""
	while (n-- > 0) s = s "#"
	print ""
	print s " " text
	print ""
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
# a row "| label | u | q | q over u |" (u, q: the unpatched and the
# patched kernel, of v3.5 or of 6.12)
function cmprow(label, u, q, m, p, t) {
	return "| " label " | " cell(u, m, p, t) " | " cell(q, m, p, t) " | " \
		ratio(get(q, m, p, t), get(u, m, p, t)) " |"
}
# the longest of the per-repetition values, "n/a" if none
function maxcell(k, m, p, t) { return has(k, m, p, t) ? fmt(mx[k, m, p, t]) : "n/a" }
# what each kernel of the design comparison is
function design(k) {
	if (k == "unpatched") return "v3.5: MS_ASYNC is a no-op"
	if (k == "patched") return "v6 (the series, design E): the inode is marked and its device\047s flusher runs an MS_ASYNC pass over the marked inodes, at once if none started in the last second, else a second after the last; nothing allocated, no file or inode held"
	if (k == "aprime") return "design A\047 (test variant, the 2012 v2): the caller writes the range, WB_SYNC_NONE, unless the device is write-congested"
	if (k == "v4") return "v4 (test variant, design D): a request naming the mapping and range, queued to an unbound workqueue after one jiffy; the worker writes WB_SYNC_NONE in 1 MiB chunks, holding no file"
	if (k == "dfixed") return "design D fixed (test variant): v4\047s requests with the faults of its review fixed: per-device lanes, round robin by 1 MiB chunk, frozen file systems parked, evict() always looks the mapping up, written a second after the first call"
	if (k ~ /^i386-/) return "the " substr(k, 6) " kernel built for i386 (M1 only)"
	if (k == "6.12-unpatched") return "Linux 6.12 (Debian), MS_ASYNC a no-op (M3 and M7 only)"
	if (k == "6.12-patched") return "Linux 6.12 with the port of patch 2 (M3 and M7 only)"
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
# the median time until clean, or "not within N s" when it never got clean
function cleanmed(k, m, p, t, tmo, lim) {
	if (!has(k, m, p, t)) return "n/a"
	if (cnt[k, m, p, t] == 0 || num(get(k, m, p, tmo)) > 0)
		return "not within " fmt(get(k, m, p, lim)) " s"
	return fmt(get(k, m, p, t)) " ms"
}
# m3 U Q: the M3 table of the pair U (unpatched) and Q (patched)
function m3(u, q,   p) {
	p = params["M3", 1]
	print "| | " u " | " q " | ratio |"
	print "| --- | ---: | ---: | ---: |"
	print cmprow("time in the call (ms)", u, q, "M3", p, "call")
	print "| time until the range is clean | " cleancell(u, "M3", p, "clean", "clean_timeout", "clean_limit") " | " \
		cleancell(q, "M3", p, "clean", "clean_timeout", "clean_limit") " | - |"
	print "| range pages not clean at the limit | " fmt(get(u, "M3", p, "range_not_clean_at_limit")) " | " \
		fmt(get(q, "M3", p, "range_not_clean_at_limit")) " | - |"
	print "| pages outside the range left dirty (of " fmt(get(u, "M3", p, "outside_pages")) ") | " \
		cell(u, "M3", p, "outside_dirty_left") " | " cell(q, "M3", p, "outside_dirty_left") " | - |"
	print "| written (KiB) | " cell(u, "M3", p, "written") " | " cell(q, "M3", p, "written") " | - |"
}
# m7 U Q: the M7 table of the pair
function m7(u, q,   p) {
	p = params["M7", 1]
	print "| | " u " | " q " | ratio |"
	print "| --- | ---: | ---: | ---: |"
	print cmprow("MS_SYNC after the MS_ASYNC (ms)", u, q, "M7", p, "sync_after_async")
	print cmprow("MS_SYNC with no MS_ASYNC before (ms)", u, q, "M7", p, "sync_alone")
	print "| the first over the second | " \
		ratio(get(u, "M7", p, "sync_after_async"), get(u, "M7", p, "sync_alone")) " | " \
		ratio(get(q, "M7", p, "sync_after_async"), get(q, "M7", p, "sync_alone")) " | - |"
}
# the headline table of the README: its head and the bench.csv rows (the
# LMDB rows and the note under it: part headline of the lmdb awk)
function headline(   d, p) {
	d = params["M1", np["M1"]]
	print "| measurement | unpatched | patched |"
	print "| --- | ---: | ---: |"
	print "| msync(MS_SYNC) of one 4 KiB page, " pval(d) " MiB of the file dirty (M1): time (ms) | " \
		fmt(get("unpatched", "M1", d, "latency")) " | " fmt(get("patched", "M1", d, "latency")) " |"
	print "| the same: KiB written to the device | " \
		fmt(get("unpatched", "M1", d, "written")) " | " fmt(get("patched", "M1", d, "written")) " |"
	p = params["M3", 1]
	print "| msync(MS_ASYNC) of " pval(p) " MiB of dirty pages, idle device (M3): range clean after | " \
		cleanmed("unpatched", "M3", p, "clean", "clean_timeout", "clean_limit") " | " \
		cleanmed("patched", "M3", p, "clean", "clean_timeout", "clean_limit") " |"
	if (np["M7"] > 0) {
		p = params["M7", 1]
		print "| write-behind (M7): msync(MS_SYNC) of " pval(p) " MiB, MS_ASYNC 400 ms before, over the same without (ratio) | " \
			ratio(get("unpatched", "M7", p, "sync_after_async"), get("unpatched", "M7", p, "sync_alone")) " | " \
			ratio(get("patched", "M7", p, "sync_after_async"), get("patched", "M7", p, "sync_alone")) " |"
	}
	print "| msync(MS_ASYNC) on a saturated device (M4): longest call (ms) | " \
		maxcell("unpatched", "M4", "ms_async", "call") " | " maxcell("patched", "M4", "ms_async", "call") " |"
	print "| persistent dirty bitmap, MS_SYNC to set a bit, MS_ASYNC to clear (M5): writes per second | " \
		fmt(get("unpatched", "M5", "bitmap", "ops")) " | " fmt(get("patched", "M5", "bitmap", "ops")) " |"
	print "| the same: KiB written to the device per write | " \
		fmt(get("unpatched", "M5", "bitmap", "written_per_op")) " | " \
		fmt(get("patched", "M5", "bitmap", "written_per_op")) " |"
}
# plot NAME HEADER: open PLOTDIR/bench_plot_NAME.dat for bench.gp ("": no -p)
function plot(name, header,   f) {
	if (plotdir == "") return ""
	f = plotdir "/bench_plot_" name ".dat"
	print header > f
	return f
}
NR == 1 { next }
$2 == "meta" {
	if (!($1 in known)) { known[$1] = 1; all[++na] = $1 }
	meta[$1, $3] = $4
	next
}
{
	k = $1; m = $2; p = $3; t = $4
	if (!(k in known)) { known[k] = 1; all[++na] = k }
	med[k, m, p, t] = $5; mn[k, m, p, t] = $6; mx[k, m, p, t] = $7
	kms[k, m] = 1
	unit[m, t] = $8; cnt[k, m, p, t] = $9
	if (!((m, p) in seen)) { seen[m, p] = 1; params[m, ++np[m]] = p }
}
function cover_m1(   i, p) {
	printf "     %7s %16s %20s\n", "D (MiB)", "time (ms)", "written (KiB)"
	for (i = 1; i <= np["M1"]; i++) {
		p = params["M1", i]
		printf "     %7s %16s %20s\n", pval(p),
			fmt(get("unpatched", "M1", p, "latency")) " -> " fmt(get("patched", "M1", p, "latency")),
			fmt(get("unpatched", "M1", p, "written")) " -> " fmt(get("patched", "M1", p, "written"))
	}
}
function cover_m4(   p, d, n) {
	p = "sync_file_range_write"
	printf "     %-24s median %sms, longest %sms\n", "sync_file_range(WRITE)",
		fmt(get("unpatched", "M4", p, "call")), fmt(mx["unpatched", "M4", p, "call"])
	p = "fadvise_dontneed"
	d = get("unpatched", "M4", p, "range_dirty_after")
	n = get("unpatched", "M4", "all", "range_pages")
	printf "     %-24s median %sms, %s pages left dirty\n", "fadvise(DONTNEED)",
		fmt(get("unpatched", "M4", p, "call")), d == n ? "all " fmt(n) : fmt(d) " of " fmt(n)
}
# cover_soon U Q LU LQ: an isolated MS_ASYNC (M3) and write-behind (M7)
# on the pair U, Q, labelled LU, LQ
function ms(x) { return x == "NA" ? "n/a" : fmt(x) " ms" }
function cover_soon(u, q, lu, lq,   p, a, f) {
	p = params["M3", 1]
	a = params["M7", 1]
	f = "     %-36s %15s %15s\n"
	printf f, "", lu, lq
	print "     M3, " pval(p) "MiB dirty, idle disk:"
	printf f, "  MS_ASYNC, time in the call", ms(get(u, "M3", p, "call")), ms(get(q, "M3", p, "call"))
	printf f, "  range clean after", cleanmed(u, "M3", p, "clean", "clean_timeout", "clean_limit"),
		cleanmed(q, "M3", p, "clean", "clean_timeout", "clean_limit")
	print "     M7, " pval(a) "MiB stored, then 400ms of other work:"
	printf f, "  MS_SYNC, MS_ASYNC before the work", ms(get(u, "M7", a, "sync_after_async")),
		ms(get(q, "M7", a, "sync_after_async"))
	printf f, "  MS_SYNC, no MS_ASYNC before", ms(get(u, "M7", a, "sync_alone")),
		ms(get(q, "M7", a, "sync_alone"))
	printf f, "  the first over the second",
		ratio(get(u, "M7", a, "sync_after_async"), get(u, "M7", a, "sync_alone")),
		ratio(get(q, "M7", a, "sync_after_async"), get(q, "M7", a, "sync_alone"))
}
END {
	if (part == "cover-m1") { cover_m1(); exit }
	if (part == "cover-m4") { cover_m4(); exit }
	if (part == "cover-soon") { cover_soon("unpatched", "patched", "v3.5", "this series"); exit }
	if (part == "cover-612-soon") { cover_soon("6.12-unpatched", "6.12-patched", "6.12", "6.12 + patch"); exit }
	if (part == "headline") { headline(); exit }
	nk = 0
	for (i = 1; i <= na; i++)
		if (all[i] !~ /^(i386|6\.12)-/) ks[++nk] = all[i]
	if (src != "") {
		print "From " src "."
		print ""
	}
	print "Cells: median [min-max] over the repetitions; ratio = patched / unpatched (medians);"
	print "\"longest\" is the longest single call or store of all repetitions; KiB written are"
	print "counted by the device itself.  All times are those of the emulated machine (QEMU TCG,"
	print "no KVM, on a shared 2-core host): compare the kernels with each other, not with hardware."
	print ""
	print "| kernel | MS_ASYNC design | kernel_version | clocksource | runtime_s |"
	print "| --- | --- | --- | --- | ---: |"
	for (i = 1; i <= na; i++) {
		k = all[i]
		print "| " k " | " design(k) " | " meta[k, "kernel_version"] " | " meta[k, "clocksource"] " | " meta[k, "runtime_s"] " |"
	}
	print ""
	print "Mode " meta[ks[1], "mode"] "; repetitions: " meta[ks[1], "reps"] "; sizes: " meta[ks[1], "sizes"] "."
	for (i = 2; i <= nk; i++)
		if (meta[ks[i], "mode"] != meta[ks[1], "mode"] || meta[ks[i], "sizes"] != meta[ks[1], "sizes"] ||
		    meta[ks[i], "reps"] != meta[ks[1], "reps"]) {
			print ""
			print "**Warning: the runs used different modes, sizes or repetitions; rows do not compare.**"
			break
		}

	# ---- M1
	hd(lv, "M1: msync(MS_SYNC) of one 4 KiB page while D MiB of the same file are dirty")
	print "| D (MiB) | latency unpatched (ms) | latency patched (ms) | ratio | written unpatched (KiB) | written patched (KiB) | ratio | D pages left dirty unpatched / patched |"
	print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	f = plot("m1", "# D_MiB lat_unpatched_ms lat_patched_ms kib_unpatched kib_patched")
	for (s = 0; s <= 1; s++) {
		u = s ? "i386-unpatched" : "unpatched"
		q = s ? "i386-patched" : "patched"
		for (i = 1; i <= np["M1"]; i++) {
			p = params["M1", i]
			if (!has(q, "M1", p, "latency") && !has(u, "M1", p, "latency"))
				continue
			print "| " (s ? "i386: " : "") pval(p) " | " cell(u, "M1", p, "latency") " | " cell(q, "M1", p, "latency") " | " \
				ratio(get(q, "M1", p, "latency"), get(u, "M1", p, "latency")) " | " \
				cell(u, "M1", p, "written") " | " cell(q, "M1", p, "written") " | " \
				ratio(get(q, "M1", p, "written"), get(u, "M1", p, "written")) " | " \
				fmt(get(u, "M1", p, "dirty_left")) " / " fmt(get(q, "M1", p, "dirty_left")) " |"
			if (!s && f != "")
				print pval(p), get("unpatched", "M1", p, "latency"), get("patched", "M1", p, "latency"), \
					get("unpatched", "M1", p, "written"), get("patched", "M1", p, "written") > f
		}
	}
	if (f != "") close(f)
	if (("unpatched", "M1", "D=0", "latency") in med) {
		last = params["M1", np["M1"]]
		print ""
		printf("Latency at D=%s vs D=0: unpatched x%s, patched x%s.\n", pval(last),
			ratio(get("unpatched", "M1", last, "latency"), get("unpatched", "M1", "D=0", "latency")),
			ratio(get("patched", "M1", last, "latency"), get("patched", "M1", "D=0", "latency")))
	}

	# ---- M2
	hd(lv, "M2: msync(MS_SYNC) of R MiB of a fully dirty file")
	print "| R (MiB) | written unpatched (KiB) | written patched (KiB) | ratio | latency unpatched (ms) | latency patched (ms) | ratio | pages outside the range left dirty, unpatched / patched (of N) |"
	print "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	f = plot("m2", "# R_MiB kib_unpatched kib_patched lat_unpatched_ms lat_patched_ms")
	for (i = 1; i <= np["M2"]; i++) {
		p = params["M2", i]
		print "| " pval(p) " | " cell("unpatched", "M2", p, "written") " | " cell("patched", "M2", p, "written") " | " \
			ratio(get("patched", "M2", p, "written"), get("unpatched", "M2", p, "written")) " | " \
			cell("unpatched", "M2", p, "latency") " | " cell("patched", "M2", p, "latency") " | " \
			ratio(get("patched", "M2", p, "latency"), get("unpatched", "M2", p, "latency")) " | " \
			fmt(get("unpatched", "M2", p, "outside_dirty_left")) " / " fmt(get("patched", "M2", p, "outside_dirty_left")) \
			" (of " fmt(get("unpatched", "M2", p, "outside_pages")) ") |"
		if (f != "")
			print pval(p), get("unpatched", "M2", p, "written"), get("patched", "M2", p, "written"), \
				get("unpatched", "M2", p, "latency"), get("patched", "M2", p, "latency") > f
	}
	if (f != "") close(f)

	# ---- M3
	p = params["M3", 1]
	hd(lv, "M3: msync(MS_ASYNC) of " pval(p) " MiB of dirty pages, idle device")
	m3("unpatched", "patched")

	# ---- M4
	hd(lv, "M4: time the caller spends in the call, " fmt(get("unpatched", "M4", "all", "range_pages") * 4 / 1024) \
		" MiB dirty, saturated device")
	print "| method | unpatched median (ms) | unpatched longest (ms) | patched median (ms) | patched longest (ms) | longest ratio | range pages still dirty after the call, unpatched / patched | write requests in flight, unpatched / patched |"
	print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	f = plot("m4", "# idx method longest_unpatched_ms longest_patched_ms median_unpatched_ms median_patched_ms")
	for (i = 1; i <= np["M4"]; i++) {
		p = params["M4", i]
		if (p == "all") continue
		print "| " p " | " fmt(get("unpatched", "M4", p, "call")) " | " fmt(mx["unpatched", "M4", p, "call"]) " | " \
			fmt(get("patched", "M4", p, "call")) " | " fmt(mx["patched", "M4", p, "call"]) " | " \
			ratio(mx["patched", "M4", p, "call"], mx["unpatched", "M4", p, "call"]) " | " \
			fmt(get("unpatched", "M4", p, "range_dirty_after")) " / " fmt(get("patched", "M4", p, "range_dirty_after")) " | " \
			fmt(get("unpatched", "M4", p, "inflight_writes")) " / " fmt(get("patched", "M4", p, "inflight_writes")) " |"
		if (f != "")
			print i - 1, p, mx["unpatched", "M4", p, "call"], mx["patched", "M4", p, "call"], \
				get("unpatched", "M4", p, "call"), get("patched", "M4", p, "call") > f
	}
	if (f != "") close(f)

	# ---- M5
	p = "bitmap"
	hd(lv, "M5: persistent dirty bitmap (set bit + MS_SYNC, 4 KiB write + fdatasync; clear every 64 writes + MS_ASYNC)")
	print "| | unpatched | patched | ratio |"
	print "| --- | ---: | ---: | ---: |"
	print cmprow("writes per second", "unpatched", "patched", "M5", p, "ops")
	print cmprow("KiB written to the device per write", "unpatched", "patched", "M5", p, "written_per_op")
	print cmprow("set bit: msync(MS_SYNC) of the bitmap page (ms)", "unpatched", "patched", "M5", p, "set_sync")
	print cmprow("clear bits: msync(MS_ASYNC) of the bitmap page (ms)", "unpatched", "patched", "M5", p, "clear_async")
	print "| bitmap page clean after the last MS_ASYNC | " \
		cleancell("unpatched", "M5", p, "bitmap_clean", "bitmap_clean_timeout", "bitmap_clean_limit") " | " \
		cleancell("patched", "M5", p, "bitmap_clean", "bitmap_clean_timeout", "bitmap_clean_limit") " | - |"
	print "| run length per repetition (s) | " fmt(get("unpatched", "M5", p, "run_length")) " | " \
		fmt(get("patched", "M5", p, "run_length")) " | - |"

	# ---- M7 (in runs that have it)
	if (np["M7"] > 0) {
		hd(lv, "M7: write-behind, " pval(params["M7", 1]) " MiB stored through a mapping, " \
			"msync(MS_ASYNC), other work, then msync(MS_SYNC) of the range")
		m7("unpatched", "patched")
	}

	# ---- M3 and M7 on Linux 6.12 (in runs that have its kernels)
	if (("6.12-patched" SUBSEP "M3") in kms) {
		hd(lv, "M3 and M7 on Linux 6.12: the port of patch 2")
		print "The same two measurements on Debian\047s Linux 6.12, unpatched and with patches-6.12/ " \
			"(the kernels of make check-6.12), the same guest and disks."
		hd(lv + 1, "M3: msync(MS_ASYNC) of " pval(params["M3", 1]) " MiB of dirty pages, idle device")
		m3("6.12-unpatched", "6.12-patched")
		if (("6.12-patched" SUBSEP "M7") in kms) {
			hd(lv + 1, "M7: write-behind, " pval(params["M7", 1]) " MiB")
			m7("6.12-unpatched", "6.12-patched")
		}
	}

	# ---- design comparison: every kernel, M3, M4 ms_async, M6
	hd(lv, "Design comparison: the MS_ASYNC of patch 2, " nk " kernels")
	print "Every kernel of the run but the i386 and 6.12 ones, on the measurements where their MS_ASYNC differs."

	p = params["M3", 1]
	hd(lv + 1, "M3: msync(MS_ASYNC) of " pval(p) " MiB of dirty pages, idle device")
	print "| kernel | time in the call (ms) | time until the range is clean | written (KiB) |"
	print "| --- | ---: | ---: | ---: |"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		print "| " k " | " cell(k, "M3", p, "call") " | " \
			cleancell(k, "M3", p, "clean", "clean_timeout", "clean_limit") " | " \
			cell(k, "M3", p, "written") " |"
	}

	p = "ms_async"
	hd(lv + 1, "M4: msync(MS_ASYNC) of " fmt(get("unpatched", "M4", "all", "range_pages") * 4 / 1024) \
		" MiB of dirty pages, saturated throttled device")
	print "| kernel | median time in the call (ms) | longest (ms) | range pages still dirty after the call (of " \
		fmt(get("unpatched", "M4", "all", "range_pages")) ") | under writeback after the call | write requests in flight |"
	print "| --- | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		print "| " k " | " cell(k, "M4", p, "call") " | " maxcell(k, "M4", p, "call") " | " \
			cell(k, "M4", p, "range_dirty_after") " | " cell(k, "M4", p, "range_writeback_after") " | " \
			fmt(get(k, "M4", p, "inflight_writes")) " |"
	}

	hd(lv + 1, "M6: hot page, a store to one page of a mapped file then msync(MS_ASYNC) of that page, in a loop (" \
		fmt(get("patched", "M6", "store_msync", "run_length")) " s per repetition)")
	print "An iteration is one store and one msync(MS_ASYNC) of the page; \"store only\" is the same loop without the msync, on the"
	print "same kernel: what the timing itself costs, and what the device sees when nothing pushes the page.  A store to a page"
	print "that writeback has cleaned takes a write fault (faults per iteration) and waits in ->page_mkwrite while that"
	print "writeback is in flight: the median store is one that does not fault, the mean and the longest show the waits."
	print ""
	print "| kernel | loop | iterations per s | KiB written per iteration | KiB written per s | write faults per iteration | store median (us) | store mean (us) | store longest (us) | msync median (us) | msync mean (us) | msync longest (us) |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
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
				(j == 1 ? maxcell(k, "M6", p, "msync_max") : "-") " |"
		}
	}
}' "$dir/bench.csv"
[ "$part" != headline ] || lmdb bench-lmdb.csv headline
