/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared parts of the sockaddr fuzzer: the PRNG, the call record the
 * generator fills and the executor runs, and the netdev side.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <sys/socket.h>

/* sa_data's 14 bytes: the paths are about hardware addresses longer. */
#define FZ_SA_DATA_LEN	((int)sizeof(((struct sockaddr *)0)->sa_data))

/* splitmix64: tiny, and every output depends on the whole state. */
static inline uint64_t fz_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct fz_rng {
	uint64_t s;
};

static inline uint64_t fz_next(struct fz_rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return fz_mix64(r->s);
}

/* Uniform in [0, n) without a division. */
static inline uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	return (uint32_t)(((fz_next(r) >> 32) * n) >> 32);
}

/* Fill @len bytes from the content seed @c (the executor's side). */
void fz_fill(void *buf, unsigned long len, uint32_t c);

/* Netdev side (fuzz_net.c). */
enum { NET_HWADDR, NET_HWBCAST, NET_ADDMULTI, NET_DELMULTI, NET_GETHW,
       NET_NLADDR, NET_ARP_SET, NET_ARP_GET, NET_ARP_DEL, NET_LINK,
       NET_MASTER, NET_BOND_MODE };

struct fz_netcall {
	int what;	/* NET_* */
	int dev;	/* index into the device table; -1: none (arp) */
	int fam;	/* sa_family to write; -1: the device's type */
	int len, len2;	/* IFLA_ADDRESS / IFLA_BROADCAST lengths, -1: absent */
	int arg;	/* arp flags, up/down, master device, rtm type, bond mode */
	uint32_t ip;	/* arp_pa, host order */
	uint32_t c;	/* content seed */
};

extern const int fz_ndevs;
/* Table indices of the devices others can be enslaved to. */
#define FZ_DEV_BOND	6
#define FZ_DEV_TEAM	7
const char *fz_dev_name(int i);
/*
 * The addr_len device @i is made with (not what the guest has now): the
 * generator, which never looks at the guest, leans on it to reach the
 * paths where an address longer than sa_data meets a struct sockaddr.
 */
int fz_dev_alen0(int i);
/* Create the devices, print one line each; 0 or -errno (no ctl socket). */
int fz_net_setup(void);
void fz_net_done(void);
/* Run one call; returns >= 0 or -errno.  Counts it on its paths. */
int fz_net_exec(const struct fz_netcall *n);
/* One "# fuzz: path NAME calls=N ok=M" line per set-address path. */
void fz_net_print_paths(void);

/* --- calls (fuzz_gen.c makes them, fuzz.c runs them) */

#define FZ_SLOTS	16

enum { OP_OPEN, OP_CLOSE, OP_BIND, OP_CONNECT, OP_LISTEN, OP_SENDTO,
       OP_SENDMSG, OP_GETSOCKNAME, OP_GETPEERNAME, OP_SETSOCKOPT,
       OP_GETSOCKOPT, OP_NET, FZ_NOPS = OP_NET + NET_BOND_MODE + 1 };
extern const char *const fz_op_name[FZ_NOPS];

enum { PLACE_NORMAL, PLACE_TAIL, PLACE_NULL };
enum { FILL_VALID, FILL_MUT, FILL_RAND, FILL_ZERO, FILL_INT, FILL_FF };

/* A buffer the kernel reads (address, option) or writes (getname). */
struct fz_buf {
	int len;	/* what the call passes as the length */
	int valid_len;	/* len is the builder's valid length */
	int place, off;	/* PLACE_*; offset for PLACE_NORMAL */
	int fill, fam;	/* FILL_*; sa_family written over the fill */
	int id, kind;	/* the kind whose builder makes FILL_VALID */
	int peer;	/* builder role */
	int val;	/* FILL_INT value */
	uint32_t c;	/* content seed */
};

struct fz_call {
	int op, slot, kind;	/* kind: OP_OPEN's */
	struct fz_buf b;
	int plen, flags;	/* send payload length, extra MSG_ flags */
	int clevel, ctype, clen;	/* sendmsg cmsg; clen < 0: none */
	int level, optname;	/* sockopts */
	int arg;		/* listen backlog */
	struct fz_netcall net;
};

struct fz_gen {
	uint64_t seed;
	int shadow[FZ_SLOTS];	/* kind the generator opened per slot */
};

void fz_gen_init(struct fz_gen *g, uint64_t seed);
/* Call @i (from 0); writes its one-line description to @desc. */
void fz_gen_call(struct fz_gen *g, unsigned long i, struct fz_call *c,
		 char *desc, int dsz);

/* fuzz.known=1: also make the calls that hit known 6.12 bugs. */
extern int fz_known_bugs;

#endif
