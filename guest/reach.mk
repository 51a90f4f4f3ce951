# SPDX-License-Identifier: GPL-2.0
# Guest suite reach: mounts and requests that run the kernel's own
# socket users the series changes (config/kernel-socket-users.config,
# config/reach.config; included by host/host.mk).
GUEST_SRCS_reach := $(GUEST_DIR)/reach.c $(GUEST_DIR)/nl.c \
		    $(GUEST_DIR)/nl.h $(GUEST_DIR)/guestenv.h \
		    $(SUITE_UTIL) $(KSELFTEST_HDRS)
