/*
 * msync_freeze DIR: does a freeze of user space and kernel threads
 * complete while MS_ASYNC writeback is pending on a saturated disk?
 *
 * A child stores to every page of a 32 MiB file in DIR and calls
 * msync(MS_ASYNC) on it, in a loop.  The parent lets it run, then asks the
 * kernel for a freeze/thaw cycle without suspending (pm_test "freezer",
 * then "mem" to /sys/power/state: sync, freeze user space, freeze kernel
 * threads and freezable workqueues, wait 5 s, thaw) and reports whether it
 * completed.  The disk should be throttled and its request queue small,
 * so that the writeback is still going on when the freezer runs.
 *
 * Output: TAP.  Exit status 0 if the cycle completed, 1 if not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "msync_util.h"

#define FILE_MB	32

static void writer(char *p, size_t len, long page)
{
	size_t i;
	unsigned char v = 0;

	for (;;) {
		v++;
		for (i = 0; i < len; i += page)
			p[i] = v;
		msync(p, len, MS_ASYNC);
	}
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = FILE_MB << 20;
	char path[256], *p, *buf;
	long long t;
	pid_t pid;
	int fd, err;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..1\n");
	if (argc != 2) {
		printf("not ok 1 - usage: msync_freeze DIR\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/msync_freeze.dat", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	buf = calloc(1, 1 << 20);
	if (fd < 0 || !buf) {
		printf("not ok 1 - setup: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < FILE_MB; i++)
		if (write(fd, buf, 1 << 20) != 1 << 20)
			break;
	if (fsync(fd) || i != FILE_MB) {
		printf("not ok 1 - setup: filling %s failed\n", path);
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		printf("not ok 1 - setup: mmap: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		printf("not ok 1 - setup: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid)
		writer(p, len, page);
	sleep(2);
	/*
	 * pm_test holds the frozen system in a 5 s busy wait (mdelay), which
	 * under TCG on a loaded host can outlast the soft lockup threshold
	 * (twice watchdog_thresh, 20 s): the test's own wait, not a lockup.
	 * The threshold goes to 120 s for the cycle, and back after it.
	 */
	if (knob_save("/proc/sys/kernel/watchdog_thresh", 0) ||
	    knob_set("/proc/sys/kernel/watchdog_thresh", "60"))
		printf("# watchdog_thresh: %s (left as it was)\n",
		       strerror(errno));
	err = write_str("/sys/power/pm_test", "freezer") ? errno : 0;
	if (err) {
		printf("not ok 1 - no pm_test (CONFIG_PM_DEBUG): %s\n",
		       strerror(err));
		kill(pid, SIGKILL);
		return 1;
	}
	t = now_ms();
	err = write_str("/sys/power/state", "mem") ? errno : 0;
	t = now_ms() - t;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	write_str("/sys/power/pm_test", "none");
	knob_restore_all();
	munmap(p, len);
	close(fd);
	unlink(path);
	printf("%s 1 - freeze/thaw cycle with MS_ASYNC writeback pending: %s after %lld ms\n",
	       err ? "not ok" : "ok", err ? strerror(err) : "completed", t);
	return err ? 1 : 0;
}
