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
 * Each step prints "# obs netdevs.<device>.<step>: ret=<int>
 * errno=<ENAME|0>"; each device is one KTAP test.  /dev/vhci (hci0) is
 * not here: the controller lives only while its fd is open, so
 * sockaddr_matrix creates it.  Run anywhere but the test guest, every
 * test skips: this must never create devices on a host.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "nl.h"

static const unsigned char dummy_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

/* Print one step's outcome (@ret is 0 or -errno); returns @ret. */
static int step(const char *dev, const char *what, int ret)
{
	const char *name = ret ? strerrorname_np(-ret) : "0";

	printf("# obs netdevs.%s.%s: ret=%d errno=%s\n", dev, what,
	       ret ? -1 : 0, name ? name : "E?");
	return ret;
}

#define GUEST_ONLY() do {						\
	if (!in_test_guest())						\
		SKIP(return, "not the test guest: no devices on a host"); \
} while (0)

/* TEST() passes a variant that plain tests never use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

TEST(vcan0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, step("vcan0", "newlink", nl_newlink("vcan0", "vcan",
							 NULL, NULL)));
	EXPECT_EQ(0, step("vcan0", "up", nl_link_up("vcan0")));
}

TEST(dummy0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, step("dummy0", "newlink",
			  nl_newlink("dummy0", "dummy", NULL, dummy_mac)));
	EXPECT_EQ(0, step("dummy0", "up", nl_link_up("dummy0")));
}

TEST(veth0)
{
	GUEST_ONLY();
	EXPECT_EQ(0, step("veth0", "newlink",
			  nl_newlink("veth0", "veth", "veth1", NULL)));
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

/* nfcsim registers nfc0 and nfc1 at boot. */
TEST(nfc)
{
	GUEST_ONLY();
	EXPECT_EQ(0, step("nfc0", "dev_up", nl_nfc_dev_up(0)));
	EXPECT_EQ(0, step("nfc1", "dev_up", nl_nfc_dev_up(1)));
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
