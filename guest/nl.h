/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal rtnetlink/genetlink requests for setting up guest devices. */
#ifndef NL_H
#define NL_H

#include <stddef.h>

struct nlattr;
struct nlmsghdr;

/* Append attribute @type with @len bytes of @data to the netlink message
 * at @msg (a struct nlmsghdr, at the start of a buffer with room); returns
 * the attribute, which a nest closes with nl_nest_end() once its members
 * are in. */
struct nlattr *nl_put(void *msg, int type, const void *data, int len);
void nl_nest_end(void *msg, struct nlattr *a);

/* Send the request at @msg on a fresh socket of netlink @proto, asking
 * for an ack; the first answer goes to @reply (@size bytes) if given.
 * Returns the ack's error (0 or -errno), 0 for a reply, or -errno. */
int nl_request(int proto, void *msg, void *reply, size_t size);

/* All return 0 or -errno. */
int nl_newlink(const char *name, const char *kind, const char *peer,
	       const unsigned char *mac);
/* RTM_NEWLINK of a @kind (macvtap, ipvtap) on top of device @lower
 * (IFLA_LINK), with address @mac (6 bytes) when given. */
int nl_newlink_on(const char *name, const char *kind, const char *lower,
		  const unsigned char *mac);
int nl_dellink(const char *name);
int nl_link_up(const char *name);
/* RTM_NEWLINK setting IFF_UP (@up) or clearing it. */
int nl_link_updown(const char *name, int up);
/* RTM_SETLINK of attribute @attr, @len bytes of @data. */
int nl_setlink(const char *name, int attr, const void *data, int len);
/* A generic netlink request for command @cmd of family @family at
 * @msg (@size bytes, zeroed first); nl_put() adds its attributes. */
void nl_genl_init(void *msg, size_t size, int family, int cmd);
/* The id of generic netlink family @name, or -errno (ENOENT: not there,
 * or not visible from this network namespace). */
int nl_genl_family(const char *name);
/* NFC_CMD_DEV_UP on NFC device @idx (genetlink family "nfc"). */
int nl_nfc_dev_up(unsigned int idx);

#endif
