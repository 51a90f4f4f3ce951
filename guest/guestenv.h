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
	return !strcmp(comm, "init\n") && !stat("/suites", &st) &&
	       S_ISDIR(st.st_mode);
}

/* First statement of a kselftest_harness.h test that makes devices. */
#define GUEST_ONLY() do {						\
	if (!in_test_guest())						\
		SKIP(return, "not the test guest: no devices on a host"); \
} while (0)

#endif
