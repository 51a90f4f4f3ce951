# SPDX-License-Identifier: GPL-2.0
# test_progs_sock_addr: KTAP wrapper around the tree's test_progs
# (make check-btf, scripts/check-btf.sh; test_progs itself is built by
# scripts/test-progs-build.sh).
$(GUEST_OUT)/test_progs_sock_addr: $(GUEST_DIR)/test_progs_ktap.c
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -o $@ $<
guest-progs: $(GUEST_OUT)/test_progs_sock_addr
