/*
 * msync_sibling FROZEN OTHER: MS_ASYNC on a file system whose sibling on
 * the same disk is frozen.
 *
 * FROZEN and OTHER are two ext4 file systems of one disk (partitions):
 * one device, one flusher thread.  A range of a file on FROZEN is dirtied
 * and given MS_ASYNC, and FROZEN is frozen (FIFREEZE) right after, so
 * that the freeze meets that writeback pending: the range is big
 * (FROZEN_PAGES), so that a writer started at once (v4's worker, one
 * jiffy later) is still at it when the freeze comes, rather than done.
 * A child then stores to the first PAGES pages of the file again (the
 * store waits in ->page_mkwrite for the thaw) and calls MS_ASYNC on
 * them.  Meanwhile a dirty range of a file on OTHER gets MS_ASYNC and
 * must be written within LIMIT_MS, while FROZEN is still frozen.  After
 * the thaw, the child's range must be written within LIMIT_MS too.
 *
 * Output: TAP.  Exit status 0 if both were written in time, 1 if not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "msync_util.h"

#define PAGES		256
#define FROZEN_PAGES	8192
#define LIMIT_MS	5000

/* A file of @pages pages, written and synced, mapped shared; NULL */
static char *map_file(const char *dir, int pages)
{
	char path[512], buf[4096];
	void *p;
	int fd, i;

	snprintf(path, sizeof(path), "%s/sibling.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return NULL;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < pages; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return NULL;
	if (fsync(fd))
		return NULL;
	p = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void store(char *p, int c, int pages)
{
	int i;

	for (i = 0; i < pages; i++)
		p[i * 4096] = (char)c;
}

int main(int argc, char **argv)
{
	char *fp, *op;
	long long t;
	int ffd, st, ok = 1, running;
	pid_t child;

	if (argc != 3) {
		fprintf(stderr, "usage: %s <frozen-dir> <other-dir>\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n1..2\n");
	if (pagestate_open()) {
		printf("not ok 1 - /proc/kpageflags: %s\n", strerror(errno));
		return 1;
	}
	fp = map_file(argv[1], FROZEN_PAGES);
	op = map_file(argv[2], PAGES);
	ffd = open(argv[1], O_RDONLY);
	if (!fp || !op || ffd < 0) {
		printf("Bail out! setup: %s\n", strerror(errno));
		return 1;
	}
	store(fp, 0xa0, FROZEN_PAGES);
	if (msync(fp, FROZEN_PAGES * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC) on %s: %s\n", argv[1], strerror(errno));
	if (ioctl(ffd, FIFREEZE, 0)) {
		printf("Bail out! FIFREEZE %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	child = fork();
	if (child == 0) {
		store(fp, 0xa1, PAGES);	/* waits for the thaw on ext4 */
		_exit(msync(fp, PAGES * 4096, MS_ASYNC) ? 1 : 0);
	}
	usleep(200000);
	store(op, 0xb2, PAGES);
	if (msync(op, PAGES * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC) on %s: %s\n", argv[2], strerror(errno));
	t = wait_clean(op, PAGES, LIMIT_MS);
	running = waitpid(child, &st, WNOHANG) == 0;
	printf("# the child was %s when the other file system's range was %s\n",
	       running ? "still waiting" : "done", t >= 0 ? "clean" : "not clean");
	if (t >= 0)
		printf("ok 1 - %s written while %s is frozen (%lld ms)\n",
		       argv[2], argv[1], t);
	else {
		printf("not ok 1 - %s not written within %d ms while %s is frozen (%ld pages unclean)\n",
		       argv[2], LIMIT_MS, argv[1],
		       PAGES - census(op, PAGES).clean);
		ok = 0;
	}
	if (ioctl(ffd, FITHAW, 0))
		printf("# FITHAW: %s\n", strerror(errno));
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		printf("# the child's msync(MS_ASYNC) failed\n");
	t = wait_clean(fp, PAGES, LIMIT_MS);
	if (t >= 0)
		printf("ok 2 - %s written after the thaw (%lld ms)\n", argv[1], t);
	else {
		printf("not ok 2 - %s not written within %d ms of the thaw (%ld pages unclean)\n",
		       argv[1], LIMIT_MS, PAGES - census(fp, PAGES).clean);
		ok = 0;
	}
	return ok ? 0 : 1;
}
