# Sourced by guest/init (msync.run=pace): programs that never call
# MS_ASYNC keep the periodic flusher's pace (guest/msync_pace.c), on
# every file system mounted.  Each device gets min_ratio 1, a share of
# the dirty thresholds of its own: a device with few recent writes has
# none, and on 6.12, which counts a device's dirty pages exactly when its
# share is that small, a single dirty page then exceeds it and background
# writeback writes it at the flusher's next wakeup, not at the expire
# time (v3.5 compares approximate counts, in which a few pages are zero:
# seen on unpatched 6.12, BdiDirtyThresh 0 kB and every page written
# 1.0-1.1 s after it was dirtied; with min_ratio 1, 3.06-3.11 s).
while read -r fs dev; do
	bdi=/sys/class/bdi/$(cat /sys/block/${dev#/dev/}/dev)/min_ratio
	echo 1 >$bdi || say "$bdi: cannot set min_ratio"
	say "run pace $fs"
	/bin/msync_pace /mnt/$fs </dev/null
	say "result pace $fs exit=$?"
	echo 0 >$bdi
done </tmp/mounted
