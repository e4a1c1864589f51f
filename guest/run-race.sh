# run-race.sh: msync.run=race, sourced by /init (busybox sh) with the
# disks mounted.  MSYNC_ARG="SECONDS SEED [KERNEL [SCANS]]": msync_race
# runs SECONDS on each mounted file system (a name ending in -sat gets the
# flood thread, for a throttled disk) and on the raw device.  After each
# run:
#   - umount at once (MS_ASYNC work may be pending; a file left pinned
#     makes it fail with EBUSY) and mount again;
#   - open files back to the count before the run: the filp slab's
#     objects, exactly, and /proc/sys/fs/file-nr within its slack;
#   - with SCANS "each", kmemleak finds nothing; with "end" (the default)
#     that is checked once, after the last run (two scans cost ~12 s).
# A lockdep report stops the run (lockdep reports once per boot).  At the
# end lockdep (debug_locks) and kmemleak must still be on.  Prints
# "# race NAME: ..." figures and "msync-guest: result race NAME exit=N".

set -- ${MSYNC_ARG:-10}
race_secs=$1
race_seed=${2:-$(date +%s)}
race_kernel=${3:-patched}
race_scans=${4:-end}
kl=/sys/kernel/debug/kmemleak
fs_nr=/proc/sys/fs/file-nr

# The first field of file-nr is a per-CPU counter read without summing:
# it may be off by up to the batch (32) per CPU, either way.
fnr_slack=$((32 * $(grep -c '^processor' /proc/cpuinfo)))

# struct files in use, exactly: the filp slab's objects, per-CPU slabs
# given back first (SLUB counts their free objects as in use).
files_in_use() {
	echo 1 >/sys/kernel/slab/filp/shrink
	cut -d' ' -f1 /sys/kernel/slab/filp/objects
}

lockdep_seen() {
	dmesg | grep -E 'possible (circular|recursive) locking|inconsistent lock state|lock order detected|irq lock inversion' >/dev/null
}

alive() {
	[ -f /proc/$1/status ] && ! grep -q '^State:.*Z' /proc/$1/status
}

race_start=$(cut -d' ' -f1 /proc/uptime)
race_jiffies=$(jiffies_now)
echo "# race: $race_kernel kernel, started $race_start s after boot, $race_secs s per disk, seed $race_seed"
[ -f $kl ] || say "result race kmemleak exit=1 (no $kl)"
[ -n "$race_jiffies" ] || say "result race kmemleak exit=1 (no jiffies in /proc/timer_list)"
race_one() {
	name=$1 target=$2 dev=$3 flood=
	case $name in *-sat) flood=-F ;; esac
	read fnr_before x y <$fs_nr
	filp_before=$(files_in_use)
	t0=$(uptime_s)
	say "run race $name"
	/bin/msync_race $flood -s $race_seed $target $race_secs </dev/null &
	pid=$!
	t=0 why=
	while alive $pid; do
		sleep 1
		t=$((t + 1))
		if lockdep_seen; then
			why="lockdep report"
		elif [ $t -gt $((race_secs + 120)) ]; then
			why="still running after $t s"
		else
			continue
		fi
		kill -9 $pid
		# Killed tasks stuck in D state do not go away
		n=0
		while alive $pid && [ $n -lt 20 ]; do
			sleep 1
			n=$((n + 1))
		done
		break
	done
	if alive $pid; then
		echo "# race $name: msync_race stuck ($why); blocked tasks:"
		echo w >/proc/sysrq-trigger
		say "result race $name exit=1 (stuck: $why)"
		return 1
	fi
	wait $pid
	rc=$?
	[ -n "$why" ] && echo "# race $name: stopped: $why"
	t1=$(uptime_s)
	um=none
	if [ -n "$dev" ]; then
		# Right after the run, with MS_ASYNC work maybe pending
		if umount /mnt/$name; then
			um=ok
			mount -t ${name%%-*} -o noatime $dev /mnt/$name ||
				um=remount-failed
		else
			um=EBUSY
		fi
	fi
	t2=$(uptime_s)
	# Files are freed after an RCU grace period
	m=0
	filp_after=$(files_in_use)
	while [ "$filp_after" -gt "$filp_before" ] && [ $m -lt 10 ]; do
		sleep 1
		m=$((m + 1))
		filp_after=$(files_in_use)
	done
	read fnr_after x y <$fs_nr
	t3=$(uptime_s)
	leaks=-
	if [ $race_scans = each ] && [ -f $kl ]; then
		kmemleak_new "$race_jiffies" >/tmp/kmemleak
		leaks=$(tail -n 1 /tmp/kmemleak)
		sed '$d' /tmp/kmemleak
	fi
	t4=$(uptime_s)
	echo "# race $name: files (filp objects) $filp_before -> $filp_after, file-nr $fnr_before -> $fnr_after, umount $um, kmemleak $leaks"
	echo "# race $name: seconds: run $((t1 - t0)), umount $((t2 - t1)), files freed $m, kmemleak $((t4 - t3))"
	[ $rc = 0 ] || why="${why:+$why, }msync_race exit $rc"
	[ "$um" = ok ] || [ "$um" = none ] || why="${why:+$why, }umount $um"
	[ "$filp_after" -le "$filp_before" ] ||
		why="${why:+$why, }files $filp_before -> $filp_after"
	[ $((fnr_after - fnr_before)) -le $fnr_slack ] ||
		why="${why:+$why, }file-nr $fnr_before -> $fnr_after"
	[ "$leaks" = 0 ] || [ "$leaks" = - ] || why="${why:+$why, }kmemleak $leaks"
	if [ -n "$why" ]; then
		say "result race $name exit=1 ($why)"
	else
		say "result race $name exit=0"
	fi
	! lockdep_seen
}

while read -r fs dev; do
	race_one $fs /mnt/$fs $dev || break
done </tmp/mounted
if [ -f /tmp/raw-dev ] && ! lockdep_seen; then
	race_one raw $(cat /tmp/raw-dev) ""
fi
# Leaks of all runs, the last one's included
if [ -f $kl ] && ! lockdep_seen; then
	t0=$(uptime_s)
	kmemleak_new "$race_jiffies" >/tmp/kmemleak
	leaks=$(tail -n 1 /tmp/kmemleak)
	sed '$d' /tmp/kmemleak
	echo "# race kmemleak: $leaks unreferenced objects allocated during the runs, $(grep -c '^unreferenced object' $kl) in all ($(($(uptime_s) - t0)) s)"
	say "result race kmemleak exit=$([ "$leaks" = 0 ] && echo 0 || echo 1)"
fi
# Lockdep and kmemleak must still be on at the end: an internal error
# (or a report) turns them off for the rest of the boot, and whatever ran
# after that was not checked.
if ! lockdep_seen; then
	dl=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats 2>/dev/null)
	kmo=on
	dmesg | grep -q 'leak detector disabled' && kmo=off
	[ -f $kl ] || kmo=absent
	echo "# race: at the end, debug_locks '$dl', kmemleak $kmo"
	if [ "$dl" = 1 ] && [ $kmo = on ]; then
		say "result race debug-on exit=0"
	else
		say "result race debug-on exit=1 (debug_locks '$dl', kmemleak $kmo)"
	fi
fi
