# SPDX-License-Identifier: GPL-2.0
# The sockaddr fuzzer (guest/fuzz*.c), static like the other guest
# programs; it reuses the socket kinds of sockaddr_matrix and the
# netlink helpers of netdevs.  Run by scripts/fuzz.sh, replayed on the
# host by tests/fuzz_replay.sh (--dry-run).
FUZZ_SRC := $(GUEST_DIR)/fuzz.c $(GUEST_DIR)/fuzz_gen.c \
	    $(GUEST_DIR)/fuzz_net.c $(GUEST_DIR)/matrix_kinds.c \
	    $(GUEST_DIR)/nl.c $(GUEST_DIR)/suite_util.c
FUZZ_HDR := $(GUEST_DIR)/fuzz.h $(GUEST_DIR)/matrix.h $(GUEST_DIR)/nl.h \
	    $(GUEST_DIR)/guestenv.h $(GUEST_DIR)/suite_util.h $(KSELFTEST_HDRS)

# The watcher's patterns: config/kernel-reports as C strings.
$(GUEST_OUT)/kernel_reports.h: $(HOSTMK_ROOT)/config/kernel-reports
	@mkdir -p $(@D)
	sed -e '/^#/d' -e '/^$$/d' -e 's/[\\"]/\\&/g' -e 's/.*/\t"&",/' $< >$@

$(GUEST_OUT)/fuzz: $(FUZZ_SRC) $(FUZZ_HDR) $(GUEST_OUT)/kernel_reports.h
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -I$(GUEST_OUT) -I$(KSELFTEST_DIR) -o $@ $(filter %.c,$^)
