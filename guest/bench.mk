# SPDX-License-Identifier: GPL-2.0
# sockaddr_bench: the guest side of make bench (scripts/bench.sh).
$(GUEST_OUT)/sockaddr_bench: $(GUEST_DIR)/sockaddr_bench.c
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -o $@ $<
