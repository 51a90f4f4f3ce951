# SPDX-License-Identifier: GPL-2.0
# Peer suites: C selftests of the kernel tree under test
# (tools/testing/selftests/net and net/af_unix), built from the TREE's
# sources, never copied here, as static guest programs
# $(GUEST_OUT)/<name>.  Why these and not others: docs/peer-suites.md.
#
#   PEER_SUITES   the suite names, in the order to run them (suites=...)
#   peer-progs    phony: builds them all
#
# Included from host/host.mk; uses $(BUILD), $(GUEST_CC), $(C_WARN),
# $(KSELFTEST_DIR) and $(HOSTMK_ROOT) from there.

PEER_SRC := $(KSELFTEST_DIR)/net
PEER_OUT := $(BUILD)/peers$(ARCH_SUFFIX)

# Run order matters: suites that set sysctls come first, on a fresh
# kernel, so that the init netns they share with the others is as close
# as possible to the fresh netns their .sh wrappers would have made.
PEER_SUITES := net_reuseaddr_ports_exhausted net_ip_local_port_range \
	       net_bind_wildcard net_bind_timewait net_reuseport_addr_any \
	       net_sk_connect_zero_addr net_sk_bind_sendto_listen \
	       net_psock_tpacket af_unix_unix_connect af_unix_scm_pidfd af_unix_msg_oob

# <suite name> -> source under $(KSELFTEST_DIR)/net (without .c)
peer_src_net_reuseaddr_ports_exhausted := reuseaddr_ports_exhausted
peer_src_net_ip_local_port_range := ip_local_port_range
peer_src_net_bind_wildcard := bind_wildcard
peer_src_net_bind_timewait := bind_timewait
peer_src_net_reuseport_addr_any := reuseport_addr_any
peer_src_net_sk_connect_zero_addr := sk_connect_zero_addr
peer_src_net_sk_bind_sendto_listen := sk_bind_sendto_listen
peer_src_net_psock_tpacket := psock_tpacket
peer_src_af_unix_unix_connect := af_unix/unix_connect
peer_src_af_unix_scm_pidfd := af_unix/scm_pidfd
peer_src_af_unix_msg_oob := af_unix/msg_oob

# What the tree's .sh wrappers would have done, for the three suites that
# need it (no shell, iproute2 or sysctl(8) in the guest): fixed arguments
# and sysctls, applied by a small generated main() (below) that restores
# the sysctls when the test returns.  C initializer lists, each element
# followed by a comma.
#   ip_local_port_range.sh: sysctl net.ipv4.ip_local_port_range="40000 49999"
#   reuseaddr_ports_exhausted.sh: range "32768 32768", ip_autobind_reuse=1
#   unix_connect: its *_netns variants unshare(CLONE_NEWNET), and the
#   harness config has no CONFIG_NAMESPACES: excluded (-V), not failed.
peer_sysctls_net_ip_local_port_range := \
	"/proc/sys/net/ipv4/ip_local_port_range","40000 49999",
peer_sysctls_net_reuseaddr_ports_exhausted := \
	"/proc/sys/net/ipv4/ip_local_port_range","32768 32768", \
	"/proc/sys/net/ipv4/ip_autobind_reuse","1",
peer_args_af_unix_unix_connect := \
	"-V","stream_pathname_netns","-V","stream_abstract_netns", \
	"-V","dgram_pathname_netns","-V","dgram_abstract_netns",
PEER_WRAPPED := net_ip_local_port_range net_reuseaddr_ports_exhausted \
		af_unix_unix_connect

# Flags as the tree's selftest Makefiles have them (-Wall -O2, the
# kernel's own uapi headers first: KHDR_INCLUDES), plus -static.  -Wextra
# is dropped for these third-party sources: kselftest_harness.h and the
# tests trip -Wclobbered/-Wsign-compare/-Wunused-parameter, which are not
# ours to fix and would only bury warnings of our own code.
PEER_HDR := $(PEER_OUT)/hdr
PEER_HDR_STAMP := $(PEER_HDR)/.installed
# -fmacro-prefix-map: the tests' messages name their file (__FILE__) as
# tools/testing/..., not by the build folder's path on this machine.
PEER_CFLAGS := -static $(filter-out -Wextra,$(C_WARN)) \
	       -isystem $(PEER_HDR)/include -I$(KSELFTEST_DIR) \
	       -fmacro-prefix-map=$(abspath $(BUILD)/linux)/=
PEER_LDLIBS := -lpthread

.PHONY: peer-progs
peer-progs: $(addprefix $(GUEST_OUT)/,$(PEER_SUITES))

# The tree's uapi headers (glibc 2.36's are Linux 6.1's: no SO_PASSPIDFD
# for scm_pidfd), installed out of tree: the tree itself stays pristine.
$(PEER_HDR_STAMP): $(BUILD)/linux/Makefile
	@mkdir -p $(PEER_OUT)/hdr-obj
	$(MAKE) -s -C $(BUILD)/linux O=$(abspath $(PEER_OUT)/hdr-obj) \
		$(if $(GUEST_KBUILD_ARCH),ARCH=$(GUEST_KBUILD_ARCH)) \
		INSTALL_HDR_PATH=$(abspath $(PEER_HDR)) headers_install
	@touch $@

# main() for the wrapped suites: guest/peer_wrap.c.
PEER_WRAP_C := $(HOSTMK_ROOT)/guest/peer_wrap.c

# One rule per suite.  $(1): suite name.
define PEER_RULE
$(GUEST_OUT)/$(1): $(PEER_SRC)/$(peer_src_$(1)).c $(KSELFTEST_HDRS) \
		     $(PEER_HDR_STAMP) \
		     $(if $(filter $(1),$(PEER_WRAPPED)),$(PEER_WRAP_C))
	@mkdir -p $$(@D)
	$(GUEST_CC) $(PEER_CFLAGS) \
	    $(if $(filter $(1),$(PEER_WRAPPED)),-Dmain=peer_selftest_main) \
	    -o $$@.tmp $(PEER_SRC)/$(peer_src_$(1)).c \
	    $(if $(filter $(1),$(PEER_WRAPPED)), \
		'-DPEER_SYSCTLS=$(strip $(peer_sysctls_$(1)))' \
		'-DPEER_ARGS=$(strip $(peer_args_$(1)))' \
		$(PEER_WRAP_C)) \
	    $(PEER_LDLIBS)
	@mv $$@.tmp $$@
endef
$(foreach s,$(PEER_SUITES),$(eval $(call PEER_RULE,$(s))))
