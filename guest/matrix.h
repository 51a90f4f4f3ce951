/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket kinds of sockaddr_matrix: how to open one, what a valid address
 * looks like, and which address bytes vary between boots.
 */
#ifndef MATRIX_H
#define MATRIX_H

#include <sys/socket.h>

/* Missing from glibc 2.36's headers. */
#ifndef AF_QRTR
#define AF_QRTR		42
#endif
#ifndef IPPROTO_L2TP
#define IPPROTO_L2TP	115
#endif

#define ADDR_BUF	256	/* > 129, so every tested length is readable */
/* Kind k uses ports/ids PORT_BASE + k * KIND_SLOTS + case; peers the last. */
#define PORT_BASE	1024
#define KIND_SLOTS	200
#define PEER_SLOT	(KIND_SLOTS - 1)

union maddr {
	struct sockaddr sa;
	unsigned char raw[ADDR_BUF];
};

/* Kind flags. */
#define K_LISTEN	0x01	/* listen/accept work: wait for handshakes */
#define K_SELF		0x02	/* can send a datagram to itself (recvfrom) */
#define K_SCTP		0x04	/* SCTP_SOCKOPT_BINDX_ADD / CONNECTX */
#define K_REUSE		0x08	/* SO_REUSEADDR: reruns reuse fixed ports */
#define K_PEER		0x10	/* needs a bound (listening) peer to reach */
#define K_ALG		0x20	/* accept() without listen (AF_ALG) */
#define K_PING		0x40	/* payload must be an ICMP echo request */

enum role { ROLE_SELF, ROLE_PEER };

struct kind {
	const char *name;
	int family, type, protocol;
	/* Writes the valid address with id @id; returns its length. */
	socklen_t (*addr)(const struct kind *k, int id, enum role r,
			  union maddr *a);
	int addr_family;	/* family of its addresses (AF_SMC uses inet) */
	socklen_t min_len;	/* shortest address the kernel accepts */
	unsigned int flags;
	const char *limit;	/* NULL: full coverage; else why error paths */
	int index;
};

/* name, family, type, protocol, builder, addr family, min len, flags, limit */
#define KINDS(X) \
	X(unix_stream, AF_UNIX, SOCK_STREAM, 0, un_path, AF_UNIX, 2, K_LISTEN | K_PEER, NULL) \
	X(unix_dgram, AF_UNIX, SOCK_DGRAM, 0, un_path, AF_UNIX, 2, K_SELF | K_PEER, NULL) \
	X(unix_seqpacket, AF_UNIX, SOCK_SEQPACKET, 0, un_path, AF_UNIX, 2, K_LISTEN | K_PEER, NULL) \
	X(unix_abstract_stream, AF_UNIX, SOCK_STREAM, 0, un_abs, AF_UNIX, 2, K_LISTEN | K_PEER, NULL) \
	X(unix_abstract_dgram, AF_UNIX, SOCK_DGRAM, 0, un_abs, AF_UNIX, 2, K_SELF | K_PEER, NULL) \
	X(unix_abstract_seqpacket, AF_UNIX, SOCK_SEQPACKET, 0, un_abs, AF_UNIX, 2, K_LISTEN | K_PEER, NULL) \
	X(inet4_tcp, AF_INET, SOCK_STREAM, IPPROTO_TCP, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(inet4_udp, AF_INET, SOCK_DGRAM, IPPROTO_UDP, in4, AF_INET, 16, K_SELF | K_PEER | K_REUSE, NULL) \
	X(inet4_udplite, AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE, in4, AF_INET, 16, K_SELF | K_PEER | K_REUSE, NULL) \
	X(inet4_raw, AF_INET, SOCK_RAW, 253, in4, AF_INET, 16, K_SELF, NULL) \
	X(inet4_ping, AF_INET, SOCK_DGRAM, IPPROTO_ICMP, in4, AF_INET, 16, K_SELF | K_PING, NULL) \
	X(inet6_tcp, AF_INET6, SOCK_STREAM, IPPROTO_TCP, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(inet6_udp, AF_INET6, SOCK_DGRAM, IPPROTO_UDP, in6, AF_INET6, 24, K_SELF | K_PEER | K_REUSE, NULL) \
	X(inet6_udplite, AF_INET6, SOCK_DGRAM, IPPROTO_UDPLITE, in6, AF_INET6, 24, K_SELF | K_PEER | K_REUSE, NULL) \
	X(inet6_raw, AF_INET6, SOCK_RAW, 253, in6, AF_INET6, 24, K_SELF, NULL) \
	X(inet6_ping, AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6, in6, AF_INET6, 24, K_SELF | K_PING, NULL) \
	X(sctp4_stream, AF_INET, SOCK_STREAM, IPPROTO_SCTP, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE | K_SCTP, NULL) \
	X(sctp4_seqpacket, AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE | K_SCTP, NULL) \
	X(sctp6_stream, AF_INET6, SOCK_STREAM, IPPROTO_SCTP, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE | K_SCTP, NULL) \
	X(sctp6_seqpacket, AF_INET6, SOCK_SEQPACKET, IPPROTO_SCTP, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE | K_SCTP, NULL) \
	X(mptcp4, AF_INET, SOCK_STREAM, IPPROTO_MPTCP, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(mptcp6, AF_INET6, SOCK_STREAM, IPPROTO_MPTCP, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(dccp4, AF_INET, 6 /* SOCK_DCCP */, 33 /* IPPROTO_DCCP */, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(dccp6, AF_INET6, 6, 33, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE, NULL) \
	X(l2tp_ip, AF_INET, SOCK_DGRAM, IPPROTO_L2TP, l2tpip, AF_INET, 16, K_SELF | K_PEER, NULL) \
	X(l2tp_ip6, AF_INET6, SOCK_DGRAM, IPPROTO_L2TP, l2tpip6, AF_INET6, 32, K_SELF | K_PEER, NULL) \
	X(packet_raw, AF_PACKET, SOCK_RAW, 0, ll, AF_PACKET, 20, 0, NULL) \
	X(packet_dgram, AF_PACKET, SOCK_DGRAM, 0, ll, AF_PACKET, 20, 0, NULL) \
	X(packet_spkt, AF_PACKET, SOCK_PACKET, 0, spkt, AF_PACKET, 16, 0, NULL) \
	X(netlink_route, AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */, nl, AF_NETLINK, 12, 0, NULL) \
	X(netlink_generic, AF_NETLINK, SOCK_RAW, 16 /* NETLINK_GENERIC */, nl, AF_NETLINK, 12, 0, NULL) \
	X(appletalk, AF_APPLETALK, SOCK_DGRAM, 0, at, AF_APPLETALK, 16, 0, "needs an AppleTalk interface (SIOCSIFADDR + AARP probing, seconds)") \
	X(ax25, AF_AX25, SOCK_SEQPACKET, 0, ax25, AF_AX25, 16, 0, "needs an AX.25 device (mkiss/bpqether)") \
	X(netrom, AF_NETROM, SOCK_SEQPACKET, 0, ax25, AF_NETROM, 16, 0, "needs a NET/ROM device and nodes") \
	X(rose, AF_ROSE, SOCK_SEQPACKET, 0, rose, AF_ROSE, 28, 0, "needs a ROSE device and routes") \
	X(x25, AF_X25, SOCK_SEQPACKET, 0, x25, AF_X25, 18, 0, "connect/send need an X.25 route and LAPB device") \
	X(llc_dgram, AF_LLC, SOCK_DGRAM, 0, llc, AF_LLC, 16, K_SELF, NULL) \
	X(llc_stream, AF_LLC, SOCK_STREAM, 0, llc, AF_LLC, 16, 0, "connect needs an LLC2 peer answering on the wire") \
	X(phonet_dgram, AF_PHONET, SOCK_DGRAM, 1 /* PN_PROTO_PHONET */, pn, AF_PHONET, 16, 0, "needs a Phonet device with an address (no virtual one)") \
	X(phonet_seqpacket, AF_PHONET, SOCK_SEQPACKET, 2 /* PN_PROTO_PIPE */, pn, AF_PHONET, 16, 0, "needs a Phonet device with an address (no virtual one)") \
	X(ieee802154_raw, AF_IEEE802154, SOCK_RAW, 0, wpan, AF_IEEE802154, 20, 0, "needs a PAN id/short address set through nl802154") \
	X(ieee802154_dgram, AF_IEEE802154, SOCK_DGRAM, 0, wpan, AF_IEEE802154, 20, 0, "needs a PAN id/short address set through nl802154") \
	X(can_raw, AF_CAN, SOCK_RAW, 1 /* CAN_RAW */, can, AF_CAN, 16, 0, NULL) \
	X(can_bcm, AF_CAN, SOCK_DGRAM, 2 /* CAN_BCM */, can, AF_CAN, 16, 0, NULL) \
	X(can_isotp, AF_CAN, SOCK_DGRAM, 6 /* CAN_ISOTP */, can, AF_CAN, 24, 0, NULL) \
	X(can_j1939, AF_CAN, SOCK_DGRAM, 7 /* CAN_J1939 */, can, AF_CAN, 24, 0, NULL) \
	X(atmpvc, AF_ATMPVC, SOCK_DGRAM, 0, atmpvc, AF_ATMPVC, 12, 0, "needs an ATM device (none is virtual)") \
	X(atmsvc, AF_ATMSVC, SOCK_DGRAM, 0, atmsvc, AF_ATMSVC, 108, 0, "needs an ATM device and atmsigd") \
	X(qrtr, AF_QRTR, SOCK_DGRAM, 0, qrtr, AF_QRTR, 12, K_SELF, NULL) \
	X(mctp, AF_MCTP, SOCK_DGRAM, 0, mctp, AF_MCTP, 12, 0, "send needs an MCTP-capable link and route") \
	X(vsock_stream, AF_VSOCK, SOCK_STREAM, 0, vm, AF_VSOCK, 16, K_LISTEN | K_PEER, NULL) \
	X(vsock_seqpacket, AF_VSOCK, SOCK_SEQPACKET, 0, vm, AF_VSOCK, 16, K_LISTEN | K_PEER, NULL) \
	X(xdp, AF_XDP, SOCK_RAW, 0, xdp, AF_XDP, 16, 0, "bind needs a UMEM and rings") \
	X(alg_hash, AF_ALG, SOCK_SEQPACKET, 0, alg, AF_ALG, 88, K_ALG, NULL) \
	X(tipc_rdm, AF_TIPC, SOCK_RDM, 0, tipc, AF_TIPC, 16, K_SELF | K_PEER, NULL) \
	X(tipc_stream, AF_TIPC, SOCK_STREAM, 0, tipc, AF_TIPC, 16, K_LISTEN | K_PEER, NULL) \
	X(tipc_seqpacket, AF_TIPC, SOCK_SEQPACKET, 0, tipc, AF_TIPC, 16, K_LISTEN | K_PEER, NULL) \
	X(rds, AF_RDS, SOCK_SEQPACKET, 0, in4, AF_INET, 16, K_PEER, NULL) \
	X(smc4, AF_SMC, SOCK_STREAM, 0 /* SMCPROTO_SMC */, in4, AF_INET, 16, K_LISTEN | K_PEER | K_REUSE, "no RDMA/ISM device: only the TCP fallback runs") \
	X(smc6, AF_SMC, SOCK_STREAM, 1 /* SMCPROTO_SMC6 */, in6, AF_INET6, 24, K_LISTEN | K_PEER | K_REUSE, "no RDMA/ISM device: only the TCP fallback runs") \
	X(caif, AF_CAIF, SOCK_SEQPACKET, 0 /* CAIFPROTO_AT */, caif, AF_CAIF, 4, 0, "needs a CAIF link device (no virtual one)") \
	X(rxrpc, AF_RXRPC, SOCK_DGRAM, AF_INET, rxrpc, AF_RXRPC, 36, 0, "calls need control messages and a key") \
	X(kcm, AF_KCM, SOCK_DGRAM, 0 /* KCMPROTO_CONNECTED */, in4, AF_INET, 16, 0, "has no addresses: bind/connect/getname are unsupported") \
	X(bt_hci, AF_BLUETOOTH, SOCK_RAW, 1 /* BTPROTO_HCI */, hci, AF_BLUETOOTH, 6, 0, NULL) \
	X(bt_l2cap, AF_BLUETOOTH, SOCK_SEQPACKET, 0 /* BTPROTO_L2CAP */, l2, AF_BLUETOOTH, 14, 0, "connect needs a powered controller and a peer") \
	X(bt_sco, AF_BLUETOOTH, SOCK_SEQPACKET, 2 /* BTPROTO_SCO */, sco, AF_BLUETOOTH, 8, 0, "connect needs a powered controller and a peer") \
	X(bt_rfcomm, AF_BLUETOOTH, SOCK_STREAM, 3 /* BTPROTO_RFCOMM */, rc, AF_BLUETOOTH, 9, 0, "connect needs a powered controller and a peer") \
	X(bt_iso, AF_BLUETOOTH, SOCK_SEQPACKET, 8 /* BTPROTO_ISO */, iso, AF_BLUETOOTH, 9, 0, "ISO sockets exist only after the mgmt experimental feature is set") \
	X(nfc_raw, AF_NFC, SOCK_SEQPACKET, 0 /* NFC_SOCKPROTO_RAW */, nfc, AF_NFC, 16, 0, "connect needs an activated target") \
	X(nfc_llcp, AF_NFC, SOCK_STREAM, 1 /* NFC_SOCKPROTO_LLCP */, llcp, AF_NFC, 16, 0, "connect needs an LLCP link to a peer") \
	X(pppoe, AF_PPPOX, SOCK_STREAM, 0 /* PX_PROTO_OE */, pppoe, AF_PPPOX, 30, 0, "no PPPoE server: connect only binds a session id") \
	X(pptp, AF_PPPOX, SOCK_STREAM, 2 /* PX_PROTO_PPTP */, pptp, AF_PPPOX, 12, 0, "needs a GRE peer and a PPP channel") \
	X(pppol2tp, AF_PPPOX, SOCK_DGRAM, 1 /* PX_PROTO_OL2TP */, pppol2tp, AF_PPPOX, 38, 0, "connect needs an L2TP tunnel socket")

#define KIND_ENUM(n, ...) K_##n,
enum kind_id { KINDS(KIND_ENUM) NKINDS };

extern const struct kind kinds[NKINDS];

/* An address of another family than @k's (IPv6 for IPv4, else IPv4). */
socklen_t wrong_family_addr(const struct kind *k, int id, union maddr *a);
/* Does byte @i of the address @full (really the socket's) vary by boot? */
int addr_varies(const struct kind *k, int id, const unsigned char *full,
		socklen_t full_len, size_t i);

static inline int kind_port(const struct kind *k, int slot)
{
	return PORT_BASE + k->index * KIND_SLOTS + slot;
}

#endif
