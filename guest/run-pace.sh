# Sourced by guest/init (msync.run=pace): programs that never call
# MS_ASYNC keep the periodic flusher's pace (guest/msync_pace.c), on
# every file system mounted.
while read -r fs dev; do
	say "run pace $fs"
	/bin/msync_pace /mnt/$fs </dev/null
	say "result pace $fs exit=$?"
done </tmp/mounted
