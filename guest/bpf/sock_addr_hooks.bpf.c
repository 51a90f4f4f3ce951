// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup sock_addr programs for guest/bpf_sock_addr.c: each one rewrites
 * or rejects the addresses of a few fixed ports (or unix paths) and
 * records what it saw in the "obs" array.  Everything else passes.
 *
 * Built twice by guest/bpf.mk:
 *   sock_addr_hooks.bpf.o   the programs below (no kfunc, no CO-RE: they
 *                           load on a kernel without BTF)
 *   sock_addr_kfunc.bpf.o   -DKFUNC_PROBE: only a connect_unix program that
 *                           rewrites the path with the kfunc
 *                           bpf_sock_addr_set_sun_path(), which needs
 *                           kernel BTF (CONFIG_DEBUG_INFO_BTF)
 *
 * The hook ids and obs slots are in sock_addr_hooks.h, shared with the
 * loader (loader.c) and the tests (guest/bpf_sock_addr.c); the ports and
 * paths each case uses are named here and in the tests, next to the case.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "sock_addr_hooks.h"

#define AF_UNIX		1
#define AF_INET		2
#define AF_INET6	10

char _license[] SEC("license") = "GPL";

/* The UAPI layouts (no libc headers for -target bpf). */
struct sa_in {
	__u16 family;
	__be16 port;
	__be32 addr;
	__u8 zero[8];
};

struct sa_in6 {
	__u16 family;
	__be16 port;
	__be32 flowinfo;
	__be32 addr[4];
	__u32 scope_id;
};

#ifndef KFUNC_PROBE

/* enum hook, OBS(): sock_addr_hooks.h, shared with the loader. */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, OBS_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} obs SEC(".maps");

static __always_inline void put(__u32 slot, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&obs, &slot);

	if (p)
		*p = v;
}

static __always_inline void record(enum hook h, struct bpf_sock_addr *ctx,
				   __u32 port)
{
	__u32 slot = OBS(h, 0);
	__u64 *calls = bpf_map_lookup_elem(&obs, &slot);

	if (calls)
		__sync_fetch_and_add(calls, 1);
	put(OBS(h, 1), ctx->user_family);
	put(OBS(h, 2), ctx->type << 8 | ctx->protocol);
	put(OBS(h, 3), port);
}

/* The program of section cgroup/<name>, named <name>: returns @body. */
#define PROG(name, body)						\
	SEC("cgroup/" #name)						\
	int name(struct bpf_sock_addr *ctx)				\
	{								\
		return body;						\
	}

#define IP4(a, b, c, d)	bpf_htonl((a) << 24 | (b) << 16 | (c) << 8 | (d))
#define LOOPBACK4	IP4(127, 0, 0, 1)
#define TEST_NET4	IP4(10, 9, 9, 9)	/* nothing there */

static __always_inline void set_ip6(struct bpf_sock_addr *ctx, __u32 a,
				    __u32 b, __u32 c, __u32 d)
{
	ctx->user_ip6[0] = bpf_htonl(a);
	ctx->user_ip6[1] = bpf_htonl(b);
	ctx->user_ip6[2] = bpf_htonl(c);
	ctx->user_ip6[3] = bpf_htonl(d);
}

#define SET_LOOPBACK6(ctx)	set_ip6(ctx, 0, 0, 0, 1)
/* 2001:db8::n, the documentation prefix: nothing there. */
#define SET_DOC6(ctx, n)	set_ip6(ctx, 0x20010db8, 0, 0, n)

static __always_inline void set_port(struct bpf_sock_addr *ctx, __u16 port)
{
	ctx->user_port = bpf_htons(port);
}

/* Refuse port @refused, rewrite port @from to @to. */
static __always_inline int bind_hook(enum hook h, struct bpf_sock_addr *ctx,
				     __u16 refused, __u16 from, __u16 to)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	record(h, ctx, port);
	if (port == refused)
		return 0;
	if (port == from)
		set_port(ctx, to);
	return 1;
}

/* bind: 21001 -> 21002 (v4), 21101 -> 21102 (v6); 21003/21103 refused. */
PROG(bind4, bind_hook(H_BIND4, ctx, 21003, 21001, 21002))
PROG(bind6, bind_hook(H_BIND6, ctx, 21103, 21101, 21102))

/*
 * connect4: 21201 -> 21202 (TCP test), 21211 -> 21212 (UDP test),
 * 10.9.9.9:21231 -> 127.0.0.1:21232, 21219 refused.  21221, 21224 and
 * 21227: the kernel-side bpf_bind() helper binds the socket first with
 * an address of ours (valid, too short, port 0).
 */
SEC("cgroup/connect4")
int connect4(struct bpf_sock_addr *ctx)
{
	__u16 port = bpf_ntohs(ctx->user_port);
	struct sa_in sa = { .family = AF_INET };

	record(H_CONNECT4, ctx, port);
	switch (port) {
	case 21219:
		return 0;
	case 21201:
		set_port(ctx, 21202);
		break;
	case 21211:
		set_port(ctx, 21212);
		break;
	case 21231:
		ctx->user_ip4 = LOOPBACK4;
		set_port(ctx, 21232);
		break;
	case 21221:
		sa.addr = LOOPBACK4;
		sa.port = bpf_htons(21222);
		put(OBS_BIND_RET + 0, bpf_bind(ctx, (void *)&sa, sizeof(sa)));
		break;
	case 21224:
		sa.addr = LOOPBACK4;
		sa.port = bpf_htons(21225);
		put(OBS_BIND_RET + 1, bpf_bind(ctx, (void *)&sa, 8));
		break;
	case 21227:
		sa.addr = IP4(127, 0, 0, 2);
		put(OBS_BIND_RET + 2, bpf_bind(ctx, (void *)&sa, sizeof(sa)));
		break;
	}
	return 1;
}

/*
 * connect6: 21301 -> 21302 (TCP), 21311 -> 21312 (UDP),
 * [2001:db8::1]:21331 -> [::1]:21332, 21319 refused, 21321: bpf_bind()
 * to [::1]:21322 first.
 */
SEC("cgroup/connect6")
int connect6(struct bpf_sock_addr *ctx)
{
	__u16 port = bpf_ntohs(ctx->user_port);
	struct sa_in6 sa = { .family = AF_INET6 };

	record(H_CONNECT6, ctx, port);
	switch (port) {
	case 21319:
		return 0;
	case 21301:
		set_port(ctx, 21302);
		break;
	case 21311:
		set_port(ctx, 21312);
		break;
	case 21331:
		SET_LOOPBACK6(ctx);
		set_port(ctx, 21332);
		break;
	case 21321:
		sa.addr[3] = bpf_htonl(1);
		sa.port = bpf_htons(21322);
		put(OBS_BIND_RET + 3, bpf_bind(ctx, (void *)&sa, sizeof(sa)));
		break;
	}
	return 1;
}

/*
 * sendmsg4 (unconnected UDP): 10.9.9.9:21401 -> 127.0.0.1:21402 from
 * source 127.0.0.2; 21421 -> 21422 (v4-mapped from an IPv6 socket);
 * 10.9.9.9:21431 -> 127.0.0.1:21433 (recvmsg4 maps the reply back);
 * 21409 refused.
 */
SEC("cgroup/sendmsg4")
int sendmsg4(struct bpf_sock_addr *ctx)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	record(H_SENDMSG4, ctx, port);
	switch (port) {
	case 21409:
		return 0;
	case 21401:
		ctx->user_ip4 = LOOPBACK4;
		set_port(ctx, 21402);
		ctx->msg_src_ip4 = IP4(127, 0, 0, 2);
		break;
	case 21421:
		set_port(ctx, 21422);
		break;
	case 21431:
		ctx->user_ip4 = LOOPBACK4;
		set_port(ctx, 21433);
		break;
	}
	return 1;
}

/*
 * recvmsg and getname programs: port @from (from the address @only, if
 * not 0) reads as TEST_NET4:@to, or as 2001:db8::@n6:@to.
 */
static __always_inline int rename4(enum hook h, struct bpf_sock_addr *ctx,
				   __u16 from, __be32 only, __u16 to)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	record(h, ctx, port);
	if (port == from && (!only || ctx->user_ip4 == only)) {
		ctx->user_ip4 = TEST_NET4;
		set_port(ctx, to);
	}
	return 1;
}

static __always_inline int rename6(enum hook h, struct bpf_sock_addr *ctx,
				   __u16 from, __u32 n6, __u16 to)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	record(h, ctx, port);
	if (port == from) {
		SET_DOC6(ctx, n6);
		set_port(ctx, to);
	}
	return 1;
}

/* recvmsg4: a datagram from 127.0.0.1:21433 reads as from 10.9.9.9:21431. */
PROG(recvmsg4, rename4(H_RECVMSG4, ctx, 21433, LOOPBACK4, 21431))

/*
 * sendmsg6: [2001:db8::1]:21501 -> [::1]:21502, 21509 refused,
 * [2001:db8::1]:21531 -> [::1]:21533 (recvmsg6 maps the reply back).
 */
SEC("cgroup/sendmsg6")
int sendmsg6(struct bpf_sock_addr *ctx)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	record(H_SENDMSG6, ctx, port);
	switch (port) {
	case 21509:
		return 0;
	case 21501:
		SET_LOOPBACK6(ctx);
		set_port(ctx, 21502);
		break;
	case 21531:
		SET_LOOPBACK6(ctx);
		set_port(ctx, 21533);
		break;
	}
	return 1;
}

/* recvmsg6: a datagram from [::1]:21533 reads as from [2001:db8::1]:21531. */
PROG(recvmsg6, rename6(H_RECVMSG6, ctx, 21533, 1, 21531))

/* getsockname: 21601 reads as 10.9.9.9:21602, 21701 as [2001:db8::1]:21702. */
PROG(getsockname4, rename4(H_GETSOCKNAME4, ctx, 21601, 0, 21602))
PROG(getsockname6, rename6(H_GETSOCKNAME6, ctx, 21701, 1, 21702))

/* getpeername: 21611 reads as 10.9.9.9:21612, 21711 as [2001:db8::2]:21712. */
PROG(getpeername4, rename4(H_GETPEERNAME4, ctx, 21611, 0, 21612))
PROG(getpeername6, rename6(H_GETPEERNAME6, ctx, 21711, 2, 21712))
#if HAVE_UNIX_SOCK_ADDR_HOOKS	/* 0: not in the tree's uapi (guest/bpf.mk) */
/*
 * AF_UNIX hooks.  Without kernel BTF there is no kfunc, hence no
 * bpf_sock_addr_set_sun_path(); but the verifier lets unix programs use
 * ctx->user_port, which is 2 bytes at offset 2 of the address: the
 * first two bytes of sun_path.  These programs read (and for a rewrite
 * write) those two bytes, as raw memory (stored unswapped):
 *   connect/sendmsg: "rj..." and abstract "\0r..." refused,
 *                    "ua..." rewritten to "ub..."
 *   recvmsg:         a sender "sa..." reads as "sz..."
 *   getsockname:     "ga..." reads as "gz..."
 *   getpeername:     "pa..." reads as "pz..."
 */
#define PATH2(a, b)	((__u16)((__u8)(a) | (__u8)(b) << 8))	/* little endian */

static __always_inline __u16 path2(struct bpf_sock_addr *ctx)
{
	return ctx->user_port;
}

static __always_inline void set_path2(struct bpf_sock_addr *ctx, __u16 v)
{
	ctx->user_port = v;
}

static __always_inline int unix_filter(enum hook h, struct bpf_sock_addr *ctx)
{
	__u16 p = path2(ctx);

	record(h, ctx, p);
	if (p == PATH2('r', 'j') || p == PATH2(0, 'r'))
		return 0;
	if (p == PATH2('u', 'a'))
		set_path2(ctx, PATH2('u', 'b'));
	return 1;
}

PROG(connect_unix, unix_filter(H_CONNECT_UNIX, ctx))
PROG(sendmsg_unix, unix_filter(H_SENDMSG_UNIX, ctx))

static __always_inline int unix_rename(enum hook h, struct bpf_sock_addr *ctx,
				       __u16 from, __u16 to)
{
	__u16 p = path2(ctx);

	record(h, ctx, p);
	if (p == from)
		set_path2(ctx, to);
	return 1;
}

PROG(recvmsg_unix,
     unix_rename(H_RECVMSG_UNIX, ctx, PATH2('s', 'a'), PATH2('s', 'z')))

PROG(getsockname_unix,
     unix_rename(H_GETSOCKNAME_UNIX, ctx, PATH2('g', 'a'), PATH2('g', 'z')))

PROG(getpeername_unix,
     unix_rename(H_GETPEERNAME_UNIX, ctx, PATH2('p', 'a'), PATH2('p', 'z')))
#endif /* HAVE_UNIX_SOCK_ADDR_HOOKS */
#elif HAVE_UNIX_SOCK_ADDR_HOOKS	/* KFUNC_PROBE; without: no program */

/*
 * The upstream way to rewrite a unix path (selftests' connect_unix_prog.c):
 * connecting to "ka.sock" connects to "kfunc_target.sock".  Both kfuncs
 * are resolved by libbpf against the kernel's BTF.  libbpf requires the
 * same BTF kind on both sides of a pointer argument, so the struct must
 * be defined here (a bare declaration is a FWD, the kernel's a STRUCT;
 * members are not compared).  Its first member as in 6.12's
 * include/linux/filter.h; the program never reads it.
 */
struct bpf_sock_addr_kern {
	struct sock *sk;
};

extern void *bpf_cast_to_kern_ctx(void *obj) __ksym;
extern int bpf_sock_addr_set_sun_path(struct bpf_sock_addr_kern *sa_kern,
				      const __u8 *sun_path,
				      __u32 sun_path__sz) __ksym;

/*
 * A writable global, as in upstream's connect_unix_prog.c: 6.12's
 * verifier treats a kfunc's memory argument as writable and refuses a
 * string from .rodata ("write into map forbidden").
 */
__u8 kfunc_target[] = "kfunc_target.sock";

SEC("cgroup/connect_unix")
int connect_unix_kfunc(struct bpf_sock_addr *ctx)
{
	struct bpf_sock_addr_kern *sa_kern = bpf_cast_to_kern_ctx(ctx);
	__u16 p = ctx->user_port;

	if (p != (__u16)('k' | 'a' << 8))
		return 1;
	if (bpf_sock_addr_set_sun_path(sa_kern, kfunc_target,
				       sizeof(kfunc_target) - 1))
		return 0;
	return 1;
}

#endif /* KFUNC_PROBE */
