/*
 * msync_abort DIR: MS_ASYNC of pages whose writepage keeps failing.
 *
 * DIR is an ext3 file system that this program aborts (mount -o
 * remount,abort: the journal aborted, as after an I/O error in it).  A
 * sparse file's pages stored to through a shared mapping after that stay
 * dirty for good: ext3's writepage must allocate their blocks, cannot
 * start a handle (the first attempt makes the file system read-only),
 * redirties the page and returns an error that stops the walk, having
 * written nothing.  A pass that found such pages must ask for no other:
 * after MS_ASYNC of them, the device's flusher thread must not wake once
 * a second to fail again, nor the kernel log grow a line a second.
 *
 * Over WATCH_MS, starting when the first pass had time to run, it counts
 * the flusher thread's context switches (flush-MAJ:MIN, its wakeups) and
 * the kernel log's new lines: at most MAX_WAKEUPS and MAX_LINES.
 *
 * Output: TAP.  Exit status 0 if within both, 1 if not.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "msync_util.h"

#define PAGES		64
#define STORED		16
#define FIRST_PASS_MS	1500
#define WATCH_MS	5000
#define MAX_WAKEUPS	2
#define MAX_LINES	2

/* The flusher thread of device @dev: its context switches, or -1 */
static long flusher_switches(dev_t dev)
{
	char want[32], path[300], line[128];
	long n = -1, v;
	struct dirent *d;
	DIR *proc;
	FILE *f;

	snprintf(want, sizeof(want), "flush-%u:%u", major(dev), minor(dev));
	proc = opendir("/proc");
	if (!proc)
		return -1;
	while ((d = readdir(proc)) && n < 0) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		if (read_str(path, line, sizeof(line)) || strcmp(line, want))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
			    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
				n += v;
		fclose(f);
	}
	closedir(proc);
	return n;
}

/* Lines in the kernel log buffer */
static long log_lines(void)
{
	static char buf[1 << 20];
	long n = 0;
	int len, i;

	len = klogctl(3, buf, sizeof(buf));	/* SYSLOG_ACTION_READ_ALL */
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

int main(int argc, char **argv)
{
	char path[512];
	long w0, w1, l0, l1;
	struct census c;
	struct stat st;
	char *p;
	int fd, i, ok;

	if (argc != 2) {
		fprintf(stderr, "usage: %s <ext3-dir>\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n1..1\n");
	snprintf(path, sizeof(path), "%s/abort.dat", argv[1]);
	/*
	 * A sparse file: writepage must allocate its blocks, in a handle
	 * (ext3 writes a page whose blocks are all mapped without one).
	 */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	p = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd < 0 || ftruncate(fd, PAGES * 4096) || fsync(fd) ||
	    fstat(fd, &st) ||
	    p == MAP_FAILED || pagestate_open() ||
	    knob_set("/proc/sys/vm/dirty_writeback_centisecs", "0")) {
		printf("Bail out! setup: %s\n", strerror(errno));
		return 1;
	}
	/*
	 * The journal is aborted; the remount itself fails (EROFS) and puts
	 * the old flags back, and the first handle asked for after it, the
	 * writepage's, makes the file system read-only.
	 */
	i = mount(NULL, argv[1], NULL, MS_REMOUNT, "abort") ? errno : 0;
	printf("# remount,abort: %s\n", i ? strerror(i) : "done");
	for (i = 0; i < STORED; i++)
		p[i * 4096] = (char)i;
	c = census(p, STORED);
	printf("# %ld of %d pages stored to after the abort dirty\n",
	       c.dirty, STORED);
	if (msync(p, STORED * 4096, MS_ASYNC))
		printf("# msync(MS_ASYNC): %s\n", strerror(errno));
	sleep_ms(FIRST_PASS_MS);
	w0 = flusher_switches(st.st_dev);
	l0 = log_lines();
	sleep_ms(WATCH_MS);
	w1 = flusher_switches(st.st_dev);
	l1 = log_lines();
	c = census(p, STORED);
	printf("# %ld of %d pages still dirty\n", c.dirty, STORED);
	if (w0 < 0 || w1 < 0) {
		printf("not ok 1 - no flusher thread flush-%u:%u to watch\n",
		       major(st.st_dev), minor(st.st_dev));
		knob_restore_all();
		return 1;
	}
	ok = w1 - w0 <= MAX_WAKEUPS && l1 - l0 <= MAX_LINES;
	printf("%s 1 - MS_ASYNC of pages whose writepage fails: %ld flusher wakeups (at most %d), %ld kernel log lines (at most %d) in %d ms\n",
	       ok ? "ok" : "not ok", w1 - w0, MAX_WAKEUPS, l1 - l0,
	       MAX_LINES, WATCH_MS);
	knob_restore_all();
	return ok ? 0 : 1;
}
