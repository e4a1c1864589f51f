# Sourced by guest/init (msync.run=crash): the crash-consistency writer on
# every mounted file system, each on its own logged disk (tests/crash.sh).
# MSYNC_ARG="RANGES SEED".  Background writeback runs every half second
# and takes pages dirty for a second, so unsynced records reach the disk
# too, between and during the syncs.
set -- ${MSYNC_ARG:-20 1}
echo 100 >/proc/sys/vm/dirty_expire_centisecs
echo 50 >/proc/sys/vm/dirty_writeback_centisecs
while read -r fs dev; do
	say "run crash $fs"
	/bin/msync_crash /mnt/$fs $dev $1 $2 </dev/null
	say "result crash $fs exit=$?"
done </tmp/mounted
