#!/usr/bin/env bash
# disks.sh DIR NAME...: fresh scratch images DIR/NAME.img, NAME being a
# type (ext4, ext3, ext2 with feature sets v3.5 mounts read-write, raw, or
# parts: an MS-DOS partition table and two ext4 file systems, one per half,
# two file systems of one device) or type-suffix (ext4-sat), copied from
# images made once under build/disks.  Prints the image paths.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$1
shift
FS_SIZE=${FS_SIZE:-512M}
RAW_SIZE=${RAW_SIZE:-6G}
golden=$BUILD_DIR/disks

# The partitioned image: sectors of 512 bytes, first partition from 1 MiB
# to the middle, second from the middle to the end; type 0x83.
PARTS_LAYOUT="mbr 2048 half"

# le32 N: N as 4 little-endian bytes, in printf's \x notation.
le32() {
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) \
		$(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}

# make_parts IMG: the partition table, then mkfs of each partition in
# place (mke2fs -E offset=).
make_parts() {
	local img=$1 total half p start count
	total=$(( $(stat -c %s "$img") / 512 ))
	half=$((total / 2))
	for p in 1 2; do
		if [ $p = 1 ]; then start=2048 count=$((half - 2048))
		else start=$half count=$((total - half)); fi
		# shellcheck disable=SC2059
		printf "\\x00\\x00\\x00\\x00\\x83\\x00\\x00\\x00$(le32 $start)$(le32 $count)" |
			dd of="$img" bs=1 seek=$((446 + 16 * (p - 1))) conv=notrunc status=none
		$(mkfs_for ext4 | sed 's/-E /-E offset='$((start * 512))',/') \
			"$img" $((count / 8)) >/dev/null 2>&1 || return 1
	done
	printf '\x55\xaa' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
}
mkdir -p "$golden" "$dir"

for fs in "$@"; do
	type=${fs%%-*}
	size=$FS_SIZE
	[ "$type" = raw ] && size=$RAW_SIZE
	# The name records how the image was made, so a change remakes it.
	img=$golden/$type-$size-$(echo "$(mkfs_for "${type/parts/ext4}" 2>/dev/null) $PARTS_LAYOUT" |
		sha256sum | cut -c1-8).img
	if ! [ -f "$img" ]; then
		need mkfs.ext4 e2fsprogs
		# A name of its own: two guests booting at once may both
		# make the image; the rename makes either one whole.
		tmp=$(mktemp "$img.XXXXXX")
		truncate -s "$size" "$tmp"
		if [ "$type" = parts ]; then
			make_parts "$tmp" ||
				{ rm -f "$tmp"; die "making the partitioned image failed"; }
		elif [ "$type" != raw ]; then
			$(mkfs_for "$type") "$tmp" >/dev/null 2>&1 ||
				{ rm -f "$tmp"; die "mkfs for $type failed: $(mkfs_for "$type")"; }
		fi
		mv "$tmp" "$img"
	fi
	cp --sparse=always "$img" "$dir/$fs.img"
	echo "$dir/$fs.img"
done
