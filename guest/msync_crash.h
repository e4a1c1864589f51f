/*
 * The on-disk formats shared by the crash-consistency writer
 * (guest/msync_crash.c) and the host replayer (tests/crash/replay.c).
 *
 * The logged disk holds a file system of CRASH_FS_BLOCKS 4 KiB blocks and,
 * past its end at CRASH_MARKER_OFF, an area the file system never uses.
 * Two files are stored to in the guest through one shared mapping of
 * CRASH_PAGES pages: its first CRASH_FILE_PAGES are CRASH_FILE (made on
 * the host with initial records of sequence number 0: overwrites in
 * place), the others CRASH_GROW_FILE from its page CRASH_GROW_OFF on
 * (made empty on the host and extended by the writer before each store
 * past its end: every first store allocates a block and i_size grows).
 * A page of CRASH_GROW_FILE never stored to is a hole, which counts as
 * its record of sequence number 0.  Every page holds one record: a
 * header and a filling that both follow from (seq, page), so that a page
 * is either exactly some record of that page or garbage.  After every msync(MS_SYNC) that
 * returned 0 the writer writes a marker (the range and the sequence
 * number of each of its pages) to the marker area with O_DIRECT; the
 * position of that write in the write log is the time the sync returned.
 * A marker also lists the pages of the records stored since the last one,
 * so that the log holds the history of every page.
 */
#ifndef MSYNC_CRASH_H
#define MSYNC_CRASH_H

#include <stdint.h>
#include <string.h>

#define CRASH_PAGE		4096
#define CRASH_FILE_PAGES	256		/* pages of each file */
#define CRASH_PAGES		(2 * CRASH_FILE_PAGES)	/* of the mapping */
#define CRASH_FILE		"crash.dat"
#define CRASH_GROW_FILE		"grow.dat"
#define CRASH_GROW_OFF		777		/* its first page mapped */
#define CRASH_FS_BLOCKS		8192		/* 32 MiB file system */
#define CRASH_MARKER_OFF	((uint64_t)CRASH_FS_BLOCKS * CRASH_PAGE)
#define CRASH_MARKER_SLOTS	256		/* 1 MiB marker area */
#define CRASH_DISK_SIZE	(CRASH_MARKER_OFF + CRASH_MARKER_SLOTS * CRASH_PAGE)
#define CRASH_MAX_RANGE		64		/* pages of one synced range */
#define CRASH_MAX_WRITES	8		/* records stored per round */

#define RECORD_MAGIC		0x6d73796e63726563ULL	/* "msyncrec" */
#define MARKER_MAGIC		0x6d73796e636d726bULL	/* "msyncmrk" */

enum { MARKER_SYNCED = 1, MARKER_END = 2 };

struct record {
	uint64_t magic;
	uint64_t seq;
	uint64_t page;
	uint64_t sum;		/* FNV-1a of the filling */
};

struct marker {
	uint64_t magic;
	uint64_t kind;		/* MARKER_SYNCED or MARKER_END */
	uint64_t nr;		/* markers written before this one */
	uint64_t first;		/* first page of the range */
	uint64_t npages;
	uint64_t maxseq;	/* the last sequence number written so far */
	uint64_t nwritten;	/* records maxseq - nwritten + 1 .. maxseq */
	uint64_t written[CRASH_MAX_WRITES];	/* went to these pages */
	uint64_t seq[CRASH_MAX_RANGE];	/* each page's record when synced */
};

/* Fill buf (one page) with record seq of page. */
static inline void record_make(void *buf, uint64_t seq, uint64_t page)
{
	struct record *r = buf;
	unsigned char *p = (unsigned char *)buf + sizeof(*r);
	uint64_t x = (seq + 1) * 0x9e3779b97f4a7c15ULL ^ (page << 32 | 1);
	uint64_t sum = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < CRASH_PAGE - sizeof(*r); i++) {
		if (i % 8 == 0) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
		}
		p[i] = (unsigned char)(x >> (8 * (i % 8)));
		sum = (sum ^ p[i]) * 0x100000001b3ULL;
	}
	r->magic = RECORD_MAGIC;
	r->seq = seq;
	r->page = page;
	r->sum = sum;
}

/*
 * Is buf exactly a record of page?  Its sequence number goes to *seq.
 * scratch is a page of scratch memory.
 */
static inline int record_check(const void *buf, uint64_t page, uint64_t *seq,
			       void *scratch)
{
	const struct record *r = buf;

	if (r->magic != RECORD_MAGIC || r->page != page)
		return 0;
	record_make(scratch, r->seq, page);
	*seq = r->seq;
	return memcmp(buf, scratch, CRASH_PAGE) == 0;
}

#endif
