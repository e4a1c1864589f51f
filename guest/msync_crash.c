/*
 * msync_crash DIR DEV RANGES [SEED]: the writer of the crash-consistency
 * test (tests/crash.sh).  DIR holds the files CRASH_FILE and
 * CRASH_GROW_FILE on the logged disk DEV (guest/msync_crash.h), mapped
 * one after the other; the disk's write log is replayed on the host at
 * every crash point.
 *
 * Each round stores new records (the next sequence numbers) in a few
 * random pages of the mapping, extending CRASH_GROW_FILE first where a
 * page lies past its end, then msync(MS_SYNC)s a random range, most often
 * one holding a page just written (it may span both files).  Only when
 * msync returned 0 is the range synced: the writer then writes a marker,
 * the range and the sequence number of each of its pages, to the next
 * slot of the marker area of DEV past the file system, with O_DIRECT, so
 * that it reaches the disk at once and its place in the log says which
 * syncs had returned before any write.  The marker also lists the pages
 * of the round's records.  Stops after RANGES synced ranges.
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
#include <sys/stat.h>

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

/* Open DIR/name; its fd, or -1 after a TAP line saying why. */
static int open_in(const char *dir, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		printf("not ok 1 - open %s: %s\n", path, strerror(errno));
	return fd;
}

int main(int argc, char **argv)
{
	uint64_t seq[CRASH_PAGES] = { 0 }, last = 0;
	long ranges, synced = 0, calls = 0, written = 0;
	long grown = 0;
	uint64_t grow_pages;
	unsigned char *map, *rec;
	int fd, gfd;
	struct stat st;

	if (argc < 4 || (ranges = atol(argv[3])) <= 0) {
		printf("not ok 1 - usage: msync_crash DIR DEV RANGES [SEED]\n");
		return 1;
	}
	rng = argc > 4 ? strtoull(argv[4], NULL, 0) : 1;
	rng = rng * 0x9e3779b97f4a7c15ULL | 1;
	printf("TAP version 13\n1..1\n");
	fd = open_in(argv[1], CRASH_FILE);
	gfd = open_in(argv[1], CRASH_GROW_FILE);
	if (fd < 0 || gfd < 0 || fstat(gfd, &st))
		return 1;
	grow_pages = st.st_size / CRASH_PAGE;
	dev_fd = open(argv[2], O_RDWR | O_DIRECT);
	if (dev_fd < 0) {
		printf("not ok 1 - open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	/* One range of addresses: CRASH_FILE, then CRASH_GROW_FILE. */
	map = mmap(NULL, (size_t)CRASH_PAGES * CRASH_PAGE, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED ||
	    mmap(map, (size_t)CRASH_FILE_PAGES * CRASH_PAGE,
		 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) != map ||
	    mmap(map + (size_t)CRASH_FILE_PAGES * CRASH_PAGE,
		 (size_t)(CRASH_PAGES - CRASH_FILE_PAGES) * CRASH_PAGE,
		 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, gfd,
		 (off_t)CRASH_GROW_OFF * CRASH_PAGE) == MAP_FAILED ||
	    posix_memalign((void **)&mk, CRASH_PAGE, CRASH_PAGE) ||
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
			/* Past the end of CRASH_GROW_FILE: extend it first */
			if (hot >= CRASH_FILE_PAGES &&
			    CRASH_GROW_OFF + hot - CRASH_FILE_PAGES >= grow_pages) {
				grow_pages = CRASH_GROW_OFF + hot -
					CRASH_FILE_PAGES + 1;
				if (ftruncate(gfd, (off_t)grow_pages *
						   CRASH_PAGE)) {
					printf("not ok 1 - ftruncate: %s\n",
					       strerror(errno));
					return 1;
				}
				grown++;
			}
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
	printf("# %ld ranges synced, %ld records written, %ld msync calls, %llu markers, %s extended %ld times\n",
	       synced, written, calls, (unsigned long long)markers,
	       CRASH_GROW_FILE, grown);
	printf("ok 1 - %ld ranges synced with MS_SYNC, markers written\n",
	       synced);
	return 0;
}
