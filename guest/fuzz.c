// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic fuzzer for the kernel's sockaddr paths: bind, connect,
 * sendto, sendmsg, getsockname, getpeername and socket options on every
 * socket kind of sockaddr_matrix, plus the set-address paths of every
 * kind of network device the guest can create (fuzz_net.c).
 *
 * Parameters, from /proc/cmdline in the guest:
 *   fuzz.n=N          calls to make (default 200000)
 *   fuzz.seed=S       PRNG seed (default 1)
 *   fuzz.time=T       stop, failing, after T seconds (default 1500)
 *   fuzz.selftest=1   write a fake WARNING to /dev/kmsg after call 100:
 *                     the watcher must catch it and the run must fail
 *   fuzz.known=1      also make the calls that hit known 6.12 bugs
 *                     (fuzz_net.c: enslaving an 802.15.4 device)
 * On any machine:
 *   fuzz --dry-run N SEED   print the calls and the digest, run nothing
 *   fuzz N SEED             as in the guest (refused off the guest)
 *   fuzz --is-report        read console lines on stdin; print those
 *                           the watcher would stop on, exit 0 if any
 *
 * The calls depend only on the seed (fuzz_gen.c), so the digest (FNV-1a
 * over the call descriptions) of a guest run equals the host dry run's,
 * and a seed replays a run exactly.  After every call new /dev/kmsg
 * records are scanned; the first kernel report (a line of
 * config/kernel-reports: WARNING, BUG, KASAN, UBSAN, Oops, FORTIFY, ...)
 * stops the run, printing the seed and the last
 * 32 calls.  At the end, per op and per set-address path (fuzz_net.c),
 * the calls made and those that returned 0; a dry run prints the path
 * lines too, with nothing counted.  Output is KTAP with one test, as a
 * kselftest program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "guestenv.h"
#include "matrix.h"
#include "suite_util.h"

#define RING		32
#define DESC_LEN	192
#define MAX_ERRNO	160
#define TICK_MS		200	/* no call blocks longer than this */

/* Arena: options, then misc (msghdr, payload), then addresses; guard. */
#define OPT_AREA	0
#define MISC_AREA	(64 << 10)
#define ADDR_AREA	(72 << 10)
#define ARENA		(80 << 10)

static unsigned char *arena;
static int fds[FZ_SLOTS];
/*
 * Shared with the parent: the calls run in a child, so that when a
 * kernel Oops kills it (panic_on_oops is off during the run) the parent
 * can still name the seed and the last calls.
 */
static struct shared {
	unsigned long made;
	char ring[RING][DESC_LEN];
} *sh;
#define made	(sh->made)
#define ring	(sh->ring)
static uint64_t seed;
static int kfd = -1;

static struct {
	unsigned long calls, ok, err[MAX_ERRNO];
} tally[FZ_NOPS];

void fz_fill(void *buf, unsigned long len, uint32_t c)
{
	struct fz_rng r = { c * 0x9e3779b97f4a7c15ULL + 1 };
	unsigned char *p = buf;
	uint64_t v;

	for (; len >= 8; len -= 8, p += 8) {
		v = fz_next(&r);
		memcpy(p, &v, 8);
	}
	if (len) {
		v = fz_next(&r);
		memcpy(p, &v, len);
	}
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ '\n') * 0x100000001b3ULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- buffers */

static int clamp(int len, int max)
{
	return len < 0 ? 256 : len > max ? max : len;
}

/* Where a buffer of @len goes: the tail case ends at the guard page. */
static unsigned char *place(const struct fz_buf *b, int len, int area, int max)
{
	if (b->place == PLACE_NULL)
		return NULL;
	if (b->place == PLACE_TAIL)
		return arena + ARENA - clamp(len, max);
	return arena + area + b->off;
}

static void copy_in(unsigned char *dst, const unsigned char *src, int n)
{
	int room = arena + ARENA - dst;

	memcpy(dst, src, n < room ? n : room);
}

/* Build the address of @b; returns where it lies, its length in *len. */
static void *put_addr(const struct fz_buf *b, int *len)
{
	const struct kind *k = &kinds[b->kind];
	unsigned char tmp[512];
	union maddr a;
	sa_family_t fam = b->fam;
	int vlen = 0, i, n;
	unsigned char *p;

	if (b->fill <= FILL_MUT || b->valid_len) {
		memset(&a, 0, sizeof(a));
		vlen = k->addr(k, b->id, b->peer ? ROLE_PEER : ROLE_SELF, &a);
	}
	if (b->fill <= FILL_MUT) {
		memcpy(tmp, a.raw, sizeof(a.raw));
		fz_fill(tmp + sizeof(a.raw), sizeof(tmp) - sizeof(a.raw), b->c);
	} else if (b->fill == FILL_RAND) {
		fz_fill(tmp, sizeof(tmp), b->c);
	} else {
		memset(tmp, 0, sizeof(tmp));
	}
	if (b->fill == FILL_MUT) {
		struct fz_rng r = { b->c };

		n = 1 + fz_below(&r, 4);
		for (i = 0; i < n; i++)
			tmp[fz_below(&r, vlen > 2 ? vlen : 2)] = fz_next(&r);
	}
	memcpy(tmp, &fam, sizeof(fam));
	*len = b->valid_len ? vlen : b->len;
	p = place(b, *len, ADDR_AREA, 4096);
	if (p)
		copy_in(p, tmp, sizeof(tmp));
	return p;
}

/* An option value or getname/getsockopt output buffer. */
static void *put_obuf(const struct fz_buf *b, int area, int max)
{
	unsigned char *p = place(b, b->len, area, max);
	int n = clamp(b->len, 4096), i;

	if (!p)
		return NULL;
	if (p + n > arena + ARENA)
		n = arena + ARENA - p;
	switch (b->fill) {
	case FILL_ZERO: memset(p, 0, n); break;
	case FILL_FF: memset(p, 0xff, n); break;
	case FILL_RAND: fz_fill(p, n, b->c); break;
	default:
		fz_fill(p, n, b->c);
		for (i = 0; i + 4 <= n && i < 16; i += 4)
			memcpy(p + i, &b->val, 4);
	}
	return p;
}

/* --- socket calls */

static int ret_of(long r)
{
	return r < 0 ? -errno : (int)(r > 0x7fffffff ? 0x7fffffff : r);
}

static int do_send(const struct fz_call *c, int fd)
{
	unsigned char *misc = arena + MISC_AREA, *payload = misc + 1024;
	int flags = MSG_DONTWAIT | MSG_NOSIGNAL | c->flags, len;
	struct msghdr *m = (void *)misc;
	struct iovec *iov = (void *)(misc + 128);
	struct cmsghdr *cm = (void *)(misc + 512);
	void *addr = put_addr(&c->b, &len);

	fz_fill(payload, c->plen, c->b.c ^ 0x55);
	if (c->op == OP_SENDTO)
		return ret_of(sendto(fd, payload, c->plen, flags, addr, len));
	memset(m, 0, sizeof(*m));
	iov->iov_base = payload;
	iov->iov_len = c->plen;
	m->msg_name = addr;
	m->msg_namelen = len;
	m->msg_iov = iov;
	m->msg_iovlen = 1;
	if (c->clen >= 0) {
		fz_fill(cm, CMSG_SPACE(c->clen), c->b.c ^ 0xaa);
		cm->cmsg_len = CMSG_LEN(c->clen);
		cm->cmsg_level = c->clevel;
		cm->cmsg_type = c->ctype;
		m->msg_control = cm;
		m->msg_controllen = CMSG_SPACE(c->clen);
	}
	return ret_of(sendmsg(fd, m, flags));
}

static int exec_call(const struct fz_call *c)
{
	int *fd = &fds[c->slot], len, ret;
	socklen_t *lenp = (void *)(arena + MISC_AREA + 256);
	const struct kind *k;
	void *p;

	switch (c->op) {
	case OP_OPEN:
		if (*fd >= 0)
			close(*fd);
		k = &kinds[c->kind];
		*fd = socket(k->family, k->type | SOCK_NONBLOCK | SOCK_CLOEXEC,
			     k->protocol);
		return *fd < 0 ? -errno : 0;
	case OP_CLOSE:
		ret = ret_of(close(*fd));
		*fd = -1;
		return ret;
	case OP_LISTEN:
		return ret_of(listen(*fd, c->arg));
	case OP_BIND:
		p = put_addr(&c->b, &len);
		return ret_of(bind(*fd, p, len));
	case OP_CONNECT:
		p = put_addr(&c->b, &len);
		return ret_of(connect(*fd, p, len));
	case OP_SENDTO:
	case OP_SENDMSG:
		return do_send(c, *fd);
	case OP_GETSOCKNAME:
	case OP_GETPEERNAME:
		p = place(&c->b, c->b.len, ADDR_AREA, 4096);
		*lenp = c->b.len;
		if (c->op == OP_GETSOCKNAME)
			return ret_of(getsockname(*fd, p, c->arg ? NULL : lenp));
		return ret_of(getpeername(*fd, p, c->arg ? NULL : lenp));
	case OP_SETSOCKOPT:
		p = put_obuf(&c->b, OPT_AREA, ARENA);
		return ret_of(setsockopt(*fd, c->level, c->optname, p, c->b.len));
	case OP_GETSOCKOPT:
		p = put_obuf(&c->b, OPT_AREA, ARENA);
		*lenp = c->b.len;
		return ret_of(getsockopt(*fd, c->level, c->optname, p, lenp));
	}
	return fz_net_exec(&c->net);
}

/* --- the kernel report watcher */

/* config/kernel-reports, the list every judge of the harness uses. */
static const char *const report_pat[] = {
#include "kernel_reports.h"
};

/* Does one console line carry a kernel report? */
static int is_report(const char *line)
{
	for (size_t i = 0; i < sizeof(report_pat) / sizeof(report_pat[0]); i++)
		if (strstr(line, report_pat[i]))
			return 1;
	return 0;
}

static void kmsg_open(void)
{
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd < 0)
		printf("# fuzz: /dev/kmsg: %s: kernel reports not watched\n",
		       strerror(errno));
	else
		lseek(kfd, 0, SEEK_END);	/* only what we cause */
}

/* Drain new records; copy the first report's text to @out. */
static int kmsg_report(char *out, int outsz)
{
	char rec[8192], *msg;
	int found = 0;
	ssize_t n;

	if (kfd < 0)
		return 0;
	for (;;) {
		n = read(kfd, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EPIPE)
				continue;	/* overwritten: next record */
			break;			/* EAGAIN: drained */
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = '\0';
		if (!found && is_report(msg)) {
			/* Reports are one line; keep what fits. */
			strncpy(out, msg, outsz - 1);
			out[outsz - 1] = '\0';
			found = 1;
		}
	}
	return found;
}

static void inject_report(void)
{
	static const char line[] =
		"<4>fuzz selftest: WARNING: injected report\n";
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, line, sizeof(line) - 1) < 0)
		printf("# fuzz: selftest: cannot write /dev/kmsg: %s\n",
		       strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* --- parameters */

struct params {
	unsigned long n;
	double time;
	int selftest, dry;
};

static void parse_cmdline(struct params *p)
{
	char buf[4096], *tok, *save;
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "fuzz.n=", 7))
			p->n = strtoul(tok + 7, NULL, 0);
		else if (!strncmp(tok, "fuzz.seed=", 10))
			seed = strtoull(tok + 10, NULL, 0);
		else if (!strncmp(tok, "fuzz.time=", 10))
			p->time = atof(tok + 10);
		else if (!strcmp(tok, "fuzz.selftest=1"))
			p->selftest = 1;
		else if (!strcmp(tok, "fuzz.known=1"))
			fz_known_bugs = 1;
	}
}

static void desc_to_ring(struct fz_gen *g, unsigned long i, struct fz_call *c,
			 uint64_t *digest)
{
	char *d = ring[i % RING];

	fz_gen_call(g, i, c, d, DESC_LEN);
	*digest = fnv1a(*digest, d);
}

static int dry_run(unsigned long n)
{
	uint64_t digest = 0xcbf29ce484222325ULL;
	struct fz_gen g;
	struct fz_call c;

	fz_gen_init(&g, seed);
	for (unsigned long i = 0; i < n; i++) {
		desc_to_ring(&g, i, &c, &digest);
		printf("#%lu %s\n", i + 1, ring[i % RING]);
	}
	fz_net_print_paths();	/* all 0: nothing ran; the digest stays last */
	printf("digest=%016" PRIx64 " calls=%lu seed=%" PRIu64 "\n", digest,
	       n, seed);
	return 0;
}

/* --- the run */

static void on_alarm(int sig)
{
	(void)sig;	/* only there to interrupt a blocking call */
}

static void tick(int ms)
{
	struct itimerval it = {
		{ 0, ms * 1000 }, { 0, ms * 1000 }
	};

	setitimer(ITIMER_REAL, &it, NULL);
}

static void print_last_calls(void)
{
	unsigned long j = made > RING ? made - RING : 0;

	for (; j < made; j++)
		printf("# fuzz: last call #%lu: %s\n", j + 1, ring[j % RING]);
}

static void print_tallies(void)
{
	for (int op = 0; op < FZ_NOPS; op++) {
		unsigned long errs = tally[op].calls - tally[op].ok;
		char top[160] = "";
		int used = 0;

		/* The three most frequent errnos, enough to see a path die. */
		for (int t = 0; t < 3; t++) {
			int best = 0;

			for (int e = 1; e < MAX_ERRNO; e++)
				if (tally[op].err[e] > tally[op].err[best])
					best = e;
			if (!tally[op].err[best])
				break;
			used += snprintf(top + used, sizeof(top) - used, "%s%s:%lu",
					 t ? "," : " top=",
					 best ? errno_name(best) : "E?",
					 tally[op].err[best]);
			tally[op].err[best] = 0;
		}
		printf("# fuzz: op %s calls=%lu ok=%lu errors=%lu%s\n",
		       fz_op_name[op], tally[op].calls, tally[op].ok, errs, top);
	}
}

/* Writes @val to panic_on_oops, returns the old value ("" if unknown). */
static const char *set_panic_on_oops(const char *val)
{
	static char old[16];
	int fd = open("/proc/sys/kernel/panic_on_oops", O_RDWR | O_CLOEXEC);
	ssize_t n;

	old[0] = '\0';
	if (fd < 0)
		return old;
	n = read(fd, old, sizeof(old) - 1);
	old[n > 0 ? n : 0] = '\0';
	if (lseek(fd, 0, SEEK_SET) == 0 && write(fd, val, strlen(val)) < 0)
		old[0] = '\0';
	close(fd);
	return old;
}

/*
 * The parent's part: wait for the child that makes the calls.  If it
 * was killed (an Oops kills the task in the syscall), say so, with the
 * seed, the kernel's report and the last calls from the shared ring;
 * the digest of the calls made is recomputed, so the host can still
 * check the replay.  The kernel may be left unstable: nothing else is
 * done here but printing.
 */
static int watch_child(pid_t child, unsigned long n, const char *old_oops)
{
	uint64_t digest = 0xcbf29ce484222325ULL;
	char report[1024], desc[DESC_LEN];
	struct fz_gen g;
	struct fz_call c;
	int status;

	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status)) {
		if (old_oops[0])
			set_panic_on_oops(old_oops);
		return WEXITSTATUS(status);
	}
	printf("# fuzz: the calling process died (signal %d) during call #%lu (seed %" PRIu64 ")\n",
	       WTERMSIG(status), made + 1, seed);
	if (kmsg_report(report, sizeof(report)))
		printf("# fuzz: kernel report after call #%lu (seed %" PRIu64 "): %s\n",
		       made, seed, report);
	/* made counts completed calls; the fatal one is the next. */
	fz_gen_init(&g, seed);
	for (unsigned long i = 0; i <= made; i++) {
		fz_gen_call(&g, i, &c, desc, sizeof(desc));
		if (i < made)
			digest = fnv1a(digest, desc);
	}
	made++;		/* the child wrote the fatal call into the ring too */
	print_last_calls();
	made--;
	printf("# fuzz: fatal call #%lu: %s\n", made + 1, desc);
	printf("# fuzz: seed=%" PRIu64 " calls=%lu/%lu digest=%016" PRIx64
	       " reports=1 time=0s rate=0/s\n", seed, made, n, digest);
	printf("not ok 1 fuzz\n");
	/*
	 * The dead task may hold locks (rtnl) that our own exit needs to
	 * close the tun/tap fds: reset the guest rather than hang in exit.
	 */
	printf("# fuzz: resetting the guest: the kernel is unstable after the Oops\n");
	fflush(stdout);
	sleep(3);	/* init relays our pipe to the serial port meanwhile */
	sync();
	reboot(RB_AUTOBOOT);
	return 1;
}

/* Console loglevel 5: warnings and reports still reach the console. */
static int quiet_console(void)
{
	char buf[32] = "";
	int fd = open("/proc/sys/kernel/printk", O_RDONLY | O_CLOEXEC), old;

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = '\0';
	if (fd >= 0)
		close(fd);
	old = atoi(buf);
	if (old > 5)
		klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);
	return old;
}

int main(int argc, char **argv)
{
	struct params p = { 200000, 1500, 0, 0 };
	uint64_t digest = 0xcbf29ce484222325ULL;
	unsigned long step, i;
	struct sigaction sa;
	struct fz_gen g;
	struct fz_call c;
	char report[1024], dir[] = "/tmp/fuzz.XXXXXX";
	int reports = 0, timed_out = 0, old_level, ret;
	char old_oops[16];
	pid_t child;
	double t0, el;

	seed = 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--is-report")) {
		char line[8192];
		int any = 0;

		while (fgets(line, sizeof(line), stdin))
			if (is_report(line)) {
				fputs(line, stdout);
				any = 1;
			}
		return any ? 0 : 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--dry-run")) {
		p.dry = 1;
		argv++;
		argc--;
	}
	if (argc > 1) {
		p.n = strtoul(argv[1], NULL, 0);
		if (argc > 2)
			seed = strtoull(argv[2], NULL, 0);
	} else if (!p.dry) {
		parse_cmdline(&p);
	}
	if (p.dry)
		return dry_run(p.n);

	printf("TAP version 13\n1..1\n");
	if (!in_test_guest()) {
		/* It creates devices and changes MAC addresses. */
		printf("ok 1 fuzz # SKIP not the test guest (use --dry-run)\n");
		return 4;
	}
	printf("# fuzz: seed=%" PRIu64 " n=%lu time_bound=%.0fs selftest=%d known_bugs=%d kinds=%d slots=%d\n",
	       seed, p.n, p.time, p.selftest, fz_known_bugs, NKINDS, FZ_SLOTS);
	signal(SIGPIPE, SIG_IGN);
	arena = mmap(NULL, ARENA + 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || mprotect(arena + ARENA, 4096, PROT_NONE) ||
	    !mkdtemp(dir) || chdir(dir)) {
		printf("# fuzz: setup: %s\nnot ok 1 fuzz\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < FZ_SLOTS; i++)
		fds[i] = -1;
	old_level = quiet_console();
	kmsg_open();	/* reports while making devices count too */
	ret = fz_net_setup();
	if (ret)
		printf("# fuzz: net setup: %s\n", strerror(-ret));
	if (kmsg_report(report, sizeof(report))) {
		printf("# fuzz: kernel report during device setup (seed %" PRIu64 "): %s\n",
		       seed, report);
		reports++;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: calls get EINTR */
	sigaction(SIGALRM, &sa, NULL);
	tick(TICK_MS);

	snprintf(old_oops, sizeof(old_oops), "%s", set_panic_on_oops("0"));
	fflush(stdout);
	child = fork();
	if (child > 0) {
		tick(0);
		return watch_child(child, p.n, old_oops);
	}
	if (child < 0)
		printf("# fuzz: fork: %s; running in one process\n", strerror(errno));
	tick(TICK_MS);	/* timers are not inherited across fork() */

	fz_gen_init(&g, seed);
	step = p.n >= 10 ? p.n / 10 : 1;
	t0 = now();
	for (i = 0; i < p.n && !reports; i++) {
		desc_to_ring(&g, i, &c, &digest);
		ret = exec_call(&c);
		made = i + 1;
		tally[c.op].calls++;
		if (ret >= 0)
			tally[c.op].ok++;
		else
			tally[c.op].err[-ret < MAX_ERRNO ? -ret : 0]++;
		if (p.selftest && made == 100)
			inject_report();
		if (kmsg_report(report, sizeof(report))) {
			tick(0);
			printf("# fuzz: kernel report after call #%lu (seed %" PRIu64 "): %s\n",
			       made, seed, report);
			print_last_calls();
			reports++;
			break;
		}
		if (made % step == 0 && made < p.n)
			printf("# fuzz: %lu/%lu calls (%.0fs)\n", made, p.n,
			       now() - t0);
		if ((made & 63) == 0 && now() - t0 > p.time) {
			timed_out = 1;
			break;
		}
	}
	tick(0);
	el = now() - t0;
	if (timed_out) {
		printf("# fuzz: time bound %.0fs reached after %lu/%lu calls\n",
		       p.time, made, p.n);
		print_last_calls();
	}
	printf("# fuzz: seed=%" PRIu64 " calls=%lu/%lu digest=%016" PRIx64
	       " reports=%d time=%.0fs rate=%.0f/s\n", seed, made, p.n, digest,
	       reports, el, el > 0 ? made / el : 0.0);
	print_tallies();
	fz_net_print_paths();
	if (old_level > 5)
		klogctl(8, NULL, old_level);
	if (child < 0 && old_oops[0])
		set_panic_on_oops(old_oops);
	fz_net_done();
	ret = reports || timed_out || made != p.n;
	printf("%s 1 fuzz\n", ret ? "not ok" : "ok");
	fflush(stdout);
	return ret;
}
