// SPDX-License-Identifier: GPL-2.0
/*
 * Call generation for the sockaddr fuzzer.  Call i is drawn from a PRNG
 * seeded with (seed, i) plus the generator's own record of which kind it
 * opened in each slot; nothing here looks at a syscall result, so the
 * host's --dry-run produces the guest's calls byte for byte.  The
 * description names every parameter the executor uses (buffer contents
 * come from the content seed c=), so a description is a full replay.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_arp.h>

#include "fuzz.h"
#include "matrix.h"

const char *const fz_op_name[FZ_NOPS] = {
	"open", "close", "bind", "connect", "listen", "sendto", "sendmsg",
	"getsockname", "getpeername", "setsockopt", "getsockopt",
	"hwaddr", "hwbcast", "addmulti", "delmulti", "gethwaddr", "nladdr",
	"arp_set", "arp_get", "arp_del", "link", "master", "bondmode",
};

/* Per mille; the address calls get most, the costly link ones least. */
static const short weight[FZ_NOPS] = {
	60, 8, 112, 100, 20, 90, 90, 55, 50, 127, 40,
	45, 35, 15, 10, 10, 60, 30, 15, 10, 10, 5, 3,
};

/* Lengths at the edges of every sockaddr the series touches. */
static const int edge_len[] = {
	0, 1, 2, 13, 14, 15, 16, 17, 24, 28, 110, 127, 128, 129, 4096,
	-1, -128, INT_MAX,
};
static const int opt_len[] = {
	0, 1, 2, 4, 8, 12, 16, 24, 28, 32, 64, 128, 129, 256, 4096, 65536,
	-1, INT_MAX,
};
static const int int_val[] = { 0, 1, -1, 2, 255, 65535, INT_MAX, 4096 };
static const int hw_len[] = { 0, 1, 4, 5, 6, 7, 8, 14, 15, 16, 17, 32, 33, 40 };
/* The types of the fuzzer's devices (ARPHRD_NETROM is 0), and two more. */
static const int hw_fam[] = {
	ARPHRD_ETHER, ARPHRD_LOOPBACK, ARPHRD_TUNNEL, ARPHRD_TUNNEL6, ARPHRD_SIT,
	ARPHRD_IPGRE, ARPHRD_IP6GRE, ARPHRD_IEEE802154, ARPHRD_CAN,
	ARPHRD_ROSE, ARPHRD_NETROM, ARPHRD_NONE, 0xfffe,
};
/* The types whose devices have 16-byte addresses, longer than sa_data. */
static const int long_fam[] = { ARPHRD_TUNNEL6, ARPHRD_IP6GRE };

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define PICK(r, a) ((a)[fz_below(r, N(a))])

/* Socket option level specific to a family (0 if none). */
static int family_level(const struct kind *k)
{
	switch (k->family) {
	case AF_PACKET: return 263;		/* SOL_PACKET */
	case AF_NETLINK: return 270;		/* SOL_NETLINK */
	case AF_CAN: return 100 + k->protocol;	/* SOL_CAN_BASE + proto */
	case AF_TIPC: return 271;
	case AF_ALG: return 279;
	case AF_BLUETOOTH: return 274;
	case AF_LLC: return 268;
	case AF_AX25: return 257;
	case AF_X25: return 262;
	case AF_ROSE: return 260;
	case AF_NETROM: return 259;
	case AF_ATMPVC: case AF_ATMSVC: return 264;
	case AF_PPPOX: return 273;		/* SOL_PPPOL2TP */
	case AF_RXRPC: return 272;
	case AF_KCM: return 281;
	case AF_VSOCK: return 287;
	case AF_XDP: return 283;
	case AF_MCTP: return 285;
	case AF_NFC: return 280;
	case AF_CAIF: return 278;
	case AF_PHONET: return 275;		/* SOL_PNPIPE */
	case AF_SMC: return 286;
	case AF_RDS: return 276;
	}
	if (k->type == 6)
		return 269;			/* SOL_DCCP */
	if (k->protocol == 262)		/* IPPROTO_MPTCP */
		return 284;
	if (k->family == AF_INET6 && k->type == SOCK_RAW)
		return 58;			/* SOL_ICMPV6 */
	return 0;
}

static const int common_level[] = { 1, 0, 41, 6, 17, 132, 255 };

static int pick_level(struct fz_rng *r, const struct kind *k)
{
	uint32_t p = fz_below(r, 100);
	int fl = family_level(k);

	if (p < 40)
		return 1;			/* SOL_SOCKET */
	if (p < 75 && fl)
		return fl;
	return PICK(r, common_level);
}

static int slot_kind(struct fz_gen *g, struct fz_rng *r, int slot)
{
	return g->shadow[slot] >= 0 ? g->shadow[slot] : (int)fz_below(r, NKINDS);
}

static void gen_addr(struct fz_rng *r, int kind, struct fz_buf *b)
{
	const struct kind *k = &kinds[kind];
	uint32_t p = fz_below(r, 100);

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	if (p < 20)
		b->valid_len = 1;
	else if (p < 30)
		b->len = k->min_len;
	else if (p < 35)
		b->len = k->min_len - 1;
	else if (p < 40)
		b->len = k->min_len + 1;
	else if (p < 85)
		b->len = PICK(r, edge_len);
	else
		b->len = fz_below(r, 261);
	p = fz_below(r, 100);
	b->place = p < 3 ? PLACE_NULL : p < 33 ? PLACE_TAIL : PLACE_NORMAL;
	b->off = b->place == PLACE_NORMAL ? (int)fz_below(r, 64) : 0;
	p = fz_below(r, 100);
	b->fill = p < 45 ? FILL_VALID : p < 60 ? FILL_MUT :
		  p < 90 ? FILL_RAND : FILL_ZERO;
	p = fz_below(r, 100);
	if (p < 70)
		b->fam = k->addr_family;
	else if (p < 80)
		b->fam = AF_UNSPEC;
	else if (p < 90)
		b->fam = fz_below(r, 48);
	else
		b->fam = k->addr_family == AF_INET ? AF_INET6 : AF_INET;
	b->id = kind_port(k, fz_below(r, 8));
	b->peer = fz_below(r, 2);
	b->c = (uint32_t)fz_next(r);
}

static int addr_desc(char *d, int n, const struct fz_buf *b)
{
	static const char *const fill[] = { "valid", "mut", "rand", "zero" };
	static const char *const place[] = { "+", "tail", "NULL" };
	char len[16];

	if (b->valid_len)
		snprintf(len, sizeof(len), "valid");
	else
		snprintf(len, sizeof(len), "%d", b->len);
	return snprintf(d, n, " len=%s at=%s%.0d fill=%s as=%s id=%d%s fam=%d c=%08x",
			len, place[b->place], b->off, fill[b->fill],
			kinds[b->kind].name, b->id, b->peer ? "p" : "", b->fam,
			b->c);
}

/* A buffer for a getname/getsockopt output or a setsockopt value. */
static void gen_obuf(struct fz_rng *r, struct fz_buf *b, const int *lens,
		     int nlens)
{
	uint32_t p = fz_below(r, 100);

	memset(b, 0, sizeof(*b));
	b->len = p < 80 ? lens[fz_below(r, nlens)] : (int)fz_below(r, 300);
	p = fz_below(r, 100);
	b->place = p < 3 ? PLACE_NULL : p < 40 ? PLACE_TAIL : PLACE_NORMAL;
	b->off = b->place == PLACE_NORMAL ? (int)fz_below(r, 8) * 4 : 0;
	p = fz_below(r, 100);
	b->fill = p < 15 ? FILL_ZERO : p < 65 ? FILL_INT : p < 90 ? FILL_RAND :
		  FILL_FF;
	b->val = p < 60 && fz_below(r, 4) ? PICK(r, int_val) :
		 (int)fz_next(r);
	b->c = (uint32_t)fz_next(r);
}

/*
 * A device made with an address longer than sa_data.  From the table,
 * not the guest: the guest's addr_len decides only how a call counts.
 */
static int long_dev(struct fz_rng *r)
{
	int longs[64], n = 0;

	for (int i = 0; i < fz_ndevs && n < N(longs); i++)
		if (fz_dev_alen0(i) > FZ_SA_DATA_LEN)
			longs[n++] = i;
	return n ? longs[fz_below(r, n)] : (int)fz_below(r, fz_ndevs);
}

static void gen_net(struct fz_rng *r, int what, struct fz_netcall *n)
{
	uint32_t p;

	memset(n, 0, sizeof(*n));
	n->what = what;
	n->dev = fz_below(r, fz_ndevs);
	p = fz_below(r, 100);
	n->fam = p < 60 ? -1 : p < 70 ? 0 : p < 75 ? PICK(r, long_fam) :
		 (int)PICK(r, hw_fam);
	if (what == NET_ADDMULTI || what == NET_DELMULTI)
		n->fam = p < 80 ? AF_UNSPEC : n->fam;
	n->len = n->len2 = -1;
	switch (what) {
	case NET_NLADDR:
		n->arg = fz_below(r, 2);	/* RTM_SETLINK or RTM_NEWLINK */
		p = fz_below(r, 100);
		if (p < 75)
			n->len = fz_below(r, 3) ? PICK(r, hw_len) : (int)fz_below(r, 41);
		if (p >= 50)
			n->len2 = fz_below(r, 3) ? PICK(r, hw_len) : (int)fz_below(r, 41);
		break;
	case NET_ARP_SET:
	case NET_ARP_GET:
	case NET_ARP_DEL:
		/*
		 * No arp_dev (looked up by address) or mostly the two devices
		 * with IPv4 subnets, so that get/del meet what set made.
		 */
		p = fz_below(r, 10);
		n->dev = p < 2 ? -1 : p < 7 ? 1 + (int)fz_below(r, 2) : n->dev;
		/*
		 * A 16-byte type often: without arp_dev and with ATF_PUBL
		 * it makes dev_getbyhwaddr() compare 16 bytes of sa_data.
		 */
		p = fz_below(r, 100);
		n->fam = p < 45 ? -1 : p < 60 ? ARPHRD_ETHER : p < 70 ? 0 :
			 p < 80 ? PICK(r, long_fam) : p < 90 ? PICK(r, hw_fam) :
			 (int)fz_below(r, 1024);
		/* ATF_COM, PERM, PUBL, USETRAILERS, NETMASK, DONTPUB */
		n->arg = (fz_below(r, 128) & 0x7e) | (fz_below(r, 2) ? 2 : 0);
		if (what != NET_ARP_SET && fz_below(r, 10) < 7)
			n->arg &= 0x0e;	/* NETMASK/DONTPUB without PUBL: EINVAL */
		n->ip = 0x0a000000 | (1 + fz_below(r, 3)) << 16 |
			(1 + fz_below(r, 8));
		break;
	case NET_LINK:
		/*
		 * Mostly up: paths need it.  Often the masters and the
		 * 16-byte devices, which must be down to change the bond's
		 * mode or to be enslaved.
		 */
		p = fz_below(r, 6);
		if (p < 2)
			n->dev = long_dev(r);
		else if (p < 3)
			n->dev = fz_below(r, 2) ? FZ_DEV_BOND : FZ_DEV_TEAM;
		n->arg = fz_below(r, 10) < 7;
		break;
	case NET_MASTER:
		/* Half the ports have 16-byte addresses the master takes. */
		if (fz_below(r, 2))
			n->dev = long_dev(r);
		p = fz_below(r, 3);
		n->arg = p == 0 ? FZ_DEV_BOND : p == 1 ? FZ_DEV_TEAM : -1;
		break;
	case NET_BOND_MODE:
		/* balance-rr and active-backup mostly; 7 is no mode. */
		n->dev = FZ_DEV_BOND;
		p = fz_below(r, 10);
		n->arg = p < 4 ? 0 : p < 8 ? 1 : (int)fz_below(r, 8);
		break;
	}
	n->c = (uint32_t)fz_next(r);
	/* Few multicast addresses, so that deletes meet what adds made. */
	if (what == NET_ADDMULTI || what == NET_DELMULTI)
		n->c &= 7;
}

static void net_desc(char *d, int dsz, const struct fz_netcall *n)
{
	char fam[16];

	if (n->fam < 0)
		snprintf(fam, sizeof(fam), "dev");
	else
		snprintf(fam, sizeof(fam), "%d", n->fam);
	switch (n->what) {
	case NET_NLADDR:
		snprintf(d, dsz, "nladdr %s %s addr=%d bcast=%d c=%08x",
			 fz_dev_name(n->dev), n->arg ? "set" : "new", n->len,
			 n->len2, n->c);
		break;
	case NET_ARP_SET:
	case NET_ARP_GET:
	case NET_ARP_DEL:
		snprintf(d, dsz, "%s dev=%s ip=10.%u.0.%u ha=%s flags=%#x c=%08x",
			 fz_op_name[OP_NET + n->what],
			 n->dev < 0 ? "-" : fz_dev_name(n->dev),
			 n->ip >> 16 & 0xff, n->ip & 0xff, fam, n->arg, n->c);
		break;
	case NET_LINK:
		snprintf(d, dsz, "link %s %s", fz_dev_name(n->dev),
			 n->arg ? "up" : "down");
		break;
	case NET_MASTER:
		snprintf(d, dsz, "master %s %s", fz_dev_name(n->dev),
			 n->arg < 0 ? "none" : fz_dev_name(n->arg));
		break;
	case NET_BOND_MODE:
		snprintf(d, dsz, "bondmode %s mode=%d", fz_dev_name(n->dev),
			 n->arg);
		break;
	case NET_GETHW:
		snprintf(d, dsz, "gethwaddr %s", fz_dev_name(n->dev));
		break;
	default:
		snprintf(d, dsz, "%s %s fam=%s c=%08x",
			 fz_op_name[OP_NET + n->what], fz_dev_name(n->dev),
			 fam, n->c);
	}
}

void fz_gen_init(struct fz_gen *g, uint64_t seed)
{
	g->seed = seed;
	for (int i = 0; i < FZ_SLOTS; i++)
		g->shadow[i] = -1;
}

static int pick_op(struct fz_rng *r)
{
	int w = fz_below(r, 1000), op;

	for (op = 0; op < FZ_NOPS - 1; op++) {
		w -= weight[op];
		if (w < 0)
			break;
	}
	return op;
}

void fz_gen_call(struct fz_gen *g, unsigned long i, struct fz_call *c,
		 char *d, int dsz)
{
	struct fz_rng r = { fz_mix64(g->seed) ^ fz_mix64(i + 0x5eed) };
	int n, k;

	memset(c, 0, sizeof(*c));
	/* The first calls fill every slot, so few calls meet an empty one. */
	c->op = i < FZ_SLOTS ? OP_OPEN : pick_op(&r);
	c->slot = i < FZ_SLOTS ? (int)i : (int)fz_below(&r, FZ_SLOTS);
	k = slot_kind(g, &r, c->slot);
	switch (c->op) {
	case OP_OPEN:
		c->kind = fz_below(&r, NKINDS);
		g->shadow[c->slot] = c->kind;
		snprintf(d, dsz, "open s%d %s", c->slot, kinds[c->kind].name);
		return;
	case OP_CLOSE:
		g->shadow[c->slot] = -1;
		snprintf(d, dsz, "close s%d", c->slot);
		return;
	case OP_LISTEN:
		c->arg = (int)fz_below(&r, 5) - 1;
		snprintf(d, dsz, "listen s%d backlog=%d", c->slot, c->arg);
		return;
	case OP_BIND:
	case OP_CONNECT:
	case OP_SENDTO:
	case OP_SENDMSG:
		gen_addr(&r, k, &c->b);
		n = snprintf(d, dsz, "%s s%d", fz_op_name[c->op], c->slot);
		n += addr_desc(d + n, dsz - n, &c->b);
		if (c->op == OP_BIND || c->op == OP_CONNECT || n >= dsz)
			return;
		c->plen = PICK(&r, ((const int[]){ 0, 1, 8, 64, 512 }));
		/* MSG_OOB, MSG_EOR, MSG_CONFIRM, MSG_MORE now and then */
		c->flags = fz_below(&r, 5) ? 0 :
			   PICK(&r, ((const int[]){ 0x1, 0x80, 0x800, 0x8000 }));
		c->clen = -1;
		if (c->op == OP_SENDMSG && fz_below(&r, 5) == 0) {
			c->clevel = pick_level(&r, &kinds[k]);
			c->ctype = fz_below(&r, 12);
			c->clen = PICK(&r, ((const int[]){ 0, 4, 8, 16, 28 }));
		}
		n += snprintf(d + n, dsz - n, " plen=%d flags=%#x", c->plen,
			      c->flags);
		if (c->clen >= 0 && n < dsz)
			snprintf(d + n, dsz - n, " cmsg=%d/%d/%d", c->clevel,
				 c->ctype, c->clen);
		return;
	case OP_GETSOCKNAME:
	case OP_GETPEERNAME:
		gen_obuf(&r, &c->b, edge_len, N(edge_len));
		c->arg = fz_below(&r, 50) == 0;	/* addrlen pointer NULL */
		snprintf(d, dsz, "%s s%d len=%d at=%s%s", fz_op_name[c->op],
			 c->slot, c->b.len,
			 c->b.place == PLACE_TAIL ? "tail" :
			 c->b.place == PLACE_NULL ? "NULL" : "+",
			 c->arg ? " lenp=NULL" : "");
		return;
	case OP_SETSOCKOPT:
	case OP_GETSOCKOPT:
		c->level = pick_level(&r, &kinds[k]);
		c->optname = fz_below(&r, 81);
		gen_obuf(&r, &c->b, opt_len, N(opt_len));
		snprintf(d, dsz, "%s s%d lvl=%d opt=%d len=%d at=%s fill=%d:%d c=%08x",
			 fz_op_name[c->op], c->slot, c->level, c->optname,
			 c->b.len,
			 c->b.place == PLACE_TAIL ? "tail" :
			 c->b.place == PLACE_NULL ? "NULL" : "+",
			 c->b.fill, c->b.val, c->b.c);
		return;
	}
	gen_net(&r, c->op - OP_NET, &c->net);
	net_desc(d, dsz, &c->net);
}
