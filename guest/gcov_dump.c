// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's coverage counters, out of the guest: /sys/kernel/debug/gcov
 * holds one .gcda file per profiled object (read fresh from the running
 * kernel's counters), under the object folder's absolute path on the
 * build machine.  The initramfs has no network and no disk, so the files
 * go to a serial port of their own as base64 text (make coverage).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "gcov_dump.h"

#define GCOV_ROOT	"/sys/kernel/debug/gcov"

static FILE *out;
static long nfiles, nbytes;

static void base64(const unsigned char *p, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, col = 0;

	for (i = 0; i < n; i += 3) {
		unsigned int v = p[i] << 16;

		v |= (i + 1 < n ? p[i + 1] : 0) << 8;
		v |= i + 2 < n ? p[i + 2] : 0;
		fputc(abc[v >> 18 & 63], out);
		fputc(abc[v >> 12 & 63], out);
		fputc(i + 1 < n ? abc[v >> 6 & 63] : '=', out);
		fputc(i + 2 < n ? abc[v & 63] : '=', out);
		col += 4;
		if (col == 76) {
			fputc('\n', out);
			col = 0;
		}
	}
	if (col)
		fputc('\n', out);
}

/* debugfs reports no size: read to the end. */
static unsigned char *slurp(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	unsigned char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			unsigned char *more = realloc(buf, cap * 2);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	*len = n;
	return buf;
}

static int one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	size_t len = strlen(path), n;
	unsigned char *data;

	(void)st;
	(void)f;
	if (type != FTW_F || len < 5 || strcmp(path + len - 5, ".gcda"))
		return 0;
	data = slurp(path, &n);
	if (!data) {
		fprintf(out, "# gcov-dump: %s: %s\n", path, strerror(errno));
		return 0;
	}
	fprintf(out, "gcda %s %zu\n", path + strlen(GCOV_ROOT) + 1, n);
	base64(data, n);
	fputs("end\n", out);
	free(data);
	nfiles++;
	nbytes += n;
	return 0;
}

int gcov_dump(const char *dev)
{
	struct termios t;
	int fd = open(dev, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	/* Bytes as written: no newline translation on the way out. */
	if (!tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		return -1;
	}
	nfiles = nbytes = 0;
	/* FTW_PHYS: the .gcno entries are links into the build folder. */
	if (nftw(GCOV_ROOT, one, 16, FTW_PHYS)) {
		fprintf(out, "# gcov-dump: %s: %s\n", GCOV_ROOT, strerror(errno));
		fclose(out);
		return -1;
	}
	fprintf(out, "gcov-dump files=%ld bytes=%ld\n", nfiles, nbytes);
	fclose(out);
	return nfiles;
}
