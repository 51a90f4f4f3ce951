// SPDX-License-Identifier: GPL-2.0
/*
 * BPF cgroup sock_addr hooks that rewrite addresses (patches 6 and 7 of
 * the series change the type of the address these hooks get).  Each
 * test has the loader (guest/bpf/loader.c) attach the programs of
 * guest/bpf/sock_addr_hooks.bpf.c it needs to the cgroup
 * /sys/fs/cgroup/bpf_sock_addr and move the test there, and then does
 * socket calls whose addresses the programs rewrite or refuse.  It
 * records what the kernel did as
 *
 *   # obs <test>.<step>: ret=<int> errno=<ENAME|0>[ <details>]
 *
 * details: len=<int> addr=<decoded> hex=<bytes> for the addresses the
 * kernel returned (getsockname/getpeername/recvfrom); got=<server> for
 * which server a connection or datagram really reached; hook lines
 * (<test>.hook_<name>) say how often a program ran and what it saw
 * last.  All ports and names are fixed (21000 + n, relative unix paths
 * in a private directory), so the lines are the same on every boot.
 * EXPECT/ASSERT check only what must hold on any kernel with these
 * hooks (the rewritten connect reached server B, ...).  The IPv4 and
 * IPv6 tests are one function each, run once per family (struct fam).
 *
 * Without the test guest (a developer's host) every test SKIPs: this
 * program never attaches BPF programs anywhere else.  Without cgroup2
 * or cgroup sock_addr programs it SKIPs saying why.
 *
 * The AF_UNIX programs cannot rewrite paths the upstream way
 * (bpf_sock_addr_set_sun_path() is a kfunc; kfuncs need kernel BTF,
 * which make check's kernels lack): they refuse or rename by the first
 * two bytes of sun_path, which the verifier lets unix programs access as
 * ctx->user_port.  unix_kfunc records what happens to the upstream way;
 * on make check-btf's kernels (with BTF) it renames a path to a longer
 * one and must pass.
 *
 * A tree whose uapi has no AF_UNIX hooks (BPF_CGROUP_UNIX_*; guest/bpf.mk
 * tests it and sets HAVE_UNIX_SOCK_ADDR_HOOKS) gets no unix programs:
 * the unix tests SKIP saying so, the others run as on any kernel.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/*
 * kselftest_harness.h is written for -Wall only, and its TEST() wrapper
 * has an unused parameter at every use: keep -Wextra quiet about it.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#include "suite_util.h"
#include "bpf/loader.h"

#ifndef HAVE_UNIX_SOCK_ADDR_HOOKS
#error "HAVE_UNIX_SOCK_ADDR_HOOKS is set by guest/bpf.mk"
#endif

#if !HAVE_UNIX_SOCK_ADDR_HOOKS
#define NO_UNIX_HOOKS	"no AF_UNIX cgroup sock_addr hooks in this kernel's uapi (BPF_CGROUP_UNIX_CONNECT)"
#endif

#define OUR_PORT(p)	((p) >= 20000 && (p) < 23000)
#define WAIT_MS		2000

union addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_un un;
	struct sockaddr_storage ss;
	unsigned char raw[sizeof(struct sockaddr_storage)];
};

#if HAVE_UNIX_SOCK_ADDR_HOOKS	/* for unix_kfunc only */
/* Each libbpf message line as an obs line of its own, quoted. */
static void print_lbpf_log(const char *label)
{
	char *save, *line;
	int i = 0;

	for (line = strtok_r(loader_log(), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# obs %s.libbpf_msg%d: \"%s\"\n", label, i++, line);
	loader_log_clear();
}
#endif

/* ------------------------------------------------------------------ */
/* Attaching (guest/bpf/loader.c): SKIP or ASSERT on its answer.      */

/* Returns 1 when BPF can be used here, else SKIPs saying why. */
static int bpf_usable(struct __test_metadata *_metadata)
{
	if (!loader_usable())
		SKIP(return 0, "%s", loader_error());
	return 1;
}

/*
 * Attach the programs named in @progs (loader_attach()) and move this
 * process (a forked test) into their cgroup.  Returns 0 after a SKIP.
 */
static int attach(struct __test_metadata *_metadata, const char *progs)
{
	int n;

	if (!bpf_usable(_metadata))
		return 0;
	n = loader_attach(progs);
	ASSERT_LE(0, n) TH_LOG("%s", loader_error());
	printf("# obs attached: %s (%d programs)\n", progs, n);
	return 1;
}

/* What program @h saw: calls, last family/type/protocol/port. */
static void print_hook(const char *test, enum hook h)
{
	unsigned long long tp = loader_obs(OBS(h, 2)), port = loader_obs(OBS(h, 3));

	printf("# obs %s.hook_%s: calls=%llu user_family=%llu type=%llu protocol=%llu",
	       test, hook_names[h], loader_obs(OBS(h, 0)), loader_obs(OBS(h, 1)),
	       tp >> 8, tp & 0xff);
	if (h >= H_CONNECT_UNIX)
		printf(" sun_path01=%02llx%02llx\n", port & 0xff, port >> 8 & 0xff);
	else
		printf(" user_port=%llu\n", port);
}

/* ------------------------------------------------------------------ */
/* Addresses.                                                          */

/* @ip:@port of @family (sin_port and sin6_port are at the same offset). */
static socklen_t ip_addr(union addr *a, int family, const char *ip, int port)
{
	memset(a, 0, sizeof(*a));
	a->sa.sa_family = family;
	a->in.sin_port = htons(port);
	if (family == AF_INET) {
		inet_pton(AF_INET, ip, &a->in.sin_addr);
		return sizeof(a->in);
	}
	inet_pton(AF_INET6, ip, &a->in6.sin6_addr);
	return sizeof(a->in6);
}

/* Pathname (relative) or, with a leading '@', abstract; no NUL counted. */
static socklen_t un(union addr *a, const char *path)
{
	size_t n = strlen(path);

	memset(a, 0, sizeof(*a));
	a->un.sun_family = AF_UNIX;
	memcpy(a->un.sun_path, path, n);
	if (path[0] == '@')
		a->un.sun_path[0] = 0;
	return offsetof(struct sockaddr_un, sun_path) + n;
}

static int ephemeral(const union addr *a, socklen_t len)
{
	int port;

	if ((a->sa.sa_family != AF_INET && a->sa.sa_family != AF_INET6) ||
	    len < 4)
		return 0;
	port = ntohs(a->in.sin_port);
	return port && !OUR_PORT(port);
}

/*
 * " len=<n> addr=<decoded> hex=<bytes>" for an address the kernel wrote
 * (@len as it reported, @cap bytes of buffer).  Ephemeral ports print
 * as PPPP / "eph".
 */
static void print_addr(const union addr *a, socklen_t len, socklen_t cap)
{
	socklen_t shown = len < cap ? len : cap;
	int eph = ephemeral(a, shown);
	char ip[INET6_ADDRSTRLEN];

	printf(" len=%u addr=", len);
	if (a->sa.sa_family == AF_INET && shown >= sizeof(a->in)) {
		inet_ntop(AF_INET, &a->in.sin_addr, ip, sizeof(ip));
		printf("%s:", ip);
	} else if (a->sa.sa_family == AF_INET6 && shown >= sizeof(a->in6)) {
		inet_ntop(AF_INET6, &a->in6.sin6_addr, ip, sizeof(ip));
		printf("[%s]:", ip);
	} else if (a->sa.sa_family == AF_UNIX && shown >= sizeof(sa_family_t)) {
		putchar('"');
		for (socklen_t i = offsetof(struct sockaddr_un, sun_path);
		     i < shown && i < sizeof(a->un); i++) {
			unsigned char c = a->raw[i];

			if (c > ' ' && c < 0x7f && c != '"' && c != '\\')
				putchar(c);
			else
				printf("\\x%02x", c);
		}
		putchar('"');
	} else {
		fputs("-", stdout);
	}
	if ((a->sa.sa_family == AF_INET && shown >= sizeof(a->in)) ||
	    (a->sa.sa_family == AF_INET6 && shown >= sizeof(a->in6))) {
		if (eph)
			fputs("eph", stdout);
		else
			printf("%d", ntohs(a->in.sin_port));
	}
	fputs(" hex=", stdout);
	for (socklen_t i = 0; i < shown; i++) {
		if (eph && (i == 2 || i == 3))
			fputs("PP", stdout);
		else
			printf("%02x", a->raw[i]);
	}
}

static void print_ret(const char *test, const char *step, int ret, int err)
{
	printf("# obs %s.%s: ret=%d errno=%s", test, step, ret,
	       errno_name(ret < 0 ? err : 0));
}

typedef int (*getname_fn)(int, struct sockaddr *, socklen_t *);

/* getsockname/getpeername into a @cap byte buffer; returns the result. */
static int record_name(const char *test, const char *step, int s,
		       getname_fn fn, socklen_t cap, union addr *out)
{
	union addr a;
	socklen_t len = cap;
	int ret;

	memset(&a, 0xa5, sizeof(a));
	errno = 0;
	ret = fn(s, &a.sa, &len);
	print_ret(test, step, ret, errno);
	if (!ret)
		print_addr(&a, len, cap);
	putchar('\n');
	if (out)
		*out = a;
	return ret;
}

static int sock(struct __test_metadata *_metadata, int family, int type)
{
	struct timeval tv = { .tv_sec = 2 };
	int one = 1, s = socket(family, type | SOCK_CLOEXEC, 0);

	ASSERT_LE(0, s) TH_LOG("socket(%d, %d): %s", family, type, strerror(errno));
	if (family != AF_UNIX)
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return s;
}

/* A bound (and, for streams, listening) server; bind must succeed. */
static int server(struct __test_metadata *_metadata, int family, int type,
		  const union addr *a, socklen_t len)
{
	int s = sock(_metadata, family, type);

	ASSERT_EQ(0, bind(s, &a->sa, len)) TH_LOG("server bind: %s", strerror(errno));
	if (type == SOCK_STREAM)
		ASSERT_EQ(0, listen(s, 4)) TH_LOG("listen: %s", strerror(errno));
	return s;
}

static int readable(int s, int ms)
{
	struct pollfd p = { .fd = s, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/*
 * Which of the servers got something: a connection (streams) or a
 * datagram with @payload.  Prints " got=<names>" and returns the bitmask
 * of servers that did; the first one that did is waited for.
 */
static int where(int *srv, const char *const *names, int n, int type,
		 const char *payload, int wait)
{
	int got = 0, waited = !wait;

	fputs(" got=", stdout);
	for (int i = 0; i < n; i++) {
		char buf[64] = "";
		int ok = readable(srv[i], waited ? 0 : 200);

		if (!ok && !waited && i == n - 1)
			ok = readable(srv[i], WAIT_MS);
		if (!ok)
			continue;
		waited = 1;
		if (type == SOCK_STREAM) {
			int c = accept4(srv[i], NULL, NULL, SOCK_CLOEXEC);

			if (c < 0)
				continue;
			close(c);
		} else {
			ssize_t r = recv(srv[i], buf, sizeof(buf) - 1, MSG_DONTWAIT);

			if (r < 0 || strcmp(buf, payload))
				continue;
		}
		printf("%s%s", got ? "," : "", names[i]);
		got |= 1 << i;
	}
	if (!got)
		fputs("none", stdout);
	return got;
}

/* ------------------------------------------------------------------ */
/* The inet tests run once per family.                                 */

/*
 * IPv6's ports are IPv4's + 100, its hooks IPv4's + 1 (enum hook); the
 * test and program names end in '4' or '6'.
 */
struct fam {
	int family;
	char v;
	const char *lo, *remote;	/* loopback; an address with nobody */
	int port_off, hook_off;
};

static const struct fam v4 = { AF_INET, '4', "127.0.0.1", "10.9.9.9", 0, 0 };
static const struct fam v6 = { AF_INET6, '6', "::1", "2001:db8::1", 100, 1 };

static socklen_t inet(union addr *a, const struct fam *f, const char *ip,
		      int port)
{
	return ip_addr(a, f->family, ip, port);
}

/* "<prefix><4|6>" */
static const char *fam_name(char *buf, size_t n, const char *prefix,
			    const struct fam *f)
{
	snprintf(buf, n, "%s%c", prefix, f->v);
	return buf;
}

/*
 * recvfrom() on @s (after waiting up to @ms for a datagram), printing
 * the payload check and the source address; 1 if @payload came.
 */
static int recv_from_wait(const char *test, const char *step, int s,
			  const char *payload, socklen_t cap, union addr *from,
			  int ms)
{
	char buf[64] = "";
	socklen_t len = cap;
	ssize_t r;

	memset(from, 0xa5, sizeof(*from));
	errno = 0;
	r = readable(s, ms) ? recvfrom(s, buf, sizeof(buf) - 1, MSG_DONTWAIT,
				       &from->sa, &len) : -1;
	print_ret(test, step, r < 0 ? -1 : 0, r < 0 ? (errno ? errno : EAGAIN) : 0);
	if (r >= 0) {
		printf(" payload=%s", strcmp(buf, payload) ? "wrong" : "ok");
		print_addr(from, len, cap);
	}
	putchar('\n');
	return r >= 0 && !strcmp(buf, payload);
}

static int recv_from(const char *test, const char *step, int s,
		     const char *payload, socklen_t cap, union addr *from)
{
	return recv_from_wait(test, step, s, payload, cap, from, WAIT_MS);
}

/*
 * A server on @srv_port of f->lo (*@srv) and a client bound to
 * @client_port (returned).
 */
static int server_client(struct __test_metadata *_metadata,
			 const struct fam *f, int type, int srv_port,
			 int client_port, int *srv)
{
	union addr a;
	socklen_t len = inet(&a, f, f->lo, srv_port);
	int s;

	*srv = server(_metadata, f->family, type, &a, len);
	s = sock(_metadata, f->family, type);
	len = inet(&a, f, f->lo, client_port);
	ASSERT_EQ(0, bind(s, &a.sa, len)) TH_LOG("client bind: %s", strerror(errno));
	return s;
}

/*
 * Servers A and B on @a_port and @b_port of f->lo (@srv), and a client
 * bound to @client_port (returned): a program sends what asks for A to
 * B, or refuses it.
 */
static int a_b_client(struct __test_metadata *_metadata, const struct fam *f,
		      int type, int a_port, int b_port, int client_port,
		      int srv[2])
{
	union addr a;
	socklen_t len = inet(&a, f, f->lo, a_port);

	srv[0] = server(_metadata, f->family, type, &a, len);
	return server_client(_metadata, f, type, b_port, client_port, &srv[1]);
}

static void close3(int s, int srv[2])
{
	close(s);
	close(srv[0]);
	close(srv[1]);
}

/* ------------------------------------------------------------------ */
/* Environment.                                                        */

TEST(environment)
{
	struct stat st;
	FILE *f;
	int jit = -1;

	int has_btf, err;

	if (!bpf_usable(_metadata))
		return;
	has_btf = !stat("/sys/kernel/btf/vmlinux", &st);
	err = has_btf ? 0 : errno;
	printf("# obs environment.btf_vmlinux: present=%s errno=%s\n",
	       has_btf ? "yes" : "no", errno_name(err));
	f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	if (f) {
		if (fscanf(f, "%d", &jit) != 1)
			jit = -1;
		fclose(f);
	}
	printf("# obs environment.bpf_jit_enable: value=%d\n", jit);
#if HAVE_UNIX_SOCK_ADDR_HOOKS
	ASSERT_NE(0, attach(_metadata, "bind4 bind6 connect4 connect6 sendmsg4 "
			    "sendmsg6 recvmsg4 recvmsg6 getpeername4 getpeername6 "
			    "getsockname4 getsockname6 connect_unix sendmsg_unix "
			    "recvmsg_unix getpeername_unix getsockname_unix"));
#else
	/* No unix programs were built (guest/bpf.mk). */
	ASSERT_NE(0, attach(_metadata, "bind4 bind6 connect4 connect6 sendmsg4 "
			    "sendmsg6 recvmsg4 recvmsg6 getpeername4 getpeername6 "
			    "getsockname4 getsockname6"));
#endif
}

/* ------------------------------------------------------------------ */
/* bind.                                                               */

static void bind_case(struct __test_metadata *_metadata, const char *test,
		      const char *step, const struct fam *f, int type,
		      int port, int expect_port)
{
	union addr a, got;
	socklen_t len = inet(&a, f, f->lo, port);
	int s = sock(_metadata, f->family, type), ret;

	errno = 0;
	ret = bind(s, &a.sa, len);
	print_ret(test, step, ret, errno);
	putchar('\n');
	if (expect_port < 0) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, errno);
	} else {
		char st[64];

		EXPECT_EQ(0, ret);
		snprintf(st, sizeof(st), "%s_getsockname", step);
		if (!record_name(test, st, s, getsockname, sizeof(got), &got))
			EXPECT_EQ(expect_port, ntohs(got.in.sin_port));
	}
	close(s);
}

/* IPv4 ports (IPv6: + 100); the socket types differ by family. */
static const struct bind_step {
	const char *what;
	int type4, type6;
	int port, expect_port;	/* -1: refused */
} bind_steps[] = {
	{ "rewrite", SOCK_STREAM, SOCK_STREAM, 21001, 21002 },
	{ "rewrite", SOCK_DGRAM, SOCK_DGRAM, 21001, 21002 },
	{ "refused", SOCK_STREAM, SOCK_DGRAM, 21003, -1 },
	{ "untouched", SOCK_DGRAM, SOCK_STREAM, 21004, 21004 },
};

static void bind_test(struct __test_metadata *_metadata, const struct fam *f)
{
	char test[16], step[32];

	if (!attach(_metadata, fam_name(test, sizeof(test), "bind", f)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(bind_steps); i++) {
		const struct bind_step *b = &bind_steps[i];
		int type = f == &v4 ? b->type4 : b->type6;

		snprintf(step, sizeof(step), "%s_%s",
			 type == SOCK_STREAM ? "tcp" : "udp", b->what);
		bind_case(_metadata, test, step, f, type,
			  b->port + f->port_off, b->expect_port < 0 ? -1 :
			  b->expect_port + f->port_off);
	}
	print_hook(test, H_BIND4 + f->hook_off);
}

TEST(bind4) { bind_test(_metadata, &v4); }
TEST(bind6) { bind_test(_metadata, &v6); }

/* ------------------------------------------------------------------ */
/* connect and sendmsg (UDP).                                          */

/*
 * What the connect and sendmsg programs do with each port (IPv4's; IPv6
 * adds 100): send what asks for A to B, or refuse it.
 */
static const struct redirect {
	const char *call;	/* "connect" or "sendmsg" */
	const char *step4, *step6;	/* NULL step6: step4 */
	int type;
	int remote;		/* asks for f->remote:A_port, else f->lo */
	int a_port, b_port;	/* servers: A the asked port, B the rewrite */
	int client_port;
	int refused;
} redirects[] = {
	{ "connect", "tcp_port_rewrite", NULL, SOCK_STREAM, 0, 21201, 21202, 21203, 0 },
	{ "connect", "udp_port_rewrite", NULL, SOCK_DGRAM, 0, 21211, 21212, 21213, 0 },
	{ "connect", "tcp_ip_rewrite", NULL, SOCK_STREAM, 1, 21231, 21232, 21233, 0 },
	{ "connect", "udp_ip_rewrite", NULL, SOCK_DGRAM, 1, 21231, 21232, 21234, 0 },
	{ "connect", "tcp_refused", NULL, SOCK_STREAM, 0, 21219, 21218, 21217, 1 },
	{ "connect", "udp_refused", NULL, SOCK_DGRAM, 0, 21219, 21218, 21216, 1 },
	/* IPv4's rewrite sets the source address too. */
	{ "sendmsg", "udp_rewrite_and_src", "udp_rewrite", SOCK_DGRAM, 1, 21401, 21402, 21403, 0 },
	{ "sendmsg", "udp_refused", NULL, SOCK_DGRAM, 0, 21409, 21408, 21407, 1 },
};

static void redirect_case(struct __test_metadata *_metadata, const char *test,
			  const char *step, const struct fam *f,
			  const struct redirect *c)
{
	static const char *const names[] = { "A", "B" };
	int off = f->port_off, conn = !strcmp(c->call, "connect");
	union addr a, from;
	socklen_t len;
	int srv[2], s, ret, err, got = 0;
	char st[64];

	s = a_b_client(_metadata, f, c->type, c->a_port + off, c->b_port + off,
		       c->client_port + off, srv);
	len = inet(&a, f, c->remote ? f->remote : f->lo, c->a_port + off);
	errno = 0;
	if (conn)
		ret = connect(s, &a.sa, len);
	else
		ret = sendto(s, step, strlen(step) + 1, 0, &a.sa, len) < 0 ? -1 : 0;
	err = errno;
	print_ret(test, step, ret, err);
	if (conn && ret == 0 && c->type == SOCK_DGRAM)
		ret = send(s, step, strlen(step) + 1, 0) < 0 ? -1 : 0;
	/* A sent datagram: not where(), B's recvfrom shows the source. */
	if (conn || c->refused)
		got = where(srv, names, 2, c->type, step, !ret);
	putchar('\n');
	if (c->refused) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, err);
		EXPECT_EQ(0, got);
	} else if (conn) {
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", step, strerror(err));
		EXPECT_EQ(2, got) TH_LOG("%s: the rewritten address got nothing", step);
		snprintf(st, sizeof(st), "%s_getpeername", step);
		record_name(test, st, s, getpeername, sizeof(a), NULL);
		snprintf(st, sizeof(st), "%s_getsockname", step);
		record_name(test, st, s, getsockname, sizeof(a), NULL);
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", step, strerror(err));
		snprintf(st, sizeof(st), "%s_at_B", step);
		EXPECT_TRUE(recv_from(test, st, srv[1], step, sizeof(from), &from));
		snprintf(st, sizeof(st), "%s_at_A", step);
		printf("# obs %s.%s: readable=%d\n", test, st, readable(srv[0], 0));
	}
	close3(s, srv);
}

/* The redirects of @call for family @f; @h4: the call's IPv4 hook. */
static void redirect_test(struct __test_metadata *_metadata,
			  const struct fam *f, const char *call, enum hook h4)
{
	char test[16];

	if (!attach(_metadata, fam_name(test, sizeof(test), call, f)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(redirects); i++) {
		const struct redirect *c = &redirects[i];

		if (!strcmp(c->call, call))
			redirect_case(_metadata, test, f == &v6 && c->step6 ?
				      c->step6 : c->step4, f, c);
	}
	print_hook(test, h4 + f->hook_off);
}

TEST(connect4) { redirect_test(_metadata, &v4, "connect", H_CONNECT4); }
TEST(connect6) { redirect_test(_metadata, &v6, "connect", H_CONNECT4); }

/*
 * bpf_bind(): the connect program binds the (unbound) UDP socket itself,
 * through the kernel's bind path with a sockaddr the program built.
 */
static void bpf_bind_case(struct __test_metadata *_metadata,
			  const struct fam *f, const char *step, int port,
			  int slot)
{
	union addr a;
	socklen_t len = inet(&a, f, f->lo, port);
	int s = sock(_metadata, f->family, SOCK_DGRAM), ret;
	char st[64];

	errno = 0;
	ret = connect(s, &a.sa, len);
	print_ret("connect_bpf_bind", step, ret, errno);
	printf(" bpf_bind_ret=%lld\n", (long long)loader_obs(OBS_BIND_RET + slot));
	EXPECT_EQ(0, ret);
	snprintf(st, sizeof(st), "%s_getsockname", step);
	record_name("connect_bpf_bind", st, s, getsockname, sizeof(a), NULL);
	close(s);
}

TEST(connect_bpf_bind)
{
	if (!attach(_metadata, "connect4 connect6 bind4 bind6"))
		return;
	bpf_bind_case(_metadata, &v4, "inet4_bind_21222", 21221, 0);
	EXPECT_EQ(0, (long long)loader_obs(OBS_BIND_RET + 0));
	bpf_bind_case(_metadata, &v4, "inet4_len_8", 21224, 1);
	EXPECT_EQ(-EINVAL, (long long)loader_obs(OBS_BIND_RET + 1));
	bpf_bind_case(_metadata, &v4, "inet4_port_0", 21227, 2);
	EXPECT_EQ(0, (long long)loader_obs(OBS_BIND_RET + 2));
	bpf_bind_case(_metadata, &v6, "inet6_bind_21322", 21321, 3);
	EXPECT_EQ(0, (long long)loader_obs(OBS_BIND_RET + 3));
	/* The bind hooks do not run for bpf_bind(): the calls say so. */
	print_hook("connect_bpf_bind", H_BIND4);
	print_hook("connect_bpf_bind", H_BIND6);
	print_hook("connect_bpf_bind", H_CONNECT4);
	print_hook("connect_bpf_bind", H_CONNECT6);
}

/*
 * A ping socket's connect() runs the connect hooks from the protocol's
 * ->pre_connect (ping_pre_connect(), ping_v6_pre_connect(): patch 05
 * changes both; TCP and UDP run them from elsewhere): port 0 allowed,
 * the refused port refused by the program.  Ping sockets need the
 * caller's group in net.ipv4.ping_group_range (both families).
 */
static void ping_case(struct __test_metadata *_metadata, const struct fam *f)
{
	const int ports[] = { 0, 21219 + f->port_off };
	int proto = f->family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6;
	char test[16], st[32];
	union addr a;

	fam_name(test, sizeof(test), "connect_ping", f);
	for (size_t i = 0; i < ARRAY_SIZE(ports); i++) {
		int s = socket(f->family, SOCK_DGRAM | SOCK_CLOEXEC, proto), ret, err;
		socklen_t len = inet(&a, f, f->lo, ports[i]);

		ASSERT_LE(0, s) TH_LOG("ping socket: %s", strerror(errno));
		errno = 0;
		ret = connect(s, &a.sa, len);
		err = errno;
		snprintf(st, sizeof(st), "port_%d", ports[i]);
		print_ret(test, st, ret, err);
		putchar('\n');
		if (ports[i]) {
			EXPECT_EQ(-1, ret);
			EXPECT_EQ(EPERM, err);
		} else {
			EXPECT_EQ(0, ret) TH_LOG("%s: %s", st, strerror(err));
		}
		close(s);
	}
	print_hook(test, H_CONNECT4 + f->hook_off);
	/* One call per connect: the hook ran from ->pre_connect. */
	EXPECT_EQ(2ULL, loader_obs(OBS(H_CONNECT4 + f->hook_off, 0)));
}

TEST(connect_ping)
{
	if (!attach(_metadata, "connect4 connect6"))
		return;
	ASSERT_EQ(0, write_str("/proc/sys/net/ipv4/ping_group_range", "0 0"));
	ping_case(_metadata, &v4);
	ping_case(_metadata, &v6);
	write_str("/proc/sys/net/ipv4/ping_group_range", "1 0");
}

/* ------------------------------------------------------------------ */
/* sendmsg (v4-mapped) / recvmsg (UDP).                                */

TEST(sendmsg4) { redirect_test(_metadata, &v4, "sendmsg", H_SENDMSG4); }
TEST(sendmsg6) { redirect_test(_metadata, &v6, "sendmsg", H_SENDMSG4); }

/* An IPv6 socket sending to ::ffff:127.0.0.1 runs the IPv4 hook. */
TEST(sendmsg4_v4mapped)
{
	union addr a, from;
	socklen_t len;
	int a_srv, b_srv, s, ret;

	if (!attach(_metadata, "sendmsg4 sendmsg6"))
		return;
	len = ip_addr(&a, AF_INET, "127.0.0.1", 21421);
	a_srv = server(_metadata, AF_INET, SOCK_DGRAM, &a, len);
	len = ip_addr(&a, AF_INET, "127.0.0.1", 21422);
	b_srv = server(_metadata, AF_INET, SOCK_DGRAM, &a, len);
	s = sock(_metadata, AF_INET6, SOCK_DGRAM);
	len = ip_addr(&a, AF_INET6, "::", 21423);
	ASSERT_EQ(0, bind(s, &a.sa, len));
	len = ip_addr(&a, AF_INET6, "::ffff:127.0.0.1", 21421);
	errno = 0;
	ret = sendto(s, "mapped", 7, 0, &a.sa, len) < 0 ? -1 : 0;
	print_ret("sendmsg4_v4mapped", "sendto", ret, errno);
	putchar('\n');
	EXPECT_EQ(0, ret);
	EXPECT_TRUE(recv_from("sendmsg4_v4mapped", "at_B", b_srv, "mapped",
			      sizeof(from), &from));
	printf("# obs sendmsg4_v4mapped.at_A: readable=%d\n", readable(a_srv, 0));
	print_hook("sendmsg4_v4mapped", H_SENDMSG4);
	print_hook("sendmsg4_v4mapped", H_SENDMSG6);
	close(s);
	close(a_srv);
	close(b_srv);
}

/*
 * A connected UDP socket that sends without an address but with a
 * control message (IP_TTL, IPV6_HOPLIMIT) is no longer on the connected
 * fast path (udp_sendmsg(), udpv6_sendmsg()), so the sendmsg program runs
 * with no address at all: __cgroup_bpf_run_filter_sock_addr()'s
 * !ctx.uaddr branch, which hands the program a zeroed address of length
 * 0 (user_family 0, user_port 0).  The datagram goes to the connected
 * peer (21441; IPv6 21541) from the client (21442; 21542).
 */
static void sendmsg_noaddr_test(struct __test_metadata *_metadata,
				const struct fam *f)
{
	int level = f->family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
	int type = f->family == AF_INET ? IP_TTL : IPV6_HOPLIMIT;
	char test[24], progs[16], cbuf[CMSG_SPACE(sizeof(int))] = "";
	struct iovec iov = { .iov_base = "noaddr", .iov_len = 7 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int srv, s, ret, ttl = 64;
	union addr a, from;
	socklen_t len;

	fam_name(test, sizeof(test), "sendmsg_noaddr", f);
	if (!attach(_metadata, fam_name(progs, sizeof(progs), "sendmsg", f)))
		return;
	s = server_client(_metadata, f, SOCK_DGRAM, 21441 + f->port_off,
			  21442 + f->port_off, &srv);
	len = inet(&a, f, f->lo, 21441 + f->port_off);
	ASSERT_EQ(0, connect(s, &a.sa, len)) TH_LOG("connect: %s", strerror(errno));
	c->cmsg_level = level;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &ttl, sizeof(ttl));
	errno = 0;
	ret = sendmsg(s, &m, 0) < 0 ? -1 : 0;
	print_ret(test, "sendmsg", ret, errno);
	putchar('\n');
	EXPECT_EQ(0, ret);
	EXPECT_TRUE(recv_from(test, "at_peer", srv, "noaddr", sizeof(from), &from));
	/* The premise: the program ran, and saw no address. */
	print_hook(test, H_SENDMSG4 + f->hook_off);
	EXPECT_EQ(1ULL, loader_obs(OBS(H_SENDMSG4 + f->hook_off, 0)));
	EXPECT_EQ(0ULL, loader_obs(OBS(H_SENDMSG4 + f->hook_off, 1)));
	close(s);
	close(srv);
}

TEST(sendmsg_noaddr4) { sendmsg_noaddr_test(_metadata, &v4); }
TEST(sendmsg_noaddr6) { sendmsg_noaddr_test(_metadata, &v6); }

/*
 * NAT both ways: the client sends to a "remote" address (port 21431),
 * sendmsg rewrites it to a local server (21433); the server answers, and
 * recvmsg makes the answer read as coming from the remote address.  The
 * client is 21434.  IPv6: ports + 100.
 */
static void recvmsg_test(struct __test_metadata *_metadata,
			 const struct fam *f)
{
	int remote_port = 21431 + f->port_off, srv_port = 21433 + f->port_off;
	int client_port = 21434 + f->port_off;
	char test[16], progs[32], st[64];
	union addr a, from;
	socklen_t len;
	int srv, s, ret;

	fam_name(test, sizeof(test), "recvmsg", f);
	snprintf(progs, sizeof(progs), "sendmsg%c %s", f->v, test);
	if (!attach(_metadata, progs))
		return;
	s = server_client(_metadata, f, SOCK_DGRAM, srv_port, client_port, &srv);
	len = inet(&a, f, f->remote, remote_port);
	errno = 0;
	ret = sendto(s, "ping", 5, 0, &a.sa, len) < 0 ? -1 : 0;
	print_ret(test, "client_sendto", ret, errno);
	putchar('\n');
	ASSERT_EQ(0, ret);
	ASSERT_TRUE(recv_from(test, "server_recvfrom", srv, "ping", sizeof(from), &from));
	errno = 0;
	ret = sendto(srv, "pong", 5, 0, &from.sa,
		     f->family == AF_INET ? sizeof(from.in) : sizeof(from.in6)) < 0 ? -1 : 0;
	print_ret(test, "server_sendto", ret, errno);
	putchar('\n');
	ASSERT_EQ(0, ret);
	/* The reply: full buffer, then a short one (the kernel truncates). */
	EXPECT_TRUE(recv_from(test, "client_recvfrom", s, "pong", sizeof(from), &from));
	/* sin_port and sin6_port are at the same offset. */
	EXPECT_EQ(remote_port, ntohs(from.in.sin_port));
	len = inet(&a, f, f->lo, client_port);
	ASSERT_LE(0, sendto(srv, "pong", 5, 0, &a.sa, len));
	snprintf(st, sizeof(st), "client_recvfrom_cap%d", 8);
	recv_from(test, st, s, "pong", 8, &from);
	/* No name asked for: the hook does not run (see calls). */
	ASSERT_LE(0, sendto(srv, "pong", 5, 0, &a.sa, len));
	ASSERT_TRUE(readable(s, WAIT_MS));
	errno = 0;
	ret = recv(s, st, sizeof(st), MSG_DONTWAIT) < 0 ? -1 : 0;
	print_ret(test, "client_recv_noname", ret, errno);
	putchar('\n');
	print_hook(test, H_RECVMSG4 + f->hook_off);
	print_hook(test, H_SENDMSG4 + f->hook_off);
	close(s);
	close(srv);
}

TEST(recvmsg4) { recvmsg_test(_metadata, &v4); }
TEST(recvmsg6) { recvmsg_test(_metadata, &v6); }

/* ------------------------------------------------------------------ */
/* getsockname / getpeername (inet).                                   */

static void getname_case(struct __test_metadata *_metadata, const char *test,
			 const struct fam *f, int sock_port, int peer_port,
			 int type)
{
	static const socklen_t caps[] = { sizeof(union addr), 8, 2, 0 };
	union addr a, name, peer;
	socklen_t len;
	int s, srv, acc;
	char st[64];
	const char *tn = type == SOCK_STREAM ? "tcp" : "udp";

	s = server_client(_metadata, f, type, peer_port, sock_port, &srv);
	len = inet(&a, f, f->lo, peer_port);
	ASSERT_EQ(0, connect(s, &a.sa, len));
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		snprintf(st, sizeof(st), "%s_getsockname_cap%u", tn, caps[i]);
		record_name(test, st, s, getsockname, caps[i], i ? NULL : &name);
		snprintf(st, sizeof(st), "%s_getpeername_cap%u", tn, caps[i]);
		record_name(test, st, s, getpeername, caps[i], i ? NULL : &peer);
	}
	/* The premise, read back: both programs rewrote the port the
	 * kernel reported (sin_port and sin6_port share their offset). */
	EXPECT_EQ(sock_port + 1, ntohs(name.in.sin_port)) TH_LOG("%s getsockname", tn);
	EXPECT_EQ(peer_port + 1, ntohs(peer.in.sin_port)) TH_LOG("%s getpeername", tn);
	if (type == SOCK_STREAM) {
		/* The accepted socket: its peer is our client, not rewritten. */
		ASSERT_TRUE(readable(srv, WAIT_MS));
		acc = accept4(srv, NULL, NULL, SOCK_CLOEXEC);
		ASSERT_LE(0, acc);
		snprintf(st, sizeof(st), "%s_accepted_getsockname", tn);
		record_name(test, st, acc, getsockname, sizeof(a), NULL);
		snprintf(st, sizeof(st), "%s_accepted_getpeername", tn);
		record_name(test, st, acc, getpeername, sizeof(a), NULL);
		close(acc);
	}
	close(s);
	close(srv);
}

/* 21601 and its peer 21611 (IPv6: + 100). */
static void getname_test(struct __test_metadata *_metadata,
			 const struct fam *f)
{
	char test[16], progs[32];

	fam_name(test, sizeof(test), "getname", f);
	snprintf(progs, sizeof(progs), "getsockname%c getpeername%c", f->v,
		 f->v);
	if (!attach(_metadata, progs))
		return;
	getname_case(_metadata, test, f, 21601 + f->port_off,
		     21611 + f->port_off, SOCK_STREAM);
	getname_case(_metadata, test, f, 21601 + f->port_off,
		     21611 + f->port_off, SOCK_DGRAM);
	print_hook(test, H_GETSOCKNAME4 + f->hook_off);
	print_hook(test, H_GETPEERNAME4 + f->hook_off);
	/* The premise: both programs ran. */
	EXPECT_LT(0ULL, loader_obs(OBS(H_GETSOCKNAME4 + f->hook_off, 0)));
	EXPECT_LT(0ULL, loader_obs(OBS(H_GETPEERNAME4 + f->hook_off, 0)));
}

TEST(getname4) { getname_test(_metadata, &v4); }
TEST(getname6) { getname_test(_metadata, &v6); }

/* ------------------------------------------------------------------ */
/* AF_UNIX.                                                            */

static int unix_server(struct __test_metadata *_metadata, int type,
		       const char *path)
{
	union addr a;
	socklen_t len = un(&a, path);

	return server(_metadata, AF_UNIX, type, &a, len);
}

/*
 * A stream socket bound to @path, connected to the listener @lst (bound
 * to @lst_path); *@acc is the accepted end.
 */
static int unix_client(struct __test_metadata *_metadata, const char *path,
		       int lst, const char *lst_path, int *acc)
{
	union addr a;
	socklen_t len = un(&a, path);
	int s = sock(_metadata, AF_UNIX, SOCK_STREAM);

	ASSERT_EQ(0, bind(s, &a.sa, len));
	len = un(&a, lst_path);
	ASSERT_EQ(0, connect(s, &a.sa, len));
	*acc = accept4(lst, NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, *acc);
	return s;
}

static int unix_enter(struct __test_metadata *_metadata, const char *progs)
{
#if !HAVE_UNIX_SOCK_ADDR_HOOKS
	SKIP(return 0, NO_UNIX_HOOKS);
#endif
	if (!attach(_metadata, progs))
		return 0;
	sockdir_enter("bpf_sock_addr");
	return 1;
}

struct uconn_case {
	const char *step;
	int type;
	const char *dst;
	const char *a, *b;	/* A: the asked path, B: the rewritten one */
	int refused;
	int b_gets;		/* B (1) or A (0) is where it must arrive */
};

static void unix_connect_case(struct __test_metadata *_metadata,
			      const struct uconn_case *c)
{
	static const char *const names[] = { "A", "B" };
	union addr a;
	socklen_t len;
	int srv[2], s, ret, err, got;
	char st[64];

	srv[0] = unix_server(_metadata, c->type, c->a);
	srv[1] = unix_server(_metadata, c->type, c->b);
	s = sock(_metadata, AF_UNIX, c->type);
	len = un(&a, c->dst);
	errno = 0;
	ret = connect(s, &a.sa, len);
	err = errno;
	print_ret("unix_connect", c->step, ret, err);
	if (ret == 0 && c->type == SOCK_DGRAM)
		ret = send(s, c->step, strlen(c->step) + 1, 0) < 0 ? -1 : 0;
	got = where(srv, names, 2, c->type, c->step, !ret);
	putchar('\n');
	if (c->refused) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EPERM, err);
		EXPECT_EQ(0, got);
	} else {
		EXPECT_EQ(0, ret) TH_LOG("%s: %s", c->step, strerror(err));
		EXPECT_EQ(c->b_gets ? 2 : 1, got);
		snprintf(st, sizeof(st), "%s_getpeername", c->step);
		record_name("unix_connect", st, s, getpeername, sizeof(a), NULL);
	}
	close(s);
	close(srv[0]);
	close(srv[1]);
	unlink(c->a);
	unlink(c->b);
}

TEST(unix_connect)
{
	static const struct uconn_case cases[] = {
		{ "stream_rewrite", SOCK_STREAM, "ua.stream", "uc.stream", "ub.stream", 0, 1 },
		{ "dgram_rewrite", SOCK_DGRAM, "ua.dgram", "uc.dgram", "ub.dgram", 0, 1 },
		{ "stream_untouched", SOCK_STREAM, "ok.stream", "ok.stream", "ub.stream2", 0, 0 },
		{ "stream_refused", SOCK_STREAM, "rj.stream", "rj.stream", "ub.stream3", 1, 0 },
		{ "dgram_refused", SOCK_DGRAM, "rj.dgram", "rj.dgram", "ub.dgram3", 1, 0 },
		{ "abstract_refused", SOCK_STREAM, "@rj.abs", "@rj.abs", "@ub.abs", 1, 0 },
		{ "abstract_untouched", SOCK_STREAM, "@ok.abs", "@ok.abs", "@ub.abs2", 0, 0 },
	};

	if (!unix_enter(_metadata, "connect_unix"))
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		unix_connect_case(_metadata, &cases[i]);
	print_hook("unix_connect", H_CONNECT_UNIX);
}

TEST(unix_sendmsg)
{
	static const struct { const char *step, *dst, *a, *b; int refused, b_gets; } cases[] = {
		{ "rewrite", "ua.msg", "uc.msg", "ub.msg", 0, 1 },
		{ "untouched", "ok.msg", "ok.msg", "ub.msg2", 0, 0 },
		{ "refused", "rj.msg", "rj.msg", "ub.msg3", 1, 0 },
		{ "abstract_refused", "@rj.msg", "@rj.msg", "@ub.msg", 1, 0 },
	};
	union addr a, from;
	socklen_t len;
	int s, ret, err;

	if (!unix_enter(_metadata, "sendmsg_unix"))
		return;
	s = sock(_metadata, AF_UNIX, SOCK_DGRAM);
	len = un(&a, "sd.sender");
	ASSERT_EQ(0, bind(s, &a.sa, len));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int srv[2];
		char st[64];

		srv[0] = unix_server(_metadata, SOCK_DGRAM, cases[i].a);
		srv[1] = unix_server(_metadata, SOCK_DGRAM, cases[i].b);
		len = un(&a, cases[i].dst);
		errno = 0;
		ret = sendto(s, cases[i].step, strlen(cases[i].step) + 1, 0,
			     &a.sa, len) < 0 ? -1 : 0;
		err = errno;
		print_ret("unix_sendmsg", cases[i].step, ret, err);
		putchar('\n');
		if (cases[i].refused) {
			EXPECT_EQ(-1, ret);
			EXPECT_EQ(EPERM, err);
		} else {
			EXPECT_EQ(0, ret);
		}
		snprintf(st, sizeof(st), "%s_at_A", cases[i].step);
		recv_from_wait("unix_sendmsg", st, srv[0], cases[i].step,
			       sizeof(from), &from, 0);
		snprintf(st, sizeof(st), "%s_at_B", cases[i].step);
		ret = recv_from_wait("unix_sendmsg", st, srv[1], cases[i].step,
				     sizeof(from), &from, 0);
		if (!cases[i].refused)
			EXPECT_EQ(cases[i].b_gets, ret);
		close(srv[0]);
		close(srv[1]);
	}
	close(s);
	print_hook("unix_sendmsg", H_SENDMSG_UNIX);
}

/* recvmsg() with a @cap byte msg_name; prints name and its length. */
static void unix_recvmsg_step(const char *step, int s, const char *payload,
			      socklen_t cap)
{
	char buf[64] = "";
	union addr from;
	struct iovec iov = { buf, sizeof(buf) - 1 };
	struct msghdr m = { .msg_name = &from, .msg_namelen = cap,
			    .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	memset(&from, 0xa5, sizeof(from));
	errno = 0;
	r = readable(s, WAIT_MS) ? recvmsg(s, &m, MSG_DONTWAIT) : -1;
	print_ret("unix_recvmsg", step, r < 0 ? -1 : 0, r < 0 ? (errno ? errno : EAGAIN) : 0);
	if (r >= 0) {
		printf(" payload=%s", strcmp(buf, payload) ? "wrong" : "ok");
		print_addr(&from, m.msg_namelen, cap);
	}
	putchar('\n');
}

TEST(unix_recvmsg)
{
	static const socklen_t caps[] = { sizeof(union addr), 4 };
	union addr a;
	socklen_t len;
	int srv, s, other, lst, acc;
	char st[64];

	if (!unix_enter(_metadata, "recvmsg_unix"))
		return;
	srv = unix_server(_metadata, SOCK_DGRAM, "rc.recv");
	s = unix_server(_metadata, SOCK_DGRAM, "sa.sender");
	other = unix_server(_metadata, SOCK_DGRAM, "ot.sender");
	len = un(&a, "rc.recv");
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		ASSERT_LE(0, sendto(s, "hi", 3, 0, &a.sa, len));
		snprintf(st, sizeof(st), "dgram_renamed_cap%u", caps[i]);
		unix_recvmsg_step(st, srv, "hi", caps[i]);
	}
	ASSERT_LE(0, sendto(other, "hi", 3, 0, &a.sa, len));
	unix_recvmsg_step("dgram_untouched", srv, "hi", sizeof(union addr));

	/* Stream: the accepted socket reads from a bound client. */
	lst = unix_server(_metadata, SOCK_STREAM, "rs.listen");
	close(s);
	s = unix_client(_metadata, "sa.stream", lst, "rs.listen", &acc);
	ASSERT_EQ(3, write(s, "hi", 3));
	unix_recvmsg_step("stream_renamed", acc, "hi", sizeof(union addr));
	print_hook("unix_recvmsg", H_RECVMSG_UNIX);
	close(acc);
	close(s);
	close(lst);
	close(other);
	close(srv);
}

TEST(unix_getname)
{
	static const socklen_t caps[] = { sizeof(union addr), 4, 0 };
	union addr a, name, peer;
	int s, lst, c, acc;
	char st[64];

	if (!unix_enter(_metadata, "getsockname_unix getpeername_unix"))
		return;
	s = unix_server(_metadata, SOCK_DGRAM, "ga.name");
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		snprintf(st, sizeof(st), "bound_getsockname_cap%u", caps[i]);
		record_name("unix_getname", st, s, getsockname, caps[i], i ? NULL : &name);
	}
	close(s);
	s = unix_server(_metadata, SOCK_DGRAM, "@ga.abstract");
	record_name("unix_getname", "abstract_getsockname", s, getsockname,
		    sizeof(a), NULL);
	close(s);
	/* Unbound: the kernel has no address, the hook is not run. */
	s = sock(_metadata, AF_UNIX, SOCK_DGRAM);
	record_name("unix_getname", "unbound_getsockname", s, getsockname,
		    sizeof(a), NULL);
	close(s);

	lst = unix_server(_metadata, SOCK_STREAM, "pa.peer");
	c = unix_client(_metadata, "ga.client", lst, "pa.peer", &acc);
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		snprintf(st, sizeof(st), "client_getpeername_cap%u", caps[i]);
		record_name("unix_getname", st, c, getpeername, caps[i], i ? NULL : &peer);
	}
	record_name("unix_getname", "client_getsockname", c, getsockname,
		    sizeof(a), NULL);
	record_name("unix_getname", "listener_getsockname", lst, getsockname,
		    sizeof(a), NULL);
	record_name("unix_getname", "accepted_getsockname", acc, getsockname,
		    sizeof(a), NULL);
	record_name("unix_getname", "accepted_getpeername", acc, getpeername,
		    sizeof(a), NULL);
	print_hook("unix_getname", H_GETSOCKNAME_UNIX);
	print_hook("unix_getname", H_GETPEERNAME_UNIX);
	/* The premise, read back: both programs ran, and rewrote "ga..."
	 * and "pa..." to "gz..." and "pz...". */
	EXPECT_LT(0ULL, loader_obs(OBS(H_GETSOCKNAME_UNIX, 0)));
	EXPECT_LT(0ULL, loader_obs(OBS(H_GETPEERNAME_UNIX, 0)));
	EXPECT_EQ(0, strncmp(name.un.sun_path, "gz.name", 7)) TH_LOG("getsockname: %.8s", name.un.sun_path);
	EXPECT_EQ(0, strncmp(peer.un.sun_path, "pz.peer", 7)) TH_LOG("getpeername: %.8s", peer.un.sun_path);
	close(acc);
	close(c);
	close(lst);
}

/*
 * The upstream way to rewrite a unix path: a kfunc.  libbpf resolves
 * kfuncs against the kernel's BTF (/sys/kernel/btf/vmlinux, from
 * CONFIG_DEBUG_INFO_BTF); the kernel's verifier needs it too.  Both
 * are recorded; without BTF the test SKIPs with the reason.
 */
#if HAVE_UNIX_SOCK_ADDR_HOOKS
TEST(unix_kfunc)
{
	static char vlog[4096];
	/* r0 = kfunc btf_id 1 (vmlinux); r0 = 1; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL,
		  .imm = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, po,
		    .expected_attach_type = BPF_CGROUP_UNIX_CONNECT,
		    .log_buf = vlog, .log_size = sizeof(vlog), .log_level = 1);
	struct bpf_object *kobj;
	struct stat st;
	int has_btf, err, verr, fd, i = 0;
	char *line, *save;

	if (!bpf_usable(_metadata))
		return;
	errno = 0;
	has_btf = !stat("/sys/kernel/btf/vmlinux", &st);
	err = has_btf ? 0 : errno;
	printf("# obs unix_kfunc.btf_vmlinux: present=%s errno=%s\n",
	       has_btf ? "yes" : "no", errno_name(err));

	/* The kernel's answer to any kfunc call, libbpf aside. */
	errno = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, "kfunc_raw", "GPL",
			   insns, 3, &po);
	verr = errno;
	vlog[sizeof(vlog) - 1] = 0;
	printf("# obs unix_kfunc.verifier_kfunc_call: ret=%d errno=%s\n",
	       fd < 0 ? -1 : 0, bpf_errno_name(fd < 0 ? verr : 0));
	for (line = strtok_r(vlog, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# obs unix_kfunc.verifier_log%d: \"%s\"\n", i++, line);
	if (fd >= 0)
		close(fd);

	/* libbpf, with the program upstream would use. */
	loader_log_clear();
	kobj = loader_open_kfunc();
	ASSERT_NE(NULL, kobj) TH_LOG("%s", loader_error());
	err = bpf_object__load(kobj);
	printf("# obs unix_kfunc.libbpf_load: ret=%d errno=%s\n", err,
	       errno_name(err < 0 ? -err : 0));
	print_lbpf_log("unix_kfunc");
	if (err) {
		EXPECT_FALSE(has_btf) TH_LOG("kernel has BTF but the kfunc program did not load");
		bpf_object__close(kobj);
		if (!has_btf)
			SKIP(return, "bpf_sock_addr_set_sun_path() needs kernel BTF (CONFIG_DEBUG_INFO_BTF): no /sys/kernel/btf/vmlinux, libbpf load %s, verifier %s",
			     errno_name(-err), bpf_errno_name(fd < 0 ? verr : 0));
		return;
	}
	/* A kernel with BTF: connecting to "ka.sock" reaches kfunc_target.sock. */
	{
		union addr a;
		socklen_t len;
		int lst, s, ret;

		/* Its one program, connect_unix_kfunc. */
		ASSERT_EQ(1, loader_attach_object(kobj)) TH_LOG("%s", loader_error());
		sockdir_enter("bpf_sock_addr");
		lst = unix_server(_metadata, SOCK_STREAM, "kfunc_target.sock");
		s = sock(_metadata, AF_UNIX, SOCK_STREAM);
		len = un(&a, "ka.sock");
		errno = 0;
		ret = connect(s, &a.sa, len);
		print_ret("unix_kfunc", "connect_rewrite", ret, errno);
		putchar('\n');
		EXPECT_EQ(0, ret);
		record_name("unix_kfunc", "connect_rewrite_getpeername", s,
			    getpeername, sizeof(a), NULL);
		close(s);
		close(lst);
	}
	bpf_object__close(kobj);
}
#else
/* Its program would be a connect_unix one (BPF_CGROUP_UNIX_CONNECT). */
TEST(unix_kfunc)
{
	SKIP(return, NO_UNIX_HOOKS);
}
#endif

static void __attribute__((destructor)) remove_sock_dir(void)
{
	sockdir_remove();
}

TEST_HARNESS_MAIN

