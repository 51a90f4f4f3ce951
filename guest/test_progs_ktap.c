// SPDX-License-Identifier: GPL-2.0
/*
 * Guest suite test_progs_sock_addr: runs the tree's own BPF selftest
 * runner, built by scripts/test-progs-build.sh with only the sock_addr
 * test, and turns its result lines into KTAP so that the harness can
 * compare baseline and patched case by case.
 *
 *   /tp/test_progs -t sock_addr   (cwd /tp, where bpf_testmod.ko is)
 *
 * test_progs prints "#N/M sock_addr/<subtest>:OK|SKIP|FAIL" per subtest
 * and "#N sock_addr:<result>" for the test; every line is re-printed as
 * a "# tp: " comment, each result line becomes one KTAP case.  Exit 0
 * when test_progs exits 0 and nothing failed, else 1 (kselftest codes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CASES	512
#define TP_DIR		"/tp"

struct tcase {
	char name[160];
	int result;	/* 0 ok, 1 fail, 2 skip */
};

static struct tcase cases[MAX_CASES];
static int ncases;

/* "#287/3   sock_addr/bind4: ...:OK" or "#287 sock_addr:OK" */
static void parse(const char *line)
{
	const char *p = line + 1, *colon;
	struct tcase *c;
	size_t len;
	char *s;

	if (line[0] != '#' || !strchr("0123456789", *p))
		return;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	colon = strrchr(p, ':');
	if (!colon || ncases == MAX_CASES)
		return;
	c = &cases[ncases];
	/* "OK (SKIP: k/n)": a test whose subtests partly skipped, each listed. */
	if (!strncmp(colon + 1, "OK", 2))
		c->result = 0;
	else if (!strncmp(colon + 1, "SKIP", 4))
		c->result = 2;
	else if (!strncmp(colon + 1, "FAIL", 4))
		c->result = 1;
	else
		return;
	/* "sock_addr/bind4: bind (stream)" -> "bind4.bind (stream)": the
	 * part before the first '.' is the kind ktapdiff tabulates by. */
	if ((s = memchr(p, '/', colon - p)))
		p = s + 1;
	len = colon - p;
	if (len >= sizeof(c->name))
		len = sizeof(c->name) - 1;
	memcpy(c->name, p, len);
	c->name[len] = '\0';
	s = strstr(c->name, ": ");
	if (s) {
		*s = '.';
		memmove(s + 1, s + 2, strlen(s + 2) + 1);
	}
	/* '#' would start a KTAP directive. */
	for (s = c->name; (s = strchr(s, '#')); )
		*s = '_';
	ncases++;
}

int main(void)
{
	char line[4096];
	int pfd[2], status, failed = 0;
	FILE *in;
	pid_t pid;

	printf("KTAP version 1\n");
	fflush(stdout);
	if (chdir(TP_DIR) || access("test_progs", X_OK)) {
		printf("1..0 # SKIP no %s/test_progs: %s\n", TP_DIR, strerror(errno));
		return 4;
	}
	if (pipe(pfd))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
		execl("./test_progs", "test_progs", "-t", "sock_addr", (char *)NULL);
		dprintf(2, "exec test_progs: %s\n", strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	if (!in)
		return 1;
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		printf("# tp: %s\n", line);
		parse(line);
	}
	fclose(in);
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	printf("# test_progs exit status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	printf("1..%d\n", ncases);
	for (int i = 0; i < ncases; i++) {
		const struct tcase *c = &cases[i];

		failed |= c->result == 1;
		printf("%sok %d %s%s\n", c->result == 1 ? "not " : "", i + 1,
		       c->name, c->result == 2 ? " # SKIP" : "");
	}
	if (!ncases)
		printf("# no result lines from test_progs\n");
	return failed || !ncases || !WIFEXITED(status) || WEXITSTATUS(status) ? 1 : 0;
}
