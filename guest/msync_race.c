/*
 * msync_race [-F] [-s SEED] TARGET SECONDS: threads that call msync() on a
 * window of mappings while others change the mappings, the files and the
 * process under it, for the windows the msync series opens: MS_SYNC syncs
 * with mmap_sem dropped and looks the mapping up again; MS_ASYNC leaves a
 * request behind that names the address_space and may still be pending
 * when the mapping, the file or the inode goes away, or at umount.
 *
 * TARGET is a directory (two files in it, FILE_PAGES pages each) or a
 * block device (two opens of its first FILE_PAGES pages).  The threads:
 *   msync   x2: random ranges of the window, MS_SYNC, MS_ASYNC,
 *               MS_INVALIDATE, combinations and 0
 *   map:        munmap or mmap MAP_FIXED (shared, private, anonymous)
 *               over parts of the window, at random file offsets
 *   remap:      mremap parts of the window elsewhere in it, mprotect
 *   store:      stores through the window (SIGSEGV and SIGBUS caught)
 *   write:      pwrite() from a freshly mapped, not yet faulted buffer, so
 *               that the copy faults with i_mutex held (for lockdep)
 *   file:       ftruncate (shrink, extend), close and reopen, unlink and
 *               recreate (for a device: reopen only)
 *   fork:       fork, msync in the child, exit
 *   flood (-F): big writes and sync_file_range() to another file, to
 *               keep a throttled device saturated
 * At the end: a store, MS_SYNC (must return 0) and MS_ASYNC on every
 * file, then everything is unmapped and closed and one file unlinked
 * while its MS_ASYNC request may still be pending.
 *
 * A problem is: msync() returning anything but 0 or ENOMEM, a setup call
 * that fails (open, ftruncate, mmap of a valid range), a child that fails,
 * a fault where no fault can be, a kind of operation the stress is for
 * (MS_SYNC, MS_ASYNC, mmap, munmap, mremap, stores, write(), reopen,
 * fork, the flood with -F) that never ran.  Prints the seed (-s SEED repeats the
 * choices each thread makes; the interleaving differs), counts per
 * operation, the first problems, and "ok 1"/"not ok 1".  Exit 0 if no
 * problem, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "rnd.h"

#define WINDOW		256		/* pages in the window */
#define FILE_PAGES	1024		/* pages per file (4MiB) */
#define NR_FILES	2
#define FD_BASE		100		/* files live at these fd numbers */
#define BASE		0x300000000000UL
#define FLOOD_BYTES	(16 << 20)
#define FLOOD_CHUNK	(256 << 10)

enum op {
	OP_SYNC, OP_ASYNC, OP_INVAL, OP_NOFLAGS, OP_ENOMEM,
	OP_MMAP, OP_MUNMAP, OP_MREMAP, OP_MREMAP_FAIL, OP_MPROTECT,
	OP_STORE, OP_FAULT, OP_WRITE, OP_WRITE_FAIL,
	OP_TRUNC, OP_EXTEND, OP_REOPEN, OP_RECREATE, OP_FORK, OP_FLOOD,
	NR_OPS
};
static const char *const op_name[] = {
	"msync MS_SYNC", "msync MS_ASYNC", "msync MS_INVALIDATE only",
	"msync flags 0", "msync ENOMEM (holes)",
	"mmap MAP_FIXED", "munmap", "mremap", "mremap refused", "mprotect",
	"stores", "stores faulted", "write() from unfaulted buffer",
	"write() failed (EFAULT)", "truncate (shrink)", "truncate (extend)",
	"close and reopen", "unlink and recreate", "fork, msync, exit",
	"flood writes",
};

static long counts[NR_OPS];

/* The operations every run must have made (the others may not happen) */
static int race_needs(int op, int flood)
{
	switch (op) {
	case OP_SYNC: case OP_ASYNC: case OP_MMAP: case OP_MUNMAP:
	case OP_MREMAP: case OP_STORE: case OP_WRITE: case OP_REOPEN:
	case OP_FORK:
		return 1;
	case OP_FLOOD:
		return flood;
	default:
		return 0;
	}
}
static long problems;
static long page;
static int is_dev, flood;
static const char *target;
static uint64_t seed;
static struct timespec deadline;
static int stop;

static __thread sigjmp_buf fault_jmp;
static __thread volatile int in_store;

/* Each thread's generator starts from the seed and its number, @arg */
static void seed_thread(void *arg)
{
	rng = seed * 0x9e3779b97f4a7c15ULL + (uintptr_t)arg + 1;
	if (!rng)
		rng = 1;
}

static void count(enum op op)
{
	__sync_fetch_and_add(&counts[op], 1);
}

static void problem(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void problem(const char *fmt, ...)
{
	va_list ap;

	if (__sync_fetch_and_add(&problems, 1) >= 20)
		return;
	va_start(ap, fmt);
	printf("# PROBLEM: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static int running(void)
{
	struct timespec now;

	if (stop)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > deadline.tv_sec ||
	    (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec))
		stop = 1;
	return !stop;
}

static char *win(long pg)
{
	return (char *)BASE + pg * page;
}

static void file_path(char *buf, size_t n, int i)
{
	if (is_dev)
		snprintf(buf, n, "%s", target);
	else
		snprintf(buf, n, "%s/msync_race.%d", target, i);
}

/* Open file i (creating it if @create) and put it at its fd number. */
static int open_file(int i, int create)
{
	char path[256];
	int fd;

	file_path(path, sizeof(path), i);
	fd = open(path, O_RDWR | (create && !is_dev ? O_CREAT : 0), 0600);
	if (fd < 0) {
		problem("open %s: %s", path, strerror(errno));
		return -1;
	}
	if (create && !is_dev && ftruncate(fd, (off_t)FILE_PAGES * page)) {
		problem("ftruncate %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	/* dup2 closes the old file at once: no window with no file */
	if (dup2(fd, FD_BASE + i) < 0) {
		problem("dup2: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Map pages [pg, pg + n) of the window: shared, private or anonymous. */
static void map_random(long pg, long n)
{
	int kind = rnd() % 8, flags = MAP_FIXED, fd = -1;
	off_t off = 0;

	if (kind < 6) {
		flags |= MAP_SHARED;
	} else if (kind == 6) {
		flags |= MAP_PRIVATE;
	} else {
		flags |= MAP_PRIVATE | MAP_ANONYMOUS;
	}
	if (!(flags & MAP_ANONYMOUS)) {
		fd = FD_BASE + rnd() % NR_FILES;
		off = (off_t)(rnd() % (FILE_PAGES - n + 1)) * page;
	}
	if (mmap(win(pg), n * page, PROT_READ | PROT_WRITE, flags, fd, off) ==
	    MAP_FAILED)
		problem("mmap %ld pages at %ld, fd %d offset %lld: %s", n, pg,
			fd, (long long)off, strerror(errno));
	else
		count(OP_MMAP);
}

/* A random run of pages in the window: *pg and the length, >= 1 */
static long pick_range(long *pg)
{
	long n;

	switch (rnd() % 4) {
	case 0:
		*pg = 0;
		return WINDOW;
	case 1:
		*pg = rnd() % WINDOW;
		return 1;
	default:
		*pg = rnd() % WINDOW;
		n = 1 + rnd() % 64;
		return n > WINDOW - *pg ? WINDOW - *pg : n;
	}
}

static void *msync_thread(void *arg)
{
	static const int flag_set[] = {
		MS_SYNC, MS_SYNC, MS_SYNC, MS_ASYNC, MS_ASYNC, MS_ASYNC,
		MS_SYNC | MS_INVALIDATE, MS_ASYNC | MS_INVALIDATE,
		MS_INVALIDATE, 0,
	};
	long pg, n;
	size_t len;
	int flags;

	seed_thread(arg);
	while (running()) {
		n = pick_range(&pg);
		len = n * page;
		if (rnd() % 4 == 0)	/* not a multiple of the page size */
			len -= rnd() % page;
		flags = flag_set[rnd() % 10];
		if (msync(win(pg), len, flags)) {
			if (errno != ENOMEM)
				problem("msync(page %ld, %zu, %#x): %s", pg,
					len, flags, strerror(errno));
			count(OP_ENOMEM);
		}
		count(flags & MS_SYNC ? OP_SYNC : flags & MS_ASYNC ?
		      OP_ASYNC : flags ? OP_INVAL : OP_NOFLAGS);
	}
	return NULL;
}

static void *map_thread(void *arg)
{
	long pg, n;

	seed_thread(arg);
	while (running()) {
		n = pick_range(&pg);
		if (rnd() % 6 == 0) {
			if (munmap(win(pg), n * page))
				problem("munmap: %s", strerror(errno));
			count(OP_MUNMAP);
		} else {
			map_random(pg, n);
		}
		if (rnd() % 2)
			usleep(rnd() % 500);
	}
	return NULL;
}

static void *remap_thread(void *arg)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ,
		PROT_NONE,
	};
	long pg, n, to, m;

	seed_thread(arg);
	while (running()) {
		n = pick_range(&pg);
		if (rnd() % 2) {
			/* Move (and maybe resize) a part elsewhere in it */
			m = 1 + rnd() % n;
			if (rnd() % 2)
				m = n;
			to = rnd() % (WINDOW - m + 1);
			if (mremap(win(pg), n * page, m * page,
				   MREMAP_MAYMOVE | MREMAP_FIXED,
				   win(to)) == MAP_FAILED)
				count(OP_MREMAP_FAIL);	/* spans vmas, a hole */
			else
				count(OP_MREMAP);
		} else {
			/* ENOMEM for holes is fine */
			mprotect(win(pg), n * page, prots[rnd() % 4]);
			count(OP_MPROTECT);
		}
		usleep(rnd() % 1000);
	}
	return NULL;
}

static void fault_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	(void)ctx;
	if (in_store)
		siglongjmp(fault_jmp, 1);
	/* A fault outside the stores: a real bug; die by the signal */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void *store_thread(void *arg)
{
	long pg;

	seed_thread(arg);
	while (running()) {
		pg = rnd() % WINDOW;
		if (sigsetjmp(fault_jmp, 1)) {
			in_store = 0;
			count(OP_FAULT);
			continue;
		}
		in_store = 1;
		/* a word at a random place of the page */
		*(volatile uint64_t *)(win(pg) + (rnd() % (page / 8)) * 8) =
			rnd();
		in_store = 0;
		count(OP_STORE);
	}
	return NULL;
}

static void *write_thread(void *arg)
{
	long n, src_pages;
	off_t off;
	char *buf;
	ssize_t r;
	int fd;

	seed_thread(arg);
	while (running()) {
		n = 1 + rnd() % 16;
		fd = FD_BASE + rnd() % NR_FILES;
		off = (off_t)(rnd() % (FILE_PAGES - n + 1)) * page;
		src_pages = n;
		/*
		 * The source: new anonymous memory, or a new shared mapping
		 * of one of the files (maybe past its end: EFAULT).  Either
		 * way not faulted in yet, so that the copy faults, and takes
		 * mmap_sem, under the file's i_mutex.
		 */
		if (rnd() % 2)
			buf = mmap(NULL, src_pages * page, PROT_READ,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else
			buf = mmap(NULL, src_pages * page, PROT_READ,
				   MAP_SHARED, FD_BASE + rnd() % NR_FILES,
				   (off_t)(rnd() % (FILE_PAGES - n + 1)) * page);
		if (buf == MAP_FAILED) {
			problem("mmap a source buffer: %s", strerror(errno));
			continue;
		}
		r = pwrite(fd, buf + rnd() % 64, n * page - 64, off);
		if (r < 0 && errno != EFAULT)
			problem("pwrite: %s", strerror(errno));
		count(r < 0 ? OP_WRITE_FAIL : OP_WRITE);
		munmap(buf, src_pages * page);
		usleep(rnd() % 1000);
	}
	return NULL;
}

static void *file_thread(void *arg)
{
	char path[256];
	int i;

	seed_thread(arg);
	while (running()) {
		i = rnd() % NR_FILES;
		switch (is_dev ? 2 : rnd() % 5) {
		case 0:
			if (ftruncate(FD_BASE + i,
				      (off_t)(rnd() % FILE_PAGES) * page))
				problem("ftruncate: %s", strerror(errno));
			count(OP_TRUNC);
			break;
		case 1:
			if (ftruncate(FD_BASE + i, (off_t)FILE_PAGES * page))
				problem("ftruncate: %s", strerror(errno));
			count(OP_EXTEND);
			break;
		case 2:
		case 3:
			if (open_file(i, 0) == 0)
				count(OP_REOPEN);
			break;
		case 4:
			/* The old inode goes when its mappings are replaced */
			file_path(path, sizeof(path), i);
			if (unlink(path))
				problem("unlink %s: %s", path, strerror(errno));
			if (open_file(i, 1) == 0)
				count(OP_RECREATE);
			break;
		}
		usleep(rnd() % 5000);
	}
	return NULL;
}

static void *fork_thread(void *arg)
{
	long pg, n;
	pid_t pid;
	int st;

	seed_thread(arg);
	while (running()) {
		n = pick_range(&pg);
		pid = fork();
		if (pid < 0) {
			problem("fork: %s", strerror(errno));
			break;
		}
		if (pid == 0) {
			/* The child has the window; its exit tears it down */
			if (rnd() % 2 &&
			    msync(win(pg), n * page, MS_ASYNC) && errno != ENOMEM)
				_exit(1);
			if (rnd() % 2 &&
			    msync(win(pg), n * page, MS_SYNC) && errno != ENOMEM)
				_exit(1);
			_exit(0);
		}
		if (waitpid(pid, &st, 0) != pid)
			problem("waitpid: %s", strerror(errno));
		else if (!WIFEXITED(st) || WEXITSTATUS(st))
			problem("child: msync failed or died (status %#x)", st);
		count(OP_FORK);
		usleep(rnd() % 5000);
	}
	return NULL;
}

static void *flood_thread(void *arg)
{
	char path[256], *buf;
	off_t off;
	int fd;

	seed_thread(arg);
	snprintf(path, sizeof(path), "%s/msync_race.flood", target);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	buf = malloc(FLOOD_CHUNK);
	if (fd < 0 || !buf) {
		problem("flood file %s: %s", path, strerror(errno));
		return NULL;
	}
	memset(buf, 0x5a, FLOOD_CHUNK);
	while (running()) {
		off = (off_t)(rnd() % (FLOOD_BYTES / FLOOD_CHUNK)) * FLOOD_CHUNK;
		if (pwrite(fd, buf, FLOOD_CHUNK, off) != FLOOD_CHUNK)
			problem("flood write: %s", strerror(errno));
		sync_file_range(fd, off, FLOOD_CHUNK, SYNC_FILE_RANGE_WRITE);
		count(OP_FLOOD);
	}
	close(fd);
	unlink(path);
	free(buf);
	return NULL;
}

/*
 * The end: every file dirty, synced (0 expected: nothing failed), then
 * dirty again with MS_ASYNC pending while the mappings, the files and
 * one inode go away.
 */
static void finish(void)
{
	char path[256], *p;
	int i;

	munmap(win(0), WINDOW * page);
	for (i = 0; i < NR_FILES; i++) {
		/* one may have been truncated */
		if (!is_dev && ftruncate(FD_BASE + i, (off_t)FILE_PAGES * page))
			problem("ftruncate: %s", strerror(errno));
		p = mmap(NULL, FILE_PAGES * page, PROT_READ | PROT_WRITE,
			 MAP_SHARED, FD_BASE + i, 0);
		if (p == MAP_FAILED) {
			problem("mmap file %d: %s", i, strerror(errno));
			continue;
		}
		memset(p, 'a' + i, FILE_PAGES * page);
		if (msync(p, FILE_PAGES * page, MS_SYNC))
			problem("final MS_SYNC of file %d: %s", i,
				strerror(errno));
		memset(p, 'A' + i, FILE_PAGES * page);
		if (msync(p, FILE_PAGES * page, MS_ASYNC))
			problem("final MS_ASYNC of file %d: %s", i,
				strerror(errno));
		munmap(p, FILE_PAGES * page);
		close(FD_BASE + i);
	}
	if (!is_dev) {
		file_path(path, sizeof(path), 1);
		unlink(path);
	}
}

int main(int argc, char **argv)
{
	void *(*fn[])(void *) = {
		msync_thread, msync_thread, map_thread, remap_thread,
		store_thread, write_thread, file_thread, fork_thread,
		flood_thread,
	};
	int nr = sizeof(fn) / sizeof(fn[0]);
	pthread_t tid[sizeof(fn) / sizeof(fn[0])];
	struct sigaction sa;
	struct stat st;
	long seconds, total = 0;
	char *endp;
	int c, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	seed = time(NULL);
	while ((c = getopt(argc, argv, "Fs:")) != -1) {
		switch (c) {
		case 'F':
			flood = 1;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	target = argv[optind];
	seconds = strtol(argv[optind + 1], &endp, 0);
	if (*endp || seconds <= 0)
		goto usage;
	printf("TAP version 13\n1..1\n# seed %llu (msync_race%s -s %llu %s %ld repeats the choices)\n",
	       (unsigned long long)seed, flood ? " -F" : "",
	       (unsigned long long)seed, target, seconds);
	if (stat(target, &st)) {
		printf("not ok 1 - %s: %s\n", target, strerror(errno));
		return 1;
	}
	is_dev = S_ISBLK(st.st_mode);
	if (is_dev)
		flood = 0;	/* no file system for its file */
	if (!is_dev && !S_ISDIR(st.st_mode))
		goto usage;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	for (i = 0; i < NR_FILES; i++)
		if (open_file(i, 1))
			goto out;
	/* The window starts as one shared mapping of file 0 */
	if (mmap(win(0), WINDOW * page, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, FD_BASE, 0) == MAP_FAILED) {
		problem("mmap the window: %s", strerror(errno));
		goto out;
	}

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += seconds;
	if (!flood)
		nr--;
	for (i = 0; i < nr; i++) {
		if (pthread_create(&tid[i], NULL, fn[i],
				   (void *)(uintptr_t)i)) {
			problem("pthread_create failed");
			nr = i;
			stop = 1;
			break;
		}
	}
	for (i = 0; i < nr; i++)
		pthread_join(tid[i], NULL);
	finish();
	/* A stress that did not run what it is for proves nothing */
	for (i = 0; i < NR_OPS; i++)
		if (!counts[i] && race_needs(i, flood))
			problem("no \"%s\" in %ld s", op_name[i], seconds);
out:
	for (i = 0; i < NR_OPS; i++) {
		if (!counts[i])
			continue;
		printf("# %-32s %ld\n", op_name[i], counts[i]);
		if (i != OP_ENOMEM)	/* a part of the msync calls */
			total += counts[i];
	}
	printf("# %ld operations in %ld s, %ld problems\n", total, seconds,
	       problems);
	printf("%s 1 - msync race on %s: %ld operations, %ld problems, seed %llu\n",
	       problems ? "not ok" : "ok", target, total, problems,
	       (unsigned long long)seed);
	return problems ? 1 : 0;
usage:
	printf("TAP version 13\n1..1\nnot ok 1 - usage: msync_race [-F] [-s SEED] DIR|DEVICE SECONDS\n");
	return 1;
}
