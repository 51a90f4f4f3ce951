// SPDX-License-Identifier: GPL-2.0
/*
 * Valid addresses of every socket kind in sockaddr_matrix, and which of
 * their bytes vary between boots.  Addresses name fixed devices of the
 * test guest (lo, dummy0 with the fixed MAC netdevs gives it, vcan0,
 * hci0, nfc0); on a host without them the lookups give ifindex 0.
 */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/atalk.h>
#include <linux/atm.h>
#include <linux/ax25.h>
#include <linux/can.h>
#include <linux/can/j1939.h>
#include <linux/caif/caif_socket.h>
#include <linux/if.h>
#include <linux/if_alg.h>
#include <linux/if_packet.h>
#include <linux/if_pppox.h>
#include <linux/if_xdp.h>
#include <linux/l2tp.h>
#include <linux/llc.h>
#include <linux/mctp.h>
#include <linux/netlink.h>
#include <linux/nfc.h>
#include <linux/phonet.h>
#include <linux/qrtr.h>
#include <linux/rose.h>
#include <linux/rxrpc.h>
#include <linux/sockios.h>
#include <linux/tipc.h>
#include <linux/vm_sockets.h>
#include <linux/x25.h>

#include "matrix.h"

/* Not in the Debian 6.1 uapi headers (kernel-internal or BlueZ). */
struct ieee802154_addr_sa_local {	/* include/net/af_ieee802154.h */
	int addr_type;
	unsigned short pan_id;
	union {
		unsigned char hwaddr[8];
		unsigned short short_addr;
	};
};
struct sockaddr_ieee802154_local {
	sa_family_t family;
	struct ieee802154_addr_sa_local addr;
};
#define IEEE802154_ADDR_SHORT	2

typedef struct { unsigned char b[6]; } __attribute__((packed)) bdaddr_local;
struct sockaddr_hci_local {		/* include/net/bluetooth/hci_sock.h */
	sa_family_t hci_family;
	unsigned short hci_dev, hci_channel;
};
struct sockaddr_l2_local {		/* include/net/bluetooth/l2cap.h */
	sa_family_t l2_family;
	unsigned short l2_psm;
	bdaddr_local l2_bdaddr;
	unsigned short l2_cid;
	unsigned char l2_bdaddr_type;
};
struct sockaddr_sco_local {		/* include/net/bluetooth/sco.h */
	sa_family_t sco_family;
	bdaddr_local sco_bdaddr;
};
struct sockaddr_rc_local {		/* include/net/bluetooth/rfcomm.h */
	sa_family_t rc_family;
	bdaddr_local rc_bdaddr;
	unsigned char rc_channel;
};
struct sockaddr_iso_local {		/* include/net/bluetooth/iso.h */
	sa_family_t iso_family;
	bdaddr_local iso_bdaddr;
	unsigned char iso_bdaddr_type;
};

/* dummy0's MAC: netdevs sets it, so LLC/PPPoE addresses are fixed. */
static const unsigned char dummy_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const unsigned char peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x02 };

static int ifindex(const char *name)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	ret = s >= 0 && !ioctl(s, SIOCGIFINDEX, &ifr) ? ifr.ifr_ifindex : 0;
	if (s >= 0)
		close(s);
	return ret;
}

#define A(type) type *p = (type *)a->raw

/* Relative pathname: the cwd is the suite's private directory. */
static socklen_t addr_un_path(const struct kind *k, int id, enum role r,
			      union maddr *a)
{
	A(struct sockaddr_un);
	(void)k; (void)r;
	p->sun_family = AF_UNIX;
	snprintf(p->sun_path, sizeof(p->sun_path), "m%d", id);
	return offsetof(struct sockaddr_un, sun_path) + strlen(p->sun_path) + 1;
}

static socklen_t addr_un_abs(const struct kind *k, int id, enum role r,
			     union maddr *a)
{
	A(struct sockaddr_un);
	(void)k; (void)r;
	p->sun_family = AF_UNIX;
	snprintf(p->sun_path + 1, sizeof(p->sun_path) - 1, "mx%d", id);
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(p->sun_path + 1);
}

static socklen_t addr_in4(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_in);
	(void)k; (void)r;
	p->sin_family = AF_INET;
	p->sin_port = htons(id);
	p->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*p);
}

static socklen_t addr_in6(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_in6);
	(void)k; (void)r;
	p->sin6_family = AF_INET6;
	p->sin6_port = htons(id);
	p->sin6_addr = in6addr_loopback;
	return sizeof(*p);
}

static socklen_t addr_l2tpip(const struct kind *k, int id, enum role r,
			     union maddr *a)
{
	A(struct sockaddr_l2tpip);
	(void)k; (void)r;
	p->l2tp_family = AF_INET;
	p->l2tp_addr.s_addr = htonl(INADDR_LOOPBACK);
	p->l2tp_conn_id = id;
	return sizeof(*p);
}

static socklen_t addr_l2tpip6(const struct kind *k, int id, enum role r,
			      union maddr *a)
{
	A(struct sockaddr_l2tpip6);
	(void)k; (void)r;
	p->l2tp_family = AF_INET6;
	p->l2tp_addr = in6addr_loopback;
	p->l2tp_conn_id = id;
	return sizeof(*p);
}

/* lo, with a local experimental ethertype nothing else listens to. */
static socklen_t addr_ll(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_ll);
	(void)k; (void)id; (void)r;
	p->sll_family = AF_PACKET;
	p->sll_protocol = htons(0x88b5);
	p->sll_ifindex = ifindex("lo");
	p->sll_halen = 6;
	return sizeof(*p);
}

static socklen_t addr_spkt(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_pkt);
	(void)k; (void)id; (void)r;
	p->spkt_family = AF_PACKET;
	strcpy((char *)p->spkt_device, "lo");
	p->spkt_protocol = htons(0x88b5);
	return sizeof(*p);
}

/* Our own port id; a peer is the kernel (port id 0). */
static socklen_t addr_nl(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_nl);
	(void)k;
	p->nl_family = AF_NETLINK;
	p->nl_pid = r == ROLE_PEER ? 0 : 0x4d000000u + id;
	return sizeof(*p);
}

static socklen_t addr_at(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_at);
	(void)k; (void)r;
	p->sat_family = AF_APPLETALK;
	p->sat_port = 1 + id % 127;
	p->sat_addr.s_net = htons(0xff00);
	p->sat_addr.s_node = 1;
	return sizeof(*p);
}

static void callsign(unsigned char *c, int ssid)
{
	static const char call[6] = "N0CALL";

	for (int i = 0; i < 6; i++)
		c[i] = call[i] << 1;
	c[6] = 0x60 | (ssid & 15) << 1;
}

static socklen_t addr_ax25(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct full_sockaddr_ax25);
	(void)r;
	p->fsa_ax25.sax25_family = k->family;
	callsign((unsigned char *)&p->fsa_ax25.sax25_call, id);
	return sizeof(struct sockaddr_ax25);
}

static socklen_t addr_rose(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_rose);
	(void)k; (void)r;
	p->srose_family = AF_ROSE;
	/* ROSE addresses are 10 BCD digits. */
	memcpy(&p->srose_addr, "\x12\x34\x56\x78\x90", 5);
	callsign((unsigned char *)&p->srose_call, id);
	return sizeof(*p);
}

static socklen_t addr_x25(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_x25);
	(void)k; (void)r;
	p->sx25_family = AF_X25;
	snprintf(p->sx25_addr.x25_addr, sizeof(p->sx25_addr.x25_addr),
		 "1234%d", id);
	return sizeof(*p);
}

static socklen_t addr_llc(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_llc);
	(void)k; (void)r;
	p->sllc_family = AF_LLC;
	p->sllc_arphrd = 1;	/* ARPHRD_ETHER */
	/* Even (individual) SAPs below the autobind range 0xc0. */
	p->sllc_sap = 0x40 + (id % 64) * 2;
	/* Peers too: a frame to our own MAC loops back to our SAPs. */
	memcpy(p->sllc_mac, dummy_mac, 6);
	return sizeof(*p);
}

static socklen_t addr_pn(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_pn);
	(void)k; (void)r;
	p->spn_family = AF_PHONET;
	p->spn_obj = id & 0xff;
	p->spn_dev = 0x40;
	p->spn_resource = 0x01;
	return sizeof(*p);
}

static socklen_t addr_wpan(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_ieee802154_local);
	(void)k; (void)r;
	p->family = AF_IEEE802154;
	p->addr.addr_type = IEEE802154_ADDR_SHORT;
	p->addr.pan_id = 0x1234;
	p->addr.short_addr = id & 0x7fff;
	return sizeof(*p);
}

static socklen_t addr_can(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_can);
	p->can_family = AF_CAN;
	p->can_ifindex = ifindex("vcan0");
	if (k->protocol == CAN_J1939) {
		p->can_addr.j1939.name = J1939_NO_NAME;
		p->can_addr.j1939.pgn = r == ROLE_PEER ? 0x12300 : J1939_NO_PGN;
		p->can_addr.j1939.addr = 1 + id % 0x7f;
		return sizeof(*p);
	}
	p->can_addr.tp.rx_id = 0x100 + id % 0x100;
	p->can_addr.tp.tx_id = 0x300 + id % 0x100;
	return k->protocol == CAN_ISOTP ? sizeof(*p) : 16;
}

static socklen_t addr_atmpvc(const struct kind *k, int id, enum role r,
			     union maddr *a)
{
	A(struct sockaddr_atmpvc);
	(void)k; (void)r;
	p->sap_family = AF_ATMPVC;
	p->sap_addr.vpi = 0;
	p->sap_addr.vci = 32 + id % 1000;
	return sizeof(*p);
}

static socklen_t addr_atmsvc(const struct kind *k, int id, enum role r,
			     union maddr *a)
{
	A(struct sockaddr_atmsvc);
	(void)k; (void)r;
	p->sas_family = AF_ATMSVC;
	snprintf((char *)p->sas_addr.pub, sizeof(p->sas_addr.pub), "%d", id);
	return sizeof(*p);
}

/* Node 1 is the kernel's default local node id. */
static socklen_t addr_qrtr(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_qrtr);
	(void)k; (void)r;
	p->sq_family = AF_QRTR;
	p->sq_node = 1;
	p->sq_port = id;
	return sizeof(*p);
}

static socklen_t addr_mctp(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_mctp);
	(void)k;
	p->smctp_family = AF_MCTP;
	p->smctp_network = r == ROLE_PEER ? 1 : MCTP_NET_ANY;
	p->smctp_addr.s_addr = r == ROLE_PEER ? 9 : MCTP_ADDR_ANY;
	p->smctp_type = 1 + id % 0x7e;
	p->smctp_tag = r == ROLE_PEER ? MCTP_TAG_OWNER : 0;
	return sizeof(*p);
}

/* VMADDR_CID_LOCAL: the loopback transport. */
static socklen_t addr_vm(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_vm);
	(void)k; (void)r;
	p->svm_family = AF_VSOCK;
	p->svm_port = id;
	p->svm_cid = 1;
	return sizeof(*p);
}

static socklen_t addr_xdp(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_xdp);
	(void)k; (void)id; (void)r;
	p->sxdp_family = AF_XDP;
	p->sxdp_ifindex = ifindex("lo");
	return sizeof(*p);
}

static socklen_t addr_alg(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_alg);
	(void)k; (void)id; (void)r;
	p->salg_family = AF_ALG;
	strcpy((char *)p->salg_type, "hash");
	strcpy((char *)p->salg_name, "sha256");
	return sizeof(*p);
}

/* A service range of our own (types below 64 are reserved). */
static socklen_t addr_tipc(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_tipc);
	(void)k;
	p->family = AF_TIPC;
	if (r == ROLE_PEER) {
		p->addrtype = TIPC_ADDR_NAME;
		p->addr.name.name.type = 4242;
		p->addr.name.name.instance = id;
		return sizeof(*p);
	}
	p->addrtype = TIPC_ADDR_NAMESEQ;
	p->scope = TIPC_CLUSTER_SCOPE;
	p->addr.nameseq.type = 4242;
	p->addr.nameseq.lower = p->addr.nameseq.upper = id;
	return sizeof(*p);
}

static socklen_t addr_caif(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_caif);
	(void)k; (void)id; (void)r;
	p->family = AF_CAIF;
	p->u.at.type = CAIF_ATTYPE_PLAIN;
	return sizeof(*p);
}

static socklen_t addr_rxrpc(const struct kind *k, int id, enum role r,
			    union maddr *a)
{
	A(struct sockaddr_rxrpc);
	(void)k; (void)r;
	p->srx_family = AF_RXRPC;
	p->srx_service = 1 + id % 1000;
	p->transport_type = SOCK_DGRAM;
	p->transport_len = sizeof(p->transport.sin);
	p->transport.sin.sin_family = AF_INET;
	p->transport.sin.sin_port = htons(id);
	p->transport.sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*p);
}

/* hci0 is the vhci controller sockaddr_matrix creates; raw channel. */
static socklen_t addr_hci(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_hci_local);
	(void)k; (void)id; (void)r;
	p->hci_family = AF_BLUETOOTH;
	return sizeof(*p);
}

/* Peers are a made-up device address; ours is BDADDR_ANY. */
static const bdaddr_local bt_peer = { { 0x55, 0x44, 0x33, 0x22, 0x11, 0x00 } };

static socklen_t addr_l2(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_l2_local);
	(void)k;
	p->l2_family = AF_BLUETOOTH;
	/* Dynamic PSMs: odd, with an even most significant octet. */
	p->l2_psm = 1 | (id & 0x7f) << 1 | (0x20 + ((id >> 7) & 0x3f) * 2) << 8;
	if (r == ROLE_PEER)
		p->l2_bdaddr = bt_peer;
	return sizeof(*p);
}

static socklen_t addr_sco(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_sco_local);
	(void)k; (void)id;
	p->sco_family = AF_BLUETOOTH;
	if (r == ROLE_PEER)
		p->sco_bdaddr = bt_peer;
	return sizeof(*p);
}

static socklen_t addr_rc(const struct kind *k, int id, enum role r,
			 union maddr *a)
{
	A(struct sockaddr_rc_local);
	(void)k;
	p->rc_family = AF_BLUETOOTH;
	p->rc_channel = 1 + id % 30;
	if (r == ROLE_PEER)
		p->rc_bdaddr = bt_peer;
	return sizeof(*p);
}

static socklen_t addr_iso(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_iso_local);
	(void)k; (void)id;
	p->iso_family = AF_BLUETOOTH;
	if (r == ROLE_PEER)
		p->iso_bdaddr = bt_peer;
	return sizeof(*p);
}

/* nfc0 of nfcsim. */
static socklen_t addr_nfc(const struct kind *k, int id, enum role r,
			  union maddr *a)
{
	A(struct sockaddr_nfc);
	(void)k; (void)id; (void)r;
	p->sa_family = AF_NFC;
	p->nfc_protocol = NFC_PROTO_NFC_DEP;
	return sizeof(*p);
}

static socklen_t addr_llcp(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_nfc_llcp);
	(void)k; (void)r;
	p->sa_family = AF_NFC;
	p->nfc_protocol = NFC_PROTO_NFC_DEP;
	p->service_name_len = snprintf(p->service_name,
				       sizeof(p->service_name),
				       "urn:nfc:xsn:mx:%d", id);
	return sizeof(*p);
}

static socklen_t addr_pppoe(const struct kind *k, int id, enum role r,
			    union maddr *a)
{
	A(struct sockaddr_pppox);
	(void)k; (void)r;
	p->sa_family = AF_PPPOX;
	p->sa_protocol = PX_PROTO_OE;
	p->sa_addr.pppoe.sid = htons(id);
	memcpy(p->sa_addr.pppoe.remote, peer_mac, 6);
	strcpy(p->sa_addr.pppoe.dev, "dummy0");
	return sizeof(*p);
}

static socklen_t addr_pptp(const struct kind *k, int id, enum role r,
			   union maddr *a)
{
	A(struct sockaddr_pppox);
	(void)k; (void)r;
	p->sa_family = AF_PPPOX;
	p->sa_protocol = PX_PROTO_PPTP;
	p->sa_addr.pptp.call_id = id;
	p->sa_addr.pptp.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*p);
}

/* No tunnel fd (-1): connect reaches its lookup error. */
static socklen_t addr_pppol2tp(const struct kind *k, int id, enum role r,
			       union maddr *a)
{
	A(struct sockaddr_pppol2tp);
	(void)k; (void)r;
	p->sa_family = AF_PPPOX;
	p->sa_protocol = PX_PROTO_OL2TP;
	p->pppol2tp.fd = -1;
	p->pppol2tp.addr.sin_family = AF_INET;
	p->pppol2tp.addr.sin_port = htons(id);
	p->pppol2tp.addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	p->pppol2tp.s_tunnel = p->pppol2tp.d_tunnel = id;
	p->pppol2tp.s_session = p->pppol2tp.d_session = id;
	return sizeof(*p);
}

#define KIND_DEF(n, fam, type, proto, b, afam, min, fl, lim) \
	[K_##n] = { #n, fam, type, proto, addr_##b, afam, min, fl, lim, K_##n },
const struct kind kinds[NKINDS] = { KINDS(KIND_DEF) };

socklen_t wrong_family_addr(const struct kind *k, int id, union maddr *a)
{
	memset(a, 0, sizeof(*a));
	return (k->addr_family == AF_INET ? addr_in6 : addr_in4)(k, id,
								 ROLE_SELF, a);
}

static int is_ours(const struct kind *k, unsigned int v)
{
	return v == (unsigned int)kind_port(k, PEER_SLOT) ||
	       (v >= (unsigned int)kind_port(k, 0) &&
		v < (unsigned int)kind_port(k, PEER_SLOT));
}

static unsigned int be16_at(const unsigned char *b, socklen_t len, size_t o)
{
	return len >= o + 2 ? (unsigned int)b[o] << 8 | b[o + 1] : 0;
}

static unsigned int u32_at(const unsigned char *b, socklen_t len, size_t o)
{
	unsigned int v = 0;

	if (len >= o + 4)
		memcpy(&v, b + o, 4);
	return v;
}

#define IN(o, n) (i >= (o) && i < (o) + (n))

int addr_varies(const struct kind *k, int id, const unsigned char *f,
		socklen_t len, size_t i)
{
	unsigned int port;

	(void)id;
	switch (len >= 2 ? f[0] | f[1] << 8 : -1) {
	case AF_INET:
	case AF_INET6:
		/* Ephemeral ports and ping idents; raw sockets show proto. */
		port = be16_at(f, len, 2);
		return IN(2, 2) && port && !is_ours(k, port) &&
		       port != (unsigned int)k->protocol;
	case AF_UNIX:
		/* Autobind: "\0" plus five hex digits. */
		return len == sizeof(sa_family_t) + 6 && f[2] == 0 && IN(3, 5);
	case AF_NETLINK:
		/* Autobind port ids are the pid, or random; 0 is the kernel. */
		port = u32_at(f, len, 4);
		return IN(4, 4) && port && port != 0x4d000000u + id;
	case AF_VSOCK:
		return IN(4, 4) && !is_ours(k, u32_at(f, len, 4));
	case AF_TIPC:
		/* Socket refs are random; the node address is hashed. */
		return f[2] == TIPC_SOCKET_ADDR && IN(4, 8);
	case AF_PHONET:
		return i == 2;	/* object numbers come from a global rover */
	case AF_LLC:
		return i == 7 && f[7] >= 0xc0;	/* autobound SAP */
	case AF_QRTR:
		return IN(8, 4) && !is_ours(k, u32_at(f, len, 8));
	case AF_RXRPC:
		port = be16_at(f, len, 10);
		return IN(10, 2) && port && !is_ours(k, port);
	case AF_PPPOX:
		/* PPTP call ids come from a global bitmap search. */
		return k->protocol == PX_PROTO_PPTP && IN(6, 2);
	}
	return 0;
}
