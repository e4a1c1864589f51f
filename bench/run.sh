#!/usr/bin/env bash
# make bench: the same benchmark, same scratch image and same QEMU settings,
# on five kernels: unpatched v3.5, the patched series, and three variants
# of patch 2's MS_ASYNC that stand for the designs it was compared with
# (tests/variants/aprime.patch: the 2012 v2, the caller writes the range
# unless the device is write-congested; tests/variants/v4.patch: v4 of
# this series, a request per mapping run by a private workqueue;
# tests/variants/dfixed.patch: v4 with the faults of its review fixed,
# per-device lanes, round robin by chunk, parked frozen requests).  Then
# out/bench.md, bench.csv and bench.png: M1-M5 compare unpatched and
# patched; the design comparison shows M3, M4 ms_async and M6 for all
# five.  M1 also runs on the i386 kernels (unpatched and patched): its
# i386 rows; M3 and M7 on Debian's Linux 6.12, unpatched and with
# patches-6.12/ (the kernels of make check-6.12, built once for both):
# their own tables.  Last, bench/lmdb.sh: LMDB, the real MS_ASYNC user,
# on the same kernels and the delay variants (out/bench-lmdb.md), and on
# the 6.12 kernels (out/bench-lmdb-6.12.md).  And bench/many.sh: the
# flusher's cost with 10^5 dirty inodes on one device, unpatched and
# patched, v3.5 and 6.12 (out/bench-many.md; MANY=0: not run).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$TOP"

. "$TOP/bench/guest.env"
export TIMEOUT=${BENCH_TIMEOUT:-900}

# The kernels of the benchmark (BENCH_KERNELS), and those bench/lmdb.sh
# adds: all built first, v4 and dfixed last (they change
# include/linux/fs.h, which the variants built after them in the one
# worktree would all recompile).
kernels=${BENCH_KERNELS:-unpatched patched aprime v4 dfixed i386-unpatched i386-patched 6.12-unpatched 6.12-patched}
# The tables compare the patched kernel with the unpatched one: both run.
for k in unpatched patched; do
	case " $kernels " in
	*" $k "*) ;;
	*) die "BENCH_KERNELS=\"$kernels\" lacks $k: the tables compare unpatched and patched" ;;
	esac
done
k612=$(echo $kernels | tr ' ' '\n' | grep '^6\.12-' | paste -sd ' ' || :)
# LMDB=0: no LMDB step (and no delay variants to build).
lmdb_only="delay0 delay10 delay100 delay500"
[ "${LMDB:-1}" = 0 ] && lmdb_only=""
late=$(echo $kernels | tr ' ' '\n' | grep -x 'v4\|dfixed' | paste -sd ' ' || :)
builds=$(echo $kernels $lmdb_only | tr ' ' '\n' | grep -vx 'v4\|dfixed' | paste -sd ' ' || :)
builds="$builds${late:+ $late}"
rev_of() {
	case $1 in
	unpatched|i386-unpatched|6.12-unpatched) echo base ;;
	patched|i386-patched|6.12-patched) echo series ;;
	*) echo "variant-$1" ;;
	esac
}
what_of() {
	case $1 in
	unpatched|patched) echo "$1" ;;
	i386-*) echo "${1#i386-}, i386" ;;
	6.12-*) echo "${1#6.12-}, 6.12" ;;
	*) echo "$1 variant" ;;
	esac
}
version_of() {
	case $1 in
	6.12-*) echo 6.12 ;;
	*) echo 3.5 ;;
	esac
}
i386_env() {
	GUEST_ARCH=i386 CONFIG_FRAGMENT="$TOP/config/msync.config $TOP/config/i386.config" "$@"
}
nk=0 nb=0
for k in $kernels; do nk=$((nk + 1)); done
for k in $builds; do nb=$((nb + 1)); done
total=$((2 + nb + nk))
[ "${LMDB:-1}" = 0 ] || total=$((total + 1))
many=$(echo $kernels | tr ' ' '\n' | grep -x 'unpatched\|patched\|6\.12-unpatched\|6\.12-patched' |
	paste -sd ' ' || :)
[ "${MANY:-1}" = 0 ] || total=$((total + 1))
# What bench/results.sh save records as the source of the figures; an
# LMDB table left from an earlier run must not join this one's bench.md.
mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR/bench-lmdb.csv" "$OUT_DIR/bench-lmdb-6.12.csv"
echo "make bench of $(date -u +%Y-%m-%d), BENCH_KERNELS=\"$kernels\", on commit" \
	"$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" \
	>"$OUT_DIR/bench-source.txt"
n=1
step "[$n/$total]" "checking packages and preparing the tree"
scripts/deps.sh
scripts/fetch.sh >/dev/null
scripts/tree.sh
if [ -n "$k612" ]; then
	scripts/deps.sh 6.12
	scripts/tree-6.12.sh >/dev/null
fi
for k in $builds; do
	n=$((n + 1))
	step "[$n/$total]" "building linux-$(version_of "$k") ($(what_of "$k"))"
	case $k in
	unpatched|patched) scripts/build.sh "$k" "$(rev_of "$k")" ;;
	i386-*) i386_env scripts/build.sh "$k" "$(rev_of "$k")" ;;
	6.12-*) scripts/build-6.12.sh "$k" "$(rev_of "$k")" "$OUT_DIR/build-$k.log" >/dev/null ||
		die "linux-6.12 ($k) did not build; log: $OUT_DIR/build-$k.log" ;;
	*) scripts/variant.sh "$k"
	   scripts/build.sh "$k" "$(rev_of "$k")" patched ;;
	esac
done
scripts/initramfs.sh "$BUILD_DIR/guest/initramfs.cpio.gz"
GUEST_ARCH=i386 scripts/initramfs.sh "$BUILD_DIR/guest/initramfs-i386.cpio.gz"
for k in $kernels; do
	n=$((n + 1))
	step "[$n/$total]" "benchmarking the $(what_of "$k") kernel (up to $((TIMEOUT / 60)) min)"
	# Scratch images of their own (build/run-bench/), so that a selftest
	# run of the same kernel (build/run-NAME-RUN/) cannot share them.
	kernel=$BUILD_DIR/o-$k/arch/x86/boot/bzImage
	initrd=$BUILD_DIR/guest/initramfs.cpio.gz
	emu=qemu-system-x86_64 arg=
	case $k in
	i386-*) initrd=$BUILD_DIR/guest/initramfs-i386.cpio.gz
		emu=qemu-system-i386 arg=msync.arg=--only:M1 ;;
	6.12-*) arg=msync.arg=--only:M3,M7 ;;
	esac
	KERNEL=$kernel INITRD=$initrd QEMU_SYSTEM=$emu APPEND=$arg \
	BUILD_DIR=$BUILD_DIR/run-bench VERDICT= QUIET=1 scripts/guest.sh "$k" bench ||
		die "the benchmark failed on the $k kernel; console log: $OUT_DIR/$k-bench.log"
done
if [ "${MANY:-1}" != 0 ]; then
	n=$((n + 1))
	step "[$n/$total]" "the flusher with 10^5 dirty inodes: out/bench-many.md"
	# shellcheck disable=SC2086
	bench/many.sh $many >/dev/null
fi
n=$((n + 1))
step "[$n/$total]" "writing out/bench.md, out/bench.csv and out/bench.png"
extra=""
for k in $kernels; do
	case $k in
	unpatched|patched) ;;
	*) extra="$extra $k=$OUT_DIR/$k-bench.log" ;;
	esac
done
# shellcheck disable=SC2086
bench/report.sh "$OUT_DIR/unpatched-bench.log" "$OUT_DIR/patched-bench.log" "$OUT_DIR" $extra
if [ "${LMDB:-1}" = 0 ]; then
	echo "done: $OUT_DIR/bench.md (LMDB=0: no LMDB step)"
	exit 0
fi
n=$((n + 1))
step "[$n/$total]" "LMDB on the same kernels and the delay variants"
# shellcheck disable=SC2086
LMDB_NO_BUILD=1 bench/lmdb.sh $(echo $kernels | tr ' ' '\n' | grep -v 'i386\|6\.12' |
	grep -vx 'v4\|dfixed') $lmdb_only $late
if [ -n "$k612" ]; then
	# shellcheck disable=SC2086
	LMDB_OUT=bench-lmdb-6.12 LMDB_NO_BUILD=1 bench/lmdb.sh $k612
fi
# shellcheck disable=SC2086
bench/report.sh "$OUT_DIR/unpatched-bench.log" "$OUT_DIR/patched-bench.log" "$OUT_DIR" $extra
echo "done: $OUT_DIR/bench.md (with LMDB); 'make results' copies its csv files into bench/results/"
