# Sourced by guest/init (msync.run=lmdb): LMDB's commit loop
# (bench/lmdb_bench.c) on the first file system, MS_ASYNC commits
# (MDB_MAPASYNC), the same beside 64 MiB of another file left dirty, then
# MS_SYNC commits, with the kernel's default flusher
# settings.  MSYNC_ARG: seconds per mode (default 10).
read -r fs dev </tmp/mounted
say "run lmdb $fs"
rc=0
for mode in async async-dirty sync; do
	/bin/lmdb_bench /mnt/$fs $dev $mode ${MSYNC_ARG:-10} </dev/null || rc=1
done
say "result lmdb $fs exit=$rc"
