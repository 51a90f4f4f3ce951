// SPDX-License-Identifier: GPL-2.0
/*
 * Directed tests of tap_ioctl() (drivers/net/tap.c), the character device
 * of macvtap and ipvtap, whose SIOCGIFHWADDR and SIOCSIFHWADDR paths
 * patch 13 moves from a struct sockaddr to a struct sockaddr_storage.
 * Neither the fuzzer nor the other suites open a /dev/tapN, so without
 * this suite those lines never run (make coverage).
 *
 * SIOCGIFHWADDR copies a whole struct sockaddr (16 bytes) to user space:
 * the family, addr_len bytes of address and the rest.  The rest once held
 * kernel stack (CVE-2026-52937, fixed by bddc09212c24 in 6.12.y, which
 * 6.12.118 has): the request is pre-filled with 0xa5 and all 16 bytes are
 * printed, and the bytes past the address must be zero on both kernels
 * (tun: the caller's own 0xa5, as tun works on a copy of the request).
 * Steps per device, one obs line each, compared baseline vs patched:
 *   # obs tap.<kind>.<step>: ret=.. errno=..[ hwaddr=<16 bytes hex>]
 * get, set (a new address of the device's type), get again, set with
 * the wrong family (AF_INET); then the same on a tap-mode tun's own file
 * (__tun_chr_ioctl()).  Built -m32 too (tap_ioctl_m32): the same steps
 * through the compat ioctl paths.  Run anywhere but the test guest,
 * every test skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_tun.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "nl.h"
#include "suite_util.h"

#define HWLEN	16	/* sizeof(ifr_hwaddr): what SIOCGIFHWADDR copies */
#define ETH_LEN	6

static const unsigned char lower_mac[ETH_LEN] = { 0x02, 0, 0, 0, 0x7a, 0x01 };
static const unsigned char tap_mac[ETH_LEN] = { 0x02, 0, 0, 0, 0x7a, 0x02 };
static const unsigned char new_mac[ETH_LEN] = { 0x02, 0, 0, 0, 0x7a, 0x42 };

/* One step's result and, for a get, the 16 bytes the kernel wrote. */
static void obs(const char *kind, const char *step, int ret,
		const struct ifreq *ifr)
{
	const unsigned char *p;

	printf("# obs tap.%s.%s: ret=%d errno=%s", kind, step, ret ? -1 : 0,
	       errno_name(ret ? errno : 0));
	if (ifr) {
		p = (const void *)&ifr->ifr_hwaddr;
		printf(" hwaddr=");
		for (int i = 0; i < HWLEN; i++)
			printf("%02x", p[i]);
	}
	printf("\n");
}

/* SIOCGIFHWADDR on @fd into @ifr, pre-filled so that every byte the
 * kernel leaves alone shows. */
static int get_hwaddr(int fd, struct ifreq *ifr)
{
	memset(ifr, 0xa5, sizeof(*ifr));
	return ioctl(fd, SIOCGIFHWADDR, ifr);
}

static int set_hwaddr(int fd, int family, const unsigned char *mac)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_hwaddr.sa_family = family;
	memcpy(ifr.ifr_hwaddr.sa_data, mac, ETH_LEN);
	return ioctl(fd, SIOCSIFHWADDR, &ifr);
}

/* Bytes of the returned sockaddr past the family and the address, all
 * @byte? */
static int tail_is(const struct ifreq *ifr, unsigned char byte)
{
	const unsigned char *p = (const void *)&ifr->ifr_hwaddr;

	for (int i = 2 + ETH_LEN; i < HWLEN; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

FIXTURE(tapdev) {
	char lower[IFNAMSIZ], tap[IFNAMSIZ];
	int fd;
};

FIXTURE_VARIANT(tapdev) {
	const char *kind;	/* rtnetlink kind of the tap device */
	const char *lower, *tap;
	int settable;		/* the device has ndo_set_mac_address */
};

FIXTURE_VARIANT_ADD(tapdev, macvtap) { "macvtap", "tapl1", "mvtap1", 1 };
/* ipvlan has no ndo_set_mac_address: a set gives EOPNOTSUPP. */
FIXTURE_VARIANT_ADD(tapdev, ipvtap) { "ipvtap", "tapl2", "ivtap1", 0 };

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

FIXTURE_SETUP(tapdev)
{
	char path[32];
	int ret;

	self->fd = -1;
	self->lower[0] = self->tap[0] = '\0';
	GUEST_ONLY();
	ret = nl_newlink(variant->lower, "dummy", NULL, lower_mac);
	ASSERT_EQ(0, ret) TH_LOG("dummy %s: %s", variant->lower, errno_name(-ret));
	strcpy(self->lower, variant->lower);
	ASSERT_EQ(0, nl_link_up(variant->lower));
	ret = nl_newlink_on(variant->tap, variant->kind, variant->lower, tap_mac);
	ASSERT_EQ(0, ret) TH_LOG("%s %s: %s", variant->kind, variant->tap, errno_name(-ret));
	strcpy(self->tap, variant->tap);
	/* The character device is named after the interface index. */
	snprintf(path, sizeof(path), "/dev/tap%u", if_nametoindex(variant->tap));
	self->fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", path, strerror(errno));
}

FIXTURE_TEARDOWN(tapdev)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->tap[0])
		nl_dellink(self->tap);
	if (self->lower[0])
		nl_dellink(self->lower);
}

TEST_F(tapdev, hwaddr)
{
	const char *k = variant->kind;
	struct ifreq ifr;
	int ret;

	ret = get_hwaddr(self->fd, &ifr);
	obs(k, "get", ret, &ifr);
	ASSERT_EQ(0, ret) TH_LOG("SIOCGIFHWADDR: %s", strerror(errno));
	EXPECT_STREQ(variant->tap, ifr.ifr_name);
	EXPECT_EQ(ARPHRD_ETHER, ifr.ifr_hwaddr.sa_family);
	/* ipvtap shares its lower device's address. */
	EXPECT_EQ(0, memcmp(ifr.ifr_hwaddr.sa_data,
			    variant->settable ? tap_mac : lower_mac, ETH_LEN));
	EXPECT_TRUE(tail_is(&ifr, 0)) TH_LOG("bytes past the address are not zero");

	ret = set_hwaddr(self->fd, ARPHRD_ETHER, new_mac);
	obs(k, "set", ret, NULL);
	if (variant->settable) {
		EXPECT_EQ(0, ret) TH_LOG("SIOCSIFHWADDR: %s", strerror(errno));
	} else {
		EXPECT_EQ(EOPNOTSUPP, ret ? errno : 0);
	}

	ret = get_hwaddr(self->fd, &ifr);
	obs(k, "get_after_set", ret, &ifr);
	ASSERT_EQ(0, ret);
	if (variant->settable) {
		EXPECT_EQ(0, memcmp(ifr.ifr_hwaddr.sa_data, new_mac, ETH_LEN));
	}
	EXPECT_TRUE(tail_is(&ifr, 0));

	/* The family must be the device's type: EINVAL from
	 * dev_set_mac_address() (ipvtap: EOPNOTSUPP, checked first). */
	ret = set_hwaddr(self->fd, AF_INET, new_mac);
	obs(k, "set_wrong_family", ret, NULL);
	EXPECT_NE(0, ret);
}

/*
 * The same steps on a tun device's own file (__tun_chr_ioctl(), patch
 * 13's other copy of SIOCSIFHWADDR): a tap-mode tun, which has an
 * Ethernet address.
 */
TEST(tun_hwaddr)
{
	struct ifreq ifr;
	int fd, ret;

	GUEST_ONLY();
	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("/dev/net/tun: %s", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "rtun0");
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	ASSERT_EQ(0, ioctl(fd, TUNSETIFF, &ifr)) TH_LOG("TUNSETIFF: %s", strerror(errno));

	ret = set_hwaddr(fd, ARPHRD_ETHER, new_mac);
	obs("tun", "set", ret, NULL);
	EXPECT_EQ(0, ret) TH_LOG("SIOCSIFHWADDR: %s", strerror(errno));
	ret = get_hwaddr(fd, &ifr);
	obs("tun", "get_after_set", ret, &ifr);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, memcmp(ifr.ifr_hwaddr.sa_data, new_mac, ETH_LEN));
	/* tun copies the caller's ifreq in and writes the family and
	 * addr_len bytes over it: the rest is the caller's own pattern. */
	EXPECT_TRUE(tail_is(&ifr, 0xa5)) TH_LOG("bytes past the address changed");
	ret = set_hwaddr(fd, AF_INET, new_mac);
	obs("tun", "set_wrong_family", ret, NULL);
	EXPECT_NE(0, ret);
	close(fd);
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
