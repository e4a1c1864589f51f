# Sourced by guest/init (msync.run=sibling): MS_ASYNC on one file system
# of a disk while the other is frozen, synced or unmounted
# (guest/msync_sibling.c); the disk is the partitioned one (disks.sh type
# parts), mounted as NAME-a and NAME-b.
a=$(sed -n 1p /tmp/mounted | cut -d' ' -f1)
b=$(sed -n 2p /tmp/mounted | cut -d' ' -f1)
devb=$(sed -n 2p /tmp/mounted | cut -d' ' -f2)
say "run sibling $a $b"
# msync.arg=2: checks 1 and 2 only
/bin/msync_sibling /mnt/$a /mnt/$b $devb ${MSYNC_ARG:-} </dev/null
say "result sibling exit=$?"
