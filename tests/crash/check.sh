#!/usr/bin/env bash
# check.sh REPLAY LOG BASE WORK SAMPLES SEED [break]: check every crash
# point of one logged disk.  REPLAY is the built tests/crash/replay.c, LOG
# the disk's write log, BASE the image as it was before the guest booted,
# WORK a scratch directory.  For each crash point (replay points): rebuild
# the image, let e2fsck replay the journal and repair (exit status 4 or
# more: the file system is corrupt), read the files out with debugfs and
# check them against the syncs done by then (replay check).
# Prints one line of figures:
#   points P flush F between B ranges R checks C lost-flush LF
#   lost-prefix LP lost-subset LS lost-ranges LR corrupt X garbage G torn T
# (checks: synced ranges checked, summed over the points; lost-*: checks
# that found a synced range lost, at flush points, at points with every
# completed write on the disk and at points with a random part of the
# unflushed writes; lost-ranges: distinct ranges lost at some point; torn:
# pages torn between two records, summed over the points; see
# tests/crash/replay.c for the kinds of points), then the first losses
# and errors.  Exit status 0 when nothing was lost, corrupt or garbage.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin

replay=$1 log=$2 base=$3 work=$4 samples=$5 seed=$6 mode=${7:-}
mkdir -p "$work"
img=$work/img file=$work/crash.dat grow=$work/grow.dat
points=0 flush=0 between=0 checks=0 lost_f=0 lost_p=0 lost_s=0 corrupt=0 garbage=0 torn=0
repaired=0
fsck_quiet='^(e2fsck [0-9.]+ .*|Pass [1-5][A-E]?: .*|.*: recovering journal|Free (blocks|inodes) count wrong \([0-9]+, counted=[0-9]+\)\.|Fix\? yes|.*\*\*\*\*\* FILE SYSTEM WAS MODIFIED \*\*\*\*\*|.*: [0-9]+/[0-9]+ files .*|)$'
: >"$work/lost" >"$work/errors" >"$work/torn" >"$work/repaired"

"$replay" points "$log" "$samples" "$seed" >"$work/points"
total=$(wc -l <"$work/points")
while read -r kind t; do
	points=$((points + 1))
	[ $((points % 100)) = 0 ] && echo "  ... $points/$total crash points" >&2
	if [ "$kind" = f ]; then
		flush=$((flush + 1))
	else
		between=$((between + 1))
	fi
	cp --sparse=always "$base" "$img"
	"$replay" build "$log" "$img" "$kind" "$t" "$seed"
	rc=0
	e2fsck -fy "$img" >"$work/fsck.out" 2>&1 || rc=$?
	if [ $rc -ge 4 ]; then
		corrupt=$((corrupt + 1))
		echo "crash point $kind $t: e2fsck exit $rc: $(tail -n 3 "$work/fsck.out" | paste -sd' ')" >>"$work/errors"
		continue
	fi
	# 1-3: e2fsck changed something beyond the journal replay; counted
	# and shown (ext2 has no journal to replay).  Not the superblock's
	# free block and inode counts: ext3 and ext4 keep them in memory and
	# write them at sync_fs and umount; e2fsck recounts them after any
	# allocation (the groups' counts, which are journaled, do count).
	if [ $rc != 0 ] && grep -vqE "$fsck_quiet" "$work/fsck.out"; then
		repaired=$((repaired + 1))
		[ -s "$work/repaired" ] || { echo "crash point $kind $t:"
			grep -vE "$fsck_quiet" "$work/fsck.out" | head -n 4; } >"$work/repaired"
	fi
	rm -f "$file" "$grow"
	printf 'dump /crash.dat %s\ndump /grow.dat %s\n' "$file" "$grow" |
		debugfs -f - "$img" >/dev/null 2>&1 || true
	if ! [ -f "$file" ] || ! [ -f "$grow" ]; then
		garbage=$((garbage + 1))
		echo "crash point $kind $t: no /crash.dat or /grow.dat after e2fsck" >>"$work/errors"
		continue
	fi
	rc=0
	"$replay" check "$log" "$file" "$grow" "$kind" "$t" $mode >"$work/check.out" || rc=$?
	if ! read -r _ synced _ lost _ _ _ torn1 < <(grep '^synced ' "$work/check.out"); then
		echo "crash point $kind $t: replay check failed (exit $rc): $(tail -n 2 "$work/check.out" | paste -sd' ')" >>"$work/errors"
		garbage=$((garbage + 1))
		continue
	fi
	checks=$((checks + synced))
	torn=$((torn + torn1))
	grep -m 1 '^torn' "$work/check.out" | sed "s/^/crash point $kind $t: /" >>"$work/torn" || true
	case $kind in
	f) lost_f=$((lost_f + lost)) ;;
	p) lost_p=$((lost_p + lost)) ;;
	*) lost_s=$((lost_s + lost)) ;;
	esac
	if [ $rc = 2 ]; then
		garbage=$((garbage + 1))
		grep -m 3 '^garbage' "$work/check.out" | sed "s/^/crash point $kind $t: /" >>"$work/errors"
	fi
	grep '^lost' "$work/check.out" | sed "s/^/crash point $kind $t: /" >>"$work/lost" || true
done <"$work/points"

ranges=$("$replay" info "$log" | sed 's/.* synced \([0-9]*\) .*/\1/')
lost_ranges=$(sed -n 's/.*lost: range \([0-9]*\) .*/\1/p' "$work/lost" | sort -u | wc -l)
echo "points $points flush $flush between $between ranges $ranges checks $checks lost-flush $lost_f lost-prefix $lost_p lost-subset $lost_s lost-ranges $lost_ranges corrupt $corrupt garbage $garbage torn $torn repaired $repaired"
head -n 3 "$work/lost"
head -n 2 "$work/torn"
head -n 3 "$work/errors"
head -n 5 "$work/repaired"
[ "$lost_f$lost_p$lost_s$corrupt$garbage" = 00000 ]
