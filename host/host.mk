# SPDX-License-Identifier: GPL-2.0
# Build rules for the C parts of the harness; include from the top-level
# Makefile.  Outputs go under $(BUILD):
#   $(BUILD)/host/ktapdiff          compare/check console logs
#   $(BUILD)/host/ktap_test         unit tests of the KTAP parser
#   $(GUEST_OUT)/init             PID 1 of the test initramfs (static)
#   $(GUEST_OUT)/netdevs          guest devices for the matrix (static)
#   $(GUEST_OUT)/sockaddr_matrix  every socket kind x address (static)
#   further suites: guest/*.mk, one file each (guest/compat.mk: the
#   32-bit builds, <suite>_m32)
# Phony targets: host-tools, guest-progs, host-check (runs the unit tests).

# Repository root, as the includer named it ("." for "include host/host.mk"):
# relative, so logs show no host-specific absolute paths.
HOSTMK_ROOT := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))))

BUILD ?= build
HOST_CC ?= gcc
# The guest's architecture, config/arch/<ARCH> (default x86_64, kbuild's
# x86 is the same): its compiler, the flags of the 32-bit builds (none:
# no 32-bit suites), kbuild's ARCH, and the suffix of its output folders.
# The scripts export the same values (lib.sh's arch_profile).
GUEST_ARCH := $(if $(filter-out x86,$(ARCH)),$(ARCH),x86_64)
arch_field = $(patsubst -,,$(shell sed -n 's/^$(1)[[:space:]]\+//p' $(HOSTMK_ROOT)/config/arch/$(GUEST_ARCH)))
ifeq ($(wildcard $(HOSTMK_ROOT)/config/arch/$(GUEST_ARCH)),)
$(error unknown ARCH '$(GUEST_ARCH)': no config/arch/$(GUEST_ARCH))
endif
GUEST_CC ?= $(call arch_field,guest_cc)
COMPAT_CFLAGS ?= $(call arch_field,compat_cflags)
ARCH_SUFFIX ?= $(call arch_field,suffix)
GUEST_KBUILD_ARCH := $(call arch_field,kbuild_arch)
GUEST_CROSS_COMPILE := $(call arch_field,cross_compile)
GUEST_OUT ?= $(BUILD)/guest$(ARCH_SUFFIX)
C_WARN ?= -Wall -Wextra -O2
# kselftest_harness.h and kselftest.h of the kernel under test.
KSELFTEST_DIR ?= $(BUILD)/linux/tools/testing/selftests

KTAP_SRC := $(HOSTMK_ROOT)/host/ktap.c $(HOSTMK_ROOT)/host/ktap.h
KSELFTEST_HDRS := $(KSELFTEST_DIR)/kselftest_harness.h \
		  $(KSELFTEST_DIR)/kselftest.h

# Guest programs take headers and the peer suites' sources from the
# unpacked tree: a missing one names the step, not make's "No rule".
$(BUILD)/linux/%:
	@echo "$@: not found: the tree is not unpacked (make tree)" >&2; exit 1

.PHONY: host-tools guest-progs host-check

host-tools: $(BUILD)/host/ktapdiff $(BUILD)/host/ktap_test
guest-progs: $(GUEST_OUT)/init $(GUEST_OUT)/netdevs \
	     $(GUEST_OUT)/sockaddr_matrix

$(BUILD)/host/ktapdiff: $(HOSTMK_ROOT)/host/ktapdiff.c $(KTAP_SRC)
	@mkdir -p $(@D)
	$(HOST_CC) $(C_WARN) -o $@ $(filter %.c,$^)

$(BUILD)/host/ktap_test: $(HOSTMK_ROOT)/tests/ktap_test.c $(KTAP_SRC)
	@mkdir -p $(@D)
	$(HOST_CC) $(C_WARN) -I$(HOSTMK_ROOT)/host -o $@ $(filter %.c,$^)

$(GUEST_OUT)/init: $(HOSTMK_ROOT)/guest/init.c $(HOSTMK_ROOT)/guest/gcov_dump.c \
		   $(HOSTMK_ROOT)/guest/gcov_dump.h
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -o $@ $(filter %.c,$^)

GUEST_DIR := $(HOSTMK_ROOT)/guest
SUITE_UTIL := $(GUEST_DIR)/suite_util.c $(GUEST_DIR)/suite_util.h

# GUEST_SRCS_<suite>: a suite's sources, named once for its 64-bit build
# here and its 32-bit one in guest/compat.mk.
GUEST_SRCS_netdevs := $(GUEST_DIR)/netdevs.c $(GUEST_DIR)/nl.c \
		      $(GUEST_DIR)/nl.h $(GUEST_DIR)/guestenv.h $(SUITE_UTIL) \
		      $(KSELFTEST_HDRS)
GUEST_SRCS_sockaddr_matrix := $(GUEST_DIR)/sockaddr_matrix.c \
			      $(GUEST_DIR)/matrix_kinds.c $(GUEST_DIR)/matrix.h \
			      $(GUEST_DIR)/guestenv.h $(SUITE_UTIL) $(KSELFTEST_HDRS)

host-check: $(BUILD)/host/ktap_test $(BUILD)/host/ktapdiff
	$(BUILD)/host/ktap_test $(BUILD)/host/ktapdiff $(HOSTMK_ROOT)/tests/data

# Further guest programs, one fragment each (guest/*.mk), so that adding
# a suite touches only its own files.
include $(sort $(wildcard $(HOSTMK_ROOT)/guest/*.mk))

# Every guest program with a GUEST_SRCS_<name> (above and in guest/*.mk)
# is built the same way: static, with the tree's kselftest headers.
KSELFTEST_PROGS := $(patsubst GUEST_SRCS_%,%,$(filter GUEST_SRCS_%,$(.VARIABLES)))
.SECONDEXPANSION:
$(addprefix $(GUEST_OUT)/,$(KSELFTEST_PROGS)): $(GUEST_OUT)/%: $$(GUEST_SRCS_$$*)
	@mkdir -p $(@D)
	$(GUEST_CC) -static $(C_WARN) -I$(KSELFTEST_DIR) -o $@ $(filter %.c,$^)
