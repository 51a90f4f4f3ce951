/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Are we in the test guest?  Device creation and /proc/sys writes must
 * never happen when a suite is run on a developer's host.  Only the test
 * initramfs has /suites, and there PID 1 is our /init.
 */
#ifndef GUESTENV_H
#define GUESTENV_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * make check-debian boots a Debian 12 userland instead, systemd as PID 1,
 * and marks that boot with this kernel parameter, which no host has (a
 * dotted one, so the kernel keeps it from init's arguments).
 */
#define DEBIAN_GUEST_PARAM "sockaddr.test_guest=1"

static inline int cmdline_marks_test_guest(void)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (p = buf; (p = strstr(p, DEBIAN_GUEST_PARAM)); p++) {
		char end = p[strlen(DEBIAN_GUEST_PARAM)];

		if ((p == buf || p[-1] == ' ') && (!end || end == ' ' || end == '\n'))
			return 1;
	}
	return 0;
}

static inline int in_test_guest(void)
{
	char comm[32] = "";
	struct stat st;
	FILE *f = fopen("/proc/1/comm", "r");

	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	return (!strcmp(comm, "init\n") || cmdline_marks_test_guest()) &&
	       !stat("/suites", &st) &&
	       S_ISDIR(st.st_mode);
}

/* First statement of a kselftest_harness.h test that makes devices. */
#define GUEST_ONLY() do {						\
	if (!in_test_guest())						\
		SKIP(return, "not the test guest: no devices on a host"); \
} while (0)

#endif
