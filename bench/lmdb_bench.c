/*
 * lmdb_bench: a real msync() user, LMDB (Debian's liblmdb, static), in a
 * commit loop of small random updates.
 *
 *	lmdb_bench <dir> <blockdev> <async|async-dirty|sync> <seconds>
 *
 * async: MDB_WRITEMAP | MDB_MAPASYNC, so every commit ends in
 * msync(whole map, MS_ASYNC); async-dirty: the same, with OTHER_MIB of
 * another file of the file system written (by write(), not synced, so
 * dirty and unexpired) just before the loop, as on a busy system; sync:
 * MDB_WRITEMAP alone, so every commit ends in msync(whole map, MS_SYNC).  The database holds KEYS records of
 * 100 bytes (about 4 MiB, far more than one commit's pages); each commit
 * overwrites UPDATES random records.  Prints one line:
 *
 *	lmdb mode=M commits=N rate=C/s kib_per_commit=K median_us=U max_us=X
 *	clean_ms=T faults_per_commit=F sys_us_per_commit=S
 *
 * rate: commits per second; kib_per_commit: what the device wrote during
 * the loop and the second after it, per commit; median_us, max_us: the
 * time of mdb_txn_commit(); clean_ms: how long after the last commit the
 * map's pages were as clean (neither dirty nor under writeback, from
 * /proc/kpageflags) as an fsync() then makes them, or -1 if not within
 * CLEAN_WAIT_MS; faults_per_commit, sys_us_per_commit: the page faults
 * the loop took and the system time it used, per commit (a folio written
 * out is write-protected again, so the next store to it faults: what
 * writing the map costs the program).  Runs with the flusher settings the
 * kernel booted with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "msync_util.h"

#define KEYS		40000
#define UPDATES		4
#define VALUE_SIZE	100
#define MAP_SIZE	(64UL << 20)
#define CLEAN_WAIT_MS	5000
#define MAX_COMMITS	4000000
#define SAMPLES		4096
#define OTHER_MIB	64

static long long tv_us(const struct timeval *tv)
{
	return tv->tv_sec * 1000000LL + tv->tv_usec;
}

static void die(const char *what, int err)
{
	printf("# FATAL: %s: %s\n", what, err ? mdb_strerror(err) : "");
	exit(1);
}

/* Sectors written by the device under dir's file system */
static long long sectors(const char *blockdev)
{
	char sys_dev[64];
	struct stat st;

	if (stat(blockdev, &st))
		return -1;
	snprintf(sys_dev, sizeof(sys_dev), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	return dev_sectors_written(sys_dev);
}

/* Pages of the map dirty or under writeback; pages not mapped are clean */
static long unclean_pages(const void *addr, long pages)
{
	struct census c = census(addr, pages);

	return c.dirty + c.writeback;
}

/* Store one record: key number k, value bytes v */
static void put(MDB_txn *txn, MDB_dbi dbi, unsigned long long k, int c)
{
	char key[16], val[VALUE_SIZE];
	MDB_val mk, mv;
	int err;

	snprintf(key, sizeof(key), "%08llu", k);
	memset(val, c, sizeof(val));
	mk.mv_data = key;
	mk.mv_size = 8;
	mv.mv_data = val;
	mv.mv_size = sizeof(val);
	if ((err = mdb_put(txn, dbi, &mk, &mv, 0)))
		die("mdb_put", err);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* OTHER_MIB of dir/lmdb_other.dat, written and left dirty */
static void leave_dirty(const char *dir)
{
	static char buf[1 << 20];
	char path[512];
	int fd, i;

	snprintf(path, sizeof(path), "%s/lmdb_other.dat", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path, errno);
	memset(buf, 0x6b, sizeof(buf));
	for (i = 0; i < OTHER_MIB; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write", errno);
	close(fd);
}

int main(int argc, char **argv)
{
	static long long lat[MAX_COMMITS];
	long long t0, t1, end, s0, s1, last, clean = -1;
	unsigned long long rnd = 88172645463325252ULL;
	unsigned int flags = MDB_WRITEMAP | MDB_NOSUBDIR;
	static long su[SAMPLES];
	static long long st[SAMPLES];
	long n = 0, i, ns, left, pages;
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_envinfo info;
	char path[512];
	int err, secs, fd, other = 0;
	struct rusage ru0, ru1;

	if (argc != 5) {
		fprintf(stderr,
			"usage: %s <dir> <blockdev> <async|async-dirty|sync> <seconds>\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(argv[3], "async")) {
		flags |= MDB_MAPASYNC;
	} else if (!strcmp(argv[3], "async-dirty")) {
		flags |= MDB_MAPASYNC;
		other = 1;
	} else if (strcmp(argv[3], "sync")) {
		return 2;
	}
	secs = atoi(argv[4]);
	if (pagestate_open())
		die("/proc/kpageflags", errno);
	snprintf(path, sizeof(path), "%s/lmdb_bench.mdb", argv[1]);
	unlink(path);
	if ((err = mdb_env_create(&env)) ||
	    (err = mdb_env_set_mapsize(env, MAP_SIZE)) ||
	    (err = mdb_env_open(env, path, flags, 0600)))
		die("mdb_env_open", err);

	/* The records, one transaction, then on disk */
	if ((err = mdb_txn_begin(env, NULL, 0, &txn)) ||
	    (err = mdb_dbi_open(txn, NULL, 0, &dbi)))
		die("mdb_txn_begin", err);
	for (i = 0; i < KEYS; i++)
		put(txn, dbi, i, 0x5a);
	if ((err = mdb_txn_commit(txn)) || (err = mdb_env_sync(env, 1)))
		die("mdb_txn_commit", err);
	sync();
	sleep(1);
	if (other)
		leave_dirty(argv[1]);

	/* Its own first touch of lat[] is not the loop's to count */
	memset(lat, 0, sizeof(lat));
	s0 = sectors(argv[2]);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_us();
	end = t0 + secs * 1000000LL;
	last = t0;
	while (last < end && n < MAX_COMMITS) {
		if ((err = mdb_txn_begin(env, NULL, 0, &txn)))
			die("mdb_txn_begin", err);
		for (i = 0; i < UPDATES; i++) {
			rnd ^= rnd >> 12;
			rnd ^= rnd << 25;
			rnd ^= rnd >> 27;
			put(txn, dbi, (rnd * 2685821657736338717ULL) % KEYS,
			    (int)(rnd & 0xff));
		}
		t1 = now_us();
		if ((err = mdb_txn_commit(txn)))
			die("mdb_txn_commit", err);
		last = now_us();
		lat[n++] = last - t1;
	}
	getrusage(RUSAGE_SELF, &ru1);

	/*
	 * How long the last commit's pages stay dirty.  Some pages of the
	 * map stay dirty whatever is done (on v3.5's ext4, about a hundred
	 * past the first 4 MiB, even after MS_SYNC of the whole map): the
	 * count sampled here is compared with what an fsync() leaves.
	 */
	if (mdb_env_info(env, &info) || mdb_env_get_fd(env, &fd))
		die("mdb_env_info", 0);
	pages = info.me_last_pgno + 1;
	for (ns = 0; ns < SAMPLES; ns++) {
		su[ns] = unclean_pages(info.me_mapaddr, pages);
		st[ns] = now_us() - last;
		if (su[ns] <= 0 || st[ns] > CLEAN_WAIT_MS * 1000LL)
			break;
		usleep(2000);
	}
	fsync(fd);
	left = unclean_pages(info.me_mapaddr, pages);
	for (i = 0; i < ns + 1 && i < SAMPLES; i++)
		if (su[i] >= 0 && su[i] <= left) {
			clean = st[i] / 1000;
			break;
		}
	printf("# %ld of %ld pages unclean right after the last commit, %ld after fsync()\n",
	       su[0], pages, left);
	sleep(1);
	s1 = sectors(argv[2]);
	qsort(lat, n, sizeof(lat[0]), cmp_ll);
	printf("lmdb mode=%s commits=%ld rate=%.0f/s kib_per_commit=%.2f median_us=%lld max_us=%lld clean_ms=%lld faults_per_commit=%.3f sys_us_per_commit=%.2f\n",
	       argv[3], n, n * 1e6 / (last - t0),
	       s0 < 0 || s1 < 0 ? -1.0 : (s1 - s0) / 2.0 / n,
	       lat[n / 2], lat[n - 1], clean,
	       (double)(ru1.ru_minflt - ru0.ru_minflt) / n,
	       (tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime)) / (double)n);
	mdb_env_close(env);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lmdb_bench.mdb-lock", argv[1]);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lmdb_other.dat", argv[1]);
	unlink(path);
	return 0;
}
