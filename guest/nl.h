/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal rtnetlink/genetlink requests for setting up guest devices. */
#ifndef NL_H
#define NL_H

/* All return 0 or -errno. */
int nl_newlink(const char *name, const char *kind, const char *peer,
	       const unsigned char *mac);
int nl_link_up(const char *name);
/* NFC_CMD_DEV_UP on NFC device @idx (genetlink family "nfc"). */
int nl_nfc_dev_up(unsigned int idx);

#endif
