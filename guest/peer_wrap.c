// SPDX-License-Identifier: GPL-2.0
/*
 * main() for the wrapped peer suites (guest/peers.mk): the tree's test's
 * own main() is renamed (-Dmain=peer_selftest_main) and called with the
 * fixed arguments PEER_ARGS, between setting and restoring the sysctls
 * PEER_SYSCTLS (both -D'd by peers.mk, as C initializer lists): what the
 * test's .sh wrapper would have done.  Lines starting "# peer: " are
 * KTAP diagnostics.
 */
/* -D applies to every file of the command: this one keeps its main(). */
#undef main
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int peer_selftest_main(int argc, char **argv);

static const char *const sysctls[] = { PEER_SYSCTLS NULL };
static const char *const args[] = { PEER_ARGS NULL };
static int sysctl_rw(const char *path, char *oldval, size_t len, const char *val);
static char old[8][256];
static int nset;
static pid_t self;

/* At exit: kselftest_harness.h ends with exit(), not a return. */
static void restore(void)
{
	int i;

	if (getpid() != self)
		return;	/* a test's child exiting, not us */
	for (i = nset - 1; i >= 0; i--)
		if (sysctl_rw(sysctls[2 * i], NULL, 0, old[i]))
			printf("# peer: cannot restore %s to %s: %m\n",
			       sysctls[2 * i], old[i]);
		else
			printf("# peer: %s restored to %s\n",
			       sysctls[2 * i], old[i]);
	fflush(stdout);
}

static int sysctl_rw(const char *path, char *oldval, size_t len, const char *val)
{
	ssize_t n = 0;
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return -1;
	if (oldval) {
		n = read(fd, oldval, len - 1);
		oldval[n > 0 ? n : 0] = '\0';
		oldval[strcspn(oldval, "\n")] = '\0';
		lseek(fd, 0, SEEK_SET);
	}
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

int main(int argc, char **argv)
{
	char *av[64];
	int ac = 0, i;

	(void)argc;
	av[ac++] = argv[0];
	for (i = 0; args[i] && ac < 63; i++)
		av[ac++] = (char *)args[i];
	av[ac] = NULL;
	if (ac > 1) {
		printf("# peer: arguments:");
		for (i = 1; i < ac; i++)
			printf(" %s", av[i]);
		printf("\n");
	}
	self = getpid();
	atexit(restore);
	for (i = 0; sysctls[2 * i] && i < 8; i++, nset++) {
		if (sysctl_rw(sysctls[2 * i], old[i], sizeof(old[i]),
			      sysctls[2 * i + 1])) {
			printf("# peer: cannot set %s to %s: %m\n",
			       sysctls[2 * i], sysctls[2 * i + 1]);
			return 1;
		}
		printf("# peer: %s = %s (was %s)\n", sysctls[2 * i],
		       sysctls[2 * i + 1], old[i]);
	}
	/* The harness forks per test: nothing buffered may be inherited. */
	fflush(stdout);
	return peer_selftest_main(ac, av);
}
