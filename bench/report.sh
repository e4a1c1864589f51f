#!/bin/sh
# report.sh - turn msync_bench outputs into tables and a plot.
#
#   report.sh <unpatched.out> <patched.out> <outdir> [<name>=<file> ...]
#
# The inputs may be bare msync_bench output or a whole guest console log
# (then only the part between "=== BEGIN msync_bench output ===" and
# "=== END" is read).  Writes <outdir>/bench.csv, then from it alone
# (bench/tables.sh) <outdir>/bench.md, the plot data
# <outdir>/bench_plot_*.dat and, with gnuplot, <outdir>/bench.png (plot
# script: bench.gp beside this file).  An <outdir>/bench-lmdb.csv and
# bench-lmdb-6.12.csv there (bench/lmdb.sh) add their tables to bench.md.
#
# M1-M5 compare unpatched and patched.  Further kernels, given as
# name=file (e.g. aprime=out/aprime-bench.log v4=out/v4-bench.log, the
# other MS_ASYNC designs of patch 2), appear only in the design
# comparison section (M3, M4 ms_async, M6), beside unpatched and patched;
# i386-unpatched=file and i386-patched=file (an M1-only run of the i386
# kernels) only as i386 rows of the M1 table; 6.12-unpatched=file and
# 6.12-patched=file (an M3 and M7 run of the 6.12 kernels) only in
# tables of their own.
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
# the extra kernels: names and files, in the order given; own_names: the
# i386 and 6.12 kernels, not in the design comparison
extra_names=""
own_names=""
for a in "$@"; do
	n=${a%%=*}
	f=${a#*=}
	case $n in
	''|*[!a-z0-9_.-]*|unpatched|patched|"$a")
		echo "report.sh: bad extra kernel '$a' (want name=file, name in [a-z0-9_.-])" >&2
		exit 2 ;;
	esac
	[ -r "$f" ] || { echo "report.sh: cannot read $f" >&2; exit 1; }
	case $n in
	i386-*|6.12-*) own_names="$own_names $n" ;;
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
for a in "$@"; do
	extract "${a#*=}" >"$tmp/${a%%=*}"
done
kernels="unpatched patched$extra_names"
for k in $kernels $own_names; do
	if ! grep -q '^csv,' "$tmp/$k"; then
		echo "report.sh: no csv lines in the $k output" >&2
		exit 1
	fi
done

# bench.csv: every row, with a kernel column; the meta lines as rows
# "kernel,meta,KEY,VALUE" (commas in VALUE become semicolons)
{
	echo "kernel,measurement,param,metric,median,min,max,unit,n"
	for k in $kernels $own_names; do
		awk -v k="$k" '
			/^meta,/ { v = $0; sub(/^meta,[^,]*,/, "", v); gsub(/,/, ";", v)
				split($0, f, ","); print k ",meta," f[2] "," v; next }
			{ sub(/^csv,/, k ","); print }' "$tmp/$k"
	done
} >"$out/bench.csv"

# bench.md and the plot data, from bench.csv alone (bench/tables.sh)
{
	echo "# msync benchmark: v3.5 unpatched, patched and the other MS_ASYNC designs"
	echo
	"$here/tables.sh" -p "$out" "$out"
	if [ -r "$out/bench-lmdb.csv" ]; then
		printf '\n## LMDB: a commit loop, MDB_MAPASYNC (MS_ASYNC) and MS_SYNC\n\n'
		"$here/tables.sh" "$out" lmdb
	fi
	if [ -r "$out/bench-lmdb-6.12.csv" ]; then
		printf '\n## LMDB on Linux 6.12\n\n'
		"$here/tables.sh" "$out" lmdb-6.12
	fi
} >"$out/bench.md"

# the plot
if command -v gnuplot >/dev/null 2>&1; then
	# (a whole list read into a variable: grep -q on a pipe may leave
	# gnuplot writing into a closed pipe)
	case $(gnuplot -e 'set terminal' 2>&1 || :) in
	*pngcairo*) term=pngcairo ;;
	*) term=png ;;
	esac
	gnuplot -e "outdir='$out'; term='$term'" "$here/bench.gp"
	echo "report.sh: wrote $out/bench.csv $out/bench.md $out/bench.png" >&2
else
	echo "report.sh: gnuplot not found (apt-get install -y gnuplot-nox); no plot" >&2
	echo "report.sh: wrote $out/bench.csv $out/bench.md" >&2
fi
