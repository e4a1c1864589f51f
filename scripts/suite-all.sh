#!/usr/bin/env bash
# suite-all.sh fstests|ltp: make fstests, make ltp.  Builds what is
# missing (packages, the kernels of SUITE_KERNELS, the suite, the guest's
# root file system), runs the suite's list (tests/fstests/list,
# tests/ltp/list) on each kernel in turn (scripts/suite-run.sh), prints
# the table (scripts/suite-table.sh, also in out/SUITE.md) and exits
# non-zero on a regression or a guest that did not run to the end.
# SUITE_FS=ext3 SUITE_TAG=-ext3 make fstests: the same on ext3, its
# results and table (out/fstests-ext3.md) beside ext4's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"
cd "$TOP"

suite=${1:-}
case $suite in
fstests|ltp) ;;
*) die "usage: suite-all.sh fstests|ltp" ;;
esac
started=$(date +%s)
read -ra kernels <<<"$SUITE_KERNELS"
total=$((3 + ${#kernels[@]} + 1))
n=0
progress() {
	n=$((n + 1))
	echo "[$n/$total] $1... (at $(( $(date +%s) - started )) s)"
}
log=$OUT_DIR/$suite-setup.log
mkdir -p "$OUT_DIR"
: >"$log"
# quietly CMD...: run a setup step, its output in the log; on failure
# show its end and stop.
quietly() {
	"$@" >>"$log" 2>&1 || { show_tail "$log" 30; die "$* failed (log: $log)"; }
}

progress "checking packages"
quietly scripts/deps.sh fstests
progress "building the kernels that are missing (${kernels[*]})"
for k in "${kernels[@]}"; do
	[ -f "$(kernel_image "$k")" ] && continue
	echo "  building $k" >&2
	case $k in
	unpatched) quietly scripts/fetch.sh; quietly scripts/tree.sh
		quietly scripts/build.sh unpatched base ;;
	patched) quietly scripts/fetch.sh; quietly scripts/tree.sh
		quietly scripts/build.sh patched series ;;
	6.12-unpatched) quietly scripts/deps.sh 6.12; quietly scripts/tree-6.12.sh
		quietly scripts/build-6.12.sh 6.12-unpatched base "$OUT_DIR/build-6.12-unpatched.log" ;;
	6.12-patched) quietly scripts/deps.sh 6.12; quietly scripts/tree-6.12.sh
		quietly scripts/build-6.12.sh 6.12-patched series "$OUT_DIR/build-6.12-patched.log" ;;
	*) die "SUITE_KERNELS: no recipe for kernel '$k' (build it first)" ;;
	esac
done
progress "building fstests, LTP and the guest's root file system"
quietly scripts/rootfs-image.sh
bad=""
for k in "${kernels[@]}"; do
	progress "running $suite on $k"
	scripts/suite-run.sh "$k" "$suite" >/dev/null || bad="$bad $k"
done
progress "comparing"
rc=0
scripts/suite-table.sh "$suite" "${kernels[@]}" | tee "$OUT_DIR/$suite${SUITE_TAG:-}.md" || rc=1
[ -z "$bad" ] || { echo "error: a guest did not run to the end:$bad" >&2; rc=1; }
echo "$suite took $(( $(date +%s) - started )) s"
exit $rc
