# SPDX-License-Identifier: GPL-2.0
# Guest program ieee802154_master: the reproducer of the ieee802154
# NULL dereference (docs/fuzz-findings.md).  Not in SUITES: it takes an
# unfixed kernel down, so scripts/test-fix-ieee802154.sh boots it alone
# (included by host/host.mk).
GUEST_SRCS_ieee802154_master := $(GUEST_DIR)/ieee802154_master.c \
				$(GUEST_DIR)/nl.c $(GUEST_DIR)/nl.h \
				$(GUEST_DIR)/guestenv.h $(SUITE_UTIL) \
				$(KSELFTEST_HDRS)
# The standalone reproducers (repro/), which the maintainer mails carry:
# packed beside it as /bin/<name> and run by its repro_* and
# lowpan_userns_tun cases, so that they stay true on every tree.
IEEE802154_REPROS := ieee802154_socket_tun lowpan_rcv_userns
GUEST_SRCS_ieee802154_socket_tun := $(HOSTMK_ROOT)/repro/ieee802154_socket_tun.c
GUEST_SRCS_lowpan_rcv_userns := $(HOSTMK_ROOT)/repro/lowpan_rcv_userns.c
