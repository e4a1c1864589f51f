# Settings and helpers of make fstests and make ltp, sourced after
# scripts/lib.sh by scripts/fstests*.sh, scripts/ltp*.sh, scripts/rootfs*.sh,
# scripts/suite-run.sh and tests/fstests*.sh.
# shellcheck shell=bash

# The pinned sources (suites.hash) and the directories they unpack to.
FSTESTS_TAR=xfstests-63a29724.tar.xz
FSTESTS_SRC=xfstests-63a29724
LTP_TAR=ltp-695827725.tar.xz
LTP_SRC=ltp-695827725
# Where the suites are built and the guest's root file system is kept.
SUITES_DIR=$BUILD_DIR/suites
# The kernels both targets run on, unpatched before patched.
SUITE_KERNELS=${SUITE_KERNELS:-unpatched patched 6.12-unpatched 6.12-patched}

# tree_key FILE...: a short hash of the files' contents, for the stamps
# that say what a build was made from.
tree_key() {
	cat "$@" | sha256sum | cut -c1-16
}

# unpack_suite TARBALL DIR DEST PATCHES...: unpack TARBALL (files under
# DIR/) into DEST as a git tree of one commit, then git am the patches
# (format-patch files against that commit).  Unpacked beside DEST first.
unpack_suite() {
	local tarball=$1 dir=$2 dest=$3 tmp
	shift 3
	mkdir -p "$(dirname "$dest")"
	tmp=$(mktemp -d "$(dirname "$dest")/.unpack.XXXXXX")
	tar -C "$tmp" -xJf "$tarball" || { rm -rf "$tmp"; die "$tarball: extraction failed"; }
	[ -d "$tmp/$dir" ] || { rm -rf "$tmp"; die "$tarball does not unpack to $dir/"; }
	if ! (
		cd "$tmp/$dir"
		git init -q
		git add -A -f
		git commit -q -m "$dir as pinned in suites.hash"
		for p in "$@"; do
			git am -q --whitespace=nowarn "$p" ||
				{ echo "error: $p does not apply to $dir" >&2; exit 1; }
		done
	); then
		rm -rf "$tmp"
		die "patching $dir failed"
	fi
	rm -rf "$dest"
	mv "$tmp/$dir" "$dest"
	rm -rf "$tmp"
}
