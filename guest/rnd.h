/*
 * rnd.h: the guest programs' random numbers, xorshift64*, the same
 * sequence for the same seed on every run, kernel and architecture.
 * Each program includes it once and seeds rng (never 0); rng is per
 * thread, so each thread of the race test seeds and draws its own.
 */
#ifndef MSYNC_RND_H
#define MSYNC_RND_H

#include <stdint.h>

static __thread uint64_t rng = 1;

static inline uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

#endif
