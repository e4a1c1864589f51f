/*
 * mapfile.h: the guest programs' test files.  map_file() makes a file
 * of whole pages written by write() and synced (never fallocate(): see
 * the spec), so that the pages a test stores to later are the only
 * dirty ones, and maps it shared.  store() dirties every page of such a
 * mapping with one byte each.  Each program includes it once.
 */
#ifndef MSYNC_MAPFILE_H
#define MSYNC_MAPFILE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

/*
 * DIR/NAME, @pages pages, written and synced, mapped shared; NULL on
 * error.  With @fdp, its descriptor goes there, open; else it is closed.
 */
static inline char *map_file(const char *dir, const char *name, int pages, int *fdp)
{
	char path[512], buf[4096];
	void *p;
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return NULL;
	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < pages; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	p = MAP_FAILED;
	if (i == pages && !fsync(fd))
		p = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || !fdp)
		close(fd);
	else
		*fdp = fd;
	return p == MAP_FAILED ? NULL : p;
}

/* Stores @c to the first byte of each of the @pages pages at @p */
static inline void store(char *p, int c, int pages)
{
	int i;

	for (i = 0; i < pages; i++)
		p[i * 4096] = (char)c;
}

#endif
