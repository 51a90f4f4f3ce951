// SPDX-License-Identifier: GPL-2.0
/*
 * Directed set-address tests: the paths where a hardware address longer
 * than sa_data's 14 bytes meets a struct sockaddr, which the fuzzer
 * reaches rarely or never.  A master whose only port has a 16-byte
 * address takes the port's type and addr_len: an active-backup bond
 * (bond_setup_by_slave) and a team (team_setup_by_port; no team mode is
 * set, as the type change does not depend on one).  The ports:
 *   ip6tnl0   ARPHRD_TUNNEL6 (769), the ip6_tunnel fallback device
 *   ip6gre0   ARPHRD_IP6GRE (823), the ip6_gre fallback device
 *   ip6_vti0  ARPHRD_TUNNEL6 (769), the ip6_vti fallback device
 * Then, on the master, each set-address path with its real type and
 * 16 bytes of address: SIOCSIFHWADDR, RTM_SETLINK IFLA_ADDRESS and
 * IFLA_BROADCAST, SIOCADDMULTI/SIOCDELMULTI, SIOCGIFHWADDR (14 bytes at
 * most), SIOCSIFHWBROADCAST, SIOCSARP with the master as arp_dev and
 * sa_family 0 (the kernel fills in the type) and ATF_PUBL without a
 * device (dev_getbyhwaddr() over the type).  Most over-14-byte accesses
 * left in 6.12 are reads no sanitizer sees, so every step prints what the
 * kernel returned and the address it stored, read back with RTM_GETLINK:
 *   # obs setaddr.<master kind>_<port>.<step>: ret=.. errno=..[ addr=.. brd=..]
 * The master releases the port and is deleted at the end.  Built -m32 too
 * (setaddr_m32, guest/compat.mk): the same steps through the compat
 * ioctl paths.  Run anywhere but the test guest, every test skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "nl.h"
#include "suite_util.h"

#define ALEN	16	/* the ports' addr_len */

/* Write @val to /sys/class/net/@path: 0 or -errno. */
static int sysfs_write(const char *path, const char *val)
{
	char p[160];

	snprintf(p, sizeof(p), "/sys/class/net/%s", path);
	return write_str(p, val);
}

/* Write "<op><name>" (op '+' adds, '-' removes) to sysfs file @file. */
static int sysfs_op(const char *file, char op, const char *name)
{
	char val[IFNAMSIZ + 2];

	snprintf(val, sizeof(val), "%c%s", op, name);
	return sysfs_write(file, val);
}

static void hex(char *out, size_t size, const unsigned char *p, int len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < len && used + 3 < size; i++)
		used += snprintf(out + used, size - used, "%02x", p[i]);
}

/* RTM_GETLINK of @dev: type, IFLA_ADDRESS and IFLA_BROADCAST as hex,
 * and the address's first ALEN bytes in @raw if given. */
static int getlink_raw(const char *dev, int *type, char *addr, char *brd,
		       size_t size, unsigned char *raw)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
		char buf[64];
	} req = { 0 };
	static char reply[16384];
	struct nlmsghdr *h = (void *)reply;
	struct ifinfomsg *ifi;
	struct rtattr *a;
	int len, ret;

	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	nl_put(&req, IFLA_IFNAME, dev, strlen(dev) + 1);
	addr[0] = brd[0] = '\0';
	ret = nl_request(NETLINK_ROUTE, &req, reply, sizeof(reply));
	if (ret)
		return ret;
	if (h->nlmsg_type != RTM_NEWLINK)
		return -EPROTO;
	ifi = NLMSG_DATA(h);
	*type = ifi->ifi_type;
	len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi));
	for (a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_ADDRESS) {
			hex(addr, size, RTA_DATA(a), RTA_PAYLOAD(a));
			if (raw)
				memcpy(raw, RTA_DATA(a), RTA_PAYLOAD(a) < ALEN ?
				       RTA_PAYLOAD(a) : ALEN);
		}
		if (a->rta_type == IFLA_BROADCAST)
			hex(brd, size, RTA_DATA(a), RTA_PAYLOAD(a));
	}
	return 0;
}

static int getlink(const char *dev, int *type, char *addr, char *brd, size_t size)
{
	return getlink_raw(dev, type, addr, brd, size, NULL);
}

/* One step: its result and, when @dev is given, what @dev now holds. */
static void obs(const char *port, const char *step, int ret, const char *dev)
{
	char addr[80], brd[80];
	int type = -1;

	printf("# obs setaddr.%s.%s: ret=%d errno=%s", port, step,
	       ret < 0 ? -1 : ret, errno_name(ret < 0 ? -ret : 0));
	if (dev && !getlink(dev, &type, addr, brd, sizeof(addr)))
		printf(" type=%d addr=%s brd=%s", type, addr, brd);
	printf("\n");
}

/* The multicast list of @dev in /proc/net/dev_mcast, as one obs line. */
static void obs_mcast(const char *port, const char *step, const char *dev)
{
	char line[256], list[512] = "";
	FILE *f = fopen("/proc/net/dev_mcast", "r");
	size_t used = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char name[IFNAMSIZ + 1], a[128];
		int idx, users, global;

		if (sscanf(line, "%d %16s %d %d %127s", &idx, name, &users,
			   &global, a) == 5 && !strcmp(name, dev))
			used += snprintf(list + used, sizeof(list) - used,
					 "%s%s", used ? "," : "", a);
	}
	if (f)
		fclose(f);
	printf("# obs setaddr.%s.%s: mcast=%s\n", port, step, used ? list : "-");
}

/* Address bytes an ifreq holds from sa_data to the end of ifr_ifru: 22
 * for a 64-bit program, 14 for a 32-bit one (the union is 16 bytes
 * there, and the kernel's compat_ifreq copy zero-fills the rest). */
#define IFRU_ADDR_ROOM	(sizeof(((struct ifreq *)0)->ifr_ifru) - \
			 offsetof(struct sockaddr, sa_data))

/* An ifreq for @dev whose ifr_hwaddr has family @family and, from
 * sa_data on, ALEN bytes @first, @first + 1, ...: the last two lie past
 * sa_data, in the rest of the ifr_ifru union, as a 16-byte address would
 * (a 32-bit program has no room for them). */
static void hwreq(struct ifreq *ifr, const char *dev, int family, int first)
{
	unsigned char *p;

	memset(ifr, 0, sizeof(*ifr));
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", dev);
	ifr->ifr_hwaddr.sa_family = family;
	p = (unsigned char *)ifr->ifr_hwaddr.sa_data;
	for (size_t i = 0; i < ALEN && i < IFRU_ADDR_ROOM; i++)
		p[i] = first + i;
}

static int ioc(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* An arpreq for 192.0.2.1 with hardware address @first... of @family. */
static void arpreq(struct arpreq *r, const char *dev, int family, int first,
		   int flags)
{
	struct sockaddr_in *pa = (struct sockaddr_in *)&r->arp_pa;

	memset(r, 0, sizeof(*r));
	pa->sin_family = AF_INET;
	pa->sin_addr.s_addr = htonl(0xc0000201);
	r->arp_ha.sa_family = family;
	for (int i = 0; i < 14; i++)
		r->arp_ha.sa_data[i] = first + i;
	r->arp_flags = flags;
	if (dev)
		snprintf(r->arp_dev, sizeof(r->arp_dev), "%s", dev);
}

/* RTM_SETLINK IFLA_MASTER of @dev: @master's ifindex, or 0 to release. */
static int set_master(const char *dev, const char *master)
{
	uint32_t idx = master ? if_nametoindex(master) : 0;

	if (master && !idx)
		return -ENODEV;
	return nl_setlink(dev, IFLA_MASTER, &idx, sizeof(idx));
}

/*
 * A master device kind: how one is made, takes and gives back its port,
 * and goes away.  Each returns 0 or -errno.
 */
struct master_kind {
	const char *name;
	int (*create)(const char *master);
	int (*enslave)(const char *master, const char *port);
	int (*release)(const char *master, const char *port);
	int (*destroy)(const char *master);
};

/* Bonding through sysfs, the interface bond's own documentation uses;
 * active-backup, the mode whose first port gives the bond its type. */
static int bond_create(const char *bond)
{
	char mode[64];
	int ret = sysfs_op("bonding_masters", '+', bond);

	snprintf(mode, sizeof(mode), "%s/bonding/mode", bond);
	return ret ? ret : sysfs_write(mode, "active-backup");
}

static int bond_slaves(const char *bond, char op, const char *port)
{
	char slaves[64];

	snprintf(slaves, sizeof(slaves), "%s/bonding/slaves", bond);
	return sysfs_op(slaves, op, port);
}

static int bond_enslave(const char *bond, const char *port)
{
	return bond_slaves(bond, '+', port);
}

static int bond_release(const char *bond, const char *port)
{
	return bond_slaves(bond, '-', port);
}

static int bond_destroy(const char *bond)
{
	return sysfs_op("bonding_masters", '-', bond);
}

/* Team over rtnetlink; a team port must be down when it is added. */
static int team_create(const char *team)
{
	return nl_newlink(team, "team", NULL, NULL);
}

static int team_enslave(const char *team, const char *port)
{
	int ret = nl_link_updown(port, 0);

	return ret ? ret : set_master(port, team);
}

static int team_release(const char *team, const char *port)
{
	(void)team;
	return set_master(port, NULL);
}

static const struct master_kind bond_kind = {
	"bond", bond_create, bond_enslave, bond_release, bond_destroy,
};
static const struct master_kind team_kind = {
	"team", team_create, team_enslave, team_release, nl_dellink,
};

/* The premise of every later step: a 16-byte port of a 16-byte type,
 * and a master that took both.  Without it each step would compare two
 * runs of the short-address paths and prove nothing: it fails the case. */
#ifndef ARPHRD_IP6GRE	/* linux/if_arp.h has it, glibc's net/if_arp.h not */
#define ARPHRD_IP6GRE	823
#endif
#define PORT_TYPE_OK(t)	((t) == ARPHRD_TUNNEL6 || (t) == ARPHRD_IP6GRE)

/* The whole sequence on a @mk @master whose only port is @port_dev, the
 * ioctls on socket @fd; obs lines are keyed <kind>_<port_dev>. */
static void run(struct __test_metadata *_metadata,
		const struct master_kind *mk, const char *master,
		const char *port_dev, int fd)
{
	char key[40], addr[80], brd[80];
	unsigned char bytes[ALEN];
	struct ifreq ifr;
	struct arpreq ar;
	int type = -1, ret, port_type = -1;

	snprintf(key, sizeof(key), "%s_%s", mk->name, port_dev);
	ret = getlink(port_dev, &port_type, addr, brd, sizeof(addr));
	obs(key, "port", ret, port_dev);
	ASSERT_EQ(0, ret) TH_LOG("no port %s", port_dev);
	ASSERT_TRUE(PORT_TYPE_OK(port_type)) TH_LOG("%s: type %d", port_dev, port_type);
	ASSERT_EQ((size_t)2 * ALEN, strlen(addr)) TH_LOG("%s: address %s", port_dev, addr);
	ret = mk->create(master);
	obs(key, "master_create", ret, NULL);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", master, errno_name(-ret));
	ret = mk->enslave(master, port_dev);
	obs(key, "enslave", ret, master);
	EXPECT_EQ(0, ret) TH_LOG("%s into %s: %s", port_dev, master, errno_name(-ret));
	obs(key, "master_up", nl_link_up(master), master);
	getlink(master, &type, addr, brd, sizeof(addr));
	EXPECT_EQ(port_type, type) TH_LOG("%s did not take %s's type", master, port_dev);
	EXPECT_EQ((size_t)2 * ALEN, strlen(addr)) TH_LOG("%s: address %s", master, addr);
	if (ret || type != port_type || strlen(addr) != (size_t)2 * ALEN) {
		/* Clean up, so that the next variant starts afresh. */
		mk->release(master, port_dev);
		mk->destroy(master);
		return;
	}

	hwreq(&ifr, master, 0, 0);
	ret = ioc(fd, SIOCGIFHWADDR, &ifr);
	hex(addr, sizeof(addr), (unsigned char *)ifr.ifr_hwaddr.sa_data, 14);
	printf("# obs setaddr.%s.siocgifhwaddr: ret=%d errno=%s family=%d sa_data=%s\n",
	       key, ret ? -1 : 0, errno_name(-ret), ifr.ifr_hwaddr.sa_family, addr);

	hwreq(&ifr, master, type, 0x20);
	obs(key, "siocsifhwaddr", ioc(fd, SIOCSIFHWADDR, &ifr), master);

	for (int i = 0; i < ALEN; i++)
		bytes[i] = 0x30 + i;
	obs(key, "setlink_address", nl_setlink(master, IFLA_ADDRESS, bytes, ALEN), master);
	for (int i = 0; i < ALEN; i++)
		bytes[i] = 0x40 + i;
	obs(key, "setlink_broadcast", nl_setlink(master, IFLA_BROADCAST, bytes, ALEN), master);

	hwreq(&ifr, master, AF_UNSPEC, 0x50);
	obs(key, "siocaddmulti", ioc(fd, SIOCADDMULTI, &ifr), NULL);
	obs_mcast(key, "after_addmulti", master);
	hwreq(&ifr, master, AF_UNSPEC, 0x50);
	obs(key, "siocdelmulti", ioc(fd, SIOCDELMULTI, &ifr), NULL);
	obs_mcast(key, "after_delmulti", master);

	hwreq(&ifr, master, type, 0x60);
	obs(key, "siocsifhwbroadcast", ioc(fd, SIOCSIFHWBROADCAST, &ifr), master);

	/* ARP with the master as device, family 0: the kernel takes dev->type. */
	arpreq(&ar, master, 0, 0x70, ATF_COM);
	obs(key, "siocsarp_dev_family0", ioc(fd, SIOCSARP, &ar), NULL);
	arpreq(&ar, master, 0, 0, 0);
	ret = ioc(fd, SIOCGARP, &ar);
	hex(addr, sizeof(addr), (unsigned char *)ar.arp_ha.sa_data, 14);
	printf("# obs setaddr.%s.siocgarp: ret=%d errno=%s family=%d flags=%#x ha=%s\n",
	       key, ret ? -1 : 0, errno_name(-ret), ar.arp_ha.sa_family,
	       ar.arp_flags, addr);
	arpreq(&ar, master, 0, 0, 0);
	obs(key, "siocdarp_dev", ioc(fd, SIOCDARP, &ar), NULL);

	/* Proxy ARP without a device: dev_getbyhwaddr() looks for one of
	 * this type whose address is arp_ha's, compared over dev->addr_len
	 * bytes: 16, so the last two are read past sa_data, from the low
	 * bytes of arp_flags (ATF_PUBL | ATF_COM: 0a 00).  The master's own
	 * address (zeros) is given, so nothing matches and the kernel says
	 * ENODEV, on 6.12 as released too: the over-read, seen from user
	 * space (docs/sockaddr-audit.md). */
	memset(bytes, 0, sizeof(bytes));
	getlink_raw(master, &type, addr, brd, sizeof(addr), bytes);
	arpreq(&ar, NULL, type, 0, ATF_PUBL | ATF_COM);
	memcpy(ar.arp_ha.sa_data, bytes, 14);
	obs(key, "siocsarp_publ_nodev", ioc(fd, SIOCSARP, &ar), NULL);
	arpreq(&ar, NULL, type, 0, ATF_PUBL);
	memcpy(ar.arp_ha.sa_data, bytes, 14);
	obs(key, "siocdarp_publ_nodev", ioc(fd, SIOCDARP, &ar), NULL);

	obs(key, "release", mk->release(master, port_dev), port_dev);
	obs(key, "master_delete", mk->destroy(master), NULL);
}

/* One master kind over one 16-byte port per variant. */
FIXTURE(master) {
	int fd;		/* AF_INET datagram socket for the ioctls */
};

FIXTURE_VARIANT(master) {
	const struct master_kind *kind;
	const char *name, *port;
};

FIXTURE_VARIANT_ADD(master, bond_over_ip6tnl) { &bond_kind, "sabond1", "ip6tnl0" };
FIXTURE_VARIANT_ADD(master, bond_over_ip6gre) { &bond_kind, "sabond2", "ip6gre0" };
FIXTURE_VARIANT_ADD(master, bond_over_vti6) { &bond_kind, "sabond3", "ip6_vti0" };
FIXTURE_VARIANT_ADD(master, team_over_ip6tnl) { &team_kind, "sateam1", "ip6tnl0" };
FIXTURE_VARIANT_ADD(master, team_over_ip6gre) { &team_kind, "sateam2", "ip6gre0" };
FIXTURE_VARIANT_ADD(master, team_over_vti6) { &team_kind, "sateam3", "ip6_vti0" };

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

FIXTURE_SETUP(master)
{
	self->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(master)
{
	close(self->fd);
}

/* The harness's TEST_F wrapper keeps a local across setjmp(). */
#ifndef __clang__ /* gcc's warning: clang has no such group */
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
TEST_F(master, set_address)
{
	GUEST_ONLY();
	run(_metadata, variant->kind, variant->name, variant->port, self->fd);
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
