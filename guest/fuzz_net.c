// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's network devices: one of every kind the guest config can
 * create (so every addr_len: 0, 4, 5, 6, 7, 8, 16), and the calls that
 * set their addresses: SIOCSIFHWADDR, SIOCSIFHWBROADCAST, SIOCADDMULTI,
 * rtnetlink IFLA_ADDRESS/IFLA_BROADCAST, the ARP ioctls, up/down,
 * enslaving to bond/team (the master takes the port's type and
 * addr_len) and the bond's mode.  The table is fixed so that the
 * generator, which never looks at the guest, names the same device on
 * every run; a device that could not be made just answers ENODEV.
 * Each call is counted on the set-address paths it takes, by the
 * device's addr_len at that moment (fz_net_print_paths()).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/if_tunnel.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "fuzz.h"
#include "nl.h"
#include "suite_util.h"

enum how { EXISTING, LINK, VETH, MACVLAN, TUN4, TUN6, GRE4, GRE6, VTI6,
	   TUNTAP };

struct fdev {
	const char *name, *kind;
	enum how how;
	int flags;		/* TUNSETIFF flags */
	int alen0;		/* addr_len its kind has when made */
};

/*
 * Order matters: macvlan needs fz_dummy, fz_veth1 comes with fz_veth0;
 * fuzz.h names fz_bond and fz_team by index (FZ_DEV_*), fuzz_gen.c the
 * ARP devices fz_dummy and fz_veth0 (1 and 2).  New devices go at the
 * end, so that those indices stay.
 */
static const struct fdev devs[] = {
	{ "lo", NULL, EXISTING, 0, 6 },
	{ "fz_dummy", "dummy", LINK, 0, 6 },
	{ "fz_veth0", "veth", VETH, 0, 6 },
	{ "fz_veth1", NULL, EXISTING, 0, 6 },
	{ "fz_vcan", "vcan", LINK, 0, 0 },
	{ "fz_macvlan", "macvlan", MACVLAN, 0, 6 },
	{ "fz_bond", "bond", LINK, 0, 6 },
	{ "fz_team", "team", LINK, 0, 6 },
	{ "fz_nlmon", "nlmon", LINK, 0, 0 },
	{ "fz_ipip", "ipip", TUN4, 0, 4 },
	{ "fz_gre", "gre", GRE4, 0, 4 },
	{ "fz_ip6tnl", "ip6tnl", TUN6, 0, 16 },
	{ "fz_ip6gre", "ip6gre", GRE6, 0, 16 },
	{ "fz_sit", "sit", TUN4, 0, 4 },
	/* Fallback devices the tunnel drivers register by themselves. */
	{ "tunl0", NULL, EXISTING, 0, 4 },
	{ "gre0", NULL, EXISTING, 0, 4 },
	{ "gretap0", NULL, EXISTING, 0, 6 },
	{ "erspan0", NULL, EXISTING, 0, 6 },
	{ "ip6tnl0", NULL, EXISTING, 0, 16 },
	{ "ip6gre0", NULL, EXISTING, 0, 16 },
	{ "ip6gretap0", NULL, EXISTING, 0, 6 },
	{ "sit0", NULL, EXISTING, 0, 4 },
	{ "fz_tun", "tun", TUNTAP, IFF_TUN | IFF_NO_PI, 0 },
	{ "fz_tap", "tap", TUNTAP, IFF_TAP | IFF_NO_PI, 6 },
	/* mac802154_hwsim's radios: addr_len 8. */
	{ "wpan0", NULL, EXISTING, 0, 8 },
	{ "wpan1", NULL, EXISTING, 0, 8 },
	/* AF_ROSE and AF_NETROM register rose0-9 and nr0-3 at boot. */
	{ "rose0", NULL, EXISTING, 0, 5 },
	{ "nr0", NULL, EXISTING, 0, 7 },
	/* ip6_vti's fallback and one of our own: ARPHRD_TUNNEL6, 16 bytes. */
	{ "ip6_vti0", NULL, EXISTING, 0, 16 },
	{ "fz_vti6", "vti6", VTI6, 0, 16 },
};

#define NDEVS ((int)(sizeof(devs) / sizeof(devs[0])))
const int fz_ndevs = NDEVS;

/*
 * What the guest has now: enslaving gives a bond or team its port's
 * type and addr_len, so these are read again after each call that can
 * change them (refresh()), never only once at setup.
 */
static struct dstate {
	int present, ifindex, type, addr_len;
} cur[NDEVS];

static int ctl = -1, nlfd = -1;
static int tunfds[2] = { -1, -1 };

const char *fz_dev_name(int i)
{
	return i >= 0 && i < fz_ndevs ? devs[i].name : "";
}

int fz_dev_alen0(int i)
{
	return i >= 0 && i < fz_ndevs ? devs[i].alen0 : -1;
}

static int ifidx(const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	return ioctl(ctl, SIOCGIFINDEX, &ifr) ? 0 : ifr.ifr_ifindex;
}

/* --- rtnetlink requests of our own (nl.c has no IFLA_LINK/INFO_DATA) */

struct req {
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	char buf[512];
};

static struct nlattr *put(struct req *r, int type, const void *data, int len)
{
	return nl_put(r, type, data, len);
}

static void nest_end(struct req *r, struct nlattr *a)
{
	nl_nest_end(r, a);
}

static void req_init(struct req *r, int type, int flags, int ifindex)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_type = type;
	r->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	r->h.nlmsg_len = NLMSG_LENGTH(sizeof(r->ifi));
	r->ifi.ifi_family = AF_UNSPEC;
	r->ifi.ifi_index = ifindex;
}

/*
 * rtnetlink handles a request inside sendmsg(), so the ack is already
 * queued when send returns: MSG_DONTWAIT never misses it, and a signal
 * cannot leave us blocked.
 */
static int nl_talk(void *r)
{
	struct nlmsghdr *h = r;
	char ans[1024];
	int n, ret = -EIO;

	if (send(nlfd, r, h->nlmsg_len, 0) < 0)
		return -errno;
	while ((n = recv(nlfd, ans, sizeof(ans), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *a = (void *)ans;

		if (n >= (int)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
		    a->nlmsg_type == NLMSG_ERROR)
			ret = ((struct nlmsgerr *)NLMSG_DATA(a))->error;
	}
	return ret;
}

static void put_name(struct req *r, const char *name)
{
	put(r, IFLA_IFNAME, name, strlen(name) + 1);
}

static int link_create(const struct fdev *d)
{
	struct nlattr *info, *data;
	struct req r;
	uint32_t v4;
	struct in6_addr v6;
	int lower;

	if (d->how == LINK)
		return nl_newlink(d->name, d->kind, NULL, NULL);
	if (d->how == VETH)
		return nl_newlink(d->name, d->kind, "fz_veth1", NULL);
	req_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	put_name(&r, d->name);
	if (d->how == MACVLAN) {
		lower = ifidx("fz_dummy");
		if (!lower)
			return -ENODEV;
		put(&r, IFLA_LINK, &lower, 4);
	}
	info = put(&r, IFLA_LINKINFO, NULL, 0);
	put(&r, IFLA_INFO_KIND, d->kind, strlen(d->kind) + 1);
	/* A remote address of its own: the fallback device has none. */
	if (d->how != MACVLAN) {
		data = put(&r, IFLA_INFO_DATA, NULL, 0);
		v4 = htonl(0x0a090000 + d->how * 16 + (d->name[3] & 15));
		inet_pton(AF_INET6, d->how == TUN6 ? "fd00::1" :
			  d->how == VTI6 ? "fd00::3" : "fd00::2", &v6);
		switch (d->how) {
		case TUN4: put(&r, IFLA_IPTUN_REMOTE, &v4, 4); break;
		case TUN6: put(&r, IFLA_IPTUN_REMOTE, &v6, 16); break;
		case GRE4: put(&r, IFLA_GRE_REMOTE, &v4, 4); break;
		case VTI6: put(&r, IFLA_VTI_REMOTE, &v6, 16); break;
		default:   put(&r, IFLA_GRE_REMOTE, &v6, 16); break;
		}
		nest_end(&r, data);
	}
	nest_end(&r, info);
	return nl_talk(&r);
}

static int tuntap_create(const struct fdev *d, int *fdp)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", d->name);
	ifr.ifr_flags = d->flags;
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		int err = -errno;

		close(fd);
		return err;
	}
	*fdp = fd;	/* the device lives as long as this fd */
	return 0;
}

static int read_addr_len(const char *name)
{
	char path[96], buf[16] = "";
	int fd, n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/addr_len", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/* Read device @i's index, type and addr_len from the guest. */
static void refresh(int i)
{
	struct dstate *s = &cur[i];
	struct ifreq ifr;

	s->ifindex = ifidx(devs[i].name);
	s->present = s->ifindex != 0;
	s->type = s->addr_len = -1;
	if (!s->present)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", devs[i].name);
	if (!ioctl(ctl, SIOCGIFHWADDR, &ifr))
		s->type = ifr.ifr_hwaddr.sa_family;
	s->addr_len = read_addr_len(devs[i].name);
}

static int add_v4(const char *name, uint32_t addr, int plen)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg ifa;
		char buf[64];
	} r;
	struct nlattr *a;
	uint32_t be = htonl(addr);
	int idx = ifidx(name);

	if (!idx)
		return -ENODEV;
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_type = RTM_NEWADDR;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE;
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(r.ifa));
	r.ifa.ifa_family = AF_INET;
	r.ifa.ifa_prefixlen = plen;
	r.ifa.ifa_index = idx;
	a = (void *)((char *)&r + r.h.nlmsg_len);
	a->nla_type = IFA_LOCAL;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy((char *)a + NLA_HDRLEN, &be, 4);
	r.h.nlmsg_len += NLA_ALIGN(a->nla_len);
	a = (void *)((char *)&r + r.h.nlmsg_len);
	a->nla_type = IFA_ADDRESS;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy((char *)a + NLA_HDRLEN, &be, 4);
	r.h.nlmsg_len += NLA_ALIGN(a->nla_len);
	return nl_talk(&r);
}

static int set_up(int ifindex, int up)
{
	struct req r;

	req_init(&r, RTM_NEWLINK, 0, ifindex);
	r.ifi.ifi_flags = up ? IFF_UP : 0;
	r.ifi.ifi_change = IFF_UP;
	return nl_talk(&r);
}

int fz_net_setup(void)
{
	int t = 0, i, ret;

	ctl = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	nlfd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (ctl < 0 || nlfd < 0)
		return -errno;
	for (i = 0; i < fz_ndevs; i++) {
		const struct fdev *d = &devs[i];
		struct dstate *s = &cur[i];

		ret = 0;
		if (d->how == TUNTAP)
			ret = tuntap_create(d, &tunfds[t++]);
		else if (d->how != EXISTING)
			ret = link_create(d);
		refresh(i);
		if (!s->present) {
			printf("# fuzz: dev %s absent (%s%s%s): skipped\n",
			       d->name, d->kind ? d->kind : "not created",
			       ret ? ": " : "", ret ? errno_name(-ret) : "");
			continue;
		}
		ret = set_up(s->ifindex, 1);
		printf("# fuzz: dev %s type=%d addr_len=%d ifindex=%d up=%s\n",
		       d->name, s->type, s->addr_len, s->ifindex,
		       ret ? errno_name(-ret) : "ok");
	}
	/* IPv4 subnets give SIOCSARP without arp_dev a route to follow. */
	add_v4("fz_dummy", 0x0a010001, 16);
	add_v4("fz_veth0", 0x0a020001, 16);
	fflush(stdout);
	return 0;
}

void fz_net_done(void)
{
	/* The tun/tap fds and sockets go with the process. */
}

static void ifr_prep(struct ifreq *ifr, const struct fz_netcall *n)
{
	const struct dstate *s = &cur[n->dev];

	/* Random bytes over the whole union: reads past sa_data see junk. */
	fz_fill(ifr, sizeof(*ifr), n->c);
	memset(ifr->ifr_name, 0, IFNAMSIZ);
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", devs[n->dev].name);
	ifr->ifr_hwaddr.sa_family = n->fam < 0 ? (s->present ? s->type : 1) :
				    n->fam;
}

static int ioctl_ret(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static int do_nladdr(const struct fz_netcall *n)
{
	const struct dstate *s = &cur[n->dev];
	unsigned char bytes[96];
	struct req r;

	fz_fill(bytes, sizeof(bytes), n->c);
	req_init(&r, n->arg ? RTM_SETLINK : RTM_NEWLINK, 0,
		 s->present ? s->ifindex : 0);
	if (!s->present)
		put_name(&r, devs[n->dev].name);
	if (n->len >= 0)
		put(&r, IFLA_ADDRESS, bytes, n->len);
	if (n->len2 >= 0)
		put(&r, IFLA_BROADCAST, bytes + 48, n->len2);
	return nl_talk(&r);
}

/*
 * Known 6.12 bug, the same on the baseline: a bond or team whose port is
 * an 802.15.4 device takes its type (ARPHRD_IEEE802154) but has no
 * ieee802154_ptr, and raw_bind() -> ieee802154_get_dev() then
 * dereferences NULL for it.  Such a port is refused here unless
 * fuzz.known=1 (make fuzz KNOWN=1 reproduces it).
 */
int fz_known_bugs;

static int do_master(const struct fz_netcall *n)
{
	const struct dstate *s = &cur[n->dev];
	uint32_t m = n->arg >= 0 ? cur[n->arg].ifindex : 0;
	struct req r;

	if (!s->present || (n->arg >= 0 && !cur[n->arg].present))
		return -ENODEV;
	if (!fz_known_bugs && n->arg >= 0 && s->type == ARPHRD_IEEE802154)
		return -EPERM;
	req_init(&r, RTM_SETLINK, 0, s->ifindex);
	put(&r, IFLA_MASTER, &m, 4);
	return nl_talk(&r);
}

/*
 * The bond's mode: active-backup takes ports that cannot set a MAC
 * address (the 16-byte tunnels), balance-rr refuses them.  The kernel
 * changes it only while the bond is down and has no ports.
 */
static int do_bond_mode(const struct fz_netcall *n)
{
	const struct dstate *s = &cur[n->dev];
	struct nlattr *info, *data;
	uint8_t mode = n->arg;
	struct req r;

	if (!s->present)
		return -ENODEV;
	req_init(&r, RTM_NEWLINK, 0, s->ifindex);
	info = put(&r, IFLA_LINKINFO, NULL, 0);
	put(&r, IFLA_INFO_KIND, "bond", sizeof("bond"));
	data = put(&r, IFLA_INFO_DATA, NULL, 0);
	put(&r, IFLA_BOND_MODE, &mode, 1);
	nest_end(&r, data);
	nest_end(&r, info);
	return nl_talk(&r);
}

/* arp_ha's family: the one drawn, else the device's type now. */
static int arp_fam(const struct fz_netcall *n)
{
	if (n->fam >= 0)
		return n->fam;
	return n->dev >= 0 && cur[n->dev].present ? cur[n->dev].type :
	       ARPHRD_ETHER;
}

static int do_arp(const struct fz_netcall *n)
{
	static const unsigned long cmd[] = { SIOCSARP, SIOCGARP, SIOCDARP };
	struct sockaddr_in *pa, *nm;
	struct arpreq a;

	fz_fill(&a, sizeof(a), n->c);
	pa = (struct sockaddr_in *)&a.arp_pa;
	nm = (struct sockaddr_in *)&a.arp_netmask;
	memset(pa, 0, sizeof(*pa));
	pa->sin_family = AF_INET;
	pa->sin_addr.s_addr = htonl(n->ip);
	nm->sin_family = AF_INET;
	a.arp_flags = n->arg;
	memset(a.arp_dev, 0, sizeof(a.arp_dev));
	if (n->dev >= 0)
		snprintf(a.arp_dev, sizeof(a.arp_dev), "%s", devs[n->dev].name);
	a.arp_ha.sa_family = arp_fam(n);
	return ioctl_ret(ctl, cmd[n->what - NET_ARP_SET], &a);
}

static int exec_net(const struct fz_netcall *n)
{
	struct ifreq ifr;

	switch (n->what) {
	case NET_HWADDR:
	case NET_HWBCAST:
	case NET_ADDMULTI:
	case NET_DELMULTI:
	case NET_GETHW: {
		static const unsigned long cmd[] = {
			SIOCSIFHWADDR, SIOCSIFHWBROADCAST, SIOCADDMULTI,
			SIOCDELMULTI, SIOCGIFHWADDR };

		ifr_prep(&ifr, n);
		return ioctl_ret(ctl, cmd[n->what], &ifr);
	}
	case NET_NLADDR:
		return do_nladdr(n);
	case NET_ARP_SET:
	case NET_ARP_GET:
	case NET_ARP_DEL:
		return do_arp(n);
	case NET_LINK:
		return cur[n->dev].present ?
		       set_up(cur[n->dev].ifindex, n->arg) : -ENODEV;
	case NET_MASTER:
		return do_master(n);
	case NET_BOND_MODE:
		return do_bond_mode(n);
	}
	return -ENOSYS;
}

/* --- set-address paths: which ones the calls reach, by addr_len */

/*
 * Each path is split by the addr_len the device has when the call is
 * made: alen16 is longer than sa_data (16 on every such device here),
 * alen14 fits in it; nodev is an ARP call without arp_dev.  Two more:
 * master.alen16, a set-address call on a bond or team that took a
 * 16-byte port's addr_len, and siocsarp.publ16, SIOCSARP with ATF_PUBL
 * and ATF_COM but no arp_dev, where dev_getbyhwaddr() compares the
 * addr_len of every device of arp_ha's type: a type with a 16-byte
 * device.  config/fuzz-paths names those make check requires.
 */
/* In NET_*'s order: a call finds its path by offset. */
enum { P_HWADDR, P_HWBCAST, P_ADDMULTI, P_DELMULTI, P_GETHW, P_NL_ADDR,
       P_NL_BCAST, P_ARP_SET, P_ARP_GET, P_ARP_DEL, NPATHS };
enum { C_ALEN16, C_ALEN14, C_NODEV, NCLASSES };

static const char *const path_name[NPATHS] = {
	"siocsifhwaddr", "siocsifhwbroadcast", "siocaddmulti", "siocdelmulti",
	"siocgifhwaddr", "setlink_address", "setlink_broadcast", "siocsarp",
	"siocgarp", "siocdarp",
};
static const char *const class_name[NCLASSES] = { "alen16", "alen14", "nodev" };

struct count {
	unsigned long calls, ok;
};
static struct count paths[NPATHS][NCLASSES], master16, publ16;

/* -1: an absent device (ENODEV before any path). */
static int dev_class(int dev)
{
	if (dev < 0)
		return C_NODEV;
	if (!cur[dev].present || cur[dev].addr_len < 0)
		return -1;
	return cur[dev].addr_len > FZ_SA_DATA_LEN ? C_ALEN16 : C_ALEN14;
}

/* Does a device of @type have an address longer than sa_data now? */
static int long_type(int type)
{
	for (int i = 0; i < NDEVS; i++)
		if (cur[i].present && cur[i].type == type &&
		    cur[i].addr_len > FZ_SA_DATA_LEN)
			return 1;
	return 0;
}

static void count(struct count *c, int ret)
{
	c->calls++;
	c->ok += ret == 0;
}

/* Count call @n, which returned @ret, by the state it was made in. */
static void count_paths(const struct fz_netcall *n, int ret)
{
	int cl = dev_class(n->dev), set = 0;

	switch (n->what) {
	case NET_HWADDR:
	case NET_HWBCAST:
	case NET_ADDMULTI:
	case NET_DELMULTI:
		set = 1;
		/* fallthrough */
	case NET_GETHW:
		if (cl >= 0)
			count(&paths[P_HWADDR + n->what - NET_HWADDR][cl], ret);
		break;
	case NET_NLADDR:
		/* RTM_SETLINK only; RTM_NEWLINK counts in op nladdr alone. */
		if (!n->arg || cl < 0)
			break;
		if (n->len >= 0)
			count(&paths[P_NL_ADDR][cl], ret);
		if (n->len2 >= 0)
			count(&paths[P_NL_BCAST][cl], ret);
		set = n->len >= 0 || n->len2 >= 0;
		break;
	case NET_ARP_SET:
	case NET_ARP_GET:
	case NET_ARP_DEL:
		if (cl >= 0)
			count(&paths[P_ARP_SET + n->what - NET_ARP_SET][cl], ret);
		if (n->what == NET_ARP_SET && n->dev < 0 &&
		    (n->arg & (ATF_PUBL | ATF_COM)) == (ATF_PUBL | ATF_COM) &&
		    long_type(arp_fam(n)))
			count(&publ16, ret);
		break;
	}
	if (set && cl == C_ALEN16 &&
	    (n->dev == FZ_DEV_BOND || n->dev == FZ_DEV_TEAM))
		count(&master16, ret);
}

int fz_net_exec(const struct fz_netcall *n)
{
	int ret = exec_net(n);

	count_paths(n, ret);	/* cur[] is still the state before the call */
	if (n->what == NET_MASTER) {
		/* The port, and the masters it left or joined. */
		refresh(n->dev);
		refresh(FZ_DEV_BOND);
		refresh(FZ_DEV_TEAM);
	} else if (n->what == NET_LINK) {
		refresh(n->dev);
	}
	return ret;
}

static void print_path(const char *name, const char *cls,
		       const struct count *c)
{
	printf("# fuzz: path %s.%s calls=%lu ok=%lu\n", name, cls, c->calls,
	       c->ok);
}

void fz_net_print_paths(void)
{
	for (int p = 0; p < NPATHS; p++)
		for (int cl = 0; cl < NCLASSES; cl++)
			if (cl != C_NODEV || p >= P_ARP_SET)
				print_path(path_name[p], class_name[cl],
					   &paths[p][cl]);
	print_path("master", "alen16", &master16);
	print_path("siocsarp", "publ16", &publ16);
}
