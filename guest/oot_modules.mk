# SPDX-License-Identifier: GPL-2.0
# make check-debian only (not in SUITES: make check's initramfs has no
# modules): LiME and ipt-netflow, built by dkms in the Debian rootfs,
# loaded and used (guest/oot_modules.c; included by host/host.mk).
GUEST_SRCS_oot_modules := $(GUEST_DIR)/oot_modules.c $(GUEST_DIR)/guestenv.h \
			  $(SUITE_UTIL) $(KSELFTEST_HDRS)
