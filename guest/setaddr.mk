# SPDX-License-Identifier: GPL-2.0
# Guest suite setaddr: directed set-address tests on a bond whose port has
# a 16-byte hardware address (included by host/host.mk).
GUEST_SRCS_setaddr := $(GUEST_DIR)/setaddr.c $(GUEST_DIR)/nl.c \
		      $(GUEST_DIR)/nl.h $(GUEST_DIR)/guestenv.h \
		      $(SUITE_UTIL) $(KSELFTEST_HDRS)
