# SPDX-License-Identifier: GPL-2.0
# Guest suite reach: mounts and requests that run the kernel's own
# socket users the series changes (config/reach.config; included by
# host/host.mk).
GUEST_SRCS_reach := $(GUEST_DIR)/reach.c $(GUEST_DIR)/nl.c \
		    $(GUEST_DIR)/nl.h $(GUEST_DIR)/guestenv.h \
		    $(SUITE_UTIL) $(KSELFTEST_HDRS)

$(GUEST_OUT)/reach: $(GUEST_SRCS_reach)
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -I$(KSELFTEST_DIR) -o $@ $(filter %.c,$^)
