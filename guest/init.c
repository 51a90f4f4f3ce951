// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the test initramfs.
 *
 * Conventions (the initramfs builder must follow them):
 *   - each test suite is an executable /suites/<name> that prints its
 *     own KTAP document (kselftest_harness.h does) and exits with a
 *     kselftest code: 0 pass, 4 skip, anything else fail;
 *   - the initramfs contains /dev/console (char 5:1) so the kernel gives
 *     us stdout on the console; if not, init opens it after devtmpfs.
 *
 * Kernel command line parameters read from /proc/cmdline:
 *   suites=a,b,c      run /suites/a, /suites/b, /suites/c in this order
 *                     (default: the names in /suites/.order, one per
 *                     line, else every executable in /suites, sorted)
 *   suite_timeout=N   seconds per suite before SIGKILL (default 120)
 *   init_panic=1      trigger a kernel panic instead of testing
 *   init_hang=1       sleep forever before printing the KTAP plan
 *   gcov_out=DEV      after the suites, copy the kernel's coverage
 *                     counters (.gcda files) to DEV (guest/gcov_dump.c,
 *                     make coverage)
 *
 * Output: a top-level KTAP document with one test per suite; each
 * suite's output is re-printed indented by two spaces, which makes it a
 * nested KTAP subtest.  Lines of our own start with "# init: ".
 * init never returns: returning from PID 1 panics the kernel.
 *
 * Run as any other PID (a host-side test), init touches nothing global:
 * no mounts, no loopback, no power-off; it reads the command line from
 * $INIT_CMDLINE and suites from $INIT_SUITE_DIR when they are set.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gcov_dump.h"

#define MAX_SUITES	64
#define NAME_MAX_LEN	64
#define DEFAULT_TIMEOUT	120

static const char *suite_dir = "/suites";
static int is_pid1;

struct config {
	char suites[MAX_SUITES][NAME_MAX_LEN];
	int nsuites;
	int suites_given;	/* suites= was on the command line */
	int timeout;
	int panic;
	int hang;
	char ktap[64];		/* ktap=DEV: where the KTAP goes */
	char gcov_out[64];	/* gcov_out=DEV: where the counters go */
};

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("# init: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static __attribute__((noreturn)) void power_off(void)
{
	fflush(stdout);
	if (!is_pid1)
		exit(0);	/* never power off the host we test on */
	sync();
	/*
	 * The harness config has no ACPI, so RB_POWER_OFF would only halt
	 * the CPU; a reset ends a QEMU started with -no-reboot.
	 */
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

/*
 * KTAP on its own serial port keeps printk lines (KUnit, warnings) from
 * interleaving with it; stderr stays on the console.
 */
static void redirect_ktap(const char *dev)
{
	int fd = open(dev, O_WRONLY | O_NOCTTY);

	if (fd < 0) {
		say("ktap=%s: %s, staying on the console", dev, strerror(errno));
		return;
	}
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	say("KTAP on %s", dev);
}

/* The kernel only opens the console for us if /dev/console exists. */
static void ensure_console(void)
{
	int fd;

	if (fcntl(1, F_GETFD) != -1)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static int fs_supported(const char *fstype)
{
	char line[128];
	FILE *f = fopen("/proc/filesystems", "r");
	int found = 0;

	if (!f)
		return 1;	/* cannot tell: just try */
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		found = !strcmp(name, fstype);
	}
	fclose(f);
	return found;
}

static void mount_one(const char *src, const char *dir, const char *type,
		      int only_if_supported)
{
	if (only_if_supported && !fs_supported(type)) {
		say("%s not available, not mounted", type);
		return;
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		say("mkdir %s: %s", dir, strerror(errno));
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static void mount_all(void)
{
	mount_one("proc", "/proc", "proc", 0);
	mount_one("sysfs", "/sys", "sysfs", 0);
	mount_one("devtmpfs", "/dev", "devtmpfs", 0);
	ensure_console();
	mount_one("tmpfs", "/tmp", "tmpfs", 0);
	mount_one("cgroup2", "/sys/fs/cgroup", "cgroup2", 1);
	mount_one("debugfs", "/sys/kernel/debug", "debugfs", 1);
}

static void loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		say("lo: socket: %s", strerror(errno));
		return;
	}
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) == 0) {
			close(fd);
			return;
		}
	}
	say("lo: cannot bring up: %s", strerror(errno));
	close(fd);
}

static void add_suite(struct config *c, const char *name, size_t len)
{
	if (c->nsuites == MAX_SUITES) {
		say("too many suites, ignoring %.*s", (int)len, name);
		return;
	}
	if (len >= NAME_MAX_LEN)
		len = NAME_MAX_LEN - 1;	/* run_suite() rejects it later */
	memcpy(c->suites[c->nsuites], name, len);
	c->suites[c->nsuites][len] = '\0';
	c->nsuites++;
}

static void parse_suites(struct config *c, const char *list)
{
	const char *p = list;

	c->suites_given = 1;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len)
			add_suite(c, p, len);
		p += len;
		if (*p == ',')
			p++;
	}
}

static void parse_cmdline(struct config *c)
{
	char buf[4096], *tok, *save;
	const char *env = is_pid1 ? NULL : getenv("INIT_CMDLINE");
	ssize_t n;
	int fd;

	if (env) {
		snprintf(buf, sizeof(buf), "%s", env);
		goto parse;
	}
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("cannot read /proc/cmdline: %s; using defaults",
		    strerror(errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
parse:
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "suites=", 7))
			parse_suites(c, tok + 7);
		else if (!strncmp(tok, "suite_timeout=", 14))
			c->timeout = atoi(tok + 14);
		else if (!strcmp(tok, "init_panic=1"))
			c->panic = 1;
		else if (!strcmp(tok, "init_hang=1"))
			c->hang = 1;
		else if (!strncmp(tok, "ktap=", 5))
			snprintf(c->ktap, sizeof(c->ktap), "%s", tok + 5);
		else if (!strncmp(tok, "gcov_out=", 9))
			snprintf(c->gcov_out, sizeof(c->gcov_out), "%s", tok + 9);
	}
	if (c->timeout <= 0)
		c->timeout = DEFAULT_TIMEOUT;
}

static int is_executable_file(const char *dir, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

/* /suites/.order, written by the initramfs builder: names in run order. */
static int ordered_suites(struct config *c)
{
	char path[256], line[NAME_MAX_LEN + 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.order", suite_dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");

		if (len)
			add_suite(c, line, len);
	}
	fclose(f);
	return 1;
}

static void default_suites(struct config *c)
{
	struct dirent **ents;
	int i, n;

	if (ordered_suites(c))
		return;
	n = scandir(suite_dir, &ents, NULL, alphasort);

	if (n < 0) {
		say("cannot list %s: %s", suite_dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' &&
		    is_executable_file(suite_dir, ents[i]->d_name))
			add_suite(c, ents[i]->d_name, strlen(ents[i]->d_name));
		free(ents[i]);
	}
	free(ents);
}

static void do_panic(void)
{
	int fd;

	if (!is_pid1) {
		say("init_panic=1: not PID 1, exiting instead of panicking");
		exit(1);
	}
	say("init_panic=1: triggering a kernel panic");
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	sync();
	if (fd >= 0) {
		if (write(fd, "c", 1) < 0)
			say("sysrq-trigger: %s", strerror(errno));
		close(fd);
	}
	/* No CONFIG_MAGIC_SYSRQ: PID 1 exiting panics the kernel too. */
	say("sysrq unavailable, exiting PID 1");
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Adopted orphans (e.g. test children killed with their suite). */
static void reap_zombies(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/*
 * Copy the suite's output, indented, until it exited and its pipe went
 * quiet.  We do not wait for EOF: a leftover grandchild may hold the
 * pipe open forever.  Returns 0 with *status set, or -1 on timeout.
 */
struct relay {
	char line[4096];
	size_t len;
};

static void relay_flush(struct relay *r)
{
	if (!r->len)
		return;
	printf("  %.*s\n", (int)r->len, r->line);
	r->len = 0;
}

static void relay_bytes(struct relay *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			relay_flush(r);
			continue;
		}
		if (r->len == sizeof(r->line))
			relay_flush(r);	/* split an over-long line */
		r->line[r->len++] = buf[i];
	}
	fflush(stdout);
}

static int relay_until_exit(int fd, pid_t pid, int timeout, int *status)
{
	double deadline = now() + timeout;
	struct relay r = { .len = 0 };
	int exited = 0, eof = 0, quiet_polls = 0;
	char buf[4096];

	for (;;) {
		/* After EOF poll() on nothing just sleeps between checks. */
		struct pollfd pfd = { .fd = eof ? -1 : fd, .events = POLLIN };
		int ready = poll(&pfd, 1, 100);

		if (ready > 0) {
			ssize_t n = read(fd, buf, sizeof(buf));

			if (n > 0) {
				relay_bytes(&r, buf, n);
				quiet_polls = 0;
			} else {
				eof = 1;
			}
		} else {
			quiet_polls++;
		}
		if (!exited && waitpid(pid, status, WNOHANG) == pid) {
			exited = 1;
			quiet_polls = 0;	/* still drain what it wrote last */
		}
		if (exited && (eof || quiet_polls >= 3))
			break;
		if (!exited && now() > deadline) {
			relay_flush(&r);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
	}
	relay_flush(&r);
	return 0;
}

static pid_t spawn_suite(const char *path, int out_fd)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	/* Own process group so a timeout can kill the whole suite. */
	setpgid(0, 0);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	close(out_fd);
	execl(path, path, (char *)NULL);
	/* stdio buffers are not flushed by _exit(): write directly. */
	dprintf(1, "# init: exec %s: %s\n", path, strerror(errno));
	_exit(127);
}

static void report(int num, const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d %s", ok ? "ok" : "not ok", num, name);
	if (fmt) {
		fputs(" # ", stdout);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	fputc('\n', stdout);
	fflush(stdout);
}

static void run_suite(int num, const char *name, int timeout)
{
	char path[256];
	int pipefd[2], status = 0;
	pid_t pid;

	if (!*name || strchr(name, '/') || strlen(name) >= NAME_MAX_LEN - 1) {
		report(num, name, 0, "ERROR invalid suite name");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", suite_dir, name);
	if (access(path, X_OK)) {
		report(num, name, 0, "ERROR %s: %s", path, strerror(errno));
		return;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		report(num, name, 0, "ERROR pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = spawn_suite(path, pipefd[1]);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		report(num, name, 0, "ERROR fork: %s", strerror(errno));
		return;
	}
	if (relay_until_exit(pipefd[0], pid, timeout, &status)) {
		close(pipefd[0]);
		report(num, name, 0, "TIMEOUT %d seconds", timeout);
		reap_zombies();
		return;
	}
	close(pipefd[0]);
	reap_zombies();

	if (WIFSIGNALED(status))
		report(num, name, 0, "ERROR killed by signal %d",
		       WTERMSIG(status));
	else if (WEXITSTATUS(status) == 0)
		report(num, name, 1, NULL);
	else if (WEXITSTATUS(status) == 4)
		report(num, name, 1, "SKIP");
	else
		report(num, name, 0, "exit status %d", WEXITSTATUS(status));
}

int main(void)
{
	static struct config cfg;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A broken console must not kill PID 1. */
	signal(SIGPIPE, SIG_IGN);
	is_pid1 = getpid() == 1;
	if (is_pid1)
		mount_all();
	else if (getenv("INIT_SUITE_DIR"))
		suite_dir = getenv("INIT_SUITE_DIR");
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/", 1);
	if (is_pid1 && chdir("/"))
		say("chdir /: %s", strerror(errno));
	parse_cmdline(&cfg);

	if (cfg.panic)
		do_panic();
	if (cfg.hang) {
		say("init_hang=1: sleeping forever");
		for (;;)
			pause();
	}

	if (is_pid1)
		loopback_up();
	if (cfg.ktap[0])
		redirect_ktap(cfg.ktap);
	if (!cfg.suites_given)
		default_suites(&cfg);

	printf("KTAP version 1\n1..%d\n", cfg.nsuites);
	fflush(stdout);
	for (i = 0; i < cfg.nsuites; i++)
		run_suite(i + 1, cfg.suites[i], cfg.timeout);
	/* After every suite, so the counters hold the whole run. */
	if (cfg.gcov_out[0])
		say("gcov: %d files to %s", gcov_dump(cfg.gcov_out), cfg.gcov_out);
	say("done");
	power_off();
}
