// SPDX-License-Identifier: GPL-2.0
/*
 * make check-debian only: two out-of-tree modules a Debian user builds
 * with dkms, run through the socket calls the series changes.  Both are
 * built by dkms inside the Debian rootfs against the installed
 * linux-headers package, with the fixes of dkms/ (scripts/debian-dkms.sh).
 *
 * lime_tcp_dump: LiME (lime-forensics) loaded with path=tcp:PORT
 * format=lime binds its listening socket with kernel_bind() and streams
 * the guest's memory to the one client that connects.  The client here
 * reads the whole stream and checks it range by range: each range is a
 * 32-byte header (magic "EMiL", version 1, first and last physical
 * address) and then exactly last - first + 1 bytes; the ranges must be
 * the "System RAM" ranges of /proc/iomem.
 *
 * netflow_export: ipt-netflow loaded with destination=127.0.0.1:PORT@
 * 127.0.0.1 opens its exporter socket with ->bind() (the @source) and
 * ->connect(); an iptables rule (-j NETFLOW) counts a few UDP datagrams
 * sent here, a flush (net.netflow.flush) exports the flows, and the
 * NetFlow v5 collector here must receive the flow with the right
 * addresses, ports, protocol and packet and byte counts.
 *
 * obs lines (compared baseline vs patched):
 *   # obs oot.lime.<what>: ...     # obs oot.netflow.<what>: ...
 * Run anywhere but the Debian test guest, every test skips.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#include "guestenv.h"
#include "suite_util.h"

#define LIME_PORT	4444
#define LIME_MAGIC	0x4C694D45	/* lime.h: "EMiL" little-endian */
#define NETFLOW_PORT	2055
#define FLOW_SPORT	40009
#define FLOW_DPORT	9		/* discard: nothing listens, UDP does not care */
#define FLOW_PACKETS	5u
#define FLOW_PAYLOAD	10u
#define MAX_RANGES	32

/* lime.h's lime_mem_range_header. */
struct lime_header {
	uint32_t magic;
	uint32_t version;
	uint64_t s_addr;
	uint64_t e_addr;
	unsigned char reserved[8];
} __attribute__((packed));

struct range {
	uint64_t start, end;
};

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* The top-level "System RAM" ranges of /proc/iomem (root sees them). */
static int iomem_ram(struct range *r, int max)
{
	char line[256];
	int n = 0;
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned long long s, e;

		if (line[0] == ' ' || !strstr(line, ": System RAM"))
			continue;
		if (sscanf(line, "%llx-%llx", &s, &e) == 2) {
			r[n].start = s;
			r[n].end = e;
			n++;
		}
	}
	fclose(f);
	return n;
}

/* Connect to 127.0.0.1:@port, retrying while the module comes up. */
static int connect_retry(int port, int seconds)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	for (int i = 0; i < seconds * 10; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fd;
		close(fd);
		usleep(100000);
	}
	return -1;
}

/* A fixture only for its timeout: the harness's default is 30 s, and a
 * 2 GiB dump over loopback in a TCG guest takes longer. */
FIXTURE(oot) { int unused; };
FIXTURE_SETUP(oot) {}
FIXTURE_TEARDOWN(oot) {}

/* The harness passes every test a variant it does not use, and its
 * TEST_F wrapper keeps a local across setjmp(). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#ifndef __clang__ /* gcc's warning: clang has no such group */
#pragma GCC diagnostic ignored "-Wclobbered"
#endif
TEST_F_TIMEOUT(oot, lime_tcp_dump, 600)
{
	static char buf[1 << 20];
	struct range ram[MAX_RANGES], got[MAX_RANGES];
	struct lime_header h;
	int nram, ngot = 0, fd, st, bad = 0;
	uint64_t total = 0;
	pid_t pid;

	(void)self;
	GUEST_ONLY();
	nram = iomem_ram(ram, MAX_RANGES);
	ASSERT_LT(0, nram) TH_LOG("no System RAM in /proc/iomem");
	run("modprobe -r lime 2>/dev/null");
	/* LiME's init serves the dump before it returns: modprobe waits. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execlp("modprobe", "modprobe", "lime", "path=tcp:4444", "format=lime", (char *)NULL);
		_exit(127);
	}
	fd = connect_retry(LIME_PORT, 120);
	if (fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	ASSERT_LE(0, fd) TH_LOG("no LiME listener on 127.0.0.1:%d", LIME_PORT);
	for (;;) {
		int r = read_full(fd, &h, sizeof(h));
		uint64_t left;

		if (r == 0)
			break;		/* the end, between two ranges */
		if (r < 0 || h.magic != LIME_MAGIC || h.version != 1 ||
		    h.e_addr < h.s_addr || ngot == MAX_RANGES) {
			bad = 1;
			break;
		}
		got[ngot].start = h.s_addr;
		got[ngot].end = h.e_addr;
		ngot++;
		for (left = h.e_addr - h.s_addr + 1; left; ) {
			size_t chunk = left < sizeof(buf) ? left : sizeof(buf);

			if (read_full(fd, buf, chunk) != 1) {
				bad = 2;
				break;
			}
			left -= chunk;
			total += chunk;
		}
		if (bad)
			break;
	}
	close(fd);
	waitpid(pid, &st, 0);
	printf("# obs oot.lime.modprobe: exit=%d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("# obs oot.lime.stream: ranges=%d ram_bytes=%" PRIu64 " well_formed=%s\n",
	       ngot, total, bad ? (bad == 1 ? "no (header)" : "no (short range)") : "yes");
	for (int i = 0; i < ngot; i++)
		printf("# obs oot.lime.range%d: %#" PRIx64 "-%#" PRIx64 " iomem=%s\n", i,
		       got[i].start, got[i].end,
		       i < nram && got[i].start == ram[i].start && got[i].end == ram[i].end ?
		       "same" : "differs");
	EXPECT_EQ(0, bad);
	EXPECT_EQ(nram, ngot);
	for (int i = 0; i < ngot && i < nram; i++) {
		EXPECT_EQ(ram[i].start, got[i].start);
		EXPECT_EQ(ram[i].end, got[i].end);
	}
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	EXPECT_EQ(0, run("modprobe -r lime"));
}

/* NetFlow v5 (Cisco's format, as ipt-netflow's protocol=5 sends it). */
struct nf5_header {
	uint16_t version, count;
	uint32_t uptime, secs, nsecs, seq;
	uint8_t engine_type, engine_id;
	uint16_t sampling;
} __attribute__((packed));

struct nf5_record {
	uint32_t src, dst, nexthop;
	uint16_t input, output;
	uint32_t packets, octets, first, last;
	uint16_t sport, dport;
	uint8_t pad1, tcp_flags, proto, tos;
	uint16_t src_as, dst_as;
	uint8_t src_mask, dst_mask;
	uint16_t pad2;
} __attribute__((packed));

TEST_F_TIMEOUT(oot, netflow_export, 180)
{
	struct sockaddr_in col = {
		.sin_family = AF_INET,
		.sin_port = htons(NETFLOW_PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in src = col, dst = col;
	char payload[FLOW_PAYLOAD] = "sockaddr!";
	unsigned char pkt[1500];
	struct nf5_record found;
	int cfd, sfd, versions = 0, seen = 0, exports = 0;
	time_t until;

	(void)self;
	GUEST_ONLY();
	run("iptables-legacy -D OUTPUT -p udp --dport 9 -j NETFLOW 2>/dev/null; modprobe -r ipt_NETFLOW 2>/dev/null");
	cfd = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, cfd);
	ASSERT_EQ(0, bind(cfd, (struct sockaddr *)&col, sizeof(col)));
	/* The exporter binds to the @source, then connects to the collector. */
	ASSERT_EQ(0, run("modprobe ipt_NETFLOW destination=127.0.0.1:2055@127.0.0.1 protocol=5"));
	ASSERT_EQ(0, run("iptables-legacy -I OUTPUT -p udp --dport 9 -j NETFLOW"));
	sfd = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, sfd);
	src.sin_port = htons(FLOW_SPORT);
	ASSERT_EQ(0, bind(sfd, (struct sockaddr *)&src, sizeof(src)));
	dst.sin_port = htons(FLOW_DPORT);
	for (unsigned int i = 0; i < FLOW_PACKETS; i++)
		EXPECT_EQ((ssize_t)FLOW_PAYLOAD, sendto(sfd, payload, sizeof(payload), 0,
					       (struct sockaddr *)&dst, sizeof(dst)));
	close(sfd);
	/* Export every flow now instead of at its timeout. */
	EXPECT_EQ(0, write_str("/proc/sys/net/netflow/flush", "1"));
	memset(&found, 0, sizeof(found));
	for (until = time(NULL) + 60; !seen && time(NULL) < until; ) {
		struct pollfd p = { .fd = cfd, .events = POLLIN };
		const struct nf5_header *hd = (const void *)pkt;
		ssize_t n;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		n = recv(cfd, pkt, sizeof(pkt), 0);
		if (n < (ssize_t)sizeof(*hd))
			continue;
		exports++;
		if (ntohs(hd->version) == 5)
			versions++;
		for (int i = 0; i < ntohs(hd->count) &&
		     sizeof(*hd) + (i + 1) * sizeof(found) <= (size_t)n; i++) {
			struct nf5_record r;

			memcpy(&r, pkt + sizeof(*hd) + i * sizeof(r), sizeof(r));
			if (ntohs(r.sport) == FLOW_SPORT && ntohs(r.dport) == FLOW_DPORT &&
			    r.proto == IPPROTO_UDP) {
				found = r;
				seen = 1;
			}
		}
	}
	close(cfd);
	printf("# obs oot.netflow.collector: v5_packets=%s flow=%s\n",
	       versions && versions == exports ? "all" : (versions ? "some" : "none"),
	       seen ? "found" : "missing");
	if (seen) {
		char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &found.src, s, sizeof(s));
		inet_ntop(AF_INET, &found.dst, d, sizeof(d));
		printf("# obs oot.netflow.flow: %s:%u -> %s:%u proto=%u packets=%u octets=%u\n",
		       s, ntohs(found.sport), d, ntohs(found.dport), found.proto,
		       ntohl(found.packets), ntohl(found.octets));
	}
	EXPECT_TRUE(seen);
	EXPECT_EQ(htonl(INADDR_LOOPBACK), found.src);
	EXPECT_EQ(htonl(INADDR_LOOPBACK), found.dst);
	EXPECT_EQ(FLOW_PACKETS, ntohl(found.packets));
	/* IPv4 header 20 + UDP header 8 + payload, each datagram. */
	EXPECT_EQ(FLOW_PACKETS * (20 + 8 + FLOW_PAYLOAD), ntohl(found.octets));
	EXPECT_EQ(0, run("iptables-legacy -D OUTPUT -p udp --dport 9 -j NETFLOW"));
	EXPECT_EQ(0, run("modprobe -r ipt_NETFLOW"));
}

#pragma GCC diagnostic pop

TEST_HARNESS_MAIN
