// SPDX-License-Identifier: GPL-2.0
/*
 * Reproducer of the 6.12 NULL dereference the fuzzer found
 * (docs/fuzz-findings.md): a device of type ARPHRD_IEEE802154 that is no
 * 802.15.4 interface (its ieee802154_ptr is NULL) walked by the
 * AF_IEEE802154 socket code.  Such a device is made by enslaving an
 * 802.15.4 interface to a bond or team (the master takes the port's
 * type) or by TUNSETLINK on a tun device.  One case per path:
 *
 *   userns               what an unprivileged user reaches from a new
 *                        user and network namespace (unshare -Urn); no
 *                        crash, so first; skips on a kernel without
 *                        CONFIG_USER_NS/CONFIG_NET_NS (make check's)
 *   bond_raw_bind        bond + wpan0, RAW bind() to a short address:
 *                        ieee802154_get_dev() (the fuzzer's call)
 *   team_dgram_bind      team + wpan1, DGRAM bind() to a short address
 *   tun_user_dgram_bind  as uid 65534, a tun device that user owns made
 *                        ARPHRD_IEEE802154 with TUNSETLINK, DGRAM bind()
 *   tun_rx               a frame of ETH_P_IEEE802154 written to such a tun:
 *                        ieee802154_rcv() -> ieee802154_dgram_deliver()
 *   repro_socket_tun     the standalone reproducer repro/ieee802154_socket_tun.c
 *                        run as uid 65534 on a tun it owns (as a
 *                        maintainer would run it)
 *   lowpan_bond_rx       6LoWPAN's receive handler (net/ieee802154/6lowpan/
 *                        rx.c lowpan_rcv()): a 6LoWPAN interface on wpan0,
 *                        wpan0 a port of a bond, a frame sent over the
 *                        air by wpan1: the bond re-points the frame to
 *                        itself, lowpan_rcv() reads its ieee802154_ptr
 *   lowpan_userns_tun    the standalone reproducer repro/lowpan_rcv_userns.c
 *                        run as uid 65534 while a 6LoWPAN interface is up:
 *                        unshare -Urn, a tun made ARPHRD_IEEE802154, a
 *                        frame written to it; skips without namespaces
 *   dgram_send_nowpan    the 802.15.4 interfaces deleted, a DGRAM
 *                        sendto() on an unbound socket: dgram_sendmsg()
 *                        takes the first device of the type, the tun
 *
 * On an unfixed kernel each crash case ends the boot with a KASAN
 * null-ptr-deref report, so scripts/test-fix-ieee802154.sh boots one case
 * at a time there; on a fixed kernel bind() fails with ENODEV,
 * sendto() with ENXIO, the frames are dropped, and every case passes.
 * The standalone reproducers are packed as /bin/<name> (repro/).
 * Cases run: i154.cases=a,b on the kernel command line (i154.cases=all,
 * or none given: all, in the order above).  Every step prints
 *   # obs i154.<case>.<step>: ret=<int> errno=<ENAME|0>
 * nl_dump_iface (the legacy genetlink dump, not fixed by the socket
 * patch) runs only when named.  Run anywhere but the test guest, every
 * case skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/if_arp.h>
#include <linux/if_packet.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "nl.h"
#include "suite_util.h"

#ifndef AF_IEEE802154
#define AF_IEEE802154		36
#endif
#ifndef ETH_P_IEEE802154
#define ETH_P_IEEE802154	0x00F6
#endif
#define IEEE802154_ADDR_SHORT	2	/* include/net/af_ieee802154.h */
#define IEEE802154_ADDR_LONG	3
#define NL802154_CMD_DEL_INTERFACE	8	/* include/net/nl802154.h */
#define NL802154_ATTR_IFINDEX		3
#define NOBODY			65534

/* Not in the uapi headers: include/net/af_ieee802154.h. */
struct i154_addr_sa {
	int addr_type;
	uint16_t pan_id;
	union {
		uint8_t hwaddr[8];
		uint16_t short_addr;
	};
};

struct sockaddr_i154 {
	sa_family_t family;
	struct i154_addr_sa addr;
};

/* A short address no 802.15.4 interface here has: the walk goes on to
 * every device of the type (hwsim's interfaces keep pan 0xffff). */
#define PAN	0x1234
#define SHORT	0x0001

/* --- case selection: i154.cases=a,b,c ------------------------------- */

/* Is @name in i154.cases=?  With @any, "all" and no i154.cases= at all
 * select it too. */
static int selected_as(const char *name, int any)
{
	char buf[4096], *p, *end;
	size_t n, len = strlen(name);
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return any;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strstr(buf, "i154.cases=");
	if (!p)
		return any;
	p += strlen("i154.cases=");
	end = p + strcspn(p, " \n");
	while (p < end) {
		size_t l = strcspn(p, ",");

		if (p + l > end)
			l = end - p;
		if ((l == len && !strncmp(p, name, len)) ||
		    (any && l == 3 && !strncmp(p, "all", 3)))
			return 1;
		p += l + 1;
	}
	return 0;
}

#define CASE_AS(name, any) do {					\
	GUEST_ONLY();							\
	if (!selected_as(name, any))					\
		SKIP(return, "not in i154.cases");			\
} while (0)
#define CASE(name) CASE_AS(name, 1)
/* A case only run when named: it takes even a fixed kernel down. */
#define CASE_NAMED(name) CASE_AS(name, 0)

/* --- steps ----------------------------------------------------------- */

/* Print one step; @ret is >= 0 or -errno.  Returns @ret.  Flushed: the
 * next call may take the kernel down. */
static int obs(const char *c, const char *step, int ret)
{
	printf("# obs i154.%s.%s: ret=%d errno=%s\n", c, step,
	       ret < 0 ? -1 : ret, errno_name(ret < 0 ? -ret : 0));
	fflush(stdout);
	return ret;
}

static int sys(int ret)
{
	return ret < 0 ? -errno : ret;
}

/* The device's type (SIOCGIFHWADDR's sa_family), or -errno. */
static int dev_type(const char *name)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ret = ioctl(fd, SIOCGIFHWADDR, &ifr) ? -errno : ifr.ifr_hwaddr.sa_family;
	close(fd);
	return ret;
}

/* Devices of type ARPHRD_IEEE802154 in this network namespace. */
static int count_802154(void)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int n = 0;

	if (!ifs)
		return -errno;
	for (i = ifs; i->if_index; i++)
		n += dev_type(i->if_name) == ARPHRD_IEEE802154;
	if_freenameindex(ifs);
	return n;
}

/* RTM_SETLINK IFLA_MASTER: @port becomes a port of @master. */
static int enslave(const char *port, const char *master)
{
	uint32_t idx = if_nametoindex(master);

	if (!idx)
		return -ENODEV;
	return nl_setlink(port, IFLA_MASTER, &idx, sizeof(idx));
}

/* A tun device @name (TUNSETIFF @flags) on a new fd; the fd or -errno. */
static int tun_attach(const char *name, int flags)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_flags = flags;
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int tun_setlink(int fd)
{
	return ioctl(fd, TUNSETLINK, (unsigned long)ARPHRD_IEEE802154) ? -errno : 0;
}

/* Write an 802.15.4 frame (data, short addresses, pan 0x1234, to 0x0001)
 * of protocol ETH_P_IEEE802154 to tun @fd (with packet information):
 * write()'s return or -errno. */
#define FRAME_LEN 15
static int write_frame(int fd)
{
	unsigned char frame[FRAME_LEN] = {
		0, 0, ETH_P_IEEE802154 >> 8, ETH_P_IEEE802154 & 0xff,	/* tun_pi */
		0x41, 0x88, 0x01, 0x34, 0x12, 0x01, 0x00, 0x02, 0x00,
		'h', 'i',
	};

	return sys(write(fd, frame, sizeof(frame)));
}

static socklen_t short_addr(struct sockaddr_i154 *a, uint16_t short_a)
{
	memset(a, 0, sizeof(*a));
	a->family = AF_IEEE802154;
	a->addr.addr_type = IEEE802154_ADDR_SHORT;
	a->addr.pan_id = PAN;
	a->addr.short_addr = short_a;
	return sizeof(*a);
}

/* socket(AF_IEEE802154, @type) and bind() to PAN/SHORT: bind's 0 or
 * -errno (the socket's own -errno if there is none). */
static int bind_short(const char *c, int type)
{
	struct sockaddr_i154 a;
	int fd, ret;

	fd = obs(c, type == SOCK_RAW ? "socket_raw" : "socket_dgram",
		 sys(socket(AF_IEEE802154, type | SOCK_CLOEXEC, 0)));
	if (fd < 0)
		return fd;
	ret = obs(c, "bind_short", sys(bind(fd, (void *)&a, short_addr(&a, SHORT))));
	close(fd);
	return ret;
}

/* A bond or team @master with 802.15.4 interface @port (down, as team
 * wants and as bonding needs to set its address). */
static int make_master(const char *c, const char *master, const char *kind,
		       const char *port)
{
	int ret;

	if (!if_nametoindex(port))
		return obs(c, "port_exists", -ENODEV);
	ret = obs(c, "newlink", nl_newlink(master, kind, NULL, NULL));
	if (ret)
		return ret;
	obs(c, "port_type", dev_type(port));
	ret = obs(c, "port_down", nl_link_updown(port, 0));
	if (ret)
		return ret;
	ret = obs(c, "enslave", enslave(port, master));
	if (ret)
		return ret;
	/* The master now claims to be an 802.15.4 device. */
	return obs(c, "master_type", dev_type(master));
}

/* Become uid/gid 65534 with no groups; stay dumpable, so that the
 * process can still write its own /proc/self/uid_map after unshare. */
static int become_nobody(const char *c)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return obs(c, "setuid_nobody", -errno);
	return 0;
}

/* devtmpfs makes /dev/net/tun 0600; udev's rule on a distribution
 * makes it 0666, which is what an unprivileged user meets there. */
static int tun_node_like_udev(const char *c)
{
	return obs(c, "chmod_dev_net_tun_0666", sys(chmod("/dev/net/tun", 0666)));
}

/* --- genetlink: nl802154's DEL_INTERFACE ---------------------------- */

struct gmsg {
	struct nlmsghdr h;
	char buf[512];
};

static void genl_init(struct gmsg *m, int family, int cmd)
{
	nl_genl_init(m, sizeof(*m), family, cmd);
}

static int wpan_delete(const char *name)
{
	uint32_t idx = if_nametoindex(name);
	int fam = nl_genl_family("nl802154");
	struct gmsg m;

	if (!idx)
		return -ENODEV;
	if (fam < 0)
		return fam;
	genl_init(&m, fam, NL802154_CMD_DEL_INTERFACE);
	nl_put(&m, NL802154_ATTR_IFINDEX, &idx, sizeof(idx));
	return nl_request(NETLINK_GENERIC, &m, NULL, 0);
}

/* --- the cases -------------------------------------------------------- */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

/*
 * unshare -Urn from an unprivileged user (uid 65534), default sysctls:
 * what of the above can it reach?  One obs line per step, then one line
 *   # userns: <summary>
 */
static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", &v) != 1)
		v = -EINVAL;
	fclose(f);
	return v;
}

static int userns_steps(const char *c)
{
	int raw, dgram, bond, team, tun, fd, n154, hwsim, legacy, nl802154;
	int rx = -ENODEV;

	obs(c, "sysctl_unprivileged_userns_clone",
	    read_sysctl("/proc/sys/kernel/unprivileged_userns_clone"));
	obs(c, "sysctl_max_user_namespaces",
	    read_sysctl("/proc/sys/user/max_user_namespaces"));
	if (tun_node_like_udev(c) || become_nobody(c))
		return 1;
	/* Before unsharing: what the user has in the initial namespaces. */
	dgram = obs(c, "init_net_socket_dgram",
		    sys(socket(AF_IEEE802154, SOCK_DGRAM | SOCK_CLOEXEC, 0)));
	if (dgram >= 0)
		close(dgram);
	raw = obs(c, "init_net_socket_raw",
		  sys(socket(AF_IEEE802154, SOCK_RAW | SOCK_CLOEXEC, 0)));
	if (raw >= 0)
		close(raw);
	obs(c, "init_net_newlink_bond", nl_newlink("i154nob", "bond", NULL, NULL));
	/* /proc/self/ns/user and net exist iff CONFIG_USER_NS and
	 * CONFIG_NET_NS (make check's kernels have neither). */
	if (access("/proc/self/ns/user", F_OK) || access("/proc/self/ns/net", F_OK)) {
		printf("# userns: not measurable: kernel without user or network namespaces; in the initial ones uid 65534 gets an AF_IEEE802154 dgram socket %s, raw %s\n",
		       dgram >= 0 ? "ok" : errno_name(-dgram),
		       raw >= 0 ? "ok" : errno_name(-raw));
		fflush(stdout);
		return KSFT_SKIP;
	}
	if (obs(c, "unshare_user_net", sys(unshare(CLONE_NEWUSER | CLONE_NEWNET))))
		return 1;
	obs(c, "setgroups_deny", write_str("/proc/self/setgroups", "deny"));
	obs(c, "uid_map", write_str("/proc/self/uid_map", "0 65534 1"));
	obs(c, "gid_map", write_str("/proc/self/gid_map", "0 65534 1"));
	n154 = obs(c, "count_802154_type", count_802154());
	hwsim = obs(c, "genl_mac802154_hwsim", nl_genl_family("MAC802154_HWSIM"));
	legacy = obs(c, "genl_802154_mac", nl_genl_family("802.15.4 MAC"));
	nl802154 = obs(c, "genl_nl802154", nl_genl_family("nl802154"));
	dgram = obs(c, "socket_dgram", sys(socket(AF_IEEE802154, SOCK_DGRAM | SOCK_CLOEXEC, 0)));
	raw = obs(c, "socket_raw", sys(socket(AF_IEEE802154, SOCK_RAW | SOCK_CLOEXEC, 0)));
	bond = obs(c, "newlink_bond", nl_newlink("i154nsbond", "bond", NULL, NULL));
	team = obs(c, "newlink_team", nl_newlink("i154nsteam", "team", NULL, NULL));
	fd = obs(c, "tunsetiff", tun_attach("i154nstun", IFF_TUN));
	tun = fd < 0 ? fd : obs(c, "tunsetlink", tun_setlink(fd));
	if (!tun) {
		obs(c, "tun_type", dev_type("i154nstun"));
		/* The receive path: ieee802154_rcv() drops frames of other
		 * namespaces before it looks at the device. */
		rx = obs(c, "tun_up", nl_link_up("i154nstun"));
		if (!rx)
			rx = obs(c, "tun_write_frame", write_frame(fd));
	}
	printf("# userns: 802.15.4-type devices %d; hwsim genl %s, legacy 802.15.4 genl %s, nl802154 %s; AF_IEEE802154 dgram %s, raw %s; bond %s, team %s, tun TUNSETLINK 804 %s, frame written to it %s (dropped: other netns)\n",
	       n154, hwsim >= 0 ? "visible" : errno_name(-hwsim),
	       legacy >= 0 ? "visible" : errno_name(-legacy),
	       nl802154 >= 0 ? "visible" : errno_name(-nl802154),
	       dgram >= 0 ? "ok" : errno_name(-dgram),
	       raw >= 0 ? "ok" : errno_name(-raw),
	       bond ? errno_name(-bond) : "ok", team ? errno_name(-team) : "ok",
	       tun ? errno_name(-tun) : "ok", rx < 0 ? errno_name(-rx) : "ok");
	fflush(stdout);
	/* Reachable only through an AF_IEEE802154 socket, which exists in
	 * the initial network namespace only. */
	return dgram == -EAFNOSUPPORT && raw == -EAFNOSUPPORT ? 0 : 1;
}

TEST(userns)
{
	int status;
	pid_t pid;

	CASE("userns");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(userns_steps("userns"));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
		SKIP(return, "kernel without user or network namespaces");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The fuzzer's call #30754 of seed 1, in four steps. */
TEST(bond_raw_bind)
{
	CASE("bond_raw_bind");
	ASSERT_EQ(ARPHRD_IEEE802154,
		  make_master("bond_raw_bind", "i154bond", "bond", "wpan0"));
	EXPECT_EQ(-ENODEV, bind_short("bond_raw_bind", SOCK_RAW));
}

TEST(team_dgram_bind)
{
	CASE("team_dgram_bind");
	ASSERT_EQ(ARPHRD_IEEE802154,
		  make_master("team_dgram_bind", "i154team", "team", "wpan1"));
	EXPECT_EQ(-ENODEV, bind_short("team_dgram_bind", SOCK_DGRAM));
}

/*
 * No bonding or team: a tun device, persistent and owned by uid 65534
 * (as "ip tuntap add mode tun user nobody" leaves it), which that user
 * makes ARPHRD_IEEE802154 and then binds an AF_IEEE802154 DGRAM socket,
 * which needs no capability, with no privilege at all.
 */
static int tun_user_steps(const char *c)
{
	int fd, ret;

	if (become_nobody(c))
		return -EPERM;
	obs(c, "nobody_newlink_bond", nl_newlink("i154nob", "bond", NULL, NULL));
	fd = obs(c, "nobody_tunsetiff", tun_attach("i154user", IFF_TUN | IFF_NO_PI));
	if (fd < 0)
		return fd;
	ret = obs(c, "nobody_tunsetlink", tun_setlink(fd));
	if (ret)
		return ret;
	obs(c, "tun_type", dev_type("i154user"));
	return bind_short(c, SOCK_DGRAM);
}

TEST(tun_user_dgram_bind)
{
	const char *c = "tun_user_dgram_bind";
	int fd, status;
	pid_t pid;

	CASE("tun_user_dgram_bind");
	ASSERT_EQ(0, tun_node_like_udev(c));
	fd = obs(c, "root_tunsetiff", tun_attach("i154user", IFF_TUN | IFF_NO_PI));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, obs(c, "root_tunsetowner",
			 sys(ioctl(fd, TUNSETOWNER, (unsigned long)NOBODY))));
	ASSERT_EQ(0, obs(c, "root_tunsetpersist",
			 sys(ioctl(fd, TUNSETPERSIST, 1UL))));
	close(fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(tun_user_steps(c) == -ENODEV ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A frame of ETH_P_IEEE802154 written to a tun device of the type. */
TEST(tun_rx)
{
	const char *c = "tun_rx";
	unsigned char buf[64];
	struct sockaddr_i154 a;
	int fd, s;

	CASE("tun_rx");
	fd = obs(c, "tunsetiff", tun_attach("i154rx", IFF_TUN));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, obs(c, "tunsetlink", tun_setlink(fd)));
	ASSERT_EQ(0, obs(c, "up", nl_link_up("i154rx")));
	/* A listener, so that a frame that got through would be seen: a
	 * DGRAM socket, bound by the tun's long address (all zero) if the
	 * kernel lets it, else unbound (it then takes every frame). */
	s = obs(c, "socket_dgram", sys(socket(AF_IEEE802154, SOCK_DGRAM | SOCK_CLOEXEC, 0)));
	ASSERT_LE(0, s);
	memset(&a, 0, sizeof(a));
	a.family = AF_IEEE802154;
	a.addr.addr_type = IEEE802154_ADDR_LONG;
	a.addr.pan_id = PAN;
	obs(c, "bind_long_tun", sys(bind(s, (void *)&a, sizeof(a))));
	EXPECT_EQ(FRAME_LEN, obs(c, "write_frame", write_frame(fd)));
	/* Not delivered: the tun is no 802.15.4 interface. */
	EXPECT_EQ(-EAGAIN, obs(c, "recv", sys(recv(s, buf, sizeof(buf), MSG_DONTWAIT))));
	close(s);
	close(fd);
}

/* --- the standalone reproducers (repro/) and 6LoWPAN ------------------ */

/* Run /bin/@prog as uid 65534, its output printed as "# <case>: "
 * diagnostic lines; its exit status (0: not affected), or -1. */
static int run_as_nobody(const char *c, const char *prog)
{
	char line[256], path[64];
	int p[2], status;
	FILE *out;
	pid_t pid;

	snprintf(path, sizeof(path), "/bin/%s", prog);
	if (obs(c, "repro_present", sys(access(path, X_OK))) || pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		if (become_nobody(c))
			_exit(126);
		execl(path, prog, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	out = fdopen(p[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		printf("# %s: %s", c, line);
		fflush(stdout);
	}
	if (out)
		fclose(out);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return obs(c, "repro_exit", WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR);
}

TEST(repro_socket_tun)
{
	const char *c = "repro_socket_tun";
	int fd;

	CASE("repro_socket_tun");
	ASSERT_EQ(0, tun_node_like_udev(c));
	/* ip tuntap add dev tun154 mode tun user nobody */
	fd = obs(c, "root_tunsetiff", tun_attach("tun154", IFF_TUN | IFF_NO_PI));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, obs(c, "root_tunsetowner",
			 sys(ioctl(fd, TUNSETOWNER, (unsigned long)NOBODY))));
	ASSERT_EQ(0, obs(c, "root_tunsetpersist", sys(ioctl(fd, TUNSETPERSIST, 1UL))));
	close(fd);
	EXPECT_EQ(0, run_as_nobody(c, "ieee802154_socket_tun"));
	/* Premise: the device the program made is of the type. */
	EXPECT_EQ(ARPHRD_IEEE802154, obs(c, "tun_type", dev_type("tun154")));
}

/* A counter of @dev's /sys/class/net statistics, or -errno. */
static long long net_stat(const char *dev, const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", dev, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "%lld", &v) != 1)
		v = -EINVAL;
	fclose(f);
	return v;
}

/* A 6LoWPAN interface "i154lp" on @wpan, up (lowpan_open() registers
 * lowpan_rcv() for every namespace), if there is none yet. */
static int lowpan_up(const char *c, const char *wpan)
{
	int ret;

	if (!if_nametoindex("i154lp")) {
		ret = obs(c, "newlink_lowpan", nl_newlink_on("i154lp", "lowpan", wpan, NULL));
		if (ret)
			return ret;
	}
	return obs(c, "lowpan_up", nl_link_up("i154lp"));
}

/* Send an 802.15.4 data frame, broadcast on PAN 0xffff, whose payload
 * starts with 6LoWPAN's IPv6 dispatch, out of @dev by a packet socket
 * (no AF_IEEE802154 lookup on the way). */
static int send_air(const char *dev)
{
	static const unsigned char frame[] = {
		0x41, 0x88, 0x07, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00,
		0x41, 0x60, 0, 0, 0,
	};
	struct sockaddr_ll ll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IEEE802154),
		.sll_ifindex = (int)if_nametoindex(dev),
	};
	int s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0), ret;

	if (s < 0)
		return -errno;
	ret = sys(sendto(s, frame, sizeof(frame), 0, (void *)&ll, sizeof(ll)));
	close(s);
	return ret;
}

TEST(lowpan_bond_rx)
{
	const char *c = "lowpan_bond_rx";
	long long rx0, rx1;
	int i;

	CASE("lowpan_bond_rx");
	if (!if_nametoindex("i154bond"))
		ASSERT_EQ(ARPHRD_IEEE802154, make_master(c, "i154bond", "bond", "wpan0"));
	ASSERT_EQ(0, obs(c, "bond_up", nl_link_up("i154bond")));
	ASSERT_EQ(0, lowpan_up(c, "wpan0"));
	ASSERT_EQ(0, obs(c, "wpan1_up", nl_link_up("wpan1")));
	rx0 = net_stat("wpan0", "rx_packets");
	EXPECT_LT(0, obs(c, "send_wpan1", send_air("wpan1")));
	/* hwsim delivers from a workqueue: wait for the frame. */
	for (i = 0; i < 50 && net_stat("wpan0", "rx_packets") == rx0; i++)
		usleep(20000);
	rx1 = net_stat("wpan0", "rx_packets");
	/* Premise: the frame crossed the air to the bond's port. */
	printf("# obs i154.%s.wpan0_rx_packets: %lld -> %lld\n", c, rx0, rx1);
	EXPECT_LT(rx0, rx1);
}

TEST(lowpan_userns_tun)
{
	const char *c = "lowpan_userns_tun";

	CASE("lowpan_userns_tun");
	if (access("/proc/self/ns/user", F_OK) || access("/proc/self/ns/net", F_OK))
		SKIP(return, "kernel without user or network namespaces");
	ASSERT_EQ(0, tun_node_like_udev(c));
	ASSERT_EQ(0, lowpan_up(c, if_nametoindex("i154bond") ? "wpan0" : "wpan1"));
	EXPECT_EQ(0, run_as_nobody(c, "lowpan_rcv_userns"));
}

/* Last: it deletes the 802.15.4 interfaces. */
TEST(dgram_send_nowpan)
{
	const char *c = "dgram_send_nowpan";
	struct sockaddr_i154 a;
	int fd, s;

	CASE("dgram_send_nowpan");
	fd = obs(c, "tunsetiff", tun_attach("i154tx", IFF_TUN | IFF_NO_PI));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, obs(c, "tunsetlink", tun_setlink(fd)));
	ASSERT_EQ(0, obs(c, "up", nl_link_up("i154tx")));
	obs(c, "del_wpan0", wpan_delete("wpan0"));
	obs(c, "del_wpan1", wpan_delete("wpan1"));
	obs(c, "count_802154_type", count_802154());
	s = obs(c, "socket_dgram", sys(socket(AF_IEEE802154, SOCK_DGRAM | SOCK_CLOEXEC, 0)));
	ASSERT_LE(0, s);
	EXPECT_EQ(-ENXIO, obs(c, "sendto_unbound",
			      sys(sendto(s, "hi", 2, 0, (void *)&a, short_addr(&a, 2)))));
	close(s);
	close(fd);
}

/*
 * Not fixed by the socket patch, so only run when named
 * (i154.cases=nl_dump_iface): the legacy "802.15.4 MAC" genetlink
 * family's LIST_IFACE dump, which needs no privilege, reads
 * ieee802154_ptr->wpan_phy of every device of the type
 * (ieee802154_dump_iface() -> ieee802154_nl_fill_iface()).
 */
#define IEEE802154_LIST_IFACE	31	/* include/linux/nl802154.h */

static int dump_iface_as_nobody(const char *c)
{
	struct gmsg m;
	int fam;

	if (become_nobody(c))
		return -EPERM;
	fam = obs(c, "genl_802154_mac", nl_genl_family("802.15.4 MAC"));
	if (fam < 0)
		return fam;
	genl_init(&m, fam, IEEE802154_LIST_IFACE);
	m.h.nlmsg_flags = NLM_F_DUMP;
	return obs(c, "nobody_list_iface_dump", nl_request(NETLINK_GENERIC, &m, NULL, 0));
}

TEST(nl_dump_iface)
{
	int status;
	pid_t pid;

	CASE_NAMED("nl_dump_iface");
	ASSERT_EQ(ARPHRD_IEEE802154,
		  make_master("nl_dump_iface", "i154bond", "bond", "wpan0"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(dump_iface_as_nobody("nl_dump_iface") ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
