# Sourced by guest/init (msync.run=abort): MS_ASYNC of pages whose
# writepage keeps failing, on the first file system (ext3), which
# guest/msync_abort.c aborts.
read -r fs dev </tmp/mounted
say "run abort $fs"
/bin/msync_abort /mnt/$fs </dev/null
say "result abort $fs exit=$?"
