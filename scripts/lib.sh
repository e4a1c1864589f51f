# Common settings and helpers, sourced by every script in scripts/.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$TOP/build}
OUT_DIR=${OUT_DIR:-$TOP/out}
DL_DIR=${DL_DIR:-$TOP/dl}
KVER=3.5
KTAR=linux-$KVER.tar.xz
KERNEL_URL=${KERNEL_URL:-https://cdn.kernel.org/pub/linux/kernel/v3.x/$KTAR}
# Today's kernel: Debian's linux-source-6.12 package puts this tarball in
# /usr/src (make check-6.12; the version is the one linux.hash pins).
DEB_612=6.12.118-1~deb12u1
SRC_612=${SRC_612:-/usr/src/linux-source-6.12.tar.xz}
TREE=${TREE:-$BUILD_DIR/linux}

# The fixed identity and date of every commit the harness makes, so that
# the same patches always give the same commits and the same export.
PROJECT_NAME="msync series"
PROJECT_EMAIL="msync-series@example.invalid"
PROJECT_DATE="2012-07-21 12:00:00 +0000"
export GIT_AUTHOR_NAME="$PROJECT_NAME" GIT_AUTHOR_EMAIL="$PROJECT_EMAIL"
export GIT_COMMITTER_NAME="$PROJECT_NAME" GIT_COMMITTER_EMAIL="$PROJECT_EMAIL"
export GIT_AUTHOR_DATE="$PROJECT_DATE" GIT_COMMITTER_DATE="$PROJECT_DATE"
export GIT_CONFIG_NOSYSTEM=1

# mkfs and friends live in sbin, which a non-root PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

die() {
	echo "error: $*" >&2
	exit 1
}

HASH_FILE=${HASH_FILE:-$TOP/linux.hash}

# The planted kernel (tests/variants/planted.patch, built as o-planted)
# carries every deliberate fault of MS_SYNC and MS_ASYNC the tests must
# catch; msync_plant=NAME on its command line plants one.  A kernel NAME
# that is one of them boots o-planted with it (kernel_image, plant_append).
# The same on 6.12: kernel 6.12-NAME, tests/variants-6.12/planted.patch,
# o-6.12-planted.
# plants [6.12]: the faults of the planted kernel (of 6.12).
plants() {
	local dir=variants
	[ "${1:-}" != 6.12 ] || dir=variants-6.12
	sed -n '/msync_plants\[\] = {/,/};/p' "$TOP/tests/$dir/planted.patch" |
		grep -o '"[a-z0-9]*"' | tr -d '"' | paste -sd ' ' -
}
# plant_of NAME: "OBJDIR FAULT" if kernel NAME is a planted fault, else
# nothing.
plant_of() {
	case $1 in
	6.12-*)
		if [[ " $(plants 6.12) " == *" ${1#6.12-} "* ]]; then
			echo "o-6.12-planted ${1#6.12-}"
		fi ;;
	*)
		if [[ " $(plants) " == *" $1 "* ]]; then
			echo "o-planted $1"
		fi ;;
	esac
}
is_plant() {
	[ -n "$(plant_of "$1")" ]
}
# kernel_image NAME: the bzImage that boots as kernel NAME.
kernel_image() {
	local p
	p=$(plant_of "$1")
	if [ -n "$p" ]; then
		echo "$BUILD_DIR/${p% *}/arch/x86/boot/bzImage"
	else
		echo "$BUILD_DIR/o-$1/arch/x86/boot/bzImage"
	fi
}
# plant_append NAME: the command-line word that plants fault NAME, if any.
plant_append() {
	local p
	p=$(plant_of "$1")
	if [ -n "$p" ]; then echo "msync_plant=${p#* }"; fi
}

# pinned FILE: the sha256 values linux.hash lists for a file name.
pinned() {
	awk -v f="$1" '$1 == "sha256" && $3 == f { print $2 }' "$HASH_FILE"
}

# verify PATH NAME: succeed if the file's sha256 is pinned for NAME in
# linux.hash (HASH_FILE); else say why.
verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	if [ -z "$(pinned "$2")" ]; then
		echo "error: $1: no sha256 is pinned for $2 in $HASH_FILE" >&2
		echo "  its sha256 is $sum" >&2
		echo "  check it against kernel.org's signed sha256sums.asc, then add:" >&2
		echo "  sha256  $sum  $2" >&2
		return 1
	fi
	if ! grep -qx "$sum" <<<"$(pinned "$2")"; then
		echo "error: $1: sha256 mismatch (truncated, corrupt or not $2)" >&2
		echo "  got      $sum" >&2
		echo "  expected $(pinned "$2" | paste -sd' ')" >&2
		return 1
	fi
}

# git_tree_from TARBALL DIR DEST MESSAGE TAG: unpack TARBALL, whose files
# are under DIR/, into DEST as a git tree of one commit MESSAGE tagged TAG
# (add -f: a distribution's .gitignore may ignore its own sources).  It
# is unpacked beside DEST first: on failure nothing is left behind.
git_tree_from() {
	local tmp
	mkdir -p "$BUILD_DIR"
	tmp=$(mktemp -d "$BUILD_DIR/.extract.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	echo "extracting $(basename "$1")"
	tar -C "$tmp" -xJf "$1" ||
		die "$1: extraction failed; nothing was changed"
	[ -d "$tmp/$2/mm" ] || die "$1 does not unpack to $2/"
	(
		cd "$tmp/$2"
		git init -q
		git config user.name "$PROJECT_NAME"
		git config user.email "$PROJECT_EMAIL"
		git add -A -f
		git commit -q -m "$4"
		git tag "$5"
	)
	rm -rf "$3"
	mv "$tmp/$2" "$3"
}

# step "[3/7]" "building linux-3.5 (patched)": one progress line.
step() {
	echo "$1 $2..."
}

# show_tail FILE [N]: the end of a log, for failure messages.
show_tail() {
	echo "---- last ${2:-40} lines of $1 ----" >&2
	tail -n "${2:-40}" "$1" | tr -d '\r' >&2
	echo "---- end of $1 ----" >&2
}

# need TOOL PACKAGE: fail with the package name if a tool is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "'$1' not found: install the Debian package '$2' (or run 'make deps')"
}

# mkfs_for TYPE: the mkfs command line of a scratch file system (ext4,
# ext3, ext2), image name and size to be added.
# -b 4096: small images would get 1 KiB blocks.  ext4: no feature newer
# than v3.5 (metadata_csum came in 3.6, orphan_file much later), and
# inode tables initialised now, or ext4lazyinit writes during the test.
mkfs_for() {
	case $1 in
	ext4) echo "mkfs.ext4 -q -F -b 4096 -O ^metadata_csum,^metadata_csum_seed,^orphan_file,^64bit -E lazy_itable_init=0,lazy_journal_init=0" ;;
	ext3) echo "mkfs.ext3 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0" ;;
	ext2) echo "mkfs.ext2 -q -F -b 4096 -E lazy_itable_init=0" ;;
	*) die "unknown scratch file system '$1'" ;;
	esac
}

# What a kernel prints when something went wrong, as extended regexes for
# grep -E over a console log (verdict.sh, the race test): lockdep's
# reports, and lockdep turning itself off; BUG_ON/VM_BUG_ON, oopses,
# WARN_ON (v3.5's "WARNING: at", 6.12's "WARNING: CPU:") and the trace
# that ends either, debug objects, SLUB's poison and red-zone reports (on
# a tainted kernel too), RCU stalls, the CPU exceptions that kill a task
# (divide error, stack segment, double fault), failed allocations; hung
# tasks; inodes left busy at umount and file systems that found
# themselves corrupt or lost data (ext2/3/4 errors and warnings, ext2's
# "EXT2-fs (vda): error", an aborted journal, jbd2 refusing a handle,
# dirty metadata where none may be, ext4's lost delayed allocation, a
# forced read-only remount, an access beyond the end of a device, which
# v3.5 prints at KERN_INFO, below the console's level: guest/init
# prints it from dmesg at the end); UBSAN, the OOM killer, lockdep's
# uninitialized key.  I/O errors are judged by verdict.sh: the
# raw disk fails one sector on purpose.
KERNEL_LOCKDEP_RE='possible (circular|recursive) locking|trying to register non-static key|inconsistent lock state|suspicious RCU usage|lock order detected|irq lock inversion|turning off the locking correctness validator'
KERNEL_BUG_RE='Kernel panic|Oops|BUG:|kernel BUG at|invalid opcode:|WARNING: at|WARNING: CPU:|---\[ end trace|general protection fault|divide error:|stack segment:|double fault:|page allocation failure|ODEBUG:|BUG [^ ]+ \((Not tainted|Tainted[^)]*)\)|detected stall|UBSAN:|Out of memory:'
KERNEL_HUNG_RE='INFO: task .* blocked'
KERNEL_FS_RE='VFS: Busy inodes after unmount|EXT[234]-fs (\([^)]*\): )?error|EXT[234]-fs warning|Aborting journal|jbd2?_start:|Spotted dirty metadata buffer|delayed block allocation failed|Data will be lost|[Rr]emounting filesystem read-only|potential data loss|attempt to access beyond end of device'
# I/O errors of a disk, as v3.5 and 6.12 print them ("vd[a-z]" follows)
KERNEL_IO_RE='I/O error,? dev |Buffer I/O error on (device|dev) |lost page write due to I/O error on |JBD2?: Detected IO errors while flushing file data on '
KERNEL_ERROR_RE="$KERNEL_BUG_RE|$KERNEL_HUNG_RE|$KERNEL_LOCKDEP_RE|$KERNEL_FS_RE"

jobs_n() {
	echo $(($(nproc) + 1))
}

# cover_fill COVER LETTER: fill git format-patch's cover letter LETTER in
# place with the subject (COVER's first line, less any "[...]" prefix)
# and the text (the rest of COVER after its blank second line, its
# figures from bench/results/ by bench/results.sh).
cover_fill() {
	local cover=$1 letter=$2 subject text
	subject=$(head -n 1 "$cover" | sed 's/^Subject: \[[^]]*\] //')
	text=$(mktemp)
	"$TOP/bench/results.sh" expand "$cover" >"$text"
	awk -v subject="$subject" -v cover="$text" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline line < cover) > 0)
				if (++nr > 2)
					print line
			next
		}
		{ print }' "$letter" >"$text.letter"
	mv "$text.letter" "$letter"
	rm -f "$text"
}
