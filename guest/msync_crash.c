/*
 * msync_crash FILE DEV RANGES [SEED]: the writer of the crash-consistency
 * test (tests/crash.sh).  FILE is the file of CRASH_PAGES records on the
 * logged disk DEV (guest/msync_crash.h); the disk's write log is replayed
 * on the host at every crash point.
 *
 * Each round stores new records (the next sequence numbers) in a few
 * random pages of a shared mapping of FILE, then msync(MS_SYNC)s a random
 * range, most often one holding a page just written.  Only when msync
 * returned 0 is the range synced: the writer then writes a marker, the
 * range and the sequence number of each of its pages, to the next slot
 * of the marker area of DEV past the file system, with O_DIRECT, so that
 * it reaches the disk at once and its place in the log says which syncs
 * had returned before any write.  The marker also lists the pages of the
 * round's records.  Stops after RANGES synced ranges.
 *
 * Exit status 0 if every msync() and marker write succeeded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "msync_crash.h"
#include "rnd.h"


static int dev_fd;
static struct marker *mk;
static uint64_t markers;

/* Write the marker in mk to its slot, past the file system, bypassing the
 * page cache. */
static int put_marker(void)
{
	off_t off = CRASH_MARKER_OFF +
		(markers % CRASH_MARKER_SLOTS) * (off_t)CRASH_PAGE;

	mk->magic = MARKER_MAGIC;
	mk->nr = markers;
	if (pwrite(dev_fd, mk, CRASH_PAGE, off) != CRASH_PAGE) {
		printf("not ok 1 - marker %llu: %s\n",
		       (unsigned long long)markers, strerror(errno));
		return -1;
	}
	markers++;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t seq[CRASH_PAGES] = { 0 }, last = 0;
	long ranges, synced = 0, calls = 0, written = 0;
	unsigned char *map, *rec;
	int fd;

	if (argc < 4 || (ranges = atol(argv[3])) <= 0) {
		printf("not ok 1 - usage: msync_crash FILE DEV RANGES [SEED]\n");
		return 1;
	}
	rng = argc > 4 ? strtoull(argv[4], NULL, 0) : 1;
	rng = rng * 0x9e3779b97f4a7c15ULL | 1;
	printf("TAP version 13\n1..1\n");
	fd = open(argv[1], O_RDWR);
	dev_fd = open(argv[2], O_RDWR | O_DIRECT);
	if (fd < 0 || dev_fd < 0) {
		printf("not ok 1 - open %s: %s\n", fd < 0 ? argv[1] : argv[2],
		       strerror(errno));
		return 1;
	}
	map = mmap(NULL, (size_t)CRASH_PAGES * CRASH_PAGE,
		   PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || posix_memalign((void **)&mk, CRASH_PAGE,
						 CRASH_PAGE) ||
	    !(rec = malloc(CRASH_PAGE))) {
		printf("not ok 1 - setup: %s\n", strerror(errno));
		return 1;
	}

	while (synced < ranges) {
		uint64_t first, n, hot = 0, i, pages[CRASH_MAX_WRITES];
		int k = 1 + rnd() % CRASH_MAX_WRITES, j, ret;

		/* New records in k random pages. */
		for (j = 0; j < k; j++) {
			hot = rnd() % CRASH_PAGES;
			record_make(rec, ++last, hot);
			memcpy(map + hot * CRASH_PAGE, rec, CRASH_PAGE);
			seq[hot] = last;
			pages[j] = hot;
			written++;
		}
		/* A range of 1..CRASH_MAX_RANGE pages, mostly around hot. */
		n = 1 + rnd() % (rnd() % 4 ? 8 : CRASH_MAX_RANGE);
		if (rnd() % 4) {
			first = hot >= n - 1 ? hot - rnd() % n : 0;
		} else {
			first = rnd() % CRASH_PAGES;
		}
		if (first + n > CRASH_PAGES)
			n = CRASH_PAGES - first;

		calls++;
		ret = msync(map + first * CRASH_PAGE, n * CRASH_PAGE, MS_SYNC);
		if (ret) {
			printf("not ok 1 - msync(page %llu, %llu pages, MS_SYNC): %s\n",
			       (unsigned long long)first,
			       (unsigned long long)n, strerror(errno));
			return 1;
		}
		memset(mk, 0, CRASH_PAGE);
		mk->kind = MARKER_SYNCED;
		mk->first = first;
		mk->npages = n;
		mk->maxseq = last;
		mk->nwritten = k;
		for (j = 0; j < k; j++)
			mk->written[j] = pages[j];
		for (i = 0; i < n; i++)
			mk->seq[i] = seq[first + i];
		if (put_marker())
			return 1;
		synced++;
		/* Now and then an MS_ASYNC, leaving writeback to the kernel. */
		if (rnd() % 8 == 0)
			msync(map, (size_t)CRASH_PAGES * CRASH_PAGE, MS_ASYNC);
	}
	memset(mk, 0, CRASH_PAGE);
	mk->kind = MARKER_END;
	mk->maxseq = last;
	if (put_marker())
		return 1;
	printf("# %ld ranges synced, %ld records written, %ld msync calls, %llu markers\n",
	       synced, written, calls, (unsigned long long)markers);
	printf("ok 1 - %ld ranges synced with MS_SYNC, markers written\n",
	       synced);
	return 0;
}
