# Sourced by guest/init (msync.run=cgswitch): MS_ASYNC while cgroup
# writeback moves the file to another wb (guest/msync_cgswitch.c), on the
# first mounted file system.  On a kernel with kmemleak (the debug
# kernel), then the objects it reports that were allocated during the
# run, as a line "# cgswitch kmemleak: N ...".
fs=$(sed -n 1p /tmp/mounted | cut -d' ' -f1)
cg_jiffies=$(jiffies_now)
say "run cgswitch $fs"
/bin/msync_cgswitch /mnt/$fs </dev/null
say "result cgswitch exit=$?"
grep -q " /sys/kernel/debug " /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug
if [ -f /sys/kernel/debug/kmemleak ]; then
	kmemleak_new "$cg_jiffies" >/tmp/kmemleak
	sed '$d' /tmp/kmemleak
	echo "# cgswitch kmemleak: $(tail -n 1 /tmp/kmemleak) unreferenced objects allocated during the run"
fi
