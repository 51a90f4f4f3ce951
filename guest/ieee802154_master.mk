# SPDX-License-Identifier: GPL-2.0
# Guest program ieee802154_master: the reproducer of the ieee802154
# NULL dereference (docs/fuzz-findings.md).  Not in SUITES: it takes an
# unfixed kernel down, so scripts/test-fix-ieee802154.sh boots it alone
# (included by host/host.mk).
GUEST_SRCS_ieee802154_master := $(GUEST_DIR)/ieee802154_master.c \
				$(GUEST_DIR)/nl.c $(GUEST_DIR)/nl.h \
				$(GUEST_DIR)/guestenv.h $(SUITE_UTIL) \
				$(KSELFTEST_HDRS)
