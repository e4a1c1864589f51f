/*
 * msync_cgswitch DIR: MS_ASYNC while cgroup writeback moves the file to
 * another bdi_writeback (Linux 6.12 with CONFIG_CGROUP_WRITEBACK).
 *
 * With cgroup writeback a dirty inode belongs to the bdi_writeback (wb)
 * of the memory cgroup that dirtied it, and that wb's flusher writes it.
 * When the io cgroup a memory cgroup maps to changes, the next dirtying
 * by one of its tasks kills its wb and makes a new one (cgwb_create());
 * the next writeback of an inode of the dying wb switches the inode to
 * the new wb (wbc_attach_and_unlock_inode(), inode_switch_wbs()), from a
 * workqueue.  An MS_ASYNC request is a mark on the inode and a pass asked
 * of its wb: it must move with the inode, whether the inode waits for
 * its pass or is being written by it when it moves.
 *
 * Each check: the program moves into a new memory cgroup while the io
 * controller is off at the root, writes and syncs its files there (they
 * are attached to the wb of the cgroup and the root's io cgroup), turns
 * the io controller on at the root (the cgroup gets an io cgroup of its
 * own), then stores to the files through shared mappings: the first of
 * those stores kills the old wb.  The old and the new wb are told apart
 * in /sys/kernel/debug/bdi/MAJ:MIN/wb_stats (the cgroup's entries, old
 * first); the switch is seen when the old wb is gone (no inode holds it)
 * or holds one dirty inode less and the new one, one more.
 *
 * 1. A request pending across the switch.  A one-page file is stored to
 *    and given MS_ASYNC: the old wb's pass runs at once, so the next one
 *    is due a second later.  Once that page is clean, the big file
 *    (PAGES) is given MS_ASYNC: its request waits for the next pass.
 *    sync_file_range() of its first page makes a writeback of the inode
 *    on the dying wb, which switches it.  The switch must be seen before
 *    the old wb's pass is due; the file must then be written with no
 *    other call, within LIMIT_MS plus its pages at RATE pages a second
 *    (half the harness's throttle).
 * 2. A switch while the pass writes the file.  The big file is given
 *    MS_ASYNC with no pass for a second: the old wb's pass starts on it
 *    at once, and its first chunk's writeback switches the inode.  The
 *    disk's request queue is made shallow, so that the pass has most of
 *    the file left to write when the switch is seen (a quarter at least,
 *    or the check's setup failed); the rest must be written with no
 *    other call within the same bound.
 *
 * The periodic flusher is off and the background thresholds high, so
 * that nothing but an MS_ASYNC pass writes the files.  Output: TAP.
 * Exit status 0 if both files were written in time, 1 if not, 4 if the
 * kernel has no cgroup writeback to switch (skipped).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "msync_util.h"
#include "mapfile.h"

#define PAGES		8192
#define LIMIT_MS	2000
#define RATE		2048
#define SWITCH_MS	800
#define WARM_PAGES	16384
#define CG_ROOT		"/sys/fs/cgroup"

static char wb_stats[128];

/*
 * Has the cgroup's new wb write WARM_PAGES (a file made by map_file(),
 * then removed), so that its share of the background threshold, which
 * follows its share of recent writeout, is well above the big file: the
 * wakeup that ends a switch (wb_wakeup()) then starts no background
 * writeback of the file, and only an MS_ASYNC pass writes it.  A new wb
 * has no share: the wakeup would write any dirty inode it took over.
 * 0 or -1.
 */
static int warm(const char *dir)
{
	char path[512], *p = map_file(dir, "warm.dat", WARM_PAGES, NULL);

	if (!p)
		return -1;
	munmap(p, (size_t)WARM_PAGES * 4096);
	snprintf(path, sizeof(path), "%s/warm.dat", dir);
	return unlink(path);
}

/* The wbs of one cgroup, in the order of the bdi's list (oldest first) */
struct wbs {
	int n;
	long inodes[4];		/* on b_dirty, b_io and b_more_io */
	long thresh[4];		/* WbDirtyThresh, kB */
};

/* Reads the entries of cgroup inode @ino from wb_stats into @w; -1 */
static int wbs_of(unsigned long ino, struct wbs *w)
{
	static char buf[65536];
	unsigned long v, cg = 0;
	char *line, *save;
	int fd, len, cur = -1;

	fd = open(wb_stats, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return -1;
	buf[len] = 0;
	w->n = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "WbCgIno: %lu", &cg) == 1) {
			cur = -1;
			if (cg == ino && w->n < 4) {
				cur = w->n++;
				w->inodes[cur] = 0;
				w->thresh[cur] = 0;
			}
		} else if (cur >= 0 &&
			   sscanf(line, "WbDirtyThresh: %lu", &v) == 1) {
			w->thresh[cur] = v;
		} else if (cur >= 0 &&
			   (sscanf(line, "b_dirty: %lu", &v) == 1 ||
			    sscanf(line, "b_io: %lu", &v) == 1 ||
			    sscanf(line, "b_more_io: %lu", &v) == 1)) {
			w->inodes[cur] += v;
		}
	}
	return 0;
}

static void wbs_print(const char *when, const struct wbs *w)
{
	int i;

	printf("# %s: %d wb(s) of the cgroup, dirty inodes:", when, w->n);
	for (i = 0; i < w->n; i++)
		printf(" %ld", w->inodes[i]);
	printf("\n");
}

/*
 * Switched, with @w0 the cgroup's two wbs after the stores (the old one
 * first): the old wb is gone (no inode holds it any more), or it holds
 * one dirty inode less and the new one, one more.
 */
static int switched(const struct wbs *w, const struct wbs *w0)
{
	if (w->n < w0->n)
		return 1;
	return w->inodes[0] < w0->inodes[0] &&
	       w->inodes[w->n - 1] > w0->inodes[w0->n - 1];
}

static int cg_write(const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), CG_ROOT "/%s", file);
	return write_str(path, val);
}

/*
 * A new cgroup @name with the io controller off at the root, the
 * program in it; 0 or -1.
 */
static int cg_enter(const char *name, unsigned long *ino)
{
	char path[256], pid[32];
	struct stat st;

	if (cg_write("cgroup.subtree_control", "-io") ||
	    cg_write("cgroup.subtree_control", "+memory"))
		return -1;
	snprintf(path, sizeof(path), CG_ROOT "/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	if (stat(path, &st))
		return -1;
	*ino = st.st_ino;
	snprintf(path, sizeof(path), "%s/cgroup.procs", name);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return cg_write(path, pid);
}

/* Back to the root cgroup, @name removed */
static void cg_leave(const char *name)
{
	char path[256], pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write("cgroup.procs", pid))
		printf("# back to the root cgroup: %s\n", strerror(errno));
	snprintf(path, sizeof(path), CG_ROOT "/%s", name);
	if (rmdir(path))
		printf("# rmdir %s: %s\n", path, strerror(errno));
}

/*
 * Waits up to @ms for the switch (see switched()); the time it was seen,
 * from @t0, or -1.  @w: the cgroup's wbs then.
 */
static long long wait_switch(unsigned long ino, long long t0, int ms,
			     const struct wbs *w0, struct wbs *w)
{
	do {
		if (wbs_of(ino, w))
			return -1;
		if (switched(w, w0))
			return now_ms() - t0;
		sleep_ms(5);
	} while (now_ms() - t0 < ms);
	return -1;
}

/* Waits for @p's pages to be clean and says so, as check @n; 1 if so */
static int judge(int n, const char *what, char *p, long dirty)
{
	long long limit = LIMIT_MS + dirty * 1000 / RATE, t;

	t = wait_clean(p, PAGES, limit);
	if (t >= 0) {
		printf("ok %d - %s: the file written %lld ms after the switch was seen\n",
		       n, what, t);
		return 1;
	}
	printf("not ok %d - %s: not written %lld ms after the switch was seen, %ld of %d pages unclean\n",
	       n, what, limit, PAGES - census(p, PAGES).clean, PAGES);
	return 0;
}

/* What a check works on */
struct check {
	int n;			/* its number */
	char cg[32];		/* its cgroup */
	unsigned long ino;	/* the cgroup's inode number */
	struct wbs w0;		/* its wbs after the stores, the old first */
	char *small, *big;	/* the one-page file (check 1), the big one */
	int sfd, bfd;
};

/*
 * Sets up check @k->n in @dir: the program in a new cgroup with the io
 * controller off, the files made (a one-page one too if @small), the io
 * controller on, every page stored to (the first store kills the old
 * wb), the new wb given its share of writeout (checked: its share of the
 * background threshold twice the file at least), then a second with no
 * pass.  0, or -1 after a "not ok N - setup" line.
 */
static int setup(struct check *k, const char *dir, int small)
{
	char name[64];
	const char *why;
	struct wbs w;

	snprintf(k->cg, sizeof(k->cg), "msync-cg%d", k->n);
	snprintf(name, sizeof(name), "cgswitch-%d.dat", k->n);
	k->small = k->big = NULL;
	k->sfd = k->bfd = -1;
	why = "cgroup";
	if (cg_enter(k->cg, &k->ino))
		goto fail;
	why = "files";
	if (small && !(k->small = map_file(dir, "cgswitch-small.dat", 1,
					   &k->sfd)))
		goto fail;
	if (!(k->big = map_file(dir, name, PAGES, &k->bfd)))
		goto fail;
	why = "io controller";
	if (cg_write("cgroup.subtree_control", "+io"))
		goto fail;
	if (k->small)
		store(k->small, 0x10 + k->n, 1);
	store(k->big, 0x20 + k->n, PAGES);
	why = "wb_stats";
	if (wbs_of(k->ino, &k->w0))
		goto fail;
	snprintf(name, sizeof(name), "(%d) after the stores", k->n);
	wbs_print(name, &k->w0);
	if (k->w0.n != 2) {
		printf("not ok %d - setup: the stores did not make a new wb for the cgroup\n",
		       k->n);
		return -1;
	}
	why = "writing to the new wb";
	if (warm(dir) || wbs_of(k->ino, &w) || w.n < 1)
		goto fail;
	/* Background writeback starts at 80/90 of the dirty threshold */
	printf("# (%d) the new wb's dirty threshold: %ld kB\n", k->n,
	       w.thresh[w.n - 1]);
	if (w.thresh[w.n - 1] / 9 * 8 < 2 * PAGES * 4L) {
		printf("not ok %d - setup: the new wb's share of the background threshold is under twice the file: a switch's wakeup would write it\n",
		       k->n);
		return -1;
	}
	sleep_ms(1100);		/* the next pass is due at once */
	return 0;
fail:
	printf("not ok %d - setup: %s: %s\n", k->n, why, strerror(errno));
	return -1;
}

/* Ends check @k in @dir: its files removed, the program back in the root */
static void teardown(struct check *k, const char *dir)
{
	char path[512];

	if (k->small)
		munmap(k->small, 4096);
	if (k->big)
		munmap(k->big, (size_t)PAGES * 4096);
	if (k->sfd >= 0)
		close(k->sfd);
	if (k->bfd >= 0)
		close(k->bfd);
	snprintf(path, sizeof(path), "%s/cgswitch-small.dat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cgswitch-%d.dat", dir, k->n);
	unlink(path);
	cg_leave(k->cg);
}

/* Check 1: the request waits for the old wb's pass when the inode moves */
static int pending(const char *dir)
{
	const char *what = "a pending MS_ASYNC request moves with its inode";
	struct check k = { .n = 1 };
	long long t0, t1, ts;
	struct census c0, c;
	struct wbs w;
	int ok = 0;

	if (setup(&k, dir, 1))
		goto out;
	t0 = now_ms();
	msync(k.small, 4096, MS_ASYNC);	/* the old wb's pass runs now */
	if (wait_clean(k.small, 1, SWITCH_MS) < 0) {
		printf("not ok 1 - setup: the old wb's pass did not write the one-page file within %d ms\n",
		       SWITCH_MS);
		goto out;
	}
	msync(k.big, (size_t)PAGES * 4096, MS_ASYNC);	/* due at t0 + 1 s */
	t1 = now_ms();
	c0 = census(k.big, PAGES);
	if (sync_file_range(k.bfd, 0, 4096, SYNC_FILE_RANGE_WRITE))
		printf("# sync_file_range: %s\n", strerror(errno));
	ts = wait_switch(k.ino, t1, SWITCH_MS, &k.w0, &w);
	c = census(k.big, PAGES);
	wbs_print("(1) at the switch", &w);
	printf("# (1) %ld of %d pages dirty at sync_file_range(); switch seen %lld ms after MS_ASYNC, %lld ms after the old wb's pass: %ld pages dirty, %ld under writeback\n",
	       c0.dirty, PAGES, ts, ts < 0 ? -1 : t1 - t0 + ts, c.dirty,
	       c.writeback);
	/* A pass would have taken a chunk: a page or two is not one */
	if (c0.dirty < PAGES - 64)
		printf("not ok 1 - setup: the file was written before the switch (%ld of %d pages dirty)\n",
		       c0.dirty, PAGES);
	else if (ts < 0 || t1 - t0 + ts >= 1000)
		printf("not ok 1 - setup: the inode did not move to the new wb within %d ms of MS_ASYNC, before the old wb's pass was due\n",
		       SWITCH_MS);
	else
		ok = judge(1, what, k.big, c.dirty + c.writeback);
	wbs_of(k.ino, &w);
	wbs_print("(1) at the end", &w);
out:
	teardown(&k, dir);
	return ok;
}

/* Check 2: the inode moves while the old wb's pass writes it */
static int during(const char *dir)
{
	const char *what = "an inode moved while its MS_ASYNC pass writes it is written whole";
	struct check k = { .n = 2 };
	long long t0, ts;
	struct census c;
	struct stat st;
	struct wbs w;
	char path[128];
	int ok = 0;

	if (setup(&k, dir, 0))
		goto out;
	/* A shallow queue: the pass submits a little at a time */
	if (fstat(k.bfd, &st))
		goto out;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/nr_requests",
		 major(st.st_dev), minor(st.st_dev));
	knob_set(path, "4");
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/max_sectors_kb",
		 major(st.st_dev), minor(st.st_dev));
	knob_set(path, "64");
	t0 = now_ms();
	msync(k.big, (size_t)PAGES * 4096, MS_ASYNC);
	ts = wait_switch(k.ino, t0, 5000, &k.w0, &w);
	c = census(k.big, PAGES);
	wbs_print("(2) at the switch", &w);
	printf("# (2) switch seen %lld ms after MS_ASYNC: %ld of %d pages clean, %ld under writeback, %ld dirty\n",
	       ts, c.clean, PAGES, c.writeback, c.dirty);
	if (ts < 0)
		printf("not ok 2 - setup: the inode did not move to the new wb within 5000 ms of MS_ASYNC\n");
	else if (c.dirty < PAGES / 4)
		printf("not ok 2 - setup: the pass had written most of the file when the switch was seen (%ld of %d pages dirty, want %d)\n",
		       c.dirty, PAGES, PAGES / 4);
	else
		ok = judge(2, what, k.big, c.dirty + c.writeback);
	wbs_of(k.ino, &w);
	wbs_print("(2) at the end", &w);
out:
	teardown(&k, dir);
	return ok;
}

int main(int argc, char **argv)
{
	char ctl[256] = "", dir[512];
	struct stat st;
	int ok = 1, dfd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <dir>\n", argv[0]);
		return 2;
	}
	if (stat(argv[1], &st)) {
		printf("Bail out! %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	mkdir(CG_ROOT, 0755);
	mount("none", CG_ROOT, "cgroup2", 0, NULL);
	mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(wb_stats, sizeof(wb_stats), "/sys/kernel/debug/bdi/%u:%u/wb_stats",
		 major(st.st_dev), minor(st.st_dev));
	if (read_str(CG_ROOT "/cgroup.controllers", ctl, sizeof(ctl)) ||
	    !strstr(ctl, "memory") || !strstr(ctl, "io") ||
	    access(wb_stats, R_OK)) {
		printf("TAP version 13\n1..0 # SKIP no cgroup writeback here (cgroup2 controllers '%s', %s)\n",
		       ctl, wb_stats);
		return 4;
	}
	printf("TAP version 13\n1..2\n");
	if (pagestate_open()) {
		printf("Bail out! /proc/kpageflags: %s\n", strerror(errno));
		return 1;
	}
	if (knob_set("/proc/sys/vm/dirty_writeback_centisecs", "0") ||
	    knob_set("/proc/sys/vm/dirty_background_ratio", "80") ||
	    knob_set("/proc/sys/vm/dirty_ratio", "90")) {
		printf("Bail out! vm knobs: %s\n", strerror(errno));
		return 1;
	}
	/*
	 * The files' directory is made and synced here, in the root cgroup:
	 * its inode, dirtied by every file made in it, stays on the root's
	 * wb and keeps no wb of the checks alive.
	 */
	snprintf(dir, sizeof(dir), "%s/cgswitch", argv[1]);
	if ((mkdir(dir, 0755) && errno != EEXIST) ||
	    (dfd = open(dir, O_RDONLY)) < 0 || fsync(dfd)) {
		printf("Bail out! %s: %s\n", dir, strerror(errno));
		return 1;
	}
	close(dfd);
	if (!pending(dir))
		ok = 0;
	if (!during(dir))
		ok = 0;
	knob_restore_all();
	return ok ? 0 : 1;
}
