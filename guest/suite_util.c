// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the guest suites that print obs lines. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "suite_util.h"

/*
 * stdout line-buffered before any test forks: the harness ends each test
 * child with _exit(), which drops what stdio still holds.  6.12's
 * ksft_print_header() does this itself; 6.1's does not, and its obs
 * lines printed in test children were lost.
 */
static void __attribute__((constructor)) line_buffered_stdout(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

const char *errno_name(int err)
{
	static char buf[16];
	const char *name = err ? strerrorname_np(err) : "0";

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static char sock_dir[64];
static pid_t sock_dir_owner;

void sockdir_enter(const char *suite)
{
	snprintf(sock_dir, sizeof(sock_dir), "/tmp/%s.XXXXXX", suite);
	if (!mkdtemp(sock_dir) || chdir(sock_dir)) {
		fprintf(stderr, "%s: private directory: %s\n", suite,
			strerror(errno));
		exit(KSFT_FAIL);
	}
	sock_dir_owner = getpid();
}

void sockdir_remove(void)
{
	struct dirent *de;
	DIR *d;

	if (!sock_dir_owner || getpid() != sock_dir_owner ||
	    !(d = opendir(".")))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlink(de->d_name);
	closedir(d);
	if (chdir("/") == 0)
		rmdir(sock_dir);
}

int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n <= 0)
			return got ? -2 : (n == 0 ? 0 : -1);
		got += n;
	}
	return 1;
}
