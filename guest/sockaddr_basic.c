// SPDX-License-Identifier: GPL-2.0
/*
 * Record what bind, connect, getsockname and getpeername do with valid
 * and invalid socket addresses, for every socket kind the sockaddr
 * series touches.  Nothing is asserted about the kernel's answers: each
 * case prints what happened as
 *
 *   # obs <kind>.<case>.<step>: ret=<int> errno=<ENAME|0>[ <details>]
 *
 * and the host compares these lines between a baseline and a patched
 * kernel.  KTAP tests are <kind>.<syscall>; <case> names the address
 * and length tried, <step> the syscall whose outcome the line shows.  <details> for getsockname/getpeername steps:
 *   len=<int>        the length the kernel wrote back (input if untouched)
 *   addr=<hex>       bytes written, min(input, returned length) of them
 *   tail=untouched|written  whether the rest of the caller's buffer kept
 *                    its fill pattern
 *   buf=untouched|written   (failed calls) whether the buffer changed
 * Ephemeral ports are printed as "PPPP" and unix autobind names as
 * "XX" per byte, since they vary between boots.  Our own ports and
 * names are fixed and distinct per case.  A case fails only if the test
 * itself cannot run (socket() fails, the peer cannot be set up, ...).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * kselftest_harness.h is written for -Wall only; keep our -Wextra build
 * warning-free without editing the kernel's header.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "suite_util.h"

/* Case ports are PORT_BASE + kind * 256 + case, peers 128 above. */
#define PORT_BASE	20000
#define PEER_OFFSET	128
#define NKINDS		8
#define ADDR_BUF	256	/* > 129, so every tested length is readable */
#define FILL		0xa5

enum op { OP_BIND, OP_CONNECT, OP_GETSOCKNAME, OP_GETPEERNAME };
enum lensel { L_NATURAL, L_0, L_1, L_FAMILY, L_MIN_M1, L_MIN, L_16, L_128,
	      L_129, L_HUGE, L_NEG };
/* A_UNBOUND: getsockname/getpeername without binding/connecting first. */
enum addrsel { A_VALID, A_NULL, A_WRONG_FAMILY, A_UNSPEC, A_UNBOUND };

struct kind {
	const char *name;
	int family, type, abstract;
	int index;
	socklen_t min_len;	/* shortest address the family accepts */
};

struct case_def {
	const char *name;
	enum op op;
	enum lensel len;
	enum addrsel addr;
};

union addr_buf {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_un un;
	unsigned char raw[ADDR_BUF];
};

#define LEN_CASES(X, k, pfx, op, addr)				\
	X(k, pfx##_len_0, op, L_0, addr)			\
	X(k, pfx##_len_1, op, L_1, addr)			\
	X(k, pfx##_len_family, op, L_FAMILY, addr)		\
	X(k, pfx##_len_min_minus_1, op, L_MIN_M1, addr)		\
	X(k, pfx##_len_min, op, L_MIN, addr)			\
	X(k, pfx##_len_16, op, L_16, addr)			\
	X(k, pfx##_len_128, op, L_128, addr)			\
	X(k, pfx##_len_129, op, L_129, addr)			\
	X(k, pfx##_len_huge, op, L_HUGE, addr)			\
	X(k, pfx##_len_neg, op, L_NEG, addr)

#define CASES(X, k)							\
	X(k, bind_valid, OP_BIND, L_NATURAL, A_VALID)			\
	LEN_CASES(X, k, bind, OP_BIND, A_VALID)				\
	X(k, bind_null, OP_BIND, L_NATURAL, A_NULL)			\
	X(k, bind_wrong_family, OP_BIND, L_NATURAL, A_WRONG_FAMILY)	\
	X(k, bind_unspec, OP_BIND, L_NATURAL, A_UNSPEC)			\
	X(k, connect_valid, OP_CONNECT, L_NATURAL, A_VALID)		\
	LEN_CASES(X, k, connect, OP_CONNECT, A_VALID)			\
	X(k, connect_null, OP_CONNECT, L_NATURAL, A_NULL)		\
	X(k, connect_wrong_family, OP_CONNECT, L_NATURAL, A_WRONG_FAMILY) \
	X(k, connect_unspec, OP_CONNECT, L_NATURAL, A_UNSPEC)		\
	X(k, getsockname_unbound, OP_GETSOCKNAME, L_128, A_UNBOUND)	\
	LEN_CASES(X, k, getsockname, OP_GETSOCKNAME, A_VALID)		\
	X(k, getsockname_null, OP_GETSOCKNAME, L_128, A_NULL)		\
	X(k, getpeername_unconnected, OP_GETPEERNAME, L_128, A_UNBOUND)	\
	LEN_CASES(X, k, getpeername, OP_GETPEERNAME, A_VALID)		\
	X(k, getpeername_null, OP_GETPEERNAME, L_128, A_NULL)

#define CASE_ENUM(k, c, op, len, addr) C_##c,
enum case_id { CASES(CASE_ENUM, _) NCASES };

#define CASE_DEF(k, c, op, len, addr) [C_##c] = { #c, op, len, addr },
static const struct case_def cases[] = { CASES(CASE_DEF, _) };

#define KINDS(X)						\
	X(inet4_stream, AF_INET, SOCK_STREAM, 0)		\
	X(inet4_dgram, AF_INET, SOCK_DGRAM, 0)			\
	X(inet6_stream, AF_INET6, SOCK_STREAM, 0)		\
	X(inet6_dgram, AF_INET6, SOCK_DGRAM, 0)			\
	X(unix_stream, AF_UNIX, SOCK_STREAM, 0)			\
	X(unix_dgram, AF_UNIX, SOCK_DGRAM, 0)			\
	X(unix_abstract_stream, AF_UNIX, SOCK_STREAM, 1)	\
	X(unix_abstract_dgram, AF_UNIX, SOCK_DGRAM, 1)

#define KIND_ENUM(k, fam, type, abs) K_##k,
enum kind_id { KINDS(KIND_ENUM) NKINDS_ };

/* SIN6_LEN_RFC2133: the kernel accepts IPv6 addresses without scope id. */
#define MIN_LEN(fam) ((fam) == AF_INET ? sizeof(struct sockaddr_in) :	\
		      (fam) == AF_INET6 ? 24 : sizeof(sa_family_t))
#define KIND_DEF(k, fam, type, abs) \
	[K_##k] = { #k, fam, type, abs, K_##k, MIN_LEN(fam) },
static const struct kind kinds[] = { KINDS(KIND_DEF) };

_Static_assert(NCASES < PEER_OFFSET, "case ports would collide with peers");
_Static_assert(NKINDS_ == NKINDS, "update NKINDS");

/* The valid address of case id @id for this kind; returns its length. */
static socklen_t make_addr(const struct kind *k, int id, union addr_buf *a)
{
	memset(a, 0, sizeof(*a));
	switch (k->family) {
	case AF_INET:
		a->in.sin_family = AF_INET;
		a->in.sin_port = htons(id);
		a->in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(a->in);
	case AF_INET6:
		a->in6.sin6_family = AF_INET6;
		a->in6.sin6_port = htons(id);
		a->in6.sin6_addr = in6addr_loopback;
		return sizeof(a->in6);
	}
	/* Relative pathname (cwd is our private directory) or abstract. */
	a->un.sun_family = AF_UNIX;
	snprintf(a->un.sun_path + k->abstract, sizeof(a->un.sun_path) - 1,
		 "sab%d", id);
	return offsetof(struct sockaddr_un, sun_path) + k->abstract +
	       strlen(a->un.sun_path + k->abstract) + !k->abstract;
}

/* A valid address of another family: IPv6 for IPv4, IPv4 otherwise. */
static socklen_t make_wrong_family(const struct kind *k, int id,
				   union addr_buf *a)
{
	static const struct kind in4 = { .family = AF_INET };
	static const struct kind in6 = { .family = AF_INET6 };

	return make_addr(k->family == AF_INET ? &in6 : &in4, id, a);
}

static socklen_t pick_len(const struct kind *k, enum lensel l,
			  socklen_t natural)
{
	switch (l) {
	case L_NATURAL: return natural;
	case L_0: return 0;
	case L_1: return 1;
	case L_FAMILY: return sizeof(sa_family_t);
	case L_MIN_M1: return k->min_len - 1;
	case L_MIN: return k->min_len;
	case L_16: return 16;
	case L_128: return 128;
	case L_129: return 129;
	case L_HUGE: return 0x7fffffff;
	case L_NEG: return (socklen_t)-1;
	}
	return natural;
}

static int is_our_port(int port)
{
	return port >= PORT_BASE && port < PORT_BASE + NKINDS * 256;
}

/*
 * Which bytes vary between boots, judged from the full address the
 * socket really has (@full, @full_len), so truncated copies of it are
 * masked the same way.
 */
static int varies(const struct kind *k, const unsigned char *full,
		  socklen_t full_len, size_t i)
{
	if (k->family == AF_INET || k->family == AF_INET6) {
		int port = full_len >= 4 ? full[2] << 8 | full[3] : 0;

		return (i == 2 || i == 3) && port && !is_our_port(port);
	}
	/* Autobind: "\0" plus five hex digits, nothing we'd bind to. */
	return full_len == sizeof(sa_family_t) + 6 && full[2] == 0 &&
	       i >= 3 && i < 8;
}

typedef int (*getname_fn)(int, struct sockaddr *, socklen_t *);

static void print_hex(const struct kind *k, const unsigned char *b, size_t n,
		      const unsigned char *full, socklen_t full_len)
{
	for (size_t i = 0; i < n; i++) {
		if (varies(k, full, full_len, i))
			fputs(k->family == AF_UNIX ? "XX" : "PP", stdout);
		else
			printf("%02x", b[i]);
	}
}

static int untouched(const unsigned char *b, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (b[i] != FILL)
			return 0;
	return 1;
}

/* Call getsockname/getpeername with buffer size @in_len and record it. */
static void record_getname(const char *label, const char *step,
			   const struct kind *k, int s, getname_fn fn,
			   socklen_t in_len, int null_addr)
{
	union addr_buf full, a;
	socklen_t full_len = sizeof(full), len = in_len;
	size_t shown, cap;
	int ret, err;

	/* What the socket really has, to recognise varying bytes. */
	memset(&full, 0, sizeof(full));
	if (fn(s, &full.sa, &full_len))
		full_len = 0;

	memset(&a, FILL, sizeof(a));
	errno = 0;
	ret = fn(s, null_addr ? NULL : &a.sa, &len);
	err = ret ? errno : 0;
	printf("# obs %s.%s: ret=%d errno=%s len=%d", label, step, ret,
	       errno_name(err), (int)len);
	cap = (int)in_len < 0 ? 0 : in_len < ADDR_BUF ? in_len : ADDR_BUF;
	if (ret || null_addr) {
		printf(" buf=%s\n", untouched(a.raw, 0, ADDR_BUF) ?
		       "untouched" : "written");
		return;
	}
	shown = len < cap ? len : cap;
	fputs(" addr=", stdout);
	print_hex(k, a.raw, shown, full.raw, full_len);
	printf(" tail=%s\n", untouched(a.raw, shown, ADDR_BUF) ?
	       "untouched" : "written");
}

static int open_socket(const struct kind *k)
{
	struct timeval tv = { .tv_sec = 2 };
	int one = 1, s = socket(k->family, k->type | SOCK_CLOEXEC, 0);

	if (s < 0)
		return s;
	/* Reruns on a host must not trip over our own fixed ports. */
	if (k->family != AF_UNIX)
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* A connect that never completes must not eat the harness timeout. */
	setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return s;
}

/* Something to connect to: bound (and listening, for streams). */
static int open_peer(struct __test_metadata *_metadata, const struct kind *k,
		     int id)
{
	union addr_buf a;
	socklen_t len = make_addr(k, id, &a);
	int s = open_socket(k);

	ASSERT_LE(0, s) TH_LOG("peer socket(%s): %s", k->name, strerror(errno));
	ASSERT_EQ(0, bind(s, &a.sa, len))
		TH_LOG("peer bind(%s): %s", k->name, strerror(errno));
	if (k->type == SOCK_STREAM)
		ASSERT_EQ(0, listen(s, 8))
			TH_LOG("listen(%s): %s", k->name, strerror(errno));
	return s;
}

static socklen_t target_addr(const struct kind *k, enum addrsel sel, int id,
			     union addr_buf *a)
{
	socklen_t len;

	if (sel == A_WRONG_FAMILY)
		return make_wrong_family(k, id, a);
	len = make_addr(k, id, a);
	if (sel == A_UNSPEC)
		a->sa.sa_family = AF_UNSPEC;
	return len;
}

static void run_bind_or_connect(struct __test_metadata *_metadata,
				const struct kind *k,
				const struct case_def *cd, const char *label,
				int s, int id)
{
	union addr_buf a;
	socklen_t natural;
	int ret, err;

	(void)_metadata;
	natural = target_addr(k, cd->addr, cd->op == OP_BIND ? id :
			      id + PEER_OFFSET, &a);
	errno = 0;
	if (cd->op == OP_BIND)
		ret = bind(s, cd->addr == A_NULL ? NULL : &a.sa,
			   pick_len(k, cd->len, natural));
	else
		ret = connect(s, cd->addr == A_NULL ? NULL : &a.sa,
			      pick_len(k, cd->len, natural));
	err = ret ? errno : 0;
	printf("# obs %s.%s: ret=%d errno=%s\n", label,
	       cd->op == OP_BIND ? "bind" : "connect", ret, errno_name(err));
	if (ret)
		return;
	record_getname(label, "getsockname", k, s, getsockname,
		       sizeof(struct sockaddr_storage), 0);
	if (cd->op == OP_CONNECT)
		record_getname(label, "getpeername", k, s, getpeername,
			       sizeof(struct sockaddr_storage), 0);
}

static void run_case(struct __test_metadata *_metadata, const struct kind *k,
		     enum case_id c)
{
	const struct case_def *cd = &cases[c];
	int id = PORT_BASE + k->index * 256 + c;
	int need_peer = cd->op == OP_CONNECT || cd->op == OP_GETPEERNAME;
	int s, peer = -1;
	union addr_buf a;
	socklen_t len;
	char label[96];

	snprintf(label, sizeof(label), "%s.%s", k->name, cd->name);
	s = open_socket(k);
	ASSERT_LE(0, s) TH_LOG("socket(%s): %s", k->name, strerror(errno));
	if (need_peer)
		peer = open_peer(_metadata, k, id + PEER_OFFSET);

	if (cd->op == OP_GETSOCKNAME && cd->addr != A_UNBOUND) {
		len = make_addr(k, id, &a);
		ASSERT_EQ(0, bind(s, &a.sa, len))
			TH_LOG("bind(%s): %s", label, strerror(errno));
	}
	if (cd->op == OP_GETPEERNAME && cd->addr != A_UNBOUND) {
		len = make_addr(k, id + PEER_OFFSET, &a);
		ASSERT_EQ(0, connect(s, &a.sa, len))
			TH_LOG("connect(%s): %s", label, strerror(errno));
	}

	switch (cd->op) {
	case OP_BIND:
	case OP_CONNECT:
		run_bind_or_connect(_metadata, k, cd, label, s, id);
		break;
	case OP_GETSOCKNAME:
	case OP_GETPEERNAME:
		record_getname(label, cd->op == OP_GETSOCKNAME ?
			       "getsockname" : "getpeername", k, s,
			       cd->op == OP_GETSOCKNAME ? getsockname :
			       getpeername, pick_len(k, cd->len, 128),
			       cd->addr == A_NULL);
		break;
	}
	close(s);
	if (peer >= 0)
		close(peer);
}

/* Unix pathname sockets live in a private directory, removed at exit. */
static void __attribute__((constructor)) enter_sock_dir(void)
{
	sockdir_enter("sockaddr_basic");
}

static void __attribute__((destructor)) remove_sock_dir(void)
{
	sockdir_remove();
}

/*
 * One test per kind and syscall, running all of its cases: the harness
 * forks twice per test, and ~400 tests would be too slow under TCG.
 * The obs lines still name each case.
 */
static void run_op(struct __test_metadata *_metadata, const struct kind *k,
		   enum op op)
{
	for (int c = 0; c < NCASES; c++)
		if (cases[c].op == op)
			run_case(_metadata, k, c);
}

#define DEFINE_TEST(k, name, op)				\
	TEST_F(k, name)						\
	{							\
		(void)self;					\
		(void)variant;					\
		run_op(_metadata, &kinds[K_##k], op);		\
	}

#define DEFINE_KIND(k, fam, type, abs)				\
	FIXTURE(k) { int unused; };				\
	FIXTURE_SETUP(k) {}					\
	FIXTURE_TEARDOWN(k) {}					\
	DEFINE_TEST(k, bind, OP_BIND)				\
	DEFINE_TEST(k, connect, OP_CONNECT)			\
	DEFINE_TEST(k, getsockname, OP_GETSOCKNAME)		\
	DEFINE_TEST(k, getpeername, OP_GETPEERNAME)

/* The harness's TEST_F wrapper keeps a local across setjmp(). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wclobbered"
KINDS(DEFINE_KIND)
#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
