/*
 * msync_sibling FROZEN OTHER OTHER-DEV [2]: MS_ASYNC on a file system whose
 * sibling on the same disk is frozen, synced or unmounted.
 *
 * FROZEN and OTHER are two ext4 file systems of one disk (partitions):
 * one device, one flusher thread.  A range of a file on FROZEN is dirtied
 * and given MS_ASYNC, and FROZEN is frozen (FIFREEZE) right after, so
 * that the freeze meets that writeback pending: the range is big
 * (FROZEN_PAGES), so that a writer started at once (v4's worker, one
 * jiffy later) is still at it when the freeze comes, rather than done.
 * A child then stores to the first PAGES pages of the file again (the
 * store waits in ->page_mkwrite for the thaw) and calls MS_ASYNC on
 * them.  Meanwhile a dirty range of a file on OTHER gets MS_ASYNC and
 * must be written within LIMIT_MS, while FROZEN is still frozen.  After
 * the thaw, the child's range must be written within LIMIT_MS too.
 *
 * Then (3-5) a pass that gives way to queued work must do so at once,
 * and go on after it.  With the periodic flusher off, a file of
 * RESUME_PAGES on FROZEN (thawed by then) is stored to and given
 * MS_ASYNC; once the pass has begun, SYNC_PAGES are written to a file on
 * OTHER, and OTHER is synced (in a child): by syncfs() (3), by a freeze
 * and thaw (4, FIFREEZE syncs before it freezes), by umount (5, then
 * mounted again from OTHER-DEV).  Each queues work for the same flusher,
 * which the pass gives way to at the end of the chunk in hand: until
 * OTHER's device has written those pages (the sync's work has had its
 * turn), the pass may submit at most CUT_PAGES more (that chunk, one
 * more, the queue).  Not counted after that: the rest of the sync (the
 * journal, the cache flush: seconds on a busy host) leaves the flusher
 * free, and the pass may go on when it is due.  The sync must end within
 * CUT_MS plus OTHER's pages at RESUME_RATE (a loose bound, for a sync
 * that waits for the whole pass).  When it has returned, the rest of the
 * big file must be written with no other call: within RESUME_MS, plus
 * its pages at RESUME_RATE pages a second (half the throttle the harness
 * sets).  The disk's request queue is made shallow meanwhile (as the
 * selftest's async (d) does), so that the pass cannot queue the whole
 * file at once and has pages left to write when the sync comes (a
 * quarter of the file at least, or the check says its setup failed),
 * and the background thresholds high, so that background writeback does
 * not write them.  Each big file is removed after its check.
 *
 * With a fourth argument, 2, only checks 1 and 2 run.  Output: TAP.
 * Exit status 0 if all that ran held, 1 if not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include "msync_util.h"
#include "mapfile.h"

#define PAGES		256
#define FROZEN_PAGES	8192
#define LIMIT_MS	5000
#define RESUME_PAGES	32768
#define SYNC_PAGES	512
#define RESUME_MS	2000
#define RESUME_RATE	2048
#define CUT_MS		5000
#define CUT_PAGES	(2 * 1024 + 256)

/* Sets the request queue attribute @name of the disk of @st to @val */
static int queue_knob(const struct stat *st, const char *name, const char *val)
{
	char path[128];

	/* A partition's directory is in its disk's */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/%s",
		 major(st->st_dev), minor(st->st_dev), name);
	return knob_set(path, val);
}

/* What check 3, 4 or 5 does to OTHER in the middle of the pass */
enum cut { CUT_SYNCFS = 3, CUT_FREEZE, CUT_UMOUNT };

static const char *const cut_name[] = {
	[CUT_SYNCFS] = "syncfs()", [CUT_FREEZE] = "a freeze cycle",
	[CUT_UMOUNT] = "umount",
};

/*
 * Does @cut to @other: syncfs(), a FIFREEZE/FITHAW cycle or umount (then
 * mounts @odev there again).  0 or -1.
 */
static int do_cut(enum cut cut, const char *other, const char *odev)
{
	int dfd, err = -1;

	if (cut == CUT_UMOUNT) {
		err = umount(other);
		if (!err)
			err = mount(odev, other, "ext4", MS_NOATIME, "commit=600");
		return err;
	}
	dfd = open(other, O_RDONLY);
	if (dfd < 0)
		return -1;
	if (cut == CUT_SYNCFS) {
		err = syncfs(dfd);
	} else {
		err = ioctl(dfd, FIFREEZE, 0);
		if (!err)
			err = ioctl(dfd, FITHAW, 0);
	}
	close(dfd);
	return err;
}

/*
 * Does @cut to @other in a child, and meanwhile watches @other's device
 * (@odir in sysfs) until it has written the SYNC_PAGES just stored there:
 * then the sync's work has had its turn at the flusher.  @c: the census
 * of @p then (or when the cut returned, if earlier).  The cut's time in
 * ms, or -1 if it failed.
 */
static long long cut_watch(enum cut cut, const char *other, const char *odev,
			   const char *odir, const char *p, struct census *c)
{
	long long base = dev_sectors_written(odir), t = now_ms();
	int st, seen = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (do_cut(cut, other, odev)) {
			printf("# %s of %s: %s\n", cut_name[cut], other,
			       strerror(errno));
			_exit(1);
		}
		_exit(0);
	}
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (!seen && dev_sectors_written(odir) - base >=
			     SYNC_PAGES * 8LL) {
			*c = census(p, RESUME_PAGES);
			seen = 1;
		}
		usleep(2000);
	}
	t = now_ms() - t;
	if (!seen)
		*c = census(p, RESUME_PAGES);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? t : -1;
}

/*
 * Checks 3-5: the big file's pass gives way to work that @cut queues for
 * the same flusher (the sync of OTHER's dirty data: syncfs(), the sync of
 * a freeze, that of umount), which must therefore end within CUT_MS plus
 * OTHER's pages at RESUME_RATE, and then goes on with no other call.
 * True if both held.
 */
static int resume_check(enum cut cut, const char *dir, const char *other,
			const char *odev, char **pp)
{
	char path[512], odir[64], buf[4096];
	struct census c0, c1, c;
	struct stat st;
	long long t0, t, took, limit;
	long moved;
	char *p;
	int fd, i, n = cut;

	if (knob_set("/proc/sys/vm/dirty_writeback_centisecs", "0") ||
	    knob_set("/proc/sys/vm/dirty_background_ratio", "80") ||
	    knob_set("/proc/sys/vm/dirty_ratio", "90")) {
		printf("not ok %d - setup: vm knobs: %s\n", n, strerror(errno));
		return 0;
	}
	snprintf(path, sizeof(path), "resume-%d.dat", n);
	p = *pp = map_file(dir, path, RESUME_PAGES, NULL);
	snprintf(path, sizeof(path), "%s/resume-%d.dat", other, n);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (!p || fd < 0 || fstat(fd, &st) ||
	    queue_knob(&st, "nr_requests", "4") ||
	    queue_knob(&st, "max_sectors_kb", "64")) {
		printf("not ok %d - setup: %s\n", n, strerror(errno));
		return 0;
	}
	snprintf(odir, sizeof(odir), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	sleep_ms(1100);		/* the next pass is due at once */
	store(p, 0xc0 + n, RESUME_PAGES);
	if (msync(p, (size_t)RESUME_PAGES * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC) on %s: %s\n", dir, strerror(errno));
	/* The pass has begun */
	t0 = now_ms();
	do {
		c = census(p, RESUME_PAGES);
		if (c.clean + c.writeback >= 64 || now_ms() - t0 > LIMIT_MS)
			break;
		sleep_ms(5);
	} while (1);
	printf("# (%d) %ld of %d pages clean, %ld under writeback, %lld ms after the call\n",
	       n, c.clean, RESUME_PAGES, c.writeback, now_ms() - t0);
	memset(buf, 0xd0 + n, sizeof(buf));
	for (i = 0; i < SYNC_PAGES; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	close(fd);
	c0 = census(p, RESUME_PAGES);
	took = cut_watch(cut, other, odev, odir, p, &c1);
	if (took < 0) {
		printf("not ok %d - %s of %s failed\n", n, cut_name[cut], other);
		return 0;
	}
	c = census(p, RESUME_PAGES);
	moved = c1.clean + c1.writeback - c0.clean - c0.writeback;
	printf("# (%d) %s of %s with %d pages dirty took %lld ms; %ld pages of %s submitted before the sync's data was written, %ld left dirty after it\n",
	       n, cut_name[cut], other, SYNC_PAGES, took, moved, dir,
	       c.dirty);
	if (moved > CUT_PAGES) {
		printf("not ok %d - %ld pages of %s submitted during %s of %s before its data was written, want at most %d (the chunk in hand of a pass that gives way)\n",
		       n, moved, dir, cut_name[cut], other, CUT_PAGES);
		return 0;
	}
	limit = CUT_MS + SYNC_PAGES * 1000LL / RESUME_RATE;
	if (took > limit) {
		printf("not ok %d - %s of %s took %lld ms, want at most %lld\n",
		       n, cut_name[cut], other, took, limit);
		return 0;
	}
	/* Nothing left to go on with: the check would show nothing */
	if (c.dirty < RESUME_PAGES / 4) {
		printf("not ok %d - setup: %ld of %d pages of %s dirty when %s returned, want %d\n",
		       n, c.dirty, RESUME_PAGES, dir, cut_name[cut],
		       RESUME_PAGES / 4);
		return 0;
	}
	limit = RESUME_MS + (c.dirty + c.writeback) * 1000 / RESUME_RATE;
	t = wait_clean(p, RESUME_PAGES, limit);
	if (t >= 0) {
		printf("ok %d - MS_ASYNC pass on %s gives way to %s of %s (%lld ms) and goes on after it (clean %lld ms after)\n",
		       n, dir, cut_name[cut], other, took, t);
		return 1;
	}
	printf("not ok %d - MS_ASYNC pass on %s not done %lld ms after %s of %s: %ld of %d pages unclean\n",
	       n, dir, limit, cut_name[cut], other,
	       RESUME_PAGES - census(p, RESUME_PAGES).clean, RESUME_PAGES);
	return 0;
}

/* Check @cut, then its big file removed: the partition holds one at a time */
static int resume(enum cut cut, const char *dir, const char *other,
		  const char *odev)
{
	char path[512], *p = NULL;
	int ok = resume_check(cut, dir, other, odev, &p);

	if (p)
		munmap(p, (size_t)RESUME_PAGES * 4096);
	snprintf(path, sizeof(path), "%s/resume-%d.dat", dir, cut);
	unlink(path);
	return ok;
}

int main(int argc, char **argv)
{
	char *fp, *op;
	long long t;
	int ffd, st, ok = 1, running, checks;
	pid_t child;

	if (argc < 4 || argc > 5 || (argc == 5 && atoi(argv[4]) != 2)) {
		fprintf(stderr, "usage: %s <frozen-dir> <other-dir> <other-dev> [2]\n",
			argv[0]);
		return 2;
	}
	/* 2: checks 1 and 2 only (a kernel judged on those) */
	checks = argc == 5 ? 2 : 5;
	printf("TAP version 13\n1..%d\n", checks);
	if (pagestate_open()) {
		printf("not ok 1 - /proc/kpageflags: %s\n", strerror(errno));
		return 1;
	}
	fp = map_file(argv[1], "sibling.dat", FROZEN_PAGES, NULL);
	op = map_file(argv[2], "sibling.dat", PAGES, NULL);
	ffd = open(argv[1], O_RDONLY);
	if (!fp || !op || ffd < 0) {
		printf("Bail out! setup: %s\n", strerror(errno));
		return 1;
	}
	store(fp, 0xa0, FROZEN_PAGES);
	if (msync(fp, FROZEN_PAGES * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC) on %s: %s\n", argv[1], strerror(errno));
	if (ioctl(ffd, FIFREEZE, 0)) {
		printf("Bail out! FIFREEZE %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		store(fp, 0xa1, PAGES);	/* waits for the thaw on ext4 */
		_exit(msync(fp, PAGES * 4096, MS_ASYNC) ? 1 : 0);
	}
	usleep(200000);
	store(op, 0xb2, PAGES);
	if (msync(op, PAGES * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC) on %s: %s\n", argv[2], strerror(errno));
	t = wait_clean(op, PAGES, LIMIT_MS);
	running = waitpid(child, &st, WNOHANG) == 0;
	printf("# the child was %s when the other file system's range was %s\n",
	       running ? "still waiting" : "done", t >= 0 ? "clean" : "not clean");
	if (t >= 0)
		printf("ok 1 - %s written while %s is frozen (%lld ms)\n",
		       argv[2], argv[1], t);
	else {
		printf("not ok 1 - %s not written within %d ms while %s is frozen (%ld pages unclean)\n",
		       argv[2], LIMIT_MS, argv[1],
		       PAGES - census(op, PAGES).clean);
		ok = 0;
	}
	if (ioctl(ffd, FITHAW, 0))
		printf("# FITHAW: %s\n", strerror(errno));
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		printf("# the child's msync(MS_ASYNC) failed\n");
	t = wait_clean(fp, PAGES, LIMIT_MS);
	if (t >= 0)
		printf("ok 2 - %s written after the thaw (%lld ms)\n", argv[1], t);
	else {
		printf("not ok 2 - %s not written within %d ms of the thaw (%ld pages unclean)\n",
		       argv[1], LIMIT_MS, PAGES - census(fp, PAGES).clean);
		ok = 0;
	}
	if (wait_clean(fp, FROZEN_PAGES, 4 * LIMIT_MS) < 0)
		printf("# %s's first file not clean before (3)\n", argv[1]);
	munmap(op, PAGES * 4096);	/* OTHER is unmounted in (5) */
	if (checks == 2) {
		knob_restore_all();
		return ok ? 0 : 1;
	}
	if (!resume(CUT_SYNCFS, argv[1], argv[2], argv[3]))
		ok = 0;
	if (!resume(CUT_FREEZE, argv[1], argv[2], argv[3]))
		ok = 0;
	if (!resume(CUT_UMOUNT, argv[1], argv[2], argv[3]))
		ok = 0;
	knob_restore_all();
	return ok ? 0 : 1;
}
