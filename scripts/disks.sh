#!/usr/bin/env bash
# disks.sh DIR NAME...: fresh scratch images DIR/NAME.img, NAME being a
# type (ext4, ext3, ext2 with feature sets v3.5 mounts read-write, or raw)
# or type-suffix (ext4-sat), copied from images made once under
# build/disks.  Prints the image paths.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$1
shift
FS_SIZE=${FS_SIZE:-512M}
RAW_SIZE=${RAW_SIZE:-6G}
golden=$BUILD_DIR/disks
mkdir -p "$golden" "$dir"

for fs in "$@"; do
	type=${fs%%-*}
	size=$FS_SIZE
	[ "$type" = raw ] && size=$RAW_SIZE
	# The name records how the image was made, so a change remakes it.
	img=$golden/$type-$size-$(echo "$(mkfs_for "$type" 2>/dev/null)" |
		sha256sum | cut -c1-8).img
	if ! [ -f "$img" ]; then
		need mkfs.ext4 e2fsprogs
		# A name of its own: two guests booting at once may both
		# make the image; the rename makes either one whole.
		tmp=$(mktemp "$img.XXXXXX")
		truncate -s "$size" "$tmp"
		if [ "$type" != raw ]; then
			$(mkfs_for "$type") "$tmp" >/dev/null 2>&1 ||
				{ rm -f "$tmp"; die "mkfs for $type failed: $(mkfs_for "$type")"; }
		fi
		mv "$tmp" "$img"
	fi
	cp --sparse=always "$img" "$dir/$fs.img"
	echo "$dir/$fs.img"
done
