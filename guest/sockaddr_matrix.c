// SPDX-License-Identifier: GPL-2.0
/*
 * Record what every socket kind the guest kernel builds does with valid
 * and broken socket addresses: bind, connect, sendto, sendmsg (msg_name),
 * SCTP bindx/connectx, and the calls that write an address back
 * (getsockname, getpeername, accept, recvfrom).  Nothing is asserted
 * about the kernel's answers: the host diffs the obs lines of a baseline
 * and a patched kernel.
 *
 *   # obs <kind>.<op>_<variant>.<step>: ret=<int> errno=<ENAME|0>[ details]
 *
 * <variant> is the address tried: valid, len_{0,1,family,min_minus_1,
 * min,16,128,129,huge,neg}, null, unmapped (a munmap()ed page),
 * wrong_family, unspec, odd (copied to an odd address) and page_end (its
 * last byte is the last byte of a mapped page).  For calls that write an
 * address back the variant is the buffer instead, pre-filled with 0xa5,
 * plus unbound (getsockname/getpeername on a socket never bound or
 * connected).  Their details:
 *   len=<int>        the length the kernel wrote back (input if untouched)
 *   addr=<hex>       bytes written, min(input, returned length) of them;
 *                    bytes that vary between boots (ephemeral ports,
 *                    autobind names, ...) as XX
 *   tail=untouched|written  whether the rest of the caller's buffer kept
 *                    its fill pattern
 *   buf=untouched|written   (failed calls) whether the buffer changed
 * Setup steps (setup_bind, setup_connect, ...) are recorded too.  Each
 * case uses fresh nonblocking sockets.  A kind whose socket() fails
 * prints its errno and is skipped.
 *
 * One KTAP test per kind, matrix.<kind>.all (the harness forks per test;
 * ~7000 cases as separate tests would be far too slow under TCG).  Each
 * also prints
 *   # coverage <kind>: full|error-paths-only (why)
 * Kinds covered on their error paths only (the valid address cannot
 * succeed in the guest):
 *   appletalk   needs an AppleTalk interface (AARP probing takes seconds)
 *   ax25, netrom, rose  need hamradio devices, nodes and routes
 *   x25         connect/send need an X.25 route and LAPB device
 *   llc_stream  connect needs an LLC2 peer on the wire
 *   phonet_*    need a Phonet device with an address (none is virtual)
 *   ieee802154_* need a PAN id/short address set through nl802154
 *   atmpvc, atmsvc  need an ATM device (and atmsigd)
 *   mctp        send needs an MCTP-capable link and route
 *   xdp         bind needs a UMEM and rings
 *   smc4, smc6  no RDMA/ISM device: only the TCP fallback runs
 *   caif        needs a CAIF link device
 *   rxrpc       calls need control messages and a key
 *   kcm         has no addresses at all
 *   bt_l2cap, bt_sco, bt_rfcomm  connect needs a powered controller
 *   bt_iso      exists only after a mgmt experimental feature is set
 *   nfc_raw, nfc_llcp  connect needs an activated target / LLCP link
 *   pppoe, pptp, pppol2tp  need a server, GRE peer, L2TP tunnel
 *
 * Then blocking.<kind>.<op> for the inet (TCP, UDP) and unix (stream,
 * dgram; pathname, abstract) kinds and bind, connect, getsockname,
 * getpeername: the same cases on blocking sockets (a stream connect
 * completes before it returns, and what the socket then reports is
 * recorded), labelled <kind>.blocking_<op>_<variant>.  There the setup
 * must work: a socket, peer, bind or connect that fails, fails the test.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "matrix.h"
#include "suite_util.h"

#define FILL		0xa5
/*
 * A loopback handshake or datagram either arrives at once or never:
 * under TCG the slowest that arrived took 7 ms (24 ms with both host
 * cores busy beside the guest); the 120 waits per matrix run that time
 * out (tipc connect, sctp seqpacket accept, l2tp_ip self-send) did so
 * in every logged run.  250 ms keeps ten times that margin.
 */
#define WAIT_MS		250
#define KIND_ALARM	140	/* a hung kind dies alone, not the suite */
/* Not in glibc's headers (include/uapi/linux/sctp.h). */
#define SCTP_SOCKOPT_BINDX_ADD	100
#define SCTP_SOCKOPT_CONNECTX	110

enum op { OP_BIND, OP_CONNECT, OP_SENDTO, OP_SENDMSG, OP_BINDX,
	  OP_CONNECTX, OP_GETSOCKNAME, OP_GETPEERNAME, OP_ACCEPT,
	  OP_RECVFROM, NOPS };
static const char *const op_name[NOPS] = {
	"bind", "connect", "sendto", "sendmsg", "bindx", "connectx",
	"getsockname", "getpeername", "accept", "recvfrom",
};

enum var { V_VALID, V_LEN_0, V_LEN_1, V_LEN_FAMILY, V_LEN_MIN_M1,
	   V_LEN_MIN, V_LEN_16, V_LEN_128, V_LEN_129, V_LEN_HUGE,
	   V_LEN_NEG, V_NULL, V_UNMAPPED, V_WRONG_FAMILY, V_UNSPEC, V_ODD,
	   V_PAGE_END, V_UNBOUND, NVARS };
static const char *const var_name[NVARS] = {
	"valid", "len_0", "len_1", "len_family", "len_min_minus_1",
	"len_min", "len_16", "len_128", "len_129", "len_huge", "len_neg",
	"null", "unmapped", "wrong_family", "unspec", "odd", "page_end",
	"unbound",
};

/*
 * A case's id (its slot of the kind's ports): op * V_UNBOUND + variant,
 * then the two unbound cases (getsockname, getpeername) after them all.
 */
static int case_slot(enum op op, enum var v)
{
	if (v == V_UNBOUND)
		return NOPS * V_UNBOUND + op - OP_GETSOCKNAME;
	return op * V_UNBOUND + v;
}

_Static_assert(NOPS * V_UNBOUND + 2 <= PEER_SLOT,
	       "case ids would reach the peer's");

/* Regions for the unmapped, odd and page_end variants. */
static unsigned char *unmapped, *page_end;
static unsigned char odd_buf[ADDR_BUF + 1] __attribute__((aligned(8)));
static long page_size;

/* Set up once at start (guest only), reported by the kinds that use it. */
static int vhci_fd = -1, vhci_ret = -2, vhci_err, ping_ret = -2, ping_err;

/*
 * Set by a blocking test (to its metadata) in its own process: sockets
 * are then blocking, and a setup step that fails fails the test.
 */
static struct __test_metadata *strict;

static void obs(const char *label, const char *step, int ret, int err)
{
	printf("# obs %s.%s: ret=%d errno=%s\n", label, step, ret,
	       errno_name(ret < 0 ? err : 0));
}

/* Record a setup step; in a blocking test it must have worked. */
static void setup_obs(const char *label, const char *step, int ret, int err)
{
	struct __test_metadata *_metadata = strict;

	obs(label, step, ret, err);
	/* Braces: ASSERT_*() is more than one statement. */
	if (_metadata) {
		ASSERT_LE(0, ret) TH_LOG("%s.%s: %s", label, step,
					 strerror(err));
	}
}

static socklen_t pick_len(const struct kind *k, enum var v, socklen_t nat)
{
	switch (v) {
	case V_LEN_0: return 0;
	case V_LEN_1: return 1;
	case V_LEN_FAMILY: return sizeof(sa_family_t);
	case V_LEN_MIN_M1: return k->min_len - 1;
	case V_LEN_MIN: return k->min_len;
	case V_LEN_16: return 16;
	case V_LEN_128: return 128;
	case V_LEN_129: return 129;
	case V_LEN_HUGE: return 0x7fffffff;
	case V_LEN_NEG: return (socklen_t)-1;
	default: return nat;
	}
}

struct arg {
	void *ptr;
	socklen_t len;
};

/* The address argument of variant @v, based on @k's address @id. */
static struct arg addr_arg(const struct kind *k, enum var v, int id,
			   enum role r, union maddr *a)
{
	socklen_t nat;

	memset(a, 0, sizeof(*a));
	nat = v == V_WRONG_FAMILY ? wrong_family_addr(k, id, a) :
				    k->addr(k, id, r, a);
	if (v == V_UNSPEC)
		a->sa.sa_family = AF_UNSPEC;
	switch (v) {
	case V_NULL:
		return (struct arg){ NULL, nat };
	case V_UNMAPPED:
		return (struct arg){ unmapped, nat };
	case V_ODD:
		memcpy(odd_buf + 1, a->raw, ADDR_BUF);
		return (struct arg){ odd_buf + 1, nat };
	case V_PAGE_END:
		memcpy(page_end + page_size - nat, a->raw, nat);
		return (struct arg){ page_end + page_size - nat, nat };
	default:
		return (struct arg){ a->raw, pick_len(k, v, nat) };
	}
}

static struct arg valid_addr(const struct kind *k, int id, enum role r,
			     union maddr *a)
{
	return addr_arg(k, V_VALID, id, r, a);
}

static int open_sock(const struct kind *k)
{
	int one = 1, s = socket(k->family, k->type | SOCK_CLOEXEC |
				(strict ? 0 : SOCK_NONBLOCK), k->protocol);

	/* Reruns on a host must not trip over our own fixed ports. */
	if (s >= 0 && (k->flags & K_REUSE))
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/*
	 * x25_accept() and llc_ui_accept() wait for sk_rcvtimeo even on a
	 * nonblocking socket: bound that wait instead of hanging the kind.
	 */
	if (s >= 0) {
		struct timeval tv = { .tv_usec = 300000 };

		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	/* A blocking connect that never completes must not hang the test. */
	if (s >= 0 && strict) {
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	return s;
}

static void wait_for(int s, short events)
{
	struct pollfd p = { .fd = s, .events = events };

	poll(&p, 1, WAIT_MS);
}

/* Unix pathname sockets leave their file behind. */
static void unlink_addr(const struct kind *k, const union maddr *a)
{
	const struct sockaddr_un *un = (const void *)a->raw;

	if (k->family == AF_UNIX && un->sun_path[0])
		unlink(un->sun_path);
}

/*
 * Something to reach: bound (and listening) at the kind's peer id.
 * *@ready says whether it is, so nobody waits for a handshake that
 * cannot happen (vsock without a loopback transport, ...).
 */
static int open_peer(const struct kind *k, const char *label, int *ready)
{
	union maddr a;
	struct arg v;
	int s, ret;

	*ready = 0;
	if (!(k->flags & K_PEER))
		return -1;
	s = open_sock(k);
	if (s < 0) {
		setup_obs(label, "peer_socket", s, errno);
		return -1;
	}
	v = valid_addr(k, kind_port(k, PEER_SLOT), ROLE_SELF, &a);
	unlink_addr(k, &a);
	ret = bind(s, v.ptr, v.len);
	if (ret)
		setup_obs(label, "peer_bind", ret, errno);
	if (!ret && (k->flags & K_LISTEN) && (ret = listen(s, 8)))
		setup_obs(label, "peer_listen", ret, errno);
	*ready = !ret;
	return s;
}

static int untouched(const unsigned char *b, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (b[i] != FILL)
			return 0;
	return 1;
}

/*
 * Print what a call wrote to (@buf, @len in, @out_len out); @full is the
 * address the socket really has, to recognise bytes that vary by boot.
 */
static void show_addr(const struct kind *k, int id, const unsigned char *buf,
		      size_t cap, socklen_t in_len, socklen_t out_len,
		      int ok, const union maddr *full, socklen_t full_len)
{
	size_t shown, lim = (int)in_len < 0 ? 0 : in_len;

	printf(" len=%d", (int)out_len);
	if (!buf || !cap) {
		putchar('\n');
		return;
	}
	if (!ok) {
		printf(" buf=%s\n", untouched(buf, 0, cap) ? "untouched" :
		       "written");
		return;
	}
	shown = out_len < lim ? out_len : lim;
	if (shown > cap)
		shown = cap;
	fputs(" addr=", stdout);
	for (size_t i = 0; i < shown; i++) {
		if (addr_varies(k, id, full->raw, full_len, i))
			fputs("XX", stdout);
		else
			printf("%02x", buf[i]);
	}
	printf(" tail=%s\n", untouched(buf, shown, cap) ? "untouched" :
	       "written");
}

typedef int (*getname_fn)(int, struct sockaddr *, socklen_t *);

static socklen_t full_name(int s, getname_fn fn, union maddr *full)
{
	socklen_t len = sizeof(*full);

	memset(full, 0, sizeof(*full));
	return fn(s, &full->sa, &len) ? 0 : len;
}

/* After a successful bind/connect: what the socket now reports. */
static void record_name(const struct kind *k, int id, const char *label,
			const char *step, int s, getname_fn fn)
{
	union maddr full, a;
	socklen_t full_len = full_name(s, fn, &full), len = 128;
	int ret;

	memset(&a, FILL, sizeof(a));
	errno = 0;
	ret = fn(s, &a.sa, &len);
	printf("# obs %s.%s: ret=%d errno=%s", label, step, ret,
	       errno_name(ret ? errno : 0));
	show_addr(k, id, a.raw, ADDR_BUF, 128, len, !ret, &full, full_len);
}

struct gbuf {
	unsigned char *ptr;
	socklen_t len;
	size_t cap;		/* bytes of it we may inspect */
};

/* The buffer of variant @v for a call that writes an address back. */
static struct gbuf getname_buf(const struct kind *k, enum var v, int id,
			       union maddr *a)
{
	socklen_t nat = k->addr(k, id, ROLE_SELF, a);

	memset(a, FILL, sizeof(*a));
	memset(odd_buf, FILL, sizeof(odd_buf));
	memset(page_end, FILL, page_size);
	switch (v) {
	case V_NULL:
		return (struct gbuf){ NULL, 128, 0 };
	case V_UNMAPPED:
		return (struct gbuf){ unmapped, 128, 0 };
	case V_ODD:
		return (struct gbuf){ odd_buf + 1, 128, ADDR_BUF };
	case V_PAGE_END:
		return (struct gbuf){ page_end + page_size - nat, nat, nat };
	case V_VALID:
	case V_UNBOUND:
		return (struct gbuf){ a->raw, 128, ADDR_BUF };
	default:
		return (struct gbuf){ a->raw, pick_len(k, v, nat), ADDR_BUF };
	}
}

static const unsigned char *payload(const struct kind *k, size_t *len)
{
	/* ICMP/ICMPv6 echo request header; ping sockets need one. */
	static const unsigned char echo4[8] = { 8 }, echo6[8] = { 128 };

	if (k->flags & K_PING) {
		*len = sizeof(echo4);
		return k->family == AF_INET ? echo4 : echo6;
	}
	*len = 1;
	return (const unsigned char *)"x";
}

static int do_send(const struct kind *k, int s, enum op op, struct arg to)
{
	size_t plen;
	const unsigned char *p = payload(k, &plen);
	struct iovec iov = { (void *)p, plen };
	struct msghdr mh = { .msg_name = to.ptr, .msg_namelen = to.len,
			     .msg_iov = &iov, .msg_iovlen = 1 };
	int flags = MSG_DONTWAIT | MSG_NOSIGNAL;

	if (op == OP_SENDMSG)
		return sendmsg(s, &mh, flags);
	return sendto(s, p, plen, flags, to.ptr, to.len);
}

/* Call @op (an address-writing one) on @s with buffer variant @v. */
static void run_getname(const struct kind *k, int id, const char *label,
			enum op op, enum var v, int s)
{
	union maddr a, full;
	struct gbuf g = getname_buf(k, v, id, &a);
	socklen_t len = g.len, full_len = 0;
	char data[64];
	int ret, err;

	if (op == OP_GETSOCKNAME || op == OP_GETPEERNAME)
		full_len = full_name(s, op == OP_GETSOCKNAME ? getsockname :
				     getpeername, &full);
	errno = 0;
	switch (op) {
	case OP_GETSOCKNAME:
		ret = getsockname(s, (void *)g.ptr, &len);
		break;
	case OP_GETPEERNAME:
		ret = getpeername(s, (void *)g.ptr, &len);
		break;
	case OP_ACCEPT:
		ret = accept4(s, (void *)g.ptr, &len,
			      SOCK_NONBLOCK | SOCK_CLOEXEC);
		break;
	default:
		ret = recvfrom(s, data, sizeof(data), MSG_DONTWAIT,
			       (void *)g.ptr, &len);
		break;
	}
	err = errno;
	/* What was really written: the new socket's peer, or ourselves. */
	if (op == OP_ACCEPT && ret >= 0)
		full_len = full_name(ret, getpeername, &full);
	if (op == OP_RECVFROM && ret >= 0)
		full_len = full_name(s, getsockname, &full);
	printf("# obs %s.%s: ret=%d errno=%s", label, op_name[op], ret,
	       errno_name(ret < 0 ? err : 0));
	show_addr(k, id, g.ptr, g.cap, g.len, len, ret >= 0, &full, full_len);
	if (op == OP_ACCEPT && ret >= 0)
		close(ret);
}

/* Bind @s to its valid address, recording the outcome. */
static int setup_bind(const struct kind *k, int id, const char *label, int s)
{
	union maddr a;
	struct arg v = valid_addr(k, id, ROLE_SELF, &a);
	int ret = bind(s, v.ptr, v.len);

	setup_obs(label, "setup_bind", ret, errno);
	return ret;
}

static int setup_connect(const struct kind *k, int id, enum role r,
			 const char *label, int s, int ready)
{
	union maddr a;
	struct arg v = valid_addr(k, id, r, &a);
	int ret = connect(s, v.ptr, v.len);

	setup_obs(label, "setup_connect", ret, errno);
	/* Loopback handshakes finish quickly; don't race with them. */
	if (ret && errno == EINPROGRESS && ready && (k->flags & K_LISTEN))
		wait_for(s, POLLOUT);
	return ret;
}

/* bind/connect/sendto/sendmsg/bindx/connectx with address variant @v. */
static void run_addr_op(const struct kind *k, int id, const char *label,
			enum op op, enum var v, int s)
{
	int peer_id = kind_port(k, PEER_SLOT);
	int self = op == OP_BIND || op == OP_BINDX;
	union maddr a;
	struct arg to = addr_arg(k, v, self ? id : peer_id,
				 self ? ROLE_SELF : ROLE_PEER, &a);
	int ret, opt;

	errno = 0;
	switch (op) {
	case OP_BIND:
		ret = bind(s, to.ptr, to.len);
		break;
	case OP_CONNECT:
		ret = connect(s, to.ptr, to.len);
		break;
	case OP_BINDX:
	case OP_CONNECTX:
		opt = op == OP_BINDX ? SCTP_SOCKOPT_BINDX_ADD :
				       SCTP_SOCKOPT_CONNECTX;
		ret = setsockopt(s, IPPROTO_SCTP, opt, to.ptr, to.len);
		break;
	default:
		ret = do_send(k, s, op, to);
		break;
	}
	/* connectx returns an association id: global, varies by run. */
	if (op == OP_CONNECTX && ret > 0)
		ret = 1;
	obs(label, op_name[op], ret, errno);
	if (ret < 0 || op == OP_SENDTO || op == OP_SENDMSG)
		return;
	record_name(k, id, label, "getsockname", s, getsockname);
	if (op == OP_CONNECT)
		record_name(k, id, label, "getpeername", s, getpeername);
}

/* A listener on @id with a client connected to it; returns the client. */
static int setup_accept(const struct kind *k, int id, const char *label,
			int s)
{
	int ret, c, cret;

	if (setup_bind(k, id, label, s) || (k->flags & K_ALG))
		return -1;
	ret = listen(s, 8);
	obs(label, "setup_listen", ret, errno);
	c = open_sock(k);
	if (c < 0)
		return -1;
	cret = setup_connect(k, id, ROLE_PEER, label, c, !ret);
	if (!ret && (!cret || errno == EINPROGRESS) && (k->flags & K_LISTEN))
		wait_for(s, POLLIN);
	return c;
}

/* Send to ourselves, so recvfrom has a datagram with our address. */
static void setup_self_send(const struct kind *k, int id, const char *label,
			    int s)
{
	union maddr a;
	int ret;

	if (setup_bind(k, id, label, s))
		return;
	ret = do_send(k, s, OP_SENDTO, valid_addr(k, id, ROLE_PEER, &a));
	obs(label, "setup_send", ret, errno);
	if (ret >= 0)
		wait_for(s, POLLIN);
}

static void run_case(const struct kind *k, enum op op, enum var v)
{
	int id = kind_port(k, case_slot(op, v));
	int s, peer = -1, other = -1, ready;
	char label[128];

	snprintf(label, sizeof(label), "%s.%s%s_%s", k->name,
		 strict ? "blocking_" : "", op_name[op], var_name[v]);
	s = open_sock(k);
	if (s < 0) {
		setup_obs(label, "socket", s, errno);
		return;
	}
	switch (op) {
	case OP_GETSOCKNAME:
		if (v != V_UNBOUND)
			setup_bind(k, id, label, s);
		run_getname(k, id, label, op, v, s);
		break;
	case OP_GETPEERNAME:
		if (v != V_UNBOUND) {
			peer = open_peer(k, label, &ready);
			setup_connect(k, kind_port(k, PEER_SLOT), ROLE_PEER,
				      label, s, ready);
		}
		run_getname(k, id, label, op, v, s);
		break;
	case OP_ACCEPT:
		other = setup_accept(k, id, label, s);
		run_getname(k, id, label, op, v, s);
		break;
	case OP_RECVFROM:
		setup_self_send(k, id, label, s);
		run_getname(k, id, label, op, v, s);
		break;
	default:
		if (op != OP_BIND && op != OP_BINDX)
			peer = open_peer(k, label, &ready);
		run_addr_op(k, id, label, op, v, s);
		break;
	}
	close(s);
	if (peer >= 0)
		close(peer);
	if (other >= 0)
		close(other);
}

static int op_applies(const struct kind *k, enum op op, enum var v)
{
	int getname = op >= OP_GETSOCKNAME;

	if (getname && (v == V_WRONG_FAMILY || v == V_UNSPEC))
		return 0;	/* the buffer has no family */
	if (v == V_UNBOUND)
		return op == OP_GETSOCKNAME || op == OP_GETPEERNAME;
	switch (op) {
	case OP_BINDX:
	case OP_CONNECTX:
		return !!(k->flags & K_SCTP);
	case OP_ACCEPT:
		/* Where unsupported, one case records how it fails. */
		return (k->flags & (K_LISTEN | K_ALG)) || v == V_VALID;
	case OP_RECVFROM:
		return !!(k->flags & K_SELF);
	default:
		return 1;
	}
}

static int map_regions(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	unmapped = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	page_end = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || page_end == MAP_FAILED)
		return -1;
	return munmap(unmapped, page_size) ||
	       munmap(page_end + page_size, page_size);
}

/* Only in the guest (-2: not attempted on a host). */
static void print_setup(const struct kind *k)
{
	if ((k->flags & K_PING) && ping_ret != -2)
		printf("# obs %s.setup.ping_group_range: ret=%d errno=%s\n",
		       k->name, ping_ret, errno_name(ping_ret < 0 ? ping_err : 0));
	if (k->family == AF_BLUETOOTH && k->protocol == 1 && vhci_ret != -2)
		printf("# obs %s.setup.vhci: ret=%d errno=%s\n", k->name,
		       vhci_ret, errno_name(vhci_ret < 0 ? vhci_err : 0));
}

static void run_kind(struct __test_metadata *_metadata, const struct kind *k)
{
	int s;

	alarm(KIND_ALARM);
	signal(SIGPIPE, SIG_IGN);
	if (k->limit)
		printf("# coverage %s: error-paths-only (%s)\n", k->name,
		       k->limit);
	else
		printf("# coverage %s: full\n", k->name);
	print_setup(k);
	s = open_sock(k);
	if (s < 0) {
		int err = errno;

		obs(k->name, "socket", s, err);
		SKIP(return, "socket: %s", errno_name(err));
	}
	close(s);
	ASSERT_EQ(0, map_regions()) TH_LOG("mmap: %s", strerror(errno));
	for (int op = 0; op < NOPS; op++)
		for (int v = 0; v < NVARS; v++)
			if (op_applies(k, op, v))
				run_case(k, op, v);
}

/* Unix pathname sockets live in a private directory, removed at exit. */

/*
 * Guest only: ping sockets for root's group, and a virtual Bluetooth
 * controller (hci0).  The controller lives as long as /dev/vhci stays
 * open, so it is created here, in the parent, not by a suite that exits.
 * Its power-on fails (nobody answers vhci), which leaves it down.
 */
static void guest_setup(void)
{
	static const unsigned char create[2] = { 0xff, 0x00 };
	int fd;

	if (!in_test_guest())
		return;
	fd = open("/proc/sys/net/ipv4/ping_group_range", O_WRONLY);
	ping_ret = fd < 0 ? -1 : write(fd, "0 0", 3) == 3 ? 0 : -1;
	ping_err = errno;
	if (fd >= 0)
		close(fd);
	vhci_fd = open("/dev/vhci", O_RDWR | O_CLOEXEC);
	vhci_ret = vhci_fd < 0 ? -1 : write(vhci_fd, create, 2) == 2 ? 0 : -1;
	vhci_err = errno;
}

static void __attribute__((constructor)) matrix_start(void)
{
	sockdir_enter("sockaddr_matrix");
	guest_setup();
}

static void __attribute__((destructor)) matrix_end(void)
{
	sockdir_remove();
}

FIXTURE(matrix) { int unused; };
FIXTURE_VARIANT(matrix) { int kind; };
FIXTURE_SETUP(matrix) {}
FIXTURE_TEARDOWN(matrix) {}

#define KIND_VARIANT(n, ...) \
	FIXTURE_VARIANT_ADD(matrix, n) { .kind = K_##n };
KINDS(KIND_VARIANT)

/* The harness's TEST_F wrapper keeps a local across setjmp(). */
#pragma GCC diagnostic push
#ifndef __clang__ /* gcc's warning: clang has no such group */
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
TEST_F_TIMEOUT(matrix, all, KIND_ALARM + 10)
{
	(void)self;
	run_kind(_metadata, &kinds[variant->kind]);
}
#pragma GCC diagnostic pop

/*
 * The blocking tests: one per kind and call, each in a private directory
 * of its own (the matrix's pathname sockets are still bound in the
 * suite's).
 */
static void run_blocking(struct __test_metadata *_metadata,
			 const struct kind *k, enum op op)
{
	strict = _metadata;
	ASSERT_EQ(0, map_regions()) TH_LOG("mmap: %s", strerror(errno));
	for (int v = 0; v < NVARS; v++)
		if (op_applies(k, op, v))
			run_case(k, op, v);
}

FIXTURE(blocking) { int unused; };
FIXTURE_VARIANT(blocking) { int kind; };
FIXTURE_SETUP(blocking)
{
	sockdir_enter("sockaddr_matrix_blocking");
}
FIXTURE_TEARDOWN(blocking)
{
	sockdir_remove();
}

#define BLOCKING_KINDS(X) \
	X(inet4_tcp) X(inet4_udp) X(inet6_tcp) X(inet6_udp) \
	X(unix_stream) X(unix_dgram) X(unix_abstract_stream) \
	X(unix_abstract_dgram)
#define BLOCKING_VARIANT(n) \
	FIXTURE_VARIANT_ADD(blocking, n) { .kind = K_##n };
BLOCKING_KINDS(BLOCKING_VARIANT)

#define BLOCKING_TEST(name, op)						\
	TEST_F(blocking, name)						\
	{								\
		(void)self;						\
		run_blocking(_metadata, &kinds[variant->kind], op);	\
	}

#pragma GCC diagnostic push
#ifndef __clang__ /* gcc's warning: clang has no such group */
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
BLOCKING_TEST(bind, OP_BIND)
BLOCKING_TEST(connect, OP_CONNECT)
BLOCKING_TEST(getsockname, OP_GETSOCKNAME)
BLOCKING_TEST(getpeername, OP_GETPEERNAME)
#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
