// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink requests netdevs needs: create or delete a link (vcan, dummy,
 * veth; macvtap and ipvtap on a lower device), set one up, and bring an NFC device up.  One request per socket, acked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/nfc.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "nl.h"

struct req {
	struct nlmsghdr h;
	char buf[1024];
};

struct nlattr *nl_put(void *msg, int type, const void *data, int len)
{
	struct nlmsghdr *h = msg;
	struct nlattr *a = (void *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

void nl_nest_end(void *msg, struct nlattr *a)
{
	struct nlmsghdr *h = msg;

	a->nla_len = (char *)h + h->nlmsg_len - (char *)a;
}

static struct nlattr *put(struct req *r, int type, const void *data, int len)
{
	return nl_put(r, type, data, len);
}

static void put_str(struct req *r, int type, const char *s)
{
	put(r, type, s, strlen(s) + 1);
}

static void nest_end(struct req *r, struct nlattr *a)
{
	nl_nest_end(r, a);
}

int nl_request(int proto, void *msg, void *reply, size_t size)
{
	struct nlmsghdr *h = msg;
	char buf[8192];
	struct nlmsghdr *ans = reply ? reply : (void *)buf;
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto), n, ret;

	if (!reply)
		size = sizeof(buf);
	if (s < 0)
		return -errno;
	h->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (send(s, h, h->nlmsg_len, 0) < 0) {
		ret = -errno;
		goto out;
	}
	n = recv(s, ans, size, 0);
	if (n < (int)NLMSG_HDRLEN) {
		ret = n < 0 ? -errno : -EIO;
		goto out;
	}
	ret = ans->nlmsg_type == NLMSG_ERROR ?
	      ((struct nlmsgerr *)NLMSG_DATA(ans))->error : 0;
out:
	close(s);
	return ret;
}

/* Send @r on a fresh socket of @proto; the ack's error, or the reply. */
static int talk(int proto, struct req *r, struct req *reply)
{
	return nl_request(proto, r, reply, sizeof(*reply));
}

static void init_link(struct req *r, int type, int flags)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };

	memset(r, 0, sizeof(*r));
	r->h.nlmsg_type = type;
	r->h.nlmsg_flags = flags;
	r->h.nlmsg_len = NLMSG_LENGTH(0);
	memcpy(NLMSG_DATA(&r->h), &ifi, sizeof(ifi));
	r->h.nlmsg_len = NLMSG_LENGTH(sizeof(ifi));
}

int nl_newlink(const char *name, const char *kind, const char *peer,
	       const unsigned char *mac)
{
	struct nlattr *info, *data, *pinfo;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct req r;

	init_link(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	put_str(&r, IFLA_IFNAME, name);
	if (mac)
		put(&r, IFLA_ADDRESS, mac, 6);
	info = put(&r, IFLA_LINKINFO, NULL, 0);
	put_str(&r, IFLA_INFO_KIND, kind);
	if (peer) {
		/* veth: VETH_INFO_PEER carries the peer's ifinfomsg + name. */
		data = put(&r, IFLA_INFO_DATA, NULL, 0);
		pinfo = put(&r, VETH_INFO_PEER, &ifi, sizeof(ifi));
		put_str(&r, IFLA_IFNAME, peer);
		nest_end(&r, pinfo);
		nest_end(&r, data);
	}
	nest_end(&r, info);
	return talk(NETLINK_ROUTE, &r, NULL);
}

int nl_newlink_on(const char *name, const char *kind, const char *lower,
		  const unsigned char *mac)
{
	unsigned int link = if_nametoindex(lower);
	struct nlattr *info;
	struct req r;

	if (!link)
		return -errno;
	init_link(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	put_str(&r, IFLA_IFNAME, name);
	put(&r, IFLA_LINK, &link, sizeof(link));
	if (mac)
		put(&r, IFLA_ADDRESS, mac, 6);
	info = put(&r, IFLA_LINKINFO, NULL, 0);
	put_str(&r, IFLA_INFO_KIND, kind);
	nest_end(&r, info);
	return talk(NETLINK_ROUTE, &r, NULL);
}

int nl_dellink(const char *name)
{
	struct req r;

	init_link(&r, RTM_DELLINK, 0);
	put_str(&r, IFLA_IFNAME, name);
	return talk(NETLINK_ROUTE, &r, NULL);
}

int nl_link_updown(const char *name, int up)
{
	struct ifinfomsg *ifi;
	struct req r;

	init_link(&r, RTM_NEWLINK, 0);
	ifi = NLMSG_DATA(&r.h);
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	put_str(&r, IFLA_IFNAME, name);
	return talk(NETLINK_ROUTE, &r, NULL);
}

int nl_link_up(const char *name)
{
	return nl_link_updown(name, 1);
}

int nl_setlink(const char *name, int attr, const void *data, int len)
{
	struct req r;

	init_link(&r, RTM_SETLINK, 0);
	put_str(&r, IFLA_IFNAME, name);
	put(&r, attr, data, len);
	return talk(NETLINK_ROUTE, &r, NULL);
}

void nl_genl_init(void *msg, size_t size, int family, int cmd)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };
	struct nlmsghdr *h = msg;

	memset(msg, 0, size);
	h->nlmsg_type = family;
	memcpy(NLMSG_DATA(h), &g, sizeof(g));
	h->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
}

static void init_genl(struct req *r, int family, int cmd)
{
	nl_genl_init(r, sizeof(*r), family, cmd);
}

int nl_genl_family(const char *name)
{
	struct req r, reply;
	struct nlattr *a;
	int ret, left;

	init_genl(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	put_str(&r, CTRL_ATTR_FAMILY_NAME, name);
	ret = talk(NETLINK_GENERIC, &r, &reply);
	if (ret)
		return ret;
	a = (void *)((char *)NLMSG_DATA(&reply.h) + GENL_HDRLEN);
	left = reply.h.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(unsigned short *)((char *)a + NLA_HDRLEN);
		left -= NLA_ALIGN(a->nla_len);
		a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return -ENOENT;
}

int nl_nfc_dev_up(unsigned int idx)
{
	int fam = nl_genl_family(NFC_GENL_NAME);
	struct req r;

	if (fam < 0)
		return fam;
	init_genl(&r, fam, NFC_CMD_DEV_UP);
	put(&r, NFC_ATTR_DEVICE_INDEX, &idx, sizeof(idx));
	return talk(NETLINK_GENERIC, &r, NULL);
}
