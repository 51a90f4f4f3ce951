# SPDX-License-Identifier: GPL-2.0
# Guest suite bpf_sock_addr (included by host/host.mk):
#   $(BPF_OUT)/libbpf/libbpf.a        the tree's own libbpf, static, out of tree
#   $(BPF_OUT)/include/bpf/*.h        its installed headers (bpf_helpers.h, ...)
#   $(BPF_OUT)/sock_addr_hooks.bpf.o  the cgroup sock_addr programs
#   $(BPF_OUT)/sock_addr_kfunc.bpf.o  the same source with -DKFUNC_PROBE
#   $(GUEST_OUT)/bpf_sock_addr        static test program: the tests
#                                     (bpf_sock_addr.c) and the loader
#                                     (bpf/loader.c), both objects embedded
# Nothing is written into the kernel tree.

BPF_SRCTREE := $(BUILD)/linux
BPF_OUT := $(BUILD)/bpf$(ARCH_SUFFIX)
BPF_CLANG ?= clang-19
LIBBPF_SRC := $(BPF_SRCTREE)/tools/lib/bpf
LIBBPF_A := $(BPF_OUT)/libbpf/libbpf.a
# A header from install_headers, standing for all of them.
LIBBPF_HDR := $(BPF_OUT)/include/bpf/bpf_helpers.h
BPF_UAPI := $(BPF_SRCTREE)/tools/include/uapi
BPF_HOOKS_SRC := $(GUEST_DIR)/bpf/sock_addr_hooks.bpf.c
BPF_HOOKS_HDR := $(GUEST_DIR)/bpf/sock_addr_hooks.h
BPF_HOOKS_OBJ := $(BPF_OUT)/sock_addr_hooks.bpf.o
BPF_KFUNC_OBJ := $(BPF_OUT)/sock_addr_kfunc.bpf.o

guest-progs: $(GUEST_OUT)/bpf_sock_addr

# For another arch, libbpf's Makefile gets the prefix of its ld and ar
# (config/arch: cross_compile) and kbuild's ARCH.
LIBBPF_CROSS := $(if $(GUEST_CROSS_COMPILE),CROSS_COMPILE=$(GUEST_CROSS_COMPILE)) \
		$(if $(GUEST_KBUILD_ARCH),ARCH=$(GUEST_KBUILD_ARCH))

# libbpf's own Makefile, sources in the tree, objects and headers here.
# Its sources are the prerequisites, so a new tree rebuilds it.
LIBBPF_SRCS := $(wildcard $(LIBBPF_SRC)/*.c $(LIBBPF_SRC)/*.h)
$(LIBBPF_A) $(LIBBPF_HDR) &: $(LIBBPF_SRCS) $(BPF_UAPI)/linux/bpf.h
	@mkdir -p $(BPF_OUT)/libbpf
	$(MAKE) -s -C $(LIBBPF_SRC) OUTPUT=$(abspath $(BPF_OUT)/libbpf)/ \
		BUILD_STATIC_ONLY=1 CC='$(GUEST_CC) $(BPF_PREFIX_MAP)' $(LIBBPF_CROSS) \
		DESTDIR=$(abspath $(BPF_OUT)) prefix= \
		$(abspath $(LIBBPF_A)) install_headers
	@touch $(LIBBPF_A) $(LIBBPF_HDR)

# The AF_UNIX cgroup sock_addr hooks (BPF_CGROUP_UNIX_*), tested in the
# tree's uapi, not by version: without them (6.1) the unix programs are
# not built and the suite's unix tests SKIP.  Deferred (=): the header
# exists only once the tree is unpacked.
HAVE_UNIX_SOCK_ADDR_HOOKS = $(shell grep -qsw BPF_CGROUP_UNIX_CONNECT \
				$(BPF_UAPI)/linux/bpf.h && echo 1 || echo 0)
BPF_FEATURES = -DHAVE_UNIX_SOCK_ADDR_HOOKS=$(HAVE_UNIX_SOCK_ADDR_HOOKS)

# The objects' debug info and BTF (and libbpf's, through CC: its own
# default CFLAGS stay) name their files relative to the project and to
# the build folder, not by this machine's paths.
BPF_PREFIX_MAP := -ffile-prefix-map=$(abspath $(HOSTMK_ROOT))=. \
		  -ffile-prefix-map=$(abspath $(BUILD))=build
BPF_CFLAGS := -target bpf -O2 -g -Wall $(BPF_PREFIX_MAP) -I$(BPF_OUT)/include -I$(BPF_UAPI)

$(BPF_HOOKS_OBJ): $(BPF_HOOKS_SRC) $(BPF_HOOKS_HDR) $(LIBBPF_HDR)
	$(BPF_CLANG) $(BPF_CFLAGS) $(BPF_FEATURES) -c $< -o $@

$(BPF_KFUNC_OBJ): $(BPF_HOOKS_SRC) $(BPF_HOOKS_HDR) $(LIBBPF_HDR)
	$(BPF_CLANG) $(BPF_CFLAGS) $(BPF_FEATURES) -DKFUNC_PROBE -c $< -o $@

# libbpf needs libelf, which needs zlib (Debian 12's libelf.a has no zstd).
$(GUEST_OUT)/bpf_sock_addr: $(GUEST_DIR)/bpf_sock_addr.c $(GUEST_DIR)/bpf/loader.c \
			      $(GUEST_DIR)/bpf/loader.h $(SUITE_UTIL) $(BPF_HOOKS_HDR) \
			      $(GUEST_DIR)/guestenv.h $(KSELFTEST_HDRS) \
			      $(LIBBPF_A) $(BPF_HOOKS_OBJ) $(BPF_KFUNC_OBJ)
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -I$(KSELFTEST_DIR) -I$(BPF_OUT)/include \
		-I$(BPF_UAPI) $(BPF_FEATURES) \
		-DHOOKS_OBJ='"$(abspath $(BPF_HOOKS_OBJ))"' \
		-DKFUNC_OBJ='"$(abspath $(BPF_KFUNC_OBJ))"' \
		-o $@ $(filter %.c,$^) $(LIBBPF_A) -lelf -lz
