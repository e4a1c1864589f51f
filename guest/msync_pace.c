/*
 * msync_pace DIR: programs that never call MS_ASYNC keep the periodic
 * flusher's pace, with the flusher on (short but ordinary settings:
 * dirty_expire_centisecs EXPIRE_MS / 10, dirty_writeback_centisecs
 * INTERVAL_MS / 10).  A page dirtied at t0 must be clean no sooner than
 * the expire time (less a jiffy's worth of polling) and no later than
 * the expire time plus one interval plus SLACK_MS:
 *   1 a page dirtied by write();
 *   2 a page stored to through a shared mapping;
 *   3 a file that had an MS_ASYNC, was written, and is stored to again
 *     with no msync();
 *   4 a file dirtied by write() while another file of the device gets
 *     MS_ASYNC half a second later (that one is written by MS_ASYNC's
 *     pass on the patched kernel, by the periodic one on v3.5: not
 *     judged);
 *   5 a file whose MS_ASYNC request ended when fsync() cleaned it (the
 *     call made within a second of another file's pass, so that none was
 *     due), stored to again with no msync() an expire time and two
 *     intervals later (ext4's fsync() leaves the file on the flusher's
 *     list with its old dirtying time, until a periodic pass), while
 *     another file gets MS_ASYNC half a second after that: the other
 *     file's pass must leave it alone;
 *   6 while an MS_ASYNC request waits for its turn (a second call within
 *     a second of the first), the kernel stays idle: the CPU time spent
 *     outside the idle task over WAIT_MS must stay under BUSY_PCT of one
 *     CPU (a flusher that polls for its turn instead of sleeping spends
 *     a whole CPU; no kernel report says so).
 * The same on the patched and the unpatched kernel.  Output: TAP; exit
 * status 0 if every check passed, 1 if not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "msync_util.h"

#define EXPIRE_MS	3000
#define INTERVAL_MS	1000
#define EARLY_MS	50
#define SLACK_MS	700
#define PAGE		4096
#define WAIT_MS		800
#define BUSY_PCT	25

static const char *dir;
static int failed;

/* A file of one page, written and synced, mapped shared; NULL */
static char *one_page(const char *name, int *fdp)
{
	char path[512], buf[PAGE];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/pace.%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	memset(buf, 0x5a, sizeof(buf));
	if (fd < 0 || write(fd, buf, PAGE) != PAGE || fsync(fd))
		return NULL;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*fdp = fd;
	return p;
}

/*
 * For each of n pages, the ms from t0 until it was first seen clean, or
 * -1 if it was not by well after the latest bound.  The pages are
 * faulted in first (read) so that pagemap shows them.
 */
static void clean_after(char **p, int n, long long t0, long long *t)
{
	int i, left = n, st;

	for (i = 0; i < n; i++) {
		(void)*(volatile char *)p[i];
		t[i] = -1;
	}
	while (left && now_ms() - t0 < EXPIRE_MS + INTERVAL_MS + 4 * SLACK_MS) {
		for (i = 0; i < n; i++) {
			if (t[i] >= 0)
				continue;
			page_states(p[i], 1, &st);
			if (!st) {
				t[i] = now_ms() - t0;
				left--;
			}
		}
		sleep_ms(10);
	}
}

/* Ticks (USER_HZ) all CPUs spent busy so far: /proc/stat's first line */
static long long busy_ticks(void)
{
	long long v[8] = { 0 };
	char buf[256];

	if (read_str("/proc/stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	/* user nice system [idle] [iowait] irq softirq steal */
	return v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
}

/* Store to page 0 of a file's mapping and msync(MS_ASYNC) it. */
static void store_async(char *p, char c)
{
	p[0] = c;
	if (msync(p, PAGE, MS_ASYNC))
		printf("# msync: %s\n", strerror(errno));
}

static void judge(int n, const char *what, long long t)
{
	int ok = t >= EXPIRE_MS - EARLY_MS &&
		 t <= EXPIRE_MS + INTERVAL_MS + SLACK_MS;

	printf("%s %d - %s: clean after %lld ms (want %d to %d)\n",
	       ok ? "ok" : "not ok", n, what, t, EXPIRE_MS - EARLY_MS,
	       EXPIRE_MS + INTERVAL_MS + SLACK_MS);
	failed |= !ok;
}

int main(int argc, char **argv)
{
	char *a, *b, *c, *d, *e, *pg[2];
	int fa, fb, fc, fd, fe;
	long long t0, t[2];
	char expire[16], interval[16];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: msync_pace DIR\n");
		return 2;
	}
	dir = argv[1];
	printf("TAP version 13\n1..6\n");
	if (pagestate_open() ||
	    knob_save("/proc/sys/vm/dirty_expire_centisecs", 0) ||
	    knob_save("/proc/sys/vm/dirty_writeback_centisecs", 0)) {
		printf("Bail out! no page states or flusher knobs\n");
		return 1;
	}
	snprintf(expire, sizeof(expire), "%d", EXPIRE_MS / 10);
	snprintf(interval, sizeof(interval), "%d", INTERVAL_MS / 10);
	a = one_page("write", &fa);
	b = one_page("mapped", &fb);
	c = one_page("again", &fc);
	d = one_page("beside", &fd);
	e = one_page("async", &fe);
	if (!a || !b || !c || !d || !e ||
	    knob_set("/proc/sys/vm/dirty_expire_centisecs", expire) ||
	    knob_set("/proc/sys/vm/dirty_writeback_centisecs", interval)) {
		printf("Bail out! setup: %s\n", strerror(errno));
		knob_restore_all();
		return 1;
	}
	/*
	 * Nothing dirty from the setup (ext4's fsync() leaves an inode on the
	 * flusher's list with its first dirtying time): the flusher sleeps
	 * until the next dirtying wakes it, an interval later.
	 */
	sync();
	sleep_ms(2 * INTERVAL_MS);

	/* 1 and 2, dirtied together */
	t0 = now_ms();
	if (pwrite(fa, "w", 1, 0) != 1)
		printf("# pwrite: %s\n", strerror(errno));
	b[0] = 'm';
	pg[0] = a;
	pg[1] = b;
	clean_after(pg, 2, t0, t);
	judge(1, "page dirtied by write()", t[0]);
	judge(2, "page stored to through a mapping", t[1]);

	/* 3: MS_ASYNC, written (by either pass), then a plain store */
	store_async(c, 'c');
	clean_after(&c, 1, now_ms(), t);
	printf("# 3: after MS_ASYNC the page was clean after %lld ms\n", t[0]);
	sleep_ms(1500);
	t0 = now_ms();
	c[PAGE / 2] = 'C';
	clean_after(&c, 1, t0, t);
	judge(3, "file that had an MS_ASYNC, stored to again without one",
	      t[0]);

	/* 4: another file's MS_ASYNC half a second after the write() */
	t0 = now_ms();
	if (pwrite(fd, "d", 1, 0) != 1)
		printf("# pwrite: %s\n", strerror(errno));
	(void)*(volatile char *)d;
	sleep_ms(500);
	store_async(e, 'e');
	clean_after(&d, 1, t0, t);
	judge(4, "page dirtied by write() beside another file's MS_ASYNC",
	      t[0]);

	/* 5: a request ended by fsync(), then a store beside a pass */
	store_async(e, 'g');
	sleep_ms(200);		/* that pass under way: the next is due later */
	c[0] = 'g';
	if (msync(c, PAGE, MS_ASYNC) || fsync(fc))
		printf("# msync, fsync: %s\n", strerror(errno));
	sleep_ms(EXPIRE_MS + 2 * INTERVAL_MS);
	t0 = now_ms();
	c[0] = '5';
	sleep_ms(500);
	store_async(e, 'f');
	clean_after(&c, 1, t0, t);
	judge(5, "file whose MS_ASYNC ended at fsync(), stored to again beside another file's MS_ASYNC",
	      t[0]);

	/* 6: a request that waits for its turn, and the CPUs meanwhile */
	sleep_ms(2 * INTERVAL_MS);
	store_async(e, 'h');
	sleep_ms(100);
	store_async(e, 'i');
	{
		long long b0 = busy_ticks(), t1 = now_ms(), b1, pct;
		long hz = sysconf(_SC_CLK_TCK);

		sleep_ms(WAIT_MS);
		b1 = busy_ticks();
		t1 = now_ms() - t1;
		pct = b0 < 0 || b1 < 0 ? 100 : (b1 - b0) * 1000 * 100 / hz / t1;
		printf("%s 6 - a request waiting for its turn: %lld%% of a CPU busy over %lld ms (want under %d%%)\n",
		       pct < BUSY_PCT ? "ok" : "not ok", pct, t1, BUSY_PCT);
		failed |= pct >= BUSY_PCT;
	}

	knob_restore_all();
	return failed;
}
