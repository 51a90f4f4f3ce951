// SPDX-License-Identifier: GPL-2.0
/*
 * Microbenchmark of the syscalls whose address path the series changes:
 * bind, connect, getsockname and sendto on loopback, for unix, inet,
 * inet6 and a few more families.  Each op runs, after a warm-up, for
 * at least bench.ms milliseconds (default 2000); the result line is
 *
 *   # bench <op>: ns_per_call=<int> calls=<int>
 *
 * scripts/bench.sh boots the baseline and the patched kernel in turn and
 * compares these numbers.  A report, not a test: the only failure is an
 * op that cannot run at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_MS	2000
#define PORT		30000

static long run_ms = DEFAULT_MS;

/* One op: set up, then @call once per iteration; -1 if it cannot run. */
struct op {
	const char *name;
	int (*setup)(void);
	int (*call)(void);
};

static int fd = -1, peer = -1;
static struct sockaddr_storage addr;
static socklen_t addrlen;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void reset(void)
{
	if (fd >= 0)
		close(fd);
	if (peer >= 0)
		close(peer);
	fd = peer = -1;
	memset(&addr, 0, sizeof(addr));
	addrlen = 0;
}

static void set_in4(int port)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&addr;

	in->sin_family = AF_INET;
	in->sin_port = htons(port);
	in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addrlen = sizeof(*in);
}

static void set_in6(int port)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&addr;

	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(port);
	in6->sin6_addr = in6addr_loopback;
	addrlen = sizeof(*in6);
}

static void set_unix_abstract(const char *name)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&addr;

	un->sun_family = AF_UNIX;
	un->sun_path[0] = '\0';
	memcpy(un->sun_path + 1, name, strlen(name));
	addrlen = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
}

/* getsockname on a bound socket: the address written back. */
static int call_getsockname(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	return getsockname(fd, (struct sockaddr *)&ss, &len);
}

/* sendto a bound datagram socket of the same family (itself). */
static int call_sendto(void)
{
	char c = 0;

	if (sendto(fd, &c, 1, 0, (struct sockaddr *)&addr, addrlen) != 1)
		return -1;
	return recv(fd, &c, 1, 0) == 1 ? 0 : -1;
}

/* bind of a fresh socket each time: socket + bind + close. */
static int bind_family;
static int bind_type;
static int call_bind_fresh(void)
{
	int s = socket(bind_family, bind_type, 0), r;

	if (s < 0)
		return -1;
	r = bind(s, (struct sockaddr *)&addr, addrlen);
	close(s);
	return r;
}

/* connect of a fresh datagram socket each time (no handshake). */
static int call_connect_fresh(void)
{
	int s = socket(bind_family, SOCK_DGRAM, 0), r;

	if (s < 0)
		return -1;
	r = connect(s, (struct sockaddr *)&addr, addrlen);
	close(s);
	return r;
}

static int setup_dgram(int family, int port)
{
	if (family == AF_INET)
		set_in4(port);
	else if (family == AF_INET6)
		set_in6(port);
	else
		set_unix_abstract("bench-dgram");
	fd = socket(family, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	return bind(fd, (struct sockaddr *)&addr, addrlen);
}

static int setup_udp4(void) { return setup_dgram(AF_INET, PORT); }
static int setup_udp6(void) { return setup_dgram(AF_INET6, PORT + 1); }
static int setup_unix_dgram(void) { return setup_dgram(AF_UNIX, 0); }

static int setup_bind_in4(void)
{
	set_in4(0);	/* port 0: a fresh ephemeral port each time */
	bind_family = AF_INET, bind_type = SOCK_DGRAM;
	return 0;
}

static int setup_bind_in6(void)
{
	set_in6(0);
	bind_family = AF_INET6, bind_type = SOCK_DGRAM;
	return 0;
}

static int setup_bind_tcp4(void)
{
	set_in4(0);
	bind_family = AF_INET, bind_type = SOCK_STREAM;
	return 0;
}

static int setup_bind_unix(void)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&addr;

	/* Autobind: sun_family only; the kernel picks an abstract name. */
	un->sun_family = AF_UNIX;
	addrlen = sizeof(sa_family_t);
	bind_family = AF_UNIX, bind_type = SOCK_DGRAM;
	return 0;
}

static int setup_connect_udp4(void)
{
	set_in4(PORT + 2);
	bind_family = AF_INET;
	return 0;
}

static int setup_connect_udp6(void)
{
	set_in6(PORT + 3);
	bind_family = AF_INET6;
	return 0;
}

static int setup_connect_unix(void)
{
	int r = setup_dgram(AF_UNIX, 0);

	bind_family = AF_UNIX;
	return r;
}

static const struct op ops[] = {
	{ "bind_udp4", setup_bind_in4, call_bind_fresh },
	{ "bind_udp6", setup_bind_in6, call_bind_fresh },
	{ "bind_tcp4", setup_bind_tcp4, call_bind_fresh },
	{ "bind_unix_autobind", setup_bind_unix, call_bind_fresh },
	{ "connect_udp4", setup_connect_udp4, call_connect_fresh },
	{ "connect_udp6", setup_connect_udp6, call_connect_fresh },
	{ "connect_unix_dgram", setup_connect_unix, call_connect_fresh },
	{ "getsockname_udp4", setup_udp4, call_getsockname },
	{ "getsockname_udp6", setup_udp6, call_getsockname },
	{ "getsockname_unix", setup_unix_dgram, call_getsockname },
	{ "sendto_udp4", setup_udp4, call_sendto },
	{ "sendto_udp6", setup_udp6, call_sendto },
	{ "sendto_unix_dgram", setup_unix_dgram, call_sendto },
};

/* Which clock the timings come from: TCG guests may lack a fine one. */
static void clocksource(void)
{
	char cs[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			strcpy(cs, "unknown");
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = '\0';
	printf("# bench clocksource: %s\n", cs);
}

static void read_run_ms(void)
{
	char buf[4096], *p;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		p = strstr(buf, "bench.ms=");
		if (p && atol(p + 9) > 0)
			run_ms = atol(p + 9);
	}
	fclose(f);
}

int main(void)
{
	int n = sizeof(ops) / sizeof(ops[0]), failed = 0;

	read_run_ms();
	printf("KTAP version 1\n1..%d\n", n);
	clocksource();
	for (int i = 0; i < n; i++) {
		const struct op *op = &ops[i];
		double t0, t;
		long k;
		int bad;

		reset();
		if (op->setup()) {
			printf("# bench %s: setup failed: %s\nnot ok %d %s\n",
			       op->name, strerror(errno), i + 1, op->name);
			failed++;
			continue;
		}
		for (k = 0; k < 100; k++)	/* warm-up */
			op->call();
		/*
		 * Run for at least run_ms: the guest clock may tick only
		 * every few ms under TCG, so a small fixed count would
		 * measure the clock, not the call.
		 */
		t0 = now_ns();
		t = 0;
		bad = 0;
		for (k = 0; !bad && t < run_ms * 1e6; ) {
			for (int b = 0; b < 64; b++, k++) {
				if (op->call()) {
					bad = 1;
					break;
				}
			}
			t = now_ns() - t0;
		}
		if (bad) {
			printf("# bench %s: call %ld failed: %s\nnot ok %d %s\n",
			       op->name, k, strerror(errno), i + 1, op->name);
			failed++;
			continue;
		}
		printf("# bench %s: ns_per_call=%.0f calls=%ld\nok %d %s\n",
		       op->name, t / k, k, i + 1, op->name);
		fflush(stdout);
	}
	reset();
	return failed ? 1 : 0;
}
