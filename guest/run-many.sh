# Sourced by guest/init (msync.run=many): the flusher's cost with many
# dirty inodes on one device (guest/msync_many.c) on the first file
# system: an MS_ASYNC pass, sync() and periodic writeback with N files of
# one dirty page each.  MSYNC_ARG: "--reps R" (default 3) and
# "--only LIST" (async,sync,periodic), then the N values (default 1 10000
# 100000).
read -r fs dev </tmp/mounted
set -- ${MSYNC_ARG:-}
opts=
while [ "${1:-}" = --reps ] || [ "${1:-}" = --only ]; do
	opts="$opts $1 $2"
	shift 2
done
say "run many $fs"
/bin/msync_many $opts /mnt/$fs $dev "$@" </dev/null
say "result many exit=$?"
