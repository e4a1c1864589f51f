/*
 * msync_fuzz DIR [CALLS [SEED]]: random msync() calls checked against the
 * error contract of msync(), computed from this program's own map of the
 * address space, not from the kernel's answer.
 *
 * The map: a window of WINDOW pages at a fixed address, each page one of
 * a hole, a shared or private mapping of a file in DIR, an anonymous
 * mapping, a PROT_NONE mapping, an mlocked shared mapping, or a shared
 * mapping of the block device given as MSYNC_FUZZ_DEV (optional).  The
 * pages around the window are unmapped.  Addresses are drawn from the
 * window and its edges, unaligned, and far away: kernel addresses, the
 * top of the address space, ranges that wrap.  Lengths from 0 to past
 * the window, and huge ones; flags from every bit, valid or not.
 *
 * The contract (v3.5's mm/msync.c, unchanged by the series): EINVAL for
 * an unknown flag, then an unaligned address, then MS_SYNC with MS_ASYNC;
 * len rounded up to pages, 0 if that wraps; ENOMEM if addr + len wraps;
 * 0 for an empty range; then in address order EBUSY at the first locked
 * mapping when MS_INVALIDATE is set, else ENOMEM if any part is unmapped,
 * else 0.
 *
 * The data contract: when MS_SYNC returns 0 or ENOMEM (holes are skipped,
 * the mapped parts synced), no page of a shared mapping of the file or
 * the device in the range is dirty or under writeback (page flags, for
 * the pages in the page table).  One such call in SYNC_DIRTY first
 * stores to every page of the range that it can, so that the sync has
 * work to do.  When MS_SYNC|MS_INVALIDATE returns EBUSY, the locked
 * mapping was not synced: the first locked page of the range, stored to
 * before the call, is still dirty, if no shared mapping of the file comes
 * before it in the range (v3.5 syncs the whole file for one, PROT_NONE
 * or not); a violation counts if a second store and call show it again
 * (a pass or kupdate may write the page between the store and the
 * look).
 *
 * Prints the seed (reuse it to repeat a run), counts per result and every
 * violation (the first 10 of each kind in full, so that one kind cannot
 * hide another).  Exit status 0 if none, 1 if any.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "msync_util.h"
#include "rnd.h"

#define WINDOW		64		/* pages in the model */
#define EDGE		8		/* unmapped pages on each side */
#define BASE		0x300000000000UL	/* the window's address */
#define SYNC_DIRTY	16		/* MS_SYNC calls per dirtied range */

enum kind { HOLE, SHARED, PRIVATE, ANON, NONE, LOCKED, DEV, NR_KINDS };
static const char *const kind_name[] = {
	"hole", "shared", "private", "anon", "prot_none", "mlocked", "device"
};

static enum kind model[WINDOW];
static long page;
static int file_fd = -1, dev_fd = -1;

static unsigned long window(void)
{
	return BASE + EDGE * page;
}

/* Map pages [first, first + n) of the window as kind k. */
static int map_pages(int first, int n, enum kind k)
{
	void *addr = (void *)(window() + first * page), *p;
	size_t len = n * page;
	int prot = PROT_READ | PROT_WRITE, flags = MAP_FIXED, fd = -1;
	off_t off = (off_t)first * page;

	switch (k) {
	case HOLE:
		return munmap(addr, len);
	case SHARED:
	case LOCKED:
		flags |= MAP_SHARED;
		fd = file_fd;
		break;
	case PRIVATE:
		flags |= MAP_PRIVATE;
		fd = file_fd;
		break;
	case ANON:
		flags |= MAP_PRIVATE | MAP_ANONYMOUS;
		break;
	case NONE:
		flags |= MAP_SHARED;
		fd = file_fd;
		prot = PROT_NONE;
		break;
	case DEV:
		flags |= MAP_SHARED;
		fd = dev_fd;
		break;
	default:
		return -1;
	}
	p = mmap(addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		return -1;
	if (k == LOCKED && mlock(p, len))
		return -1;
	return 0;
}

/* A new random layout of the window, in runs of 1-8 pages. */
static int layout(void)
{
	int i = 0, n, k;

	while (i < WINDOW) {
		n = 1 + rnd() % 8;
		if (i + n > WINDOW)
			n = WINDOW - i;
		do
			k = rnd() % NR_KINDS;
		while (k == DEV && dev_fd < 0);
		if (map_pages(i, n, k)) {
			printf("# mapping %d pages at %d as %s: %s\n", n, i,
			       kind_name[k], strerror(errno));
			return -1;
		}
		while (n--)
			model[i++] = k;
	}
	return 0;
}

/* The kind of the page at addr; everything outside the window is a hole. */
static enum kind kind_at(unsigned long addr)
{
	if (addr < window() || addr >= window() + WINDOW * page)
		return HOLE;
	return model[(addr - window()) / page];
}

/* What msync(addr, len, flags) must return: 0 or an errno. */
static int expected(unsigned long addr, size_t len, int flags)
{
	unsigned long end, a;
	int unmapped = 0;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return EINVAL;
	if (addr & (page - 1))
		return EINVAL;
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return EINVAL;
	len = (len + page - 1) & ~(size_t)(page - 1);
	end = addr + len;
	if (end < addr)
		return ENOMEM;
	if (end == addr)
		return 0;
	/*
	 * Below and beyond the window and its edges there is nothing but
	 * holes: jump over them.
	 */
	for (a = addr; a < end; a += page) {
		if (a < BASE) {
			unmapped = 1;
			if (end <= BASE)
				break;
			a = BASE - page;
			continue;
		}
		if (a >= window() + WINDOW * page) {
			unmapped = 1;
			break;
		}
		switch (kind_at(a)) {
		case HOLE:
			unmapped = 1;
			break;
		case LOCKED:
			if (flags & MS_INVALIDATE)
				return EBUSY;
			break;
		default:
			break;
		}
	}
	return unmapped ? ENOMEM : 0;
}

/*
 * The first locked page of pages [first, end), or -1, also if a shared
 * mapping of the file comes before it.
 */
static int first_locked(int first, int end)
{
	int i;

	for (i = first; i < end; i++)
		if (model[i] == LOCKED)
			return i;
		else if (model[i] == SHARED || model[i] == NONE)
			return -1;
	return -1;
}

/* Whether msync() must sync the page: shared, of the file or device */
static int synced_kind(enum kind k)
{
	return k == SHARED || k == LOCKED || k == DEV;
}

/* The part of [addr, addr + len) in the window, as pages [*first, *end). */
static void in_window(unsigned long addr, size_t len, int *first, int *end)
{
	unsigned long w = window(), top = window() + WINDOW * page;
	unsigned long e = addr + ((len + page - 1) & ~(size_t)(page - 1));

	*first = addr <= w ? 0 : addr >= top ? WINDOW : (addr - w) / page;
	*end = e <= w ? 0 : e >= top ? WINDOW : (e - w) / page;
}

/* Store to every page of pages [first, end) that MS_SYNC must write. */
static long dirty_range(int first, int end)
{
	long n = 0;
	int i;

	for (i = first; i < end; i++)
		if (synced_kind(model[i])) {
			*(volatile char *)(window() + i * page) = (char)i;
			n++;
		}
	return n;
}

/*
 * The pages of [first, end) that MS_SYNC must have written and that are
 * dirty or under writeback; *seen counts those it could look at.
 */
static long left_dirty(int first, int end, long *seen)
{
	int st[WINDOW], i;
	long n = 0;

	if (first >= end)
		return 0;
	page_states((void *)(window() + first * page), end - first, st);
	for (i = first; i < end; i++) {
		if (!synced_kind(model[i]) || (st[i - first] & ST_ABSENT))
			continue;
		(*seen)++;
		if (st[i - first] & (ST_DIRTY | ST_WRITEBACK))
			n++;
	}
	return n;
}

static unsigned long pick_addr(void)
{
	unsigned long a;

	switch (rnd() % 10) {
	case 0:		/* kernel or non-canonical addresses */
		return 0xffff880000000000UL + (rnd() % 1024) * page;
	case 1:		/* the top of the address space */
		return -(unsigned long)page * (1 + rnd() % 4);
	case 2:		/* low, unmapped */
		return (rnd() % 16) * page;
	case 3:		/* unaligned, in the window */
		return window() + rnd() % (WINDOW * page);
	default:	/* a page of the window or its edges */
		a = BASE + (rnd() % (WINDOW + 2 * EDGE)) * page;
		return a;
	}
}

static size_t pick_len(unsigned long addr)
{
	switch (rnd() % 10) {
	case 0:
		return 0;
	case 1:		/* rounds up to 0 */
		return (size_t)-1 - rnd() % (page - 1);
	case 2:		/* wraps past the top */
		return -addr + page * (rnd() % 3);
	case 3:
		return rnd();
	case 4:		/* unaligned */
		return 1 + rnd() % (4 * page);
	default:
		return (1 + rnd() % (WINDOW + EDGE)) * page;
	}
}

static int pick_flags(void)
{
	switch (rnd() % 8) {
	case 0:		/* any bit */
		return (int)(1U << (rnd() % 32)) | (int)(rnd() & 7);
	case 1:
		return (int)rnd();
	default:	/* valid bits, MS_SYNC|MS_ASYNC included */
		return (int)(rnd() & 7);
	}
}

int main(int argc, char **argv)
{
	long calls = 100000, i, bad = 0, syncs = 0, seen = 0, stored = 0;
	long shown[3] = { 0, 0, 0 };	/* violations printed, per kind */
	long busy_seen = 0;
	volatile char *lp;
	int locked, st;
	long left;
	int first, end;
	char *endp;
	long counts[5] = { 0 };
	unsigned long long seed;
	unsigned long addr;
	char path[256];
	size_t len;
	int flags, want, got;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	if (argc > 2) {
		calls = strtol(argv[2], &endp, 0);
		if (*endp || calls <= 0) {
			printf("TAP version 13\n1..0 # SKIP bad CALLS '%s'\n",
			       argv[2]);
			return 1;
		}
	}
	seed = argc > 3 ? strtoull(argv[3], NULL, 0) : (uint64_t)time(NULL);
	rng = seed ? seed : 1;
	printf("TAP version 13\n1..1\n# seed %llu (msync_fuzz DIR %ld %llu repeats this run)\n",
	       seed, calls, seed);
	if (argc < 2) {
		printf("not ok 1 - usage: msync_fuzz DIR [CALLS [SEED]]\n");
		return 1;
	}
	if (pagestate_open()) {
		printf("not ok 1 - setup: no page states (pagemap, kpageflags)\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/msync_fuzz.dat", argv[1]);
	file_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file_fd < 0 || ftruncate(file_fd, WINDOW * page)) {
		printf("not ok 1 - setup: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (getenv("MSYNC_FUZZ_DEV")) {
		dev_fd = open(getenv("MSYNC_FUZZ_DEV"), O_RDWR);
		if (dev_fd < 0) {
			printf("not ok 1 - setup: %s: %s\n",
			       getenv("MSYNC_FUZZ_DEV"), strerror(errno));
			return 1;
		}
	}
	if (mmap((void *)BASE, (WINDOW + 2 * EDGE) * page, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    munmap((void *)BASE, (WINDOW + 2 * EDGE) * page)) {
		printf("not ok 1 - setup: the window at %#lx: %s\n", BASE,
		       strerror(errno));
		return 1;
	}

	for (i = 0; i < calls; i++) {
		if (i % 1000 == 0 && layout()) {
			printf("not ok 1 - setup: layout\n");
			return 1;
		}
		/* Now and then, dirty a page, so that syncs have work */
		if (rnd() % 64 == 0) {
			int pg = rnd() % WINDOW;

			if (model[pg] == SHARED || model[pg] == LOCKED ||
			    model[pg] == ANON || model[pg] == PRIVATE)
				*(volatile char *)(window() + pg * page) = 1;
		}
		addr = pick_addr();
		len = pick_len(addr);
		flags = pick_flags();
		want = expected(addr, len, flags);
		in_window(addr, len, &first, &end);
		if ((flags & MS_SYNC) && (want == 0 || want == ENOMEM) &&
		    syncs++ % SYNC_DIRTY == 0)
			stored += dirty_range(first, end);
		locked = -1;
		if ((flags & MS_SYNC) && want == EBUSY)
			locked = first_locked(first, end);
		lp = NULL;
		if (locked >= 0) {
			lp = (volatile char *)(window() + locked * page);
			*lp = 2;
		}
		got = msync((void *)addr, len, flags) ? errno : 0;
		if (locked >= 0 && got == EBUSY) {
			page_states((void *)lp, 1, &st);
			busy_seen++;
			if (!(st & (ST_DIRTY | ST_WRITEBACK | ST_ABSENT))) {
				*lp = 3;
				msync((void *)addr, len, flags);
				page_states((void *)lp, 1, &st);
			}
			if (!(st & (ST_DIRTY | ST_WRITEBACK | ST_ABSENT))) {
				if (shown[0]++ < 10)
					printf("# VIOLATION call %ld: msync(%#lx, %#zx, %#x) returned EBUSY after syncing the locked page %d\n",
					       i, addr, len, flags, locked);
				bad++;
			}
		}
		if ((flags & MS_SYNC) && got == want &&
		    (want == 0 || want == ENOMEM) &&
		    (left = left_dirty(first, end, &seen))) {
			if (shown[1]++ < 10)
				printf("# VIOLATION call %ld: msync(%#lx, %#zx, %#x) returned %s, %ld pages of its shared mappings left dirty\n",
				       i, addr, len, flags, err_name(got),
				       left);
			bad++;
		}
		counts[want == 0 ? 0 : want == EINVAL ? 1 : want == ENOMEM ?
		       2 : want == EBUSY ? 3 : 4]++;
		if (got != want) {
			if (shown[2]++ < 10)
				printf("# VIOLATION call %ld: msync(%#lx, %#zx, %#x) returned %s, contract says %s\n",
				       i, addr, len, flags, err_name(got),
				       err_name(want));
			bad++;
		}
	}
	munmap((void *)BASE, (WINDOW + 2 * EDGE) * page);
	close(file_fd);
	unlink(path);
	printf("# %ld calls: expected 0 %ld, EINVAL %ld, ENOMEM %ld, EBUSY %ld, other %ld\n",
	       calls, counts[0], counts[1], counts[2], counts[3], counts[4]);
	printf("# MS_SYNC: %ld calls that must sync, %ld pages stored to before them, %ld pages looked at after\n",
	       syncs, stored, seen);
	if (!stored || !seen) {
		printf("# VIOLATION no MS_SYNC call had a dirty page to sync and look at\n");
		bad++;
	}
	printf("# EBUSY: %ld MS_SYNC calls with a locked page stored to looked at\n",
	       busy_seen);
	if (!busy_seen) {
		printf("# VIOLATION no EBUSY call had a locked dirty page to look at\n");
		bad++;
	}
	/* Every outcome of the contract must have been drawn */
	for (i = 0; i < 4; i++) {
		if (!counts[i]) {
			printf("# VIOLATION no call drew outcome %s\n",
			       err_name(i == 0 ? 0 : i == 1 ? EINVAL :
				    i == 2 ? ENOMEM : EBUSY));
			bad++;
		}
	}
	printf("%s 1 - %ld msync() calls, %ld contract violations, seed %llu\n",
	       bad ? "not ok" : "ok", calls, bad, seed);
	return bad ? 1 : 0;
}
