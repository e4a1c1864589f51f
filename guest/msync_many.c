/*
 * msync_many [--reps R] [--only LIST] DIR BLOCKDEV [N...]: what the
 * flusher costs with many dirty inodes on one device (default N = 1 10000
 * 100000; R = 3; LIST: the measurements to run, of async,sync,periodic,
 * default all).
 *
 * Set-up: 100,000 (the largest N) files of one 4 KiB page each, written
 * with write() in DIR/many/dNNN/ (1000 a directory) and synced, so that
 * every later write() of a page is an overwrite (no block allocation in
 * writeback); and a probe file of one page, mapped MAP_SHARED.  For each
 * N, the first N files are made dirty again, one pwrite() of 4 KiB each,
 * and then:
 *   async     (review question a) the flusher off
 *             (dirty_writeback_centisecs 0), the N files dirty: one store
 *             to the probe page, msync(MS_ASYNC) of it 1.3 s or more after
 *             the last one (so that its pass runs at once), then the page
 *             polled (pagemap + kpageflags, msync_util.c's page_states())
 *             about every millisecond until it is clean, up to 5 s.  A
 *             pass walks the device's b_io and b_dirty lists once
 *             (write_soon_queue()): at N dirty inodes, the walk is N long.
 *             Reported: time in the call, time until the page is clean,
 *             the flusher's CPU time across the call and 200 ms after the
 *             page is clean (or the limit), and KiB the device wrote (the
 *             pass must leave the N files alone: 4).  The flusher's CPU time is in
 *             clock ticks (10 ms): async_flusher_cpu_mean, the total
 *             over the repetitions divided by R, is the finer figure.
 *   sync      (b) the N files made dirty again, disk settled, then
 *             sync(): its time, the flusher's CPU time across it, the
 *             caller's own system time (getrusage()), KiB written.
 *   periodic  (b) the flusher on (dirty_writeback_centisecs 100) with
 *             dirty_expire_centisecs 360000 while the N files are made
 *             dirty again; then dirty_expire_centisecs 1: the flusher's
 *             next periodic (kupdate) pass, within a second, writes them
 *             all.  Reported: time from that change until the device has
 *             written N pages (field 7 of its stat, polled every 5 ms:
 *             exact, where /proc/vmstat's nr_dirty lags by its per-CPU
 *             batches), and until it wrote the first; the flusher's CPU
 *             time across it.
 * Each measurement repeats R times: the median, minimum and maximum.
 *
 * The flusher's CPU time: utime + stime of /proc/PID/stat (the kernel
 * scales them to the thread's exact run time; in clock ticks, 10 ms) of
 * the device's flush-MAJ:MIN thread on v3.5; on a newer kernel writeback
 * runs in workqueue workers, and the sum over every kworker thread is
 * taken instead (meta,flusher says which).  /proc/stat's system time is
 * not used: tick-sampled, it misses most of a program that sleeps a
 * millisecond between polls (under TCG it read 150 ms less than the
 * poller's own getrusage() system time over 5 s).
 *
 * Settings for the run, put back at the end (knob_restore_all()):
 * dirty_writeback_centisecs 0, dirty_expire_centisecs 360000, dirty_ratio
 * 60, dirty_background_ratio 40 (which zero dirty_bytes and
 * dirty_background_bytes, saved too), and the device's bdi min_ratio 90,
 * so that 400 MiB stay dirty in a 2 GiB guest with no background
 * writeback (v3.5 also starts it when one device passes its share).
 *
 * Output: "# " notes, "meta,KEY,VALUE", "rep,N,MEASURE,..." per
 * repetition, and csv,many,N=<N>,<metric>,<median>,<min>,<max>,<unit>,<n>.
 * Exit status 0, 1 on a fatal error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include "msync_util.h"
#include "mapfile.h"

#define PAGE		4096
#define PER_DIR		1000
#define MAX_REPS	15
#define GAP_MS		1300	/* between two MS_ASYNC calls: > 1 s */
#define ASYNC_LIMIT_MS	5000
#define PERIODIC_LIMIT_MS 240000
#define VM		"/proc/sys/vm/"

static const char *dir;
static char sys_dev[64], flush_comm[48];
static int v35;			/* the flusher is a flush-MAJ:MIN thread */
static long hz;			/* clock ticks a second */
static long long start_ms;

static void die(const char *what)
{
	printf("# FATAL: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void progress(const char *fmt, const char *a, long n)
{
	fprintf(stderr, "[msync_many %lld s] ", (now_ms() - start_ms) / 1000);
	fprintf(stderr, fmt, a, n);
	fputc('\n', stderr);
}

/* utime + stime of /proc/PID/stat, in ms; -1 if gone */
static long long task_cpu_ms(int pid, char *comm, size_t len)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	if (comm) {
		char *o = strchr(buf, '(');
		size_t l = o ? (size_t)(p - o - 1) : 0;

		if (l >= len)
			l = len - 1;
		memcpy(comm, o ? o + 1 : "", l);
		comm[l] = 0;
	}
	/* after ')': state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &ut, &st) != 2)
		return -1;
	return (long long)(ut + st) * 1000 / hz;
}

/*
 * The flusher's CPU time in ms: the flush-MAJ:MIN thread's (v3.5; *pid
 * is found if -1, and stays -1 with 0 returned if there is none yet), or
 * the sum over the kworker threads.
 */
static long long flusher_ms(int *pid)
{
	char comm[64];
	long long sum = 0, t;
	struct dirent *de;
	DIR *d;

	if (v35 && *pid > 0)
		return task_cpu_ms(*pid, NULL, 0);
	d = opendir("/proc");
	if (!d)
		die("/proc");
	while ((de = readdir(d))) {
		int p = atoi(de->d_name);

		if (p <= 0)
			continue;
		t = task_cpu_ms(p, comm, sizeof(comm));
		if (t < 0)
			continue;
		if (v35 && !strcmp(comm, flush_comm)) {
			*pid = p;
			sum = t;
			break;
		}
		if (!v35 && !strncmp(comm, "kworker", 7))
			sum += t;
	}
	closedir(d);
	return sum;
}

static long long self_sys_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
}

static long vmstat(const char *key)
{
	static char buf[16384];
	size_t l = strlen(key);
	ssize_t n;
	char *p;
	int fd = open("/proc/vmstat", O_RDONLY);

	if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
		die("/proc/vmstat");
	close(fd);
	buf[n] = 0;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, l) && p[l] == ' ')
			return atol(p + l + 1);
	errno = ENOENT;
	die(key);
	return -1;
}

/* Wait until the device has no write in flight and has written nothing
 * over 3 reads 10 ms apart (at most 120 s). */
static void settle(void)
{
	char path[128], buf[64];
	long long last = -1, w;
	int same = 0, i, r, wr;

	snprintf(path, sizeof(path), "%s/inflight", sys_dev);
	for (i = 0; i < 12000 && same < 3; i++) {
		w = dev_sectors_written(sys_dev);
		r = wr = 0;
		if (!read_str(path, buf, sizeof(buf)))
			sscanf(buf, "%d %d", &r, &wr);
		same = (w == last && wr == 0) ? same + 1 : 0;
		last = w;
		sleep_ms(10);
	}
}

/* State of the counters at the start of a measured window */
struct snap {
	long long t_us, flusher, self_sys, sectors;
	int pid;
};

static void snap_start(struct snap *s)
{
	s->pid = -1;
	s->flusher = flusher_ms(&s->pid);
	s->self_sys = self_sys_us();
	s->sectors = dev_sectors_written(sys_dev);
	s->t_us = now_us();
}

/* Deltas since @s: flusher ms (NaN if its thread went), own system
 * ms, KiB written */
static void snap_end(struct snap *s, double *fl, double *own, double *kib)
{
	int pid = s->pid;
	long long f = flusher_ms(&pid);

	*fl = (f < 0 || (v35 && s->pid > 0 && pid != s->pid)) ? NAN :
	      (double)(f - s->flusher);
	*own = (self_sys_us() - s->self_sys) / 1000.0;
	*kib = (dev_sectors_written(sys_dev) - s->sectors) / 2.0;
}

static void file_path(char *buf, size_t len, long i)
{
	snprintf(buf, len, "%s/many/d%03ld/f%04ld", dir, i / PER_DIR,
		 i % PER_DIR);
}

/* Write one page of files [from, to), creating them if asked */
static void write_files(long from, long to, int create)
{
	static char page[PAGE];
	char path[512];
	long i;
	int fd;

	memset(page, 0x33, sizeof(page));
	for (i = from; i < to; i++) {
		if (create && i % PER_DIR == 0) {
			snprintf(path, sizeof(path), "%s/many/d%03ld", dir,
				 i / PER_DIR);
			if (mkdir(path, 0755) && errno != EEXIST)
				die(path);
		}
		file_path(path, sizeof(path), i);
		fd = open(path, O_WRONLY | (create ? O_CREAT | O_TRUNC : 0),
			  0644);
		if (fd < 0 || pwrite(fd, page, PAGE, 0) != PAGE)
			die(path);
		close(fd);
		if (create && (i + 1) % 20000 == 0)
			progress("%screated %ld files", "", i + 1);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The csv line of n values (NaN ones are left out: NA) */
static void emit(long N, const char *metric, const double *v, int n,
		 const char *unit)
{
	double s[MAX_REPS];
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	if (!k) {
		printf("csv,many,N=%ld,%s,NA,NA,NA,%s,0\n", N, metric, unit);
		return;
	}
	qsort(s, k, sizeof(s[0]), cmp_d);
	printf("csv,many,N=%ld,%s,%.3f,%.3f,%.3f,%s,%d\n", N, metric,
	       k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2, s[0],
	       s[k - 1], unit, k);
}

static char *probe;
static long long last_async_ms = -100000;

/* (a): MS_ASYNC of the probe page with N files dirty */
static void measure_async(long N, int reps)
{
	double call[MAX_REPS], clean[MAX_REPS], fl[MAX_REPS];
	double own[MAX_REPS], kib[MAX_REPS];
	struct snap s;
	int r, st, timeouts = 0;

	for (r = 0; r < reps; r++) {
		long long t1, tc = -1, wait;

		probe[0]++;
		settle();
		wait = last_async_ms + GAP_MS - now_ms();
		if (wait > 0)
			sleep_ms(wait);
		snap_start(&s);
		last_async_ms = now_ms();
		if (msync(probe, PAGE, MS_ASYNC))
			die("msync(MS_ASYNC)");
		t1 = now_us();
		for (;;) {
			page_states(probe, 1, &st);
			if (!(st & (ST_DIRTY | ST_WRITEBACK | ST_ABSENT))) {
				tc = now_us();
				break;
			}
			if (now_us() - s.t_us >= ASYNC_LIMIT_MS * 1000LL)
				break;
			usleep(1000);
		}
		sleep_ms(200);
		snap_end(&s, &fl[r], &own[r], &kib[r]);
		call[r] = (t1 - s.t_us) / 1000.0;
		clean[r] = tc < 0 ? NAN : (tc - s.t_us) / 1000.0;
		timeouts += tc < 0;
		printf("rep,%ld,async,%d,call_ms=%.3f,clean_ms=%.3f,flusher_ms=%.0f,"
		       "written_kib=%.0f\n", N, r, call[r], clean[r], fl[r], kib[r]);
	}
	emit(N, "async_call", call, reps, "ms");
	emit(N, "async_clean", clean, reps, "ms");
	printf("csv,many,N=%ld,async_clean_timeout,%d,%d,%d,reps,1\n", N,
	       timeouts, timeouts, timeouts);
	emit(N, "async_flusher_cpu", fl, reps, "ms");
	/* finer than a clock tick: the total over the repetitions */
	for (r = 1; r < reps; r++)
		fl[0] += fl[r];
	printf("csv,many,N=%ld,async_flusher_cpu_mean,%.3f,%.3f,%.3f,ms,%d\n",
	       N, fl[0] / reps, fl[0] / reps, fl[0] / reps, reps);
	emit(N, "async_written", kib, reps, "KiB");
}

/* (b): sync() of N dirty files */
static void measure_sync(long N, int reps)
{
	double t[MAX_REPS], fl[MAX_REPS], own[MAX_REPS];
	double kib[MAX_REPS];
	struct snap s;
	int r;

	for (r = 0; r < reps; r++) {
		write_files(0, N, 0);
		settle();
		snap_start(&s);
		sync();
		t[r] = (now_us() - s.t_us) / 1000.0;
		snap_end(&s, &fl[r], &own[r], &kib[r]);
		printf("rep,%ld,sync,%d,sync_ms=%.3f,flusher_ms=%.0f,"
		       "caller_sys_ms=%.1f,written_kib=%.0f\n",
		       N, r, t[r], fl[r], own[r], kib[r]);
	}
	emit(N, "sync_time", t, reps, "ms");
	emit(N, "sync_flusher_cpu", fl, reps, "ms");
	emit(N, "sync_caller_sys", own, reps, "ms");
	emit(N, "sync_written", kib, reps, "KiB");
}

/*
 * (b): the periodic flusher writes N expired files.  The flusher is on
 * for the whole of it: v3.5's flusher, asleep with no timeout while
 * dirty_writeback_centisecs was 0, is not woken by the sysctl, only by
 * work (the sync() that starts each repetition) or by the first inode
 * dirtied on a device with none dirty.  "Written": the device has written
 * the N pages (field 7 of its stat; every page is an overwrite, nothing
 * else is written: no journal commit within commit=600).
 */
static void measure_periodic(long N, int reps)
{
	double first[MAX_REPS], clean[MAX_REPS], fl[MAX_REPS];
	double own[MAX_REPS], kib[MAX_REPS];
	struct snap s;
	long long w;
	int r, timeouts = 0;

	for (r = 0; r < reps; r++) {
		long long tf = -1, tc = -1;

		if (knob_set(VM "dirty_expire_centisecs", "360000") ||
		    knob_set(VM "dirty_writeback_centisecs", "100"))
			die("flusher knobs");
		sync();
		settle();
		write_files(0, N, 0);
		settle();
		snap_start(&s);
		if (knob_set(VM "dirty_expire_centisecs", "1"))
			die("dirty_expire_centisecs");
		for (;;) {
			w = dev_sectors_written(sys_dev) - s.sectors;
			if (tf < 0 && w > 0)
				tf = now_us();
			if (w >= N * (PAGE / 512)) {
				tc = now_us();
				break;
			}
			if (now_us() - s.t_us >= PERIODIC_LIMIT_MS * 1000LL)
				break;
			usleep(5000);
		}
		snap_end(&s, &fl[r], &own[r], &kib[r]);
		first[r] = tf < 0 ? NAN : (tf - s.t_us) / 1000.0;
		clean[r] = tc < 0 ? NAN : (tc - s.t_us) / 1000.0;
		timeouts += tc < 0;
		printf("rep,%ld,periodic,%d,first_ms=%.3f,written_ms=%.3f,"
		       "flusher_ms=%.0f,written_kib=%.0f\n",
		       N, r, first[r], clean[r], fl[r], kib[r]);
	}
	if (knob_set(VM "dirty_writeback_centisecs", "0") ||
	    knob_set(VM "dirty_expire_centisecs", "360000"))
		die("flusher knobs");
	emit(N, "periodic_first", first, reps, "ms");
	emit(N, "periodic_written_all", clean, reps, "ms");
	printf("csv,many,N=%ld,periodic_timeout,%d,%d,%d,reps,1\n", N,
	       timeouts, timeouts, timeouts);
	emit(N, "periodic_flusher_cpu", fl, reps, "ms");
	emit(N, "periodic_written", kib, reps, "KiB");
}

/* Whether the comma-separated @list names @name */
static int listed(const char *list, const char *name)
{
	size_t l = strlen(name);
	const char *p;

	for (p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, l) && (p[l] == ',' || !p[l]))
			return 1;
	return 0;
}

static void on_signal(int sig)
{
	knob_restore_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	long ns[16], maxn = 0, t;
	int nn = 0, reps = 3, i;
	char path[512], bdi[128], maj_min[16];
	struct utsname u;
	struct stat sb;
	const char *dev, *only = "async,sync,periodic";

	setvbuf(stdout, NULL, _IOLBF, 0);
	start_ms = now_ms();
	while (argc > 2 && (!strcmp(argv[1], "--reps") ||
			    !strcmp(argv[1], "--only"))) {
		if (!strcmp(argv[1], "--reps"))
			reps = atoi(argv[2]);
		else
			only = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usage: msync_many [--reps R] [--only LIST] DIR BLOCKDEV [N...]\n");
		return 2;
	}
	dir = argv[1];
	dev = argv[2];
	for (i = 3; i < argc && nn < 16; i++)
		ns[nn++] = atol(argv[i]);
	if (!nn) {
		ns[nn++] = 1;
		ns[nn++] = 10000;
		ns[nn++] = 100000;
	}
	for (i = 0; i < nn; i++)
		if (ns[i] > maxn)
			maxn = ns[i];
	hz = sysconf(_SC_CLK_TCK);
	if (stat(dev, &sb) || !S_ISBLK(sb.st_mode))
		die(dev);
	snprintf(maj_min, sizeof(maj_min), "%u:%u", major(sb.st_rdev),
		 minor(sb.st_rdev));
	snprintf(sys_dev, sizeof(sys_dev), "/sys/dev/block/%s", maj_min);
	snprintf(flush_comm, sizeof(flush_comm), "flush-%s", maj_min);
	uname(&u);
	v35 = !strncmp(u.release, "3.", 2);
	if (pagestate_open())
		die("pagemap/kpageflags");

	printf("meta,kernel_release,%s\n", u.release);
	printf("meta,flusher,%s\n", v35 ? flush_comm : "kworker threads (sum)");
	printf("meta,clk_tck,%ld\n", hz);
	printf("meta,reps,%d\n", reps);
	printf("meta,only,%s\n", only);
	printf("meta,memtotal_kib,%ld\n", (long)(sysconf(_SC_PHYS_PAGES) *
						 (sysconf(_SC_PAGESIZE) / 1024)));

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	atexit(knob_restore_all);
	snprintf(bdi, sizeof(bdi), "/sys/class/bdi/%s/min_ratio", maj_min);
	if (knob_save(VM "dirty_bytes", 1) ||
	    knob_save(VM "dirty_background_bytes", 1) ||
	    knob_set(VM "dirty_writeback_centisecs", "0") ||
	    knob_set(VM "dirty_expire_centisecs", "360000") ||
	    knob_set(VM "dirty_ratio", "60") ||
	    knob_set(VM "dirty_background_ratio", "40") ||
	    knob_set(bdi, "90"))
		die("setting the dirty knobs");

	/* the files and the probe */
	snprintf(path, sizeof(path), "%s/many", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
	probe = map_file(dir, "probe", 1, NULL);
	if (!probe)
		die("the probe file");
	t = now_ms();
	write_files(0, maxn, 1);
	printf("meta,create_s,%.1f\n", (now_ms() - t) / 1000.0);
	t = now_ms();
	sync();
	settle();
	printf("meta,create_sync_s,%.1f\n", (now_ms() - t) / 1000.0);

	for (i = 0; i < nn; i++) {
		long N = ns[i];

		t = now_ms();
		write_files(0, N, 0);
		printf("meta,redirty_N=%ld_s,%.2f\n", N, (now_ms() - t) / 1000.0);
		printf("# N=%ld: %ld pages dirty (nr_dirty)\n", N,
		       vmstat("nr_dirty"));
		progress("%sN=%ld: MS_ASYNC pass", "", N);
		if (listed(only, "async"))
			measure_async(N, reps);
		progress("%sN=%ld: sync()", "", N);
		if (listed(only, "sync"))
			measure_sync(N, reps);
		progress("%sN=%ld: periodic writeback", "", N);
		if (listed(only, "periodic"))
			measure_periodic(N, reps);
	}
	knob_restore_all();
	printf("meta,sysctl_restored,%s\n", knobs_restored() ? "yes" : "no");
	printf("meta,runtime_s,%lld\n", (now_ms() - start_ms) / 1000);
	return 0;
}
