# Sourced by guest/init (msync.run=eio): msync(MS_SYNC) and fdatasync()
# under failing writes, on the first mounted file system, whose file
# eio.dat has a page whose writes fail (QEMU blkdebug; tests/crash.sh).
# MSYNC_ARG="BADPAGE GOODPAGE".
read -r fs dev </tmp/mounted
say "run eio $fs"
/bin/msync_eio /mnt/$fs/eio.dat $MSYNC_ARG </dev/null
say "result eio $fs exit=$?"
