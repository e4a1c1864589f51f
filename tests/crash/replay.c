/*
 * replay: the host side of the crash-consistency test (tests/crash.sh).
 * Reads the write log that QEMU's blklogwrites driver keeps of a guest
 * disk (the dm-log-writes format: a superblock in sector 0, then entries,
 * each one sector of header followed by its data), rebuilds the disk as a
 * power cut could leave it, and checks a file of records against the
 * markers the guest writer left in the log (guest/msync_crash.h).
 *
 *   replay mkfile FILE                 the file with every page at seq 0
 *   replay info LOG                    what the log holds
 *   replay points LOG SAMPLES SEED     the crash points to check, one a line
 *   replay build LOG IMG KIND T SEED   IMG (a copy of the disk as it was
 *                                      before the log) as at crash point
 *   replay check LOG FILE GROW KIND T [break]  the files (read out of
 *                                      that image) against the syncs
 *                                      done by then
 *   replay page FILE PAGE              the seq of a page's record
 *
 * Time t means: entries 0..t-1 have completed.  A crash point is
 *   f T  just before the flush after entry T completes (T is a flush
 *        entry, or -1 for the start): the disk holds the writes up to T
 *        and nothing after, and every sync whose marker precedes the next
 *        flush entry had returned.  The state a missing flush loses.
 *   p T  time T, every completed write on the disk; points reports one
 *        right after each marker, as well as sampled ones.
 *   s T  time T, the writes up to the last flush before T and a random
 *        half of those after it (a volatile cache writes back in any
 *        order).
 * check counts, for every synced range (marker before the crash), the
 * pages whose record is older than the one synced: such a range is lost.
 * A page must hold a record stored in it (the markers list them all), or
 * be torn between two successive ones (counted apart; a torn page counts
 * as the older record); anything else is garbage.
 * "break" claims the syncs of one more flush interval as done: a replay
 * that is wrong on purpose, to show that check can fail.
 *
 * Exit status: 0 good, 1 ranges lost, 2 garbage or a bad log or usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "../../guest/msync_crash.h"

#define LOG_MAGIC	0x6a736677736872ULL
#define LOG_FLUSH	1
#define LOG_FUA		2
#define LOG_DISCARD	4
#define LOG_MARK	8

struct log_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct log_entry {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
} __attribute__((packed));

struct entry {
	uint64_t off;		/* disk byte offset */
	uint64_t len;		/* bytes */
	uint64_t flags;
	const unsigned char *data;	/* NULL for flushes and discards */
	const struct marker *mk;	/* the marker this write is, if any */
};

static const unsigned char *log_map;
static struct entry *ent;
static long nent;
static uint64_t super_entries;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "replay: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(2);
}

static int marker_ok(const struct marker *m)
{
	uint64_t j;

	if (m->npages > CRASH_MAX_RANGE || m->first + m->npages > CRASH_PAGES ||
	    m->nwritten > CRASH_MAX_WRITES || m->nwritten > m->maxseq)
		return 0;
	for (j = 0; j < m->nwritten; j++)
		if (m->written[j] >= CRASH_PAGES)
			return 0;
	return 1;
}

/* Map the log and index its entries.  The superblock's entry count is
 * only rewritten at flushes, so entries are read on to the end of the
 * file; the count may lag behind, never run ahead. */
static void load(const char *path)
{
	const struct log_super *sb;
	struct stat st;
	uint64_t ss, pos, size;
	long cap = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("cannot open log %s", path);
	size = st.st_size;
	if (size < 512)
		die("log %s is empty", path);
	log_map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (log_map == MAP_FAILED)
		die("cannot map log %s", path);
	sb = (const void *)log_map;
	if (sb->magic == 0 && sb->sectorsize == 0) {
		/* QEMU writes the superblock at the first flush: a guest
		 * that never flushed leaves it zero.  tests/crash.sh sets
		 * log-sector-size=512. */
		ss = 512;
	} else if (sb->magic != LOG_MAGIC || sb->version != 1) {
		die("%s is not a dm-log-writes log (magic/version)", path);
	} else {
		ss = sb->sectorsize;
	}
	if (ss < 512 || ss > 65536 || (ss & (ss - 1)))
		die("log %s: bad sector size", path);
	super_entries = sb->nr_entries;

	for (pos = ss; pos + ss <= size; ) {
		const struct log_entry *le = (const void *)(log_map + pos);
		struct entry *e;

		if (le->flags & ~(uint64_t)(LOG_FLUSH | LOG_FUA | LOG_DISCARD |
					    LOG_MARK))
			die("log %s: entry with unknown flags", path);
		pos += ss;
		if (nent == cap) {
			cap = cap ? 2 * cap : 4096;
			ent = realloc(ent, cap * sizeof(*ent));
			if (!ent)
				die("out of memory%s", "");
		}
		e = &ent[nent++];
		memset(e, 0, sizeof(*e));
		e->off = le->sector * ss;
		e->len = le->nr_sectors * ss;
		e->flags = le->flags;
		if (le->flags & (LOG_DISCARD | LOG_MARK))
			continue;
		if (pos + e->len > size)
			die("log %s: last entry truncated", path);
		if (e->len)
			e->data = log_map + pos;
		pos += e->len;
		if (e->data && e->off >= CRASH_MARKER_OFF &&
		    e->len >= sizeof(struct marker) &&
		    ((const struct marker *)e->data)->magic == MARKER_MAGIC)
			e->mk = (const void *)e->data;
		if (e->mk && !marker_ok(e->mk))
			die("log %s: a marker with a bad range", path);
	}
	if ((uint64_t)nent < super_entries)
		die("log %s: fewer entries than its superblock counts", path);
	close(fd);
}

static int is_flush(long i)
{
	return ent[i].flags & LOG_FLUSH;
}

static int is_write(long i)
{
	return ent[i].data && !ent[i].mk;
}

/* The first flush entry after i, or nent. */
static long next_flush(long i)
{
	for (i++; i < nent && !is_flush(i); i++)
		;
	return i;
}

/* The last flush entry before t, or -1. */
static long last_flush(long t)
{
	for (t--; t >= 0 && !is_flush(t); t--)
		;
	return t;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void cmd_info(void)
{
	long i, writes = 0, flushes = 0, fua = 0, discards = 0, marks = 0;
	uint64_t bytes = 0;

	for (i = 0; i < nent; i++) {
		flushes += is_flush(i);
		fua += !!(ent[i].flags & LOG_FUA);
		discards += !!(ent[i].flags & LOG_DISCARD);
		marks += ent[i].mk && ent[i].mk->kind == MARKER_SYNCED;
		if (is_write(i)) {
			writes++;
			bytes += ent[i].len;
		}
	}
	printf("entries %ld writes %ld flushes %ld fua %ld discards %ld synced %ld write_kib %llu super_entries %llu\n",
	       nent, writes, flushes, fua, discards, marks,
	       (unsigned long long)(bytes >> 10),
	       (unsigned long long)super_entries);
}

/* Every flush point; SAMPLES times between flushes (intervals picked at
 * random among those with writes), alternately p and s; the end. */
static void cmd_points(long samples, uint64_t seed)
{
	long i, f, nint = 0, *lo, *hi;

	printf("f -1\n");
	for (i = 0; i < nent; i++)
		if (is_flush(i))
			printf("f %ld\n", i);
	lo = malloc((nent + 1) * sizeof(*lo));
	hi = malloc((nent + 1) * sizeof(*hi));
	if (!lo || !hi)
		die("out of memory%s", "");
	/* Intervals (f, next flush) holding at least one write. */
	for (f = -1; f < nent; f = next_flush(f)) {
		long n = next_flush(f);

		for (i = f + 1; i < n && !is_write(i); i++)
			;
		if (i < n) {
			lo[nint] = i + 1;	/* after the first write */
			hi[nint++] = n;		/* up to the next flush */
		}
	}
	for (i = 0; i < samples && nint; i++) {
		uint64_t r = mix(seed + i);
		long k = r % nint;
		long t = lo[k] + (long)((r >> 20) % (hi[k] - lo[k] + 1));

		printf("%c %ld\n", i % 2 ? 's' : 'p', t);
	}
	/*
	 * Right after each marker, every completed write on the disk: each
	 * sync's own data must be there the moment msync() has returned,
	 * flush or not (the check that matters where fsync never flushes).
	 */
	for (i = 0; i < nent; i++)
		if (ent[i].mk)
			printf("p %ld\n", i + 1);
	printf("p %ld\n", nent);
	free(lo);
	free(hi);
}

static void cmd_build(const char *img, char kind, long t, uint64_t seed)
{
	long i, upto, keep;
	int fd = open(img, O_WRONLY);

	if (fd < 0)
		die("cannot open image %s", img);
	if (kind == 'f') {
		upto = t + 1;
		keep = upto;
	} else {
		upto = t;
		keep = kind == 's' ? last_flush(t) + 1 : t;
	}
	if (t < -1 || upto > nent)
		die("crash point out of the log%s", "");
	for (i = 0; i < upto; i++) {
		const struct entry *e = &ent[i];

		if (!e->data)
			continue;
		if (i >= keep && !(e->flags & LOG_FUA) && mix(seed ^ i) % 2)
			continue;
		if (pwrite(fd, e->data, e->len, e->off) != (ssize_t)e->len)
			die("writing %s failed", img);
	}
	if (close(fd))
		die("writing %s failed", img);
}

static void read_file(const char *path, unsigned char **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die("cannot open %s", path);
	*len = st.st_size;
	*buf = malloc(*len + 1);
	if (!*buf || read(fd, *buf, *len) != (ssize_t)*len)
		die("cannot read %s", path);
	close(fd);
}

/* Every record stored in each page, in order, from all the markers (the
 * first one, seq 0, made on the host). */
static uint64_t *hist[CRASH_PAGES];
static long nhist[CRASH_PAGES];

static void history(void)
{
	long i, p;
	uint64_t j;

	for (p = 0; p < CRASH_PAGES; p++) {
		hist[p] = malloc(sizeof(uint64_t));
		if (!hist[p])
			die("out of memory%s", "");
		hist[p][0] = 0;
		nhist[p] = 1;
	}
	for (i = 0; i < nent; i++) {
		const struct marker *m = ent[i].mk;

		for (j = 0; m && j < m->nwritten; j++) {
			p = m->written[j];
			hist[p] = realloc(hist[p], (nhist[p] + 1) * sizeof(uint64_t));
			if (!hist[p])
				die("out of memory%s", "");
			hist[p][nhist[p]++] = m->maxseq - m->nwritten + 1 + j;
		}
	}
}

/*
 * What page p of buf holds: 0 a record stored there (its seq to *seq),
 * 1 torn: each word from one of two successive records of the page (the
 * older one's seq to *seq; a store into a page under writeback, on a file
 * system without stable pages), -1 anything else.
 */
static int page_state(const unsigned char *buf, long p, uint64_t *seq)
{
	static uint64_t a[CRASH_PAGE / 8], b[CRASH_PAGE / 8];
	static const unsigned char zero[CRASH_PAGE];
	const uint64_t *w = (const void *)buf;
	long i, k;

	/* A page of the growing file never stored to is a hole */
	if (p >= CRASH_FILE_PAGES && !memcmp(buf, zero, CRASH_PAGE)) {
		*seq = 0;
		return 0;
	}
	if (record_check(buf, p, seq, a)) {
		for (i = 0; i < nhist[p]; i++)
			if (hist[p][i] == *seq)
				return 0;
		return -1;
	}
	for (i = 0; i + 1 < nhist[p]; i++) {
		record_make(a, hist[p][i], p);
		record_make(b, hist[p][i + 1], p);
		for (k = 0; k < CRASH_PAGE / 8; k++)
			if (w[k] != a[k] && w[k] != b[k])
				break;
		if (k == CRASH_PAGE / 8) {
			*seq = hist[p][i];
			return 1;
		}
	}
	return -1;
}

/*
 * The pages the writer's mapping saw, from the two files: path's
 * CRASH_FILE_PAGES, then grow's from CRASH_GROW_OFF on (zeros past its
 * end).  NULL if path is not the size it must be.
 */
static unsigned char *mapped_pages(const char *path, const char *grow)
{
	unsigned char *buf, *file, *g;
	size_t len, glen, off = (size_t)CRASH_GROW_OFF * CRASH_PAGE;
	size_t room = (size_t)(CRASH_PAGES - CRASH_FILE_PAGES) * CRASH_PAGE;

	read_file(path, &file, &len);
	if (len != (size_t)CRASH_FILE_PAGES * CRASH_PAGE) {
		printf("garbage: %s is %zu bytes, not %d\n", path, len,
		       CRASH_FILE_PAGES * CRASH_PAGE);
		free(file);
		return NULL;
	}
	buf = calloc(CRASH_PAGES, CRASH_PAGE);
	if (!buf)
		die("out of memory%s", "");
	memcpy(buf, file, len);
	free(file);
	read_file(grow, &g, &glen);
	if (glen > off)
		memcpy(buf + len, g + off, glen - off < room ? glen - off : room);
	free(g);
	return buf;
}

static int cmd_check(const char *path, const char *grow, char kind, long t,
		     int broken)
{
	uint64_t seq[CRASH_PAGES];
	long i, end, synced = 0, lost = 0, garbage = 0, torn = 0;
	unsigned char *buf;

	history();
	buf = mapped_pages(path, grow);
	if (!buf)
		return 2;
	for (i = 0; i < CRASH_PAGES; i++) {
		switch (page_state(buf + i * CRASH_PAGE, i, &seq[i])) {
		case 1:
			printf("torn: page %ld holds parts of seq %llu and the next\n",
			       i, (unsigned long long)seq[i]);
			torn++;
			break;
		case -1:
			printf("garbage: page %ld is not a record stored there\n",
			       i);
			seq[i] = 0;
			garbage++;
		}
	}
	if (kind == 'f') {
		end = next_flush(t);
		if (broken && end < nent)
			end = next_flush(end);
	} else {
		end = broken ? next_flush(t - 1) : t;
	}
	for (i = 0; i < end && i < nent; i++) {
		const struct marker *m = ent[i].mk;
		uint64_t p;

		if (!m || m->kind != MARKER_SYNCED)
			continue;
		synced++;
		for (p = 0; p < m->npages && p < CRASH_MAX_RANGE; p++) {
			if (seq[m->first + p] < m->seq[p])
				break;
		}
		if (p < m->npages) {
			lost++;
			printf("lost: range %llu (pages %llu-%llu, synced at log entry %ld): page %llu holds seq %llu, synced seq %llu\n",
			       (unsigned long long)m->nr,
			       (unsigned long long)m->first,
			       (unsigned long long)(m->first + m->npages - 1),
			       i, (unsigned long long)(m->first + p),
			       (unsigned long long)seq[m->first + p],
			       (unsigned long long)m->seq[p]);
		}
	}
	printf("synced %ld lost %ld garbage %ld torn %ld\n", synced, lost,
	       garbage, torn);
	free(buf);
	return garbage ? 2 : lost ? 1 : 0;
}

static void cmd_mkfile(const char *path)
{
	static unsigned char page[CRASH_PAGE];
	FILE *f = fopen(path, "w");
	long i;

	if (!f)
		die("cannot create %s", path);
	for (i = 0; i < CRASH_FILE_PAGES; i++) {
		record_make(page, 0, i);
		if (fwrite(page, CRASH_PAGE, 1, f) != 1)
			die("writing %s failed", path);
	}
	if (fclose(f))
		die("writing %s failed", path);
}

static void cmd_page(const char *path, long page)
{
	static unsigned char scratch[CRASH_PAGE];
	unsigned char *buf;
	uint64_t seq;
	size_t len;

	read_file(path, &buf, &len);
	if (page < 0 || (size_t)(page + 1) * CRASH_PAGE > len ||
	    !record_check(buf + page * CRASH_PAGE, page, &seq, scratch))
		printf("garbage\n");
	else
		printf("%llu\n", (unsigned long long)seq);
	free(buf);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "mkfile") && argc == 3) {
		cmd_mkfile(argv[2]);
		return 0;
	}
	if (!strcmp(cmd, "page") && argc == 4) {
		cmd_page(argv[2], atol(argv[3]));
		return 0;
	}
	if (argc < 3)
		die("usage: replay mkfile|info|points|build|check|page ...%s", "");
	load(argv[2]);
	if (!strcmp(cmd, "info") && argc == 3) {
		cmd_info();
	} else if (!strcmp(cmd, "points") && argc == 5) {
		cmd_points(atol(argv[3]), strtoull(argv[4], NULL, 0));
	} else if (!strcmp(cmd, "build") && argc == 7) {
		cmd_build(argv[3], argv[4][0], atol(argv[5]),
			  strtoull(argv[6], NULL, 0));
	} else if (!strcmp(cmd, "check") && (argc == 7 || argc == 8)) {
		return cmd_check(argv[3], argv[4], argv[5][0], atol(argv[6]),
				 argc == 8 && !strcmp(argv[7], "break"));
	} else {
		die("usage: replay mkfile|info|points|build|check|page ...%s",
		    "");
	}
	return 0;
}
