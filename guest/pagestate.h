/*
 * pagestate.h: how many pages of a mapping are dirty or under writeback,
 * from /proc/self/pagemap and /proc/kpageflags (root only), for the guest
 * programs.  Pages not present count as clean.
 */
#ifndef PAGESTATE_H
#define PAGESTATE_H

#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define PS_PRESENT	(1ULL << 63)
#define PS_PFN_MASK	((1ULL << 55) - 1)
#define PS_DIRTY	(1ULL << 4)
#define PS_WRITEBACK	(1ULL << 8)

/* Pages of [addr, addr + pages * 4096) dirty or under writeback; -1 */
static inline long unclean_pages(const void *addr, long pages)
{
	static int pm = -1, kf = -1;
	uint64_t e, fl;
	long i, n = 0;

	if (pm < 0)
		pm = open("/proc/self/pagemap", O_RDONLY);
	if (kf < 0)
		kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0)
		return -1;
	for (i = 0; i < pages; i++) {
		if (pread(pm, &e, 8, ((uintptr_t)addr / 4096 + i) * 8) != 8)
			return -1;
		if (!(e & PS_PRESENT))
			continue;
		if (pread(kf, &fl, 8, (e & PS_PFN_MASK) * 8) != 8)
			return -1;
		if (fl & (PS_DIRTY | PS_WRITEBACK))
			n++;
	}
	return n;
}

static inline long long ps_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Milliseconds until no page of the mapping is unclean; -1 after limit */
static inline long long wait_clean_ms(const void *addr, long pages,
				      long long limit)
{
	long long t0 = ps_now_ms();

	while (unclean_pages(addr, pages) != 0) {
		if (ps_now_ms() - t0 > limit)
			return -1;
		usleep(10000);
	}
	return ps_now_ms() - t0;
}

#endif
