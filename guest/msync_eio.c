/*
 * msync_eio FILE BAD GOOD: msync(MS_SYNC) and fdatasync() when writes
 * fail.  FILE is a file of records (guest/msync_crash.h) whose page BAD
 * lies on a disk sector every write of which fails (QEMU blkdebug, set
 * up by tests/crash.sh); page GOOD is healthy.  Each case prints
 * "# eio CASE = RESULT", RESULT being 0 or the errno name; tests/crash.sh
 * compares them with what each kernel should return.  The last record
 * written to GOOD is printed as "# eio good-seq = N" so that the host
 * can check the disk.
 *
 * Exit status 0 unless the setup failed.
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
#include "msync_util.h"

static unsigned char *map, *rec;
static uint64_t seq = 1000;

static void dirty(long page)
{
	record_make(rec, ++seq, page);
	memcpy(map + page * CRASH_PAGE, rec, CRASH_PAGE);
}

static void show(const char *name, int ret)
{
	if (!ret)
		printf("# eio %s = 0\n", name);
	else if (errno == EIO)
		printf("# eio %s = EIO\n", name);
	else
		printf("# eio %s = errno %d\n", name, errno);
}

static int sync_page(long page)
{
	return msync(map + page * CRASH_PAGE, CRASH_PAGE, MS_SYNC);
}

/*
 * The state of a page of the mapping, from its page flags: 1 if it is
 * dirty or under writeback, 0 if clean, -1 if it cannot be read.
 */
static int page_busy(long page)
{
	struct census c = census(map + page * CRASH_PAGE, 1);

	return c.absent ? -1 : !c.clean;
}

static void show_state(const char *name, long page)
{
	int busy = page_busy(page);

	printf("# eio %s = %s\n", name,
	       busy < 0 ? "unknown" : busy ? "dirty" : "clean");
}

int main(int argc, char **argv)
{
	long bad, good;
	int fd, i;

	printf("TAP version 13\n1..1\n");
	if (argc != 4) {
		printf("not ok 1 - usage: msync_eio FILE BAD GOOD\n");
		return 1;
	}
	bad = atol(argv[2]);
	good = atol(argv[3]);
	if (pagestate_open())	/* the page states print as unknown */
		printf("# /proc/kpageflags: %s\n", strerror(errno));
	fd = open(argv[1], O_RDWR);
	map = fd < 0 ? MAP_FAILED :
		mmap(NULL, 16 * CRASH_PAGE, PROT_READ | PROT_WRITE,
		     MAP_SHARED, fd, 0);
	rec = malloc(CRASH_PAGE);
	if (map == MAP_FAILED || !rec) {
		printf("not ok 1 - setup %s: %s\n", argv[1], strerror(errno));
		return 1;
	}

	/* The range's own write fails: MS_SYNC must say so. */
	dirty(bad);
	show("sync-bad", sync_page(bad));
	/* The failed page is clean now and the error was reported once. */
	show_state("bad-page-after-sync", bad);
	show("resync-bad", sync_page(bad));
	/* fdatasync() does the same on the same kernel. */
	dirty(bad);
	show("fdatasync-bad", fdatasync(fd));
	show_state("bad-page-after-fdatasync", bad);
	show("refdatasync-bad", fdatasync(fd));

	/* A healthy range while the failing page is dirty too: the range
	 * sync leaves the other page alone, the whole-file sync writes it. */
	dirty(bad);
	dirty(good);
	show("sync-good-bad-dirty", sync_page(good));
	show("fsync-after", fsync(fd));

	/* A healthy range after another page's writeback failed: the
	 * mapping's sticky AS_EIO is reported by whatever sync comes next. */
	dirty(bad);
	dirty(good);
	sync_file_range(fd, bad * CRASH_PAGE, CRASH_PAGE,
			SYNC_FILE_RANGE_WRITE);
	/* Its writeback over (waiting in a sync would take the error) */
	for (i = 0; i < 2000 && page_busy(bad) != 0; i++)
		usleep(10000);
	show_state("bad-page-after-writeback", bad);
	show("sync-good-sticky", sync_page(good));
	dirty(good);
	show("resync-good", sync_page(good));
	printf("# eio good-seq = %llu\n", (unsigned long long)seq);
	printf("ok 1 - msync and fdatasync under write errors ran\n");
	return 0;
}
