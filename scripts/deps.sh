#!/usr/bin/env bash
# Install the Debian packages the project needs, or say how to.
#   deps.sh        what make check needs
#   deps.sh 6.12   and Debian's linux-source-6.12 (make check-6.12), the
#                  version whose tarball linux.hash pins
#   deps.sh fstests  and what make fstests and make ltp build with: fstests'
#                  and LTP's build dependencies, debootstrap for the guest
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# tool:package pairs; the first field is what is looked for on PATH.
TOOLS="gcc:gcc make:make bc:bc perl:perl cpio:cpio xz:xz-utils
git:git patch:patch filterdiff:patchutils
qemu-system-x86_64:qemu-system-x86 mkfs.ext4:e2fsprogs gnuplot:gnuplot-nox
curl:curl gzip:gzip timeout:coreutils"
BUSYBOX=/bin/busybox

missing=""
for tp in $TOOLS; do
	command -v "${tp%%:*}" >/dev/null 2>&1 || missing="$missing ${tp#*:}"
done
# busybox must be the static build: it runs alone in the initramfs.
if ! [ -x $BUSYBOX ] || ! file -L $BUSYBOX 2>/dev/null | grep -q static; then
	missing="$missing busybox-static"
fi
command -v file >/dev/null 2>&1 || missing="$missing file"
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || missing="$missing libc6-dev"
# The i386 guest's programs: gcc -m32 -static.
[ -e /usr/lib32/libc.a ] || missing="$missing gcc-multilib"
# The benchmark's real MS_ASYNC user, linked statically.
[ -e /usr/lib/x86_64-linux-gnu/liblmdb.a ] || missing="$missing liblmdb-dev"
# The i386 guest's busybox comes from busybox-static:i386, which apt
# lists only once dpkg knows the architecture (scripts/busybox32.sh).
foreign=""
dpkg --print-foreign-architectures | grep -x i386 >/dev/null || foreign=i386
# HTTPS downloads need the CA certificates curl does not depend on.
[ -e /etc/ssl/certs/ca-certificates.crt ] || missing="$missing ca-certificates"
# 6.12's build runs flex and bison (v3.5 ships their output) and
# objtool, which links libelf; check-6.12 also renders msync(2).
if [ "${1:-}" = 6.12 ]; then
	[ -e "$SRC_612" ] || missing="$missing linux-source-6.12=$DEB_612"
	command -v flex >/dev/null 2>&1 || missing="$missing flex"
	command -v bison >/dev/null 2>&1 || missing="$missing bison"
	[ -e /usr/include/libelf.h ] || missing="$missing libelf-dev"
	# msync(2) as Debian ships it, for the man-pages patch
	command -v man >/dev/null 2>&1 || missing="$missing man-db"
	[ -e /usr/share/man/man2/msync.2.gz ] || missing="$missing manpages-dev"
fi
# fstests builds against the XFS, uuid, attr, acl, aio, uring, cap and
# gdbm headers with libtool; LTP from git needs autoconf, automake and
# pkg-config; the guest's root file system comes from debootstrap.
if [ "${1:-}" = fstests ]; then
	for hp in xfs/xfs.h:xfslibs-dev uuid/uuid.h:uuid-dev \
		attr/attributes.h:libattr1-dev sys/acl.h:libacl1-dev \
		libaio.h:libaio-dev liburing.h:liburing-dev \
		sys/capability.h:libcap-dev gdbm.h:libgdbm-dev; do
		[ -e "/usr/include/${hp%%:*}" ] || missing="$missing ${hp#*:}"
	done
	for tp in libtoolize:libtool autoreconf:autoconf automake:automake \
		pkg-config:pkg-config debootstrap:debootstrap; do
		command -v "${tp%%:*}" >/dev/null 2>&1 || missing="$missing ${tp#*:}"
	done
fi
[ -z "$missing$foreign" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	[ -n "$missing" ] && echo "missing packages:$missing" >&2
	[ -n "$foreign" ] && echo "dpkg does not know the i386 architecture" >&2
	echo "run as root: ${foreign:+dpkg --add-architecture i386 && }apt-get update${missing:+ && $cmd}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# apt_update: apt-get update, tried three times: a mirror caught in a sync
# fails one index ("File has unexpected size") for a minute or so.  If it
# still fails, go on with the lists there are (the install says what is
# missing); with none at all, stop.
apt_update() {
	local i
	for i in 1 2 3; do
		apt-get update -qq && return 0
		[ $i = 3 ] || { echo "apt-get update failed; again in 20 s" >&2; sleep 20; }
	done
	ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 ||
		die "apt-get update failed and there are no package lists"
	echo "warning: apt-get update failed 3 times; using the lists there are" >&2
}
# A new machine has no package lists yet (nor any for a new architecture):
# update once, then install.
if [ -n "$foreign" ]; then
	dpkg --add-architecture i386 || die "dpkg --add-architecture i386 failed"
	apt_update
elif ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
	apt_update
fi
[ -z "$missing" ] && exit 0
echo "installing:$missing"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
$cmd -qq >"$log" 2>&1 || { apt_update && $cmd -qq >"$log" 2>&1; } ||
	{ cat "$log" >&2; die "apt-get install failed:$missing"; }
