# Sourced by guest/init (msync.run=cgswitch): MS_ASYNC while cgroup
# writeback moves the file to another wb (guest/msync_cgswitch.c), on the
# first mounted file system.
fs=$(sed -n 1p /tmp/mounted | cut -d' ' -f1)
say "run cgswitch $fs"
/bin/msync_cgswitch /mnt/$fs </dev/null
say "result cgswitch exit=$?"
