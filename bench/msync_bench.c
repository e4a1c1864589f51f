/*
 * msync_bench - measure msync(MS_SYNC) and msync(MS_ASYNC) on a Linux
 * kernel, to compare a kernel before and after the msync series.
 *
 * Usage: msync_bench [--quick] [--only LIST] <scratch-dir> <blockdev>
 *                    [<sat-dir> <sat-blockdev>]
 *
 *   scratch-dir   an ext4 file system mounted (noatime,commit=600) on
 *                 blockdev, used for M1, M2, M3, M5 and M6;
 *   sat-dir       optional second ext4 file system on a write-throttled
 *                 disk, used for M4 (test file and background writers)
 *                 and M7; without it they run on scratch-dir.
 *   --quick       one repetition with tiny sizes (smoke test, seconds);
 *   --only LIST   run only the listed measurements, e.g. "M1,M4".
 *
 * Must run as root (sysctls, /proc/kpageflags).  Output: see
 * bench/README.  Page states, knobs and the time come from the selftest's
 * msync_util.c (tools/testing/selftests/msync of the patched tree, $ST):
 *   gcc -static -O2 -Wall -Wextra -I$ST -o msync_bench msync_bench.c \
 *	$ST/msync_util.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/aio_abi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msync_util.h"

#define PAGE		4096UL
#define MIB		(1024UL * 1024UL)
#define MAXREP		64

/* ------------------------------------------------------------------ */
/* configuration                                                       */

static int quick;
static const char *only;

struct cfg {
	/* M1/M2 */
	unsigned long m1_file_mib;	/* dirty region; target page after it */
	unsigned long m1_d[4];
	unsigned long m2_r[3];
	unsigned long m2_off_mib;
	/* M3 */
	unsigned long m3_file_mib, m3_off_mib, m3_len_mib;
	double m3_limit_s;
	/* M4 */
	unsigned long m4_len_mib, m4_bg_mib, m4_chunk_kib;
	/* M5 */
	unsigned long m5_data_mib;
	double m5_run_s, m5_clean_limit_s;
	/* M6 */
	double m6_run_s;
	/* M7 */
	unsigned long m7_len_mib;
	double m7_work_s;
	/* repetitions */
	int min_reps, max_reps;
	double budget_m1, budget_m2, budget_m3, budget_m4, budget_m5;
	double budget_m6, budget_m7;
};

static const struct cfg cfg_full = {
	.m1_file_mib = 256, .m1_d = { 0, 16, 64, 256 },
	.m2_r = { 1, 16, 64 }, .m2_off_mib = 64,
	.m3_file_mib = 32, .m3_off_mib = 8, .m3_len_mib = 16,
	.m3_limit_s = 5.0,
	.m4_len_mib = 16, .m4_bg_mib = 32, .m4_chunk_kib = 16,
	.m5_data_mib = 64, .m5_run_s = 3.0, .m5_clean_limit_s = 1.0,
	.m6_run_s = 2.0,
	.m7_len_mib = 16, .m7_work_s = 0.4,
	.min_reps = 5, .max_reps = 11,
	.budget_m1 = 10.0, .budget_m2 = 10.0, .budget_m3 = 10.0,
	.budget_m4 = 8.0, .budget_m5 = 10.0, .budget_m6 = 10.0,
	.budget_m7 = 10.0,
};

static const struct cfg cfg_quick = {
	.m1_file_mib = 8, .m1_d = { 0, 1, 4, 8 },
	.m2_r = { 1, 2, 4 }, .m2_off_mib = 2,
	.m3_file_mib = 4, .m3_off_mib = 1, .m3_len_mib = 2,
	.m3_limit_s = 1.0,
	.m4_len_mib = 2, .m4_bg_mib = 8, .m4_chunk_kib = 16,
	.m5_data_mib = 4, .m5_run_s = 0.3, .m5_clean_limit_s = 0.5,
	.m6_run_s = 1.0,
	.m7_len_mib = 2, .m7_work_s = 0.1,
	.min_reps = 1, .max_reps = 1,
	.budget_m1 = 0, .budget_m2 = 0, .budget_m3 = 0,
	.budget_m4 = 0, .budget_m5 = 0, .budget_m6 = 0, .budget_m7 = 0,
};

static const struct cfg *C;

/* ------------------------------------------------------------------ */
/* time, messages, errors                                              */

static double t_start;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void cleanup(void);

static void __attribute__((format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;
	char buf[512];
	int e = errno;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("# FATAL: %s (errno %d: %s)\n", buf, e, strerror(e));
	fflush(stdout);
	fprintf(stderr, "msync_bench: FATAL: %s (errno %d: %s)\n", buf, e,
		strerror(e));
	exit(1);
}

static void __attribute__((format(printf, 1, 2))) progress(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[msync_bench %7.1f s] ", now_s() - t_start);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int selected(const char *m)
{
	const char *p;
	size_t l = strlen(m);

	if (!only)
		return 1;
	for (p = only; (p = strstr(p, m)); p += l)
		if ((p == only || p[-1] == ',') && (p[l] == ',' || !p[l]))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* sysctl save / restore                                               */

/* bdi min_ratio of the scratch and the saturated disk, if they have one */
static char min1_path[128], min2_path[128];

/* /sys/class/bdi/<maj:min>/min_ratio of the disk holding dir, into path */
static void bdi_knob(char *path, size_t size, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		die("stat %s", dir);
	snprintf(path, size, "/sys/class/bdi/%u:%u/min_ratio",
		 major(st.st_dev), minor(st.st_dev));
	if (access(path, W_OK)) {
		printf("# note: no %s, bdi min_ratio left alone\n", path);
		path[0] = 0;
	}
}

static void set_knob(const char *path, const char *val)
{
	if (knob_set(path, val))
		die("set %s to %s", path, val);
}

static void quiesce_writeback(void)
{
	/* writing a ratio zeroes the matching *_bytes: those go back last */
	if (knob_save("/proc/sys/vm/dirty_bytes", 1) ||
	    knob_save("/proc/sys/vm/dirty_background_bytes", 1))
		die("read dirty_bytes, dirty_background_bytes");
	set_knob("/proc/sys/vm/dirty_writeback_centisecs", "0");
	set_knob("/proc/sys/vm/dirty_expire_centisecs", "360000");
	set_knob("/proc/sys/vm/dirty_ratio", "60");
	set_knob("/proc/sys/vm/dirty_background_ratio", "40");
	/*
	 * Background writeback also starts when one bdi's dirty pages pass
	 * its share of the background threshold, a share that follows its
	 * recent writeout and can lag far below 100 % even when it is the
	 * only disk written (over_bground_thresh, bdi_dirty_limit).  A
	 * minimum share keeps the flusher away from the measurements.
	 */
	if (min1_path[0])
		set_knob(min1_path, min2_path[0] ? "60" : "90");
	if (min2_path[0])
		set_knob(min2_path, "30");
}

/* ------------------------------------------------------------------ */
/* background writer children                                          */

static pid_t children[4];
static int nchildren;

static void kill_children(void)
{
	int i;

	for (i = 0; i < nchildren; i++)
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	nchildren = 0;
}

static void signal_children(int sig)
{
	int i;

	for (i = 0; i < nchildren; i++)
		if (children[i] > 0)
			kill(children[i], sig);
}

static pid_t main_pid;

static void cleanup(void)
{
	if (getpid() != main_pid)
		return;
	kill_children();
	knob_restore_all();
}

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < nchildren; i++)
		if (children[i] > 0)
			kill(children[i], SIGKILL);
	knob_restore_all();
	_exit(128 + sig);
}

/* ------------------------------------------------------------------ */
/* block device statistics                                             */

struct blkdev {
	char name[64];
	char stat[160];
	char inflight[160];
	int nr_requests;
};

static void blkdev_init(struct blkdev *bd, const char *dev, const char *dir)
{
	const char *b = strrchr(dev, '/');
	char path[256], buf[64];
	struct stat st;
	unsigned maj, min;

	snprintf(bd->name, sizeof(bd->name), "%s", b ? b + 1 : dev);
	snprintf(bd->stat, sizeof(bd->stat), "/sys/class/block/%s/stat",
		 bd->name);
	snprintf(bd->inflight, sizeof(bd->inflight),
		 "/sys/class/block/%s/inflight", bd->name);
	if (access(bd->stat, R_OK))
		die("no %s", bd->stat);
	/* the scratch directory must live on this device */
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", bd->name);
	if (!read_str(path, buf, sizeof(buf)) &&
	    sscanf(buf, "%u:%u", &maj, &min) == 2 && !stat(dir, &st) &&
	    (major(st.st_dev) != maj || minor(st.st_dev) != min)) {
		errno = 0;
		die("%s is not on %s (%u:%u vs %u:%u)", dir, dev,
		    major(st.st_dev), minor(st.st_dev), maj, min);
	}
	bd->nr_requests = 128;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/nr_requests",
		 bd->name);
	if (!read_str(path, buf, sizeof(buf)))
		bd->nr_requests = atoi(buf);
}

/* sectors written (field 7) and write requests in flight */
static void blk_read(const struct blkdev *bd, uint64_t *wsect, long *infl_w)
{
	char buf[512];
	unsigned long long f[11];
	long r, w;

	if (read_str(bd->stat, buf, sizeof(buf)) ||
	    sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
		   &f[8]) != 9)
		die("parse %s", bd->stat);
	*wsect = f[6];
	if (infl_w) {
		if (!read_str(bd->inflight, buf, sizeof(buf)) &&
		    sscanf(buf, "%ld %ld", &r, &w) == 2)
			*infl_w = w;
		else
			*infl_w = (long)f[8];
	}
}

/*
 * Wait until no write is in flight and the written-sector count has not
 * moved for 3 consecutive reads 10 ms apart.  Returns the count.
 */
static uint64_t wait_stable(const struct blkdev *bd)
{
	uint64_t prev, cur;
	long infl;
	int stable = 0;
	double t0 = now_s();

	blk_read(bd, &prev, &infl);
	while (stable < 3) {
		sleep_s(0.010);
		blk_read(bd, &cur, &infl);
		if (cur == prev && infl == 0)
			stable++;
		else
			stable = 0;
		prev = cur;
		if (now_s() - t0 > 120) {
			printf("# warning: %s did not settle in 120 s\n",
			       bd->name);
			break;
		}
	}
	return cur;
}

/* ------------------------------------------------------------------ */
/* scratch file systems                                                */

struct fsctx {
	const char *dir;
	struct blkdev bd;
	int marker_fd;
	unsigned marker_seq;
};

static void path_in(char *out, size_t sz, const struct fsctx *fs,
		    const char *name)
{
	snprintf(out, sz, "%s/%s", fs->dir, name);
}

static void fs_init(struct fsctx *fs, const char *dir, const char *dev)
{
	char p[512];

	fs->dir = dir;
	blkdev_init(&fs->bd, dev, dir);
	path_in(p, sizeof(p), fs, "msync_bench.marker");
	fs->marker_fd = open(p, O_RDWR | O_CREAT, 0644);
	if (fs->marker_fd < 0)
		die("open %s", p);
}

/* commit the journal: dirty and fsync a small marker file */
static void journal_commit(struct fsctx *fs)
{
	char b[16];

	fs->marker_seq++;
	memset(b, 0, sizeof(b));
	memcpy(b, &fs->marker_seq, sizeof(fs->marker_seq));
	if (pwrite(fs->marker_fd, b, sizeof(b), 0) != (ssize_t)sizeof(b))
		die("pwrite marker");
	if (fsync(fs->marker_fd))
		die("fsync marker");
}

/* let the journal settle before a measurement */
static uint64_t settle(struct fsctx *fs)
{
	journal_commit(fs);
	return wait_stable(&fs->bd);
}

/* create a file of size bytes with write() and make it durable */
static int prealloc(struct fsctx *fs, const char *name, size_t size)
{
	char p[512];
	static char *buf;
	size_t done = 0, n;
	int fd;

	if (!buf) {
		buf = malloc(MIB);
		if (!buf)
			die("malloc");
		memset(buf, 0x5a, MIB);
	}
	path_in(p, sizeof(p), fs, name);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("open %s", p);
	while (done < size) {
		n = size - done < MIB ? size - done : MIB;
		if (write(fd, buf, n) != (ssize_t)n)
			die("write %s", p);
		done += n;
	}
	if (fsync(fd))
		die("fsync %s", p);
	return fd;
}

static char *map_file(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* drop a file's pages after use so later measurements have memory */
static void release_file(int fd, char *map, size_t size)
{
	if (fsync(fd))
		die("fsync");
	if (map)
		munmap(map, size);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* dirty npages pages through the mapping, one store per page */
static void dirty_pages(char *p, size_t npages, unsigned seq)
{
	volatile char *v = p;
	size_t i;

	for (i = 0; i < npages; i++)
		v[i * PAGE + (i & 63)] = (char)(seq + i);
}

/* ------------------------------------------------------------------ */
/* page state: /proc/self/pagemap + /proc/kpageflags                   */

/* pages with PG_dirty set, under writeback or not */
static size_t dirty_of(const char *addr, size_t npages)
{
	struct census c = census(addr, npages);

	return c.dirty + c.redirtied;
}

/* pages that are not known clean: dirty, under writeback or unmapped */
static size_t not_clean(const char *addr, size_t npages)
{
	return npages - census(addr, npages).clean;
}

/* ------------------------------------------------------------------ */
/* statistics and output                                               */

struct series {
	double v[MAXREP];
	int n;
};

static void add(struct series *s, double v)
{
	if (s->n < MAXREP)
		s->v[s->n++] = v;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct summary {
	double med, min, max;
	int n;
};

static struct summary summarize(const struct series *s)
{
	struct summary r = { 0, 0, 0, s->n };
	double v[MAXREP];

	if (!s->n)
		return r;
	memcpy(v, s->v, s->n * sizeof(double));
	r.med = median_of(v, s->n);
	r.min = v[0];
	r.max = v[s->n - 1];
	return r;
}

/* csv,<measurement>,<param>,<metric>,<median>,<min>,<max>,<unit>,<n> */
static struct summary emit(const char *meas, const char *param,
			   const char *metric, const struct series *s,
			   const char *unit)
{
	struct summary r = summarize(s);

	if (r.n)
		printf("csv,%s,%s,%s,%.6g,%.6g,%.6g,%s,%d\n", meas, param,
		       metric, r.med, r.min, r.max, unit, r.n);
	else
		printf("csv,%s,%s,%s,NA,NA,NA,%s,0\n", meas, param, metric,
		       unit);
	return r;
}

static void emit1(const char *meas, const char *param, const char *metric,
		  double v, const char *unit)
{
	printf("csv,%s,%s,%s,%.6g,%.6g,%.6g,%s,1\n", meas, param, metric, v,
	       v, v, unit);
}

struct reps {
	int n;
	double t0, budget;
};

static void reps_begin(struct reps *r, double budget)
{
	r->n = 0;
	r->t0 = now_s();
	r->budget = budget;
}

/* another repetition?  at least min_reps, then until over budget */
static int reps_more(struct reps *r)
{
	if (r->n >= C->max_reps)
		return 0;
	if (r->n >= C->min_reps && now_s() - r->t0 >= r->budget)
		return 0;
	r->n++;
	return 1;
}

static double ms_since(double t)
{
	return (now_s() - t) * 1e3;
}

/* ------------------------------------------------------------------ */
/* M1, M2: MS_SYNC of a page or range while more of the file is dirty   */

static unsigned seq;

static void m1_m2(struct fsctx *fs)
{
	size_t fsize = C->m1_file_mib * MIB + PAGE;
	size_t dpages_max = C->m1_file_mib * MIB / PAGE;
	int fd, i;
	char *p, *target, param[32];
	struct reps r;

	progress("M1/M2: preallocating %lu MiB", C->m1_file_mib);
	fd = prealloc(fs, "m1.dat", fsize);
	p = map_file(fd, fsize);
	target = p + C->m1_file_mib * MIB;

	if (selected("M1")) {
		printf("# M1: msync(MS_SYNC) of one 4 KiB page (at %lu MiB) "
		       "while D MiB of the same file are dirty\n",
		       C->m1_file_mib);
		for (i = 0; i < 4; i++) {
			unsigned long d = C->m1_d[i];
			size_t dp = d * MIB / PAGE;
			struct series lat = { .n = 0 }, kib = { .n = 0 },
				      left = { .n = 0 }, tgt = { .n = 0 };
			struct summary sl, sk;

			progress("M1 D=%lu MiB", d);
			reps_begin(&r, C->budget_m1);
			while (reps_more(&r)) {
				uint64_t s0, s1;
				double t0;

				dirty_pages(p, dp, ++seq);
				dirty_pages(target, 1, seq);
				s0 = settle(fs);
				t0 = now_s();
				if (msync(target, PAGE, MS_SYNC))
					die("msync MS_SYNC");
				add(&lat, ms_since(t0));
				s1 = wait_stable(&fs->bd);
				add(&kib, (s1 - s0) / 2.0);
				add(&left, dirty_of(p, dp));
				add(&tgt, not_clean(target, 1) ? 0 : 1);
			}
			snprintf(param, sizeof(param), "D=%lu", d);
			sl = emit("M1", param, "latency", &lat, "ms");
			sk = emit("M1", param, "written", &kib, "KiB");
			emit("M1", param, "dirty_left", &left, "pages");
			emit("M1", param, "target_clean", &tgt, "bool");
			printf("# M1 D=%lu MiB: latency %.3f ms (min %.3f max "
			       "%.3f), written %.0f KiB, n=%d\n", d, sl.med,
			       sl.min, sl.max, sk.med, sl.n);
			if (fsync(fd))
				die("fsync");
		}
		fflush(stdout);
	}

	if (selected("M2")) {
		printf("# M2: msync(MS_SYNC) of R MiB at offset %lu MiB of a "
		       "fully dirty %lu MiB file\n", C->m2_off_mib,
		       C->m1_file_mib);
		for (i = 0; i < 3; i++) {
			unsigned long rm = C->m2_r[i];
			char *rp = p + C->m2_off_mib * MIB;
			size_t rpages = rm * MIB / PAGE;
			struct series lat = { .n = 0 }, kib = { .n = 0 },
				      out = { .n = 0 }, in = { .n = 0 };
			struct summary sl, sk, so;

			progress("M2 R=%lu MiB", rm);
			reps_begin(&r, C->budget_m2);
			while (reps_more(&r)) {
				uint64_t s0, s1;
				double t0;
				size_t before = C->m2_off_mib * MIB / PAGE;

				dirty_pages(p, dpages_max, ++seq);
				s0 = settle(fs);
				t0 = now_s();
				if (msync(rp, rm * MIB, MS_SYNC))
					die("msync MS_SYNC");
				add(&lat, ms_since(t0));
				s1 = wait_stable(&fs->bd);
				add(&kib, (s1 - s0) / 2.0);
				add(&out, dirty_of(p, before) +
				    dirty_of(rp + rm * MIB,
					     dpages_max - before - rpages));
				add(&in, not_clean(rp, rpages));
			}
			snprintf(param, sizeof(param), "R=%lu", rm);
			sl = emit("M2", param, "latency", &lat, "ms");
			sk = emit("M2", param, "written", &kib, "KiB");
			so = emit("M2", param, "outside_dirty_left", &out,
				  "pages");
			emit1("M2", param, "outside_pages",
			      dpages_max - rpages, "pages");
			emit("M2", param, "range_not_clean", &in, "pages");
			printf("# M2 R=%lu MiB: latency %.3f ms, written %.0f "
			       "KiB, %.0f of %zu pages outside the range left "
			       "dirty, n=%d\n", rm, sl.med, sk.med, so.med,
			       dpages_max - rpages, sl.n);
		}
		fflush(stdout);
	}
	release_file(fd, p, fsize);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* M3: MS_ASYNC of a dirty range on an idle device                      */

/* Seconds between M3's calls: more than patch 2's WRITE_SOON_MSECS */
#define M3_SPACING_S	1.25

static void m3(struct fsctx *fs)
{
	size_t fsize = C->m3_file_mib * MIB;
	size_t npages = fsize / PAGE;
	size_t rp0 = C->m3_off_mib * MIB / PAGE;
	size_t rpn = C->m3_len_mib * MIB / PAGE;
	size_t outside = npages - rpn;
	struct series call = { .n = 0 }, clean = { .n = 0 },
		      out = { .n = 0 }, kib = { .n = 0 }, atlim = { .n = 0 };
	int fd, timeouts = 0;
	char *p, param[32];
	struct reps r;
	struct summary sc, scl, so, sk;
	double last_call = 0;

	printf("# M3: msync(MS_ASYNC) of %lu MiB at offset %lu MiB of a "
	       "fully dirty %lu MiB file, idle device\n", C->m3_len_mib,
	       C->m3_off_mib, C->m3_file_mib);
	progress("M3: MS_ASYNC of %lu MiB", C->m3_len_mib);
	fd = prealloc(fs, "m3.dat", fsize);
	p = map_file(fd, fsize);
	reps_begin(&r, C->budget_m3);
	while (reps_more(&r)) {
		uint64_t s0, s1;
		double t0, t1;
		size_t left;

		dirty_pages(p, npages, ++seq);
		s0 = settle(fs);
		/*
		 * Each call isolated: no MS_ASYNC pass on the device in the
		 * last second (WRITE_SOON_MSECS), which the previous
		 * repetition's call started.
		 */
		if (last_call > 0 && now_s() - last_call < M3_SPACING_S)
			sleep_s(M3_SPACING_S - (now_s() - last_call));
		t0 = now_s();
		last_call = t0;
		if (msync(p + rp0 * PAGE, rpn * PAGE, MS_ASYNC))
			die("msync MS_ASYNC");
		t1 = now_s();
		add(&call, (t1 - t0) * 1e3);
		for (;;) {
			left = not_clean(p + rp0 * PAGE, rpn);
			if (!left) {
				add(&clean, ms_since(t0));
				break;
			}
			if (now_s() - t0 > C->m3_limit_s) {
				timeouts++;
				add(&atlim, left);
				break;
			}
			sleep_s(0.001);
		}
		add(&out, dirty_of(p, rp0) +
		    dirty_of(p + (rp0 + rpn) * PAGE, npages - rp0 - rpn));
		s1 = wait_stable(&fs->bd);
		add(&kib, (s1 - s0) / 2.0);
		if (fsync(fd))
			die("fsync");
	}
	snprintf(param, sizeof(param), "range=%lu", C->m3_len_mib);
	sc = emit("M3", param, "call", &call, "ms");
	scl = emit("M3", param, "clean", &clean, "ms");
	emit1("M3", param, "clean_timeout", timeouts, "reps");
	emit1("M3", param, "clean_limit", C->m3_limit_s, "s");
	emit("M3", param, "range_not_clean_at_limit", &atlim, "pages");
	so = emit("M3", param, "outside_dirty_left", &out, "pages");
	emit1("M3", param, "outside_pages", outside, "pages");
	sk = emit("M3", param, "written", &kib, "KiB");
	printf("# M3: call %.3f ms (min %.3f max %.3f); ", sc.med, sc.min,
	       sc.max);
	if (scl.n)
		printf("range clean after %.1f ms (%d of %d reps)", scl.med,
		       scl.n, sc.n);
	else
		printf("range not clean within %g s", C->m3_limit_s);
	printf("; %.0f of %zu pages outside the range left dirty; "
	       "written %.0f KiB; n=%d\n", so.med, outside, sk.med, sc.n);
	fflush(stdout);
	release_file(fd, p, fsize);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* M4: the same call on a saturated device, against the alternatives   */

/* raw Linux AIO: glibc has no wrappers */
static long io_setup_(unsigned nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long io_submit_(aio_context_t ctx, long n, struct iocb **iocbs)
{
	return syscall(SYS_io_submit, ctx, n, iocbs);
}

static long io_getevents_(aio_context_t ctx, long min, long max,
			  struct io_event *ev)
{
	return syscall(SYS_io_getevents, ctx, min, max, ev, NULL);
}

#define BG_DEPTH 256

/*
 * Background writer 1: O_DIRECT writes of chunk bytes, every other chunk
 * of the file, kept BG_DEPTH deep with Linux AIO.  Direct writes are
 * REQ_SYNC, so this keeps the queue's sync request pool full.
 */
static void bg_direct(const char *path, size_t size, size_t chunk)
{
	static struct iocb cbs[BG_DEPTH];
	static struct io_event ev[BG_DEPTH];
	struct iocb *free_cb[BG_DEPTH];
	aio_context_t ctx = 0;
	int nfree = BG_DEPTH, i, fd;
	size_t pos = 0;
	void *buf;

	fd = open(path, O_RDWR | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, PAGE, chunk) ||
	    io_setup_(BG_DEPTH, &ctx))
		_exit(2);
	memset(buf, 0xa5, chunk);
	for (i = 0; i < BG_DEPTH; i++)
		free_cb[i] = &cbs[i];
	for (;;) {
		while (nfree > 0) {
			struct iocb *cb = free_cb[--nfree];

			memset(cb, 0, sizeof(*cb));
			cb->aio_data = (uintptr_t)cb;
			cb->aio_lio_opcode = IOCB_CMD_PWRITE;
			cb->aio_fildes = fd;
			cb->aio_buf = (uintptr_t)buf;
			cb->aio_nbytes = chunk;
			cb->aio_offset = pos;
			pos += 2 * chunk;
			if (pos + chunk > size)
				pos = 0;
			if (io_submit_(ctx, 1, &cb) != 1) {
				free_cb[nfree++] = cb;
				sleep_s(0.001);
				break;
			}
		}
		long n = io_getevents_(ctx, 1, BG_DEPTH, ev);

		for (i = 0; i < n; i++)
			free_cb[nfree++] = (struct iocb *)(uintptr_t)ev[i].data;
	}
}

/*
 * Background writer 2: buffered writes of every other chunk, pushed with
 * posix_fadvise(POSIX_FADV_DONTNEED), i.e. WB_SYNC_NONE writeback like
 * the flusher's: this keeps the async (write-congestion) pool full.
 */
static void bg_buffered(const char *path, size_t size, size_t chunk)
{
	size_t pos = 0, done;
	char *buf = malloc(chunk);
	int fd = open(path, O_RDWR);

	if (fd < 0 || !buf)
		_exit(2);
	memset(buf, 0x3c, chunk);
	for (;;) {
		for (done = 0; done < 256; done++) {
			if (pwrite(fd, buf, chunk, pos) != (ssize_t)chunk)
				_exit(3);
			pos += 2 * chunk;
			if (pos + chunk > size)
				pos = 0;
		}
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		sleep_s(0.005);
	}
}

static pid_t spawn(void (*fn)(const char *, size_t, size_t),
		   const char *path, size_t size, size_t chunk)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		fn(path, size, chunk);
		_exit(0);
	}
	children[nchildren++] = pid;
	return pid;
}

enum { A_MS_ASYNC, A_FADVISE, A_SFR, A_FDATASYNC, A_FSYNC, A_MS_SYNC, NA };
static const char *const a_name[NA] = {
	"ms_async", "fadvise_dontneed", "sync_file_range_write",
	"fdatasync", "fsync", "ms_sync",
};

static void m4(struct fsctx *fs)
{
	size_t len = C->m4_len_mib * MIB, npages = len / PAGE;
	size_t bgsize = C->m4_bg_mib * MIB, chunk = C->m4_chunk_kib * 1024;
	char pa[512], pb[512];
	int fd, a, bgfd1, bgfd2;
	long want = 2 * fs->bd.nr_requests - fs->bd.nr_requests / 8;
	char *p;

	printf("# M4: the caller's time in the call for %lu MiB of dirty "
	       "mapped data on a saturated device (%s, %s)\n",
	       C->m4_len_mib, fs->dir, fs->bd.name);
	printf("# M4: background: %lu KiB O_DIRECT AIO writes (depth %d) "
	       "and buffered writes pushed by fadvise, every other %lu KiB "
	       "of two %lu MiB files\n", C->m4_chunk_kib, BG_DEPTH,
	       C->m4_chunk_kib, C->m4_bg_mib);
	progress("M4: preallocating on %s", fs->bd.name);
	fd = prealloc(fs, "m4.dat", len);
	bgfd1 = prealloc(fs, "m4bg_direct.dat", bgsize);
	bgfd2 = prealloc(fs, "m4bg_buffered.dat", bgsize);
	close(bgfd1);
	close(bgfd2);
	p = map_file(fd, len);
	settle(fs);
	path_in(pa, sizeof(pa), fs, "m4bg_direct.dat");
	path_in(pb, sizeof(pb), fs, "m4bg_buffered.dat");
	spawn(bg_direct, pa, bgsize, chunk);
	spawn(bg_buffered, pb, bgsize, chunk);
	sleep_s(0.5);

	for (a = 0; a < NA; a++) {
		struct series call = { .n = 0 }, left = { .n = 0 },
			      infl = { .n = 0 }, wb = { .n = 0 };
		struct summary sc, sl, si;
		struct reps r;

		progress("M4 %s", a_name[a]);
		reps_begin(&r, C->budget_m4);
		while (reps_more(&r)) {
			double t0, tw;
			long in = 0;
			uint64_t s;
			int rc = 0;
			struct census st;

			/* set up with the writers stopped, so it is quick */
			signal_children(SIGSTOP);
			dirty_pages(p, npages, ++seq);
			journal_commit(fs);
			signal_children(SIGCONT);
			/* wait until the request queue is full again */
			tw = now_s();
			do {
				sleep_s(0.002);
				blk_read(&fs->bd, &s, &in);
			} while (in < want && now_s() - tw < 3.0);
			add(&infl, in);

			t0 = now_s();
			switch (a) {
			case A_MS_ASYNC:
				rc = msync(p, len, MS_ASYNC);
				break;
			case A_FADVISE:
				rc = posix_fadvise(fd, 0, len,
						   POSIX_FADV_DONTNEED);
				break;
			case A_SFR:
				rc = sync_file_range(fd, 0, len,
						SYNC_FILE_RANGE_WRITE);
				break;
			case A_FDATASYNC:
				rc = fdatasync(fd);
				break;
			case A_FSYNC:
				rc = fsync(fd);
				break;
			case A_MS_SYNC:
				rc = msync(p, len, MS_SYNC);
				break;
			}
			add(&call, ms_since(t0));
			if (rc)
				die("M4 %s", a_name[a]);
			st = census(p, npages);
			add(&left, st.dirty + st.redirtied);
			add(&wb, st.writeback);

			/* clean up with the writers stopped */
			signal_children(SIGSTOP);
			if (fdatasync(fd))
				die("fdatasync");
			signal_children(SIGCONT);
		}
		sc = emit("M4", a_name[a], "call", &call, "ms");
		sl = emit("M4", a_name[a], "range_dirty_after", &left,
			  "pages");
		emit("M4", a_name[a], "range_writeback_after", &wb, "pages");
		si = emit("M4", a_name[a], "inflight_writes", &infl,
			  "requests");
		printf("# M4 %-22s call median %.3f ms, longest %.3f ms; %.0f "
		       "of %zu pages still dirty after the call; %.0f write "
		       "requests in flight at the call; n=%d\n", a_name[a],
		       sc.med, sc.max, sl.med, npages, si.med, sc.n);
		fflush(stdout);
	}
	kill_children();
	emit1("M4", "all", "range_pages", npages, "pages");
	emit1("M4", "all", "nr_requests", fs->bd.nr_requests, "requests");
	release_file(fd, p, len);
	close(fd);
	wait_stable(&fs->bd);
}

/* ------------------------------------------------------------------ */
/* M5: persistent dirty bitmap                                         */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void m5(struct fsctx *fs)
{
	size_t dsize = C->m5_data_mib * MIB, nblocks = dsize / PAGE;
	struct series opss = { .n = 0 }, kibop = { .n = 0 },
		      setl = { .n = 0 }, clrl = { .n = 0 },
		      clean = { .n = 0 }, skip = { .n = 0 };
	static double lat_set[1 << 16], lat_clr[1 << 12];
	int dfd, bfd, timeouts = 0;
	unsigned char *bm;
	char *buf;
	struct reps r;
	struct summary so, sk, ss;

	if (nblocks > PAGE * 8)
		die("M5 bitmap larger than a page");
	printf("# M5: persistent dirty bitmap: random 4 KiB pwrite+fdatasync "
	       "to a %lu MiB data file, each after setting its bit in a "
	       "mmap'ed bitmap page + msync(MS_SYNC); every 64 writes the "
	       "bits are cleared and pushed with msync(MS_ASYNC)\n",
	       C->m5_data_mib);
	progress("M5: preallocating");
	dfd = prealloc(fs, "m5data.dat", dsize);
	bfd = prealloc(fs, "m5bitmap.dat", PAGE);
	bm = (unsigned char *)map_file(bfd, PAGE);
	memset(bm, 0, PAGE);
	if (msync(bm, PAGE, MS_SYNC))
		die("msync");
	if (posix_memalign((void **)&buf, PAGE, PAGE))
		die("posix_memalign");
	memset(buf, 0x77, PAGE);

	progress("M5: runs of %.1f s", C->m5_run_s);
	reps_begin(&r, C->budget_m5);
	while (reps_more(&r)) {
		size_t pend[64];
		int npend = 0, nset = 0, nclr = 0, k;
		unsigned long ops = 0, skipped = 0;
		uint64_t s0, s1;
		double t0, t, el;

		if (fsync(bfd) || fsync(dfd))
			die("fsync");
		s0 = settle(fs);
		t0 = now_s();
		while ((el = now_s() - t0) < C->m5_run_s) {
			size_t b = rng() % nblocks;
			unsigned char bit = 1u << (b & 7);

			if (!(bm[b >> 3] & bit)) {
				bm[b >> 3] |= bit;
				t = now_s();
				if (msync(bm, PAGE, MS_SYNC))
					die("msync MS_SYNC");
				if (nset < (int)(sizeof(lat_set) /
						 sizeof(lat_set[0])))
					lat_set[nset++] = ms_since(t);
			} else {
				skipped++;	/* bit already set and durable */
			}
			memcpy(buf, &ops, sizeof(ops));
			if (pwrite(dfd, buf, PAGE, b * PAGE) != (ssize_t)PAGE)
				die("pwrite");
			if (fdatasync(dfd))
				die("fdatasync");
			ops++;
			pend[npend++] = b;
			if (npend == 64) {
				for (k = 0; k < npend; k++)
					bm[pend[k] >> 3] &=
						~(1u << (pend[k] & 7));
				npend = 0;
				t = now_s();
				if (msync(bm, PAGE, MS_ASYNC))
					die("msync MS_ASYNC");
				if (nclr < (int)(sizeof(lat_clr) /
						 sizeof(lat_clr[0])))
					lat_clr[nclr++] = ms_since(t);
			}
		}
		el = now_s() - t0;
		/* the last batch: clear and push, then see if it lands */
		for (k = 0; k < npend; k++)
			bm[pend[k] >> 3] &= ~(1u << (pend[k] & 7));
		t = now_s();
		if (msync(bm, PAGE, MS_ASYNC))
			die("msync MS_ASYNC");
		for (;;) {
			if (!not_clean((char *)bm, 1)) {
				add(&clean, ms_since(t));
				break;
			}
			if (now_s() - t > C->m5_clean_limit_s) {
				timeouts++;
				break;
			}
			sleep_s(0.001);
		}
		s1 = wait_stable(&fs->bd);
		add(&opss, ops / el);
		add(&kibop, ops ? (s1 - s0) / 2.0 / ops : 0);
		add(&skip, skipped);
		if (nset)
			add(&setl, median_of(lat_set, nset));
		if (nclr)
			add(&clrl, median_of(lat_clr, nclr));
	}
	so = emit("M5", "bitmap", "ops", &opss, "ops/s");
	sk = emit("M5", "bitmap", "written_per_op", &kibop, "KiB");
	ss = emit("M5", "bitmap", "set_sync", &setl, "ms");
	emit("M5", "bitmap", "clear_async", &clrl, "ms");
	emit("M5", "bitmap", "bits_already_set", &skip, "writes");
	emit("M5", "bitmap", "bitmap_clean", &clean, "ms");
	emit1("M5", "bitmap", "bitmap_clean_timeout", timeouts, "reps");
	emit1("M5", "bitmap", "bitmap_clean_limit", C->m5_clean_limit_s, "s");
	emit1("M5", "bitmap", "run_length", C->m5_run_s, "s");
	printf("# M5: %.1f ops/s, %.1f KiB written per op, set-bit MS_SYNC "
	       "median %.3f ms; bitmap page clean after the last MS_ASYNC: "
	       "%s; n=%d\n", so.med, sk.med, ss.med,
	       timeouts ? "no (not within the limit)" : "yes", so.n);
	fflush(stdout);
	munmap(bm, PAGE);
	release_file(bfd, NULL, 0);
	release_file(dfd, NULL, 0);
	close(bfd);
	close(dfd);
}

/* ------------------------------------------------------------------ */
/* M6: the hot page: store + MS_ASYNC of the same page in a loop        */

/* the k-th smallest of v[0..n-1] (0-based; Wirth's selection); reorders v */
static float kth_smallest(float *v, size_t n, size_t k)
{
	long l = 0, m = (long)n - 1, i, j, kk = (long)k;
	float x, t;

	while (l < m) {
		x = v[kk];
		i = l;
		j = m;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return v[kk];
}

static double median_f(float *v, size_t n)
{
	double a, b;

	if (!n)
		return 0;
	a = kth_smallest(v, n, n / 2);
	if (n % 2)
		return a;
	b = kth_smallest(v, n, n / 2 - 1);
	return (a + b) / 2;
}

static long minor_faults(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	return ru.ru_minflt;
}

#define M6_MAXREC	(1UL << 21)

enum { M6_MSYNC, M6_STORE, M6_NMODES };
static const char *const m6_name[M6_NMODES] = {
	"store_msync", "store_only",
};

/*
 * One page of a file, mapped MAP_SHARED: store to it, then (store_msync)
 * msync(MS_ASYNC) of that page, for m6_run_s seconds.  A store after the
 * page was cleaned for writeback faults (the page is write-protected) and
 * waits in ->page_mkwrite for a writeback still in flight; the store time
 * is the one clock_gettime pair around the store.  store_only is the same
 * loop without the msync: the cost of the timing itself, and what the
 * device sees when nothing pushes the page.
 */
static void m6(struct fsctx *fs)
{
	static float lat_st[M6_MAXREC], lat_ms[M6_MAXREC];
	int fd, mode;
	char *p;

	printf("# M6: hot page: store to one page of a mapped file, then "
	       "msync(MS_ASYNC) of that page, in a loop for %.1f s; and the "
	       "same loop without the msync (store_only)\n", C->m6_run_s);
	progress("M6: preallocating");
	/* touch the latency arrays now: no fault of theirs in the loop */
	memset(lat_st, 0, sizeof(lat_st));
	memset(lat_ms, 0, sizeof(lat_ms));
	fd = prealloc(fs, "m6.dat", PAGE);
	p = map_file(fd, PAGE);

	for (mode = 0; mode < M6_NMODES; mode++) {
		struct series ops = { .n = 0 }, kibop = { .n = 0 },
			      kibs = { .n = 0 }, st = { .n = 0 },
			      stmax = { .n = 0 }, ms = { .n = 0 },
			      msmax = { .n = 0 }, flt = { .n = 0 },
			      stmean = { .n = 0 }, msmean = { .n = 0 };
		struct summary so, sk, ss, sx;
		struct reps r;
		int truncated = 0;

		progress("M6 %s: runs of %.1f s", m6_name[mode], C->m6_run_s);
		reps_begin(&r, C->budget_m6);
		while (reps_more(&r)) {
			volatile unsigned long *v =
				(volatile unsigned long *)(p + 64);
			unsigned long n = 0;
			size_t nrec = 0;
			double t0, a, b, d, el, maxst = 0, maxms = 0;
			double sumst = 0, summs = 0;
			uint64_t s0, s1;
			long f0, f1;

			if (fsync(fd))
				die("fsync");
			s0 = settle(fs);
			f0 = minor_faults();
			t0 = d = now_s();
			while (d - t0 < C->m6_run_s) {
				a = now_s();
				__asm__ __volatile__("" ::: "memory");
				*v = n;
				__asm__ __volatile__("" ::: "memory");
				b = d = now_s();
				if (mode == M6_MSYNC) {
					if (msync(p, PAGE, MS_ASYNC))
						die("msync MS_ASYNC");
					d = now_s();
					if (d - b > maxms)
						maxms = d - b;
					summs += d - b;
				}
				if (b - a > maxst)
					maxst = b - a;
				sumst += b - a;
				if (nrec < M6_MAXREC) {
					lat_st[nrec] = (b - a) * 1e6;
					lat_ms[nrec] = (d - b) * 1e6;
					nrec++;
				} else {
					truncated = 1;
				}
				n++;
			}
			el = d - t0;
			f1 = minor_faults();
			s1 = wait_stable(&fs->bd);
			add(&ops, n / el);
			add(&kibop, n ? (s1 - s0) / 2.0 / n : 0);
			add(&kibs, (s1 - s0) / 2.0 / el);
			add(&flt, n ? (double)(f1 - f0) / n : 0);
			add(&st, median_f(lat_st, nrec));
			add(&stmax, maxst * 1e6);
			add(&stmean, n ? sumst * 1e6 / n : 0);
			if (mode == M6_MSYNC) {
				add(&ms, median_f(lat_ms, nrec));
				add(&msmax, maxms * 1e6);
				add(&msmean, n ? summs * 1e6 / n : 0);
			}
		}
		so = emit("M6", m6_name[mode], "ops", &ops, "ops/s");
		sk = emit("M6", m6_name[mode], "written_per_op", &kibop, "KiB");
		emit("M6", m6_name[mode], "written_per_s", &kibs, "KiB/s");
		emit("M6", m6_name[mode], "faults_per_op", &flt, "faults");
		ss = emit("M6", m6_name[mode], "store", &st, "us");
		emit("M6", m6_name[mode], "store_mean", &stmean, "us");
		sx = emit("M6", m6_name[mode], "store_max", &stmax, "us");
		if (mode == M6_MSYNC) {
			emit("M6", m6_name[mode], "msync", &ms, "us");
			emit("M6", m6_name[mode], "msync_mean", &msmean, "us");
			emit("M6", m6_name[mode], "msync_max", &msmax, "us");
		}
		emit1("M6", m6_name[mode], "run_length", C->m6_run_s, "s");
		if (truncated)
			printf("# M6 %s: more than %lu iterations in a run; "
			       "medians are over the first %lu\n",
			       m6_name[mode], M6_MAXREC, M6_MAXREC);
		printf("# M6 %s: %.0f iterations/s, %.3f KiB written per "
		       "iteration, store median %.2f us, longest %.0f us; "
		       "n=%d\n", m6_name[mode], so.med, sk.med, ss.med, sx.max,
		       so.n);
		fflush(stdout);
	}
	munmap(p, PAGE);
	release_file(fd, NULL, 0);
	close(fd);
	wait_stable(&fs->bd);
}

/* ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr, "usage: msync_bench [--quick] [--only M1,M2,...] "
		"<scratch-dir> <blockdev> [<sat-dir> <sat-blockdev>]\n");
	exit(2);
}

static void print_meta(struct fsctx *fs, struct fsctx *sat)
{
	struct utsname u;
	struct timespec res;
	char buf[256];

	uname(&u);
	printf("meta,kernel_release,%s\n", u.release);
	printf("meta,kernel_version,%s\n", u.version);
	printf("meta,mode,%s\n", quick ? "quick" : "full");
	if (!read_str("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", buf, sizeof(buf)))
		printf("meta,clocksource,%s\n", buf);
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("meta,clock_res_ns,%ld\n", res.tv_nsec);
	printf("meta,ncpus,%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	printf("meta,memtotal_mib,%ld\n",
	       (long)(sysconf(_SC_PHYS_PAGES) * (sysconf(_SC_PAGESIZE) /
						 1024) / 1024));
	printf("meta,scratch,%s %s\n", fs->dir, fs->bd.name);
	printf("meta,saturated,%s %s\n", sat->dir, sat->bd.name);
	printf("meta,sizes,M1 file %lu MiB D %lu/%lu/%lu/%lu MiB; M2 R "
	       "%lu/%lu/%lu MiB; M3 %lu MiB; M4 %lu MiB; M5 data %lu MiB; M6 %.1f s\n",
	       C->m1_file_mib, C->m1_d[0], C->m1_d[1], C->m1_d[2],
	       C->m1_d[3], C->m2_r[0], C->m2_r[1], C->m2_r[2],
	       C->m3_len_mib, C->m4_len_mib, C->m5_data_mib, C->m6_run_s);
	printf("meta,reps,min %d max %d\n", C->min_reps, C->max_reps);
	printf("meta,sysctl,dirty_writeback_centisecs=0 "
	       "dirty_expire_centisecs=360000 dirty_ratio=60 "
	       "dirty_background_ratio=40 (was %s %s %s %s)\n",
	       knob_old("/proc/sys/vm/dirty_writeback_centisecs"),
	       knob_old("/proc/sys/vm/dirty_expire_centisecs"),
	       knob_old("/proc/sys/vm/dirty_ratio"),
	       knob_old("/proc/sys/vm/dirty_background_ratio"));
	if (min1_path[0]) {
		char cur[64] = "?";

		read_str(min1_path, cur, sizeof(cur));
		printf("meta,bdi_min_ratio,%s=%s (was %s)", fs->bd.name, cur,
		       knob_old(min1_path));
		if (min2_path[0]) {
			read_str(min2_path, cur, sizeof(cur));
			printf(" %s=%s (was %s)", sat->bd.name, cur,
			       knob_old(min2_path));
		}
		printf("\n");
	}
	{
		FILE *f = fopen("/proc/vmstat", "r");
		char l[128];
		unsigned long v;

		while (f && fgets(l, sizeof(l), f)) {
			if (sscanf(l, "nr_dirty_background_threshold %lu",
				   &v) == 1)
				printf("meta,dirty_background_threshold_mib,"
				       "%lu\n", v * (PAGE / 1024) / 1024);
			else if (sscanf(l, "nr_dirty_threshold %lu", &v) == 1)
				printf("meta,dirty_threshold_mib,%lu\n",
				       v * (PAGE / 1024) / 1024);
		}
		if (f)
			fclose(f);
	}
}

/* ------------------------------------------------------------------ */
/* M7: write-behind: MS_ASYNC, other work, then MS_SYNC of the range    */

/*
 * A program that stores m7_len_mib through a mapping, calls MS_ASYNC to
 * get the writes going, works for m7_work_s, then MS_SYNCs the range:
 * how long the MS_SYNC takes, against the same without the MS_ASYNC
 * (alternating, same file), on the throttled disk when there is one.
 */
static void m7(struct fsctx *fs)
{
	size_t len = C->m7_len_mib * MIB, npages = len / PAGE;
	struct series with = { .n = 0 }, without = { .n = 0 };
	struct summary sw, so;
	char *p, param[32];
	struct reps r;
	int fd, async;

	printf("# M7: write-behind: %lu MiB stored, msync(MS_ASYNC) or not, "
	       "%.0f ms of other work, msync(MS_SYNC) of the range\n",
	       C->m7_len_mib, C->m7_work_s * 1e3);
	progress("M7: write-behind of %lu MiB", C->m7_len_mib);
	fd = prealloc(fs, "m7.dat", len);
	p = map_file(fd, len);
	reps_begin(&r, C->budget_m7);
	while (reps_more(&r)) {
		for (async = 1; async >= 0; async--) {
			double t0;

			dirty_pages(p, npages, ++seq);
			settle(fs);
			if (async && msync(p, len, MS_ASYNC))
				die("msync MS_ASYNC");
			sleep_s(C->m7_work_s);
			t0 = now_s();
			if (msync(p, len, MS_SYNC))
				die("msync MS_SYNC");
			add(async ? &with : &without, ms_since(t0));
		}
	}
	snprintf(param, sizeof(param), "range=%lu", C->m7_len_mib);
	sw = emit("M7", param, "sync_after_async", &with, "ms");
	so = emit("M7", param, "sync_alone", &without, "ms");
	printf("# M7: MS_SYNC %.1f ms after MS_ASYNC, %.1f ms without; "
	       "n=%d\n", sw.med, so.med, sw.n);
	fflush(stdout);
	release_file(fd, p, len);
	close(fd);
}

int main(int argc, char **argv)
{
	struct fsctx fs, sat, *satp = &fs;
	struct sigaction sa;
	int i = 1;

	t_start = now_s();
	while (i < argc && argv[i][0] == '-' && argv[i][1] == '-') {
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
			i++;
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[i + 1];
			i += 2;
		} else {
			usage();
		}
	}
	if (argc - i != 2 && argc - i != 4)
		usage();
	C = quick ? &cfg_quick : &cfg_full;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid()) {
		printf("# msync_bench needs root\n");
		return 4;
	}
	main_pid = getpid();

	if (pagestate_open())
		die("open /proc/self/pagemap or /proc/kpageflags");

	fs_init(&fs, argv[i], argv[i + 1]);
	if (argc - i == 4) {
		fs_init(&sat, argv[i + 2], argv[i + 3]);
		satp = &sat;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(cleanup);
	bdi_knob(min1_path, sizeof(min1_path), fs.dir);
	if (satp != &fs)
		bdi_knob(min2_path, sizeof(min2_path), sat.dir);
	quiesce_writeback();

	printf("# msync_bench: csv,<measurement>,<param>,<metric>,<median>,"
	       "<min>,<max>,<unit>,<n>\n");
	print_meta(&fs, satp);
	fflush(stdout);

	if (selected("M1") || selected("M2"))
		m1_m2(&fs);
	if (selected("M3"))
		m3(&fs);
	if (selected("M4"))
		m4(satp);
	if (selected("M5"))
		m5(&fs);
	if (selected("M6"))
		m6(&fs);
	if (selected("M7"))
		m7(satp);

	/* put the sysctls back now and say whether they read back */
	kill_children();
	knob_restore_all();
	printf("meta,sysctl_restored,%s\n", knobs_restored() ? "yes" : "no");
	printf("meta,runtime_s,%.1f\n", now_s() - t_start);
	printf("# msync_bench: done\n");
	progress("done");
	return 0;
}
