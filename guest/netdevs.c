// SPDX-License-Identifier: GPL-2.0
/*
 * Run before sockaddr_matrix: create and bring up the devices that give
 * socket families something real to bind to.
 *   vcan0            CAN raw/bcm/isotp/j1939
 *   dummy0           LLC and PPPoE, with a fixed MAC so addresses are
 *                    the same every boot (02:00:00:00:00:01)
 *   veth0/veth1      a link with a peer, for packet sockets
 *   wpan0/wpan1      the two mac802154_hwsim radios (802.15.4)
 *   nfc0/nfc1        the nfcsim devices (NFC raw/LLCP)
 *   fixed_macs       boot-time Ethernet devices with random addresses
 *                    (bond0, gretap0, erspan0) get fixed ones
 * Each step prints "# obs netdevs.<device>.<step>: ret=<int>
 * errno=<ENAME|0>"; each device is one KTAP test.  /dev/vhci (hci0) is
 * not here: the controller lives only while its fd is open, so
 * sockaddr_matrix creates it.  Built -m32 too (netdevs_m32, run after the
 * 64-bit suites): it remakes the devices, and sets the addresses with
 * SIOCSIFHWADDR through compat_ifreq.  Run anywhere but the test guest, every
 * test skips: this must never create devices on a host.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "nl.h"
#include "suite_util.h"

static const unsigned char dummy_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

/* /sys/class/net/<dev>/<attr> as an int, -1 if unreadable. */
static int sysfs_int(const char *dev, const char *attr)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", dev, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%i", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* SIOCSIFHWADDR 02:00:00:00:01:<last>; 0 or -errno. */
static int set_mac(const char *dev, int last)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	if (strlen(dev) >= sizeof(ifr.ifr_name)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, dev, strlen(dev));
	ifr.ifr_hwaddr.sa_family = 1;	/* ARPHRD_ETHER */
	memcpy(ifr.ifr_hwaddr.sa_data, "\x02\x00\x00\x00\x01", 5);
	ifr.ifr_hwaddr.sa_data[5] = (char)last;
	if (ioctl(fd, SIOCSIFHWADDR, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

/* Print one step's outcome (@ret is 0 or -errno); returns @ret. */
static int step(const char *dev, const char *what, int ret)
{
	printf("# obs netdevs.%s.%s: ret=%d errno=%s\n", dev, what,
	       ret ? -1 : 0, errno_name(-ret));
	return ret;
}

/*
 * RTM_NEWLINK of a device made here, deleting the one an earlier run in
 * this boot made (netdevs_m32 runs after netdevs): the 32-bit suites get
 * devices made, and given their addresses, by a 32-bit program.
 */
static int newlink(const char *dev, const char *kind, const char *peer,
		   const unsigned char *mac)
{
	if (if_nametoindex(dev))
		step(dev, "dellink_earlier", nl_dellink(dev));
	return step(dev, "newlink", nl_newlink(dev, kind, peer, mac));
}

/* TEST() passes a variant that plain tests never use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

TEST(vcan0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, newlink("vcan0", "vcan", NULL, NULL));
	EXPECT_EQ(0, step("vcan0", "up", nl_link_up("vcan0")));
}

TEST(dummy0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, newlink("dummy0", "dummy", NULL, dummy_mac));
	EXPECT_EQ(0, step("dummy0", "up", nl_link_up("dummy0")));
}

TEST(veth0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, newlink("veth0", "veth", "veth1", NULL));
	EXPECT_EQ(0, step("veth0", "up", nl_link_up("veth0")));
	EXPECT_EQ(0, step("veth1", "up", nl_link_up("veth1")));
}

/* mac802154_hwsim registers two radios at boot. */
TEST(wpan)
{
	GUEST_ONLY();
	EXPECT_EQ(0, step("wpan0", "up", nl_link_up("wpan0")));
	EXPECT_EQ(0, step("wpan1", "up", nl_link_up("wpan1")));
}

/*
 * nfcsim registers nfc0 and nfc1 at boot.  Up is what is wanted: an
 * earlier run in this boot (netdevs before netdevs_m32) already did it,
 * and NFC says EALREADY.
 */
static int nfc_up(const char *dev, unsigned int idx)
{
	int ret = step(dev, "dev_up", nl_nfc_dev_up(idx));

	return ret == -EALREADY ? 0 : ret;
}

TEST(nfc)
{
	GUEST_ONLY();
	EXPECT_EQ(0, nfc_up("nfc0", 0));
	EXPECT_EQ(0, nfc_up("nfc1", 1));
}

/*
 * Ethernet-type devices the kernel makes at boot with a random address
 * (bond0, gretap0, erspan0, ...) get a fixed one, 02:00:00:00:01:<ifindex>:
 * families that pick the first such device (LLC autobind) must show the
 * same address on every boot.
 */
TEST(fixed_macs)
{
	struct dirent **ents;
	int n, i;

	GUEST_ONLY();
	n = scandir("/sys/class/net", &ents, NULL, alphasort);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		const char *dev = ents[i]->d_name;
		int type = sysfs_int(dev, "type");
		int assign = sysfs_int(dev, "addr_assign_type");
		int idx = sysfs_int(dev, "ifindex");

		/* ARPHRD_ETHER, NET_ADDR_RANDOM */
		if (dev[0] != '.' && type == 1 && assign == 1 && idx > 0 && idx < 256)
			EXPECT_EQ(0, step(dev, "fixed_mac", set_mac(dev, idx)));
		free(ents[i]);
	}
	free(ents);
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
