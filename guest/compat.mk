# SPDX-License-Identifier: GPL-2.0
# 32-bit builds of suites, <suite>_m32 (included by host/host.mk): the
# same sources as the 64-bit suite (GUEST_SRCS_<suite>), built -m32, so
# that in the same boot their socket calls and ioctls go through the
# kernel's compat paths (compat_ifreq, compat msghdr, compat socketcall).
# Needs IA32_EMULATION (config/x86_64.config) and Debian's gcc-multilib;
# COMPAT_CFLAGS (-m32) comes from config/arch/x86_64, the one arch with them.
COMPAT_SUITES := netdevs sockaddr_matrix setaddr tap_ioctl

.SECONDEXPANSION:
$(patsubst %,$(GUEST_OUT)/%_m32,$(COMPAT_SUITES)): $(GUEST_OUT)/%_m32: $$(GUEST_SRCS_$$*)
	@mkdir -p $(@D)
	$(GUEST_CC) $(COMPAT_CFLAGS) -static $(C_WARN) -I$(KSELFTEST_DIR) -o $@ $(filter %.c,$^)
