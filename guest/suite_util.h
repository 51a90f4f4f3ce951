/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest suites that print obs lines. */
#ifndef SUITE_UTIL_H
#define SUITE_UTIL_H

#include <stddef.h>

/* "EINVAL" for EINVAL, "0" for 0, "E<n>" for an unnamed value. */
const char *errno_name(int err);

/*
 * Move into a private directory under /tmp for unix pathname sockets;
 * exits with KSFT_FAIL if it cannot.  sockdir_remove() empties and
 * removes it, only in the process that made it (the harness forks).
 */
void sockdir_enter(const char *suite);
void sockdir_remove(void);

/* Write the string @s to the file @path (sysfs, procfs): 0 or -errno. */
int write_str(const char *path, const char *s);

/*
 * Read exactly @len bytes from @fd (a stream): 1 when they all came, 0 at
 * the end of the stream before any, -1 on an error before any, -2 when
 * the stream ended or failed part way.
 */
int read_full(int fd, void *buf, size_t len);

#endif
