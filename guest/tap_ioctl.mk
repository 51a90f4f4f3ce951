# SPDX-License-Identifier: GPL-2.0
# Guest suite tap_ioctl: SIOCGIFHWADDR/SIOCSIFHWADDR on the character
# devices of macvtap and ipvtap (config/reach.config; included by
# host/host.mk).
GUEST_SRCS_tap_ioctl := $(GUEST_DIR)/tap_ioctl.c $(GUEST_DIR)/nl.c \
			$(GUEST_DIR)/nl.h $(GUEST_DIR)/guestenv.h \
			$(SUITE_UTIL) $(KSELFTEST_HDRS)
