# sockaddr_unsized for Linux 6.12: build, boot, test and measure.
# The work is done by scripts/*.sh; this file names the entry points and
# builds the small C programs (host tools and guest suites).

TOOLCHAIN ?= clang
# The kernel tree (config/tree/): 6.12, or 6.1 with its own build folder.
TREE ?= 6.12
# tree_key KEY: a key of the tree's profile as the shell reads it, the one
# reader (scripts/lib/profiles.sh tree_profile).
tree_key = $(shell TREE='$(TREE)' bash -c '. scripts/lib.sh && echo "$$TREE_$(1)"' 2>/dev/null)
TREE_SUBDIR := $(call tree_key,BUILD)
BUILD ?= build$(if $(TREE_SUBDIR),/$(TREE_SUBDIR))
# Suites the tree cannot run (config/tree's skip_suite lines, each with
# its reason; the pipelines report them as skipped).
TREE_SKIP_SUITES := $(call tree_key,SKIP_SUITES)
export TOOLCHAIN TREE BUILD

# Guest suites packed into the initramfs, run in this order.
# Peer suites first: some set sysctls and want a fresh kernel (guest/peers.mk).
# Then the 32-bit builds (guest/compat.mk) through the compat paths.
# (None on an arch without COMPAT_CFLAGS, config/arch/.)
SUITES ?= $(filter-out $(TREE_SKIP_SUITES),$(PEER_SUITES) netdevs sockaddr_matrix bpf_sock_addr \
	setaddr tap_ioctl reach $(if $(COMPAT_CFLAGS),netdevs_m32 sockaddr_matrix_m32 setaddr_m32 tap_ioctl_m32))

.PHONY: all run check check-full deps tree guest-bins debian-bins host-bins print-suites report cover-letter export export-fixes upstream-boot bounds-demo bench compile-bench fuzz coverage \
	test-host clean help deb check-debian check-arm64 status results premise-breaks dkms-kernels

all: help

# What make check-full runs after make check: config/pipelines' rows
# marked full (scripts/check-full.sh), by the names it gives them.
CHECK_FULL_ROWS = $(shell python3 scripts/ledger.py rows --names)

help:
	@echo "Main:"
	@echo "  make run           build the patched kernel, boot it in QEMU, run the guest suites (N passed, N failed)"
	@echo "  make check         baseline vs patched, hardened clang-19, compared case by case + harness tests (what CI runs)"
	@echo "  make check-full    make check + $(CHECK_FULL_ROWS) (config/pipelines)"
	@echo "  make status        every pipeline's last record (ledger/): verdict, counts, commit, age, inputs changed since"
	@echo "  make results       docs/results.md and README's generated blocks, written from ledger/"
	@echo "  make dkms-kernels  the modules that call a changed API on 6.1, 6.12 (plain, patched) and 7.3, unfixed / fixed, from the dkms expectations"
	@echo "Heavier checks (make check-full runs them):"
	@echo "  make completeness  Coccinelle + grep: unconverted callbacks and callers left in the patched tree"
	@echo "  make upstream-oracle upstream 7.3 (trixie-backports, fetched as data) as the oracle: its converted functions in patched 6.12 and 6.1, each difference listed (config/upstream-oracle)"
	@echo "  make upstream-boot upstream 7.3 built with the harness config, booted with the guest suites, beside patched 6.12 case by case (config/upstream-boot)"
	@echo "  make check-bisect  every patch compiled on its own, gcc-12 and clang-19, W=1 (PATCHES=N ONLY=\"5 10\")"
	@echo "  make check-claims  the series' claims judged: patches 1-7 change no instruction (check-bisect's objects), report's site and size deltas (config/expect/claims)"
	@echo "  make checkpatch    the tree's checkpatch.pl --strict on every patch"
	@echo "  make check-testmod bpf_testmod (an external module) built per patch"
	@echo "  make check-cross   s390-only files of the series cross-compiled per patch"
	@echo "  make check-btf     BPF suite and the tree's test_progs -t sock_addr on kernels with BTF"
	@echo "  make dkms-check    out-of-tree modules of the tree (config/tree dkms_modules: 6.12 every Debian 13 *-dkms + the API users of Debian 12 and sid; TREE=6.1 every Debian 12 *-dkms + sid's API users; TREE=7.3 the API users of Debian 13 and sid on upstream's one kernel), dkms-built on baseline and patched, against config/expect[/TREE]/dkms"
	@echo "  make check-distcc  kernel objects through ccache + distcc (CCACHE_PREFIX=distcc) against a distccd on 127.0.0.1"
	@echo "  make coverage      patch coverage: gcov kernels boot every suite + fuzzer; each changed hunk executed on both or listed"
	@echo "  make check-fix     the ieee802154 fixes (config/tree's fixes; TREE=7.3|6.12|6.1): reproducers break the unfixed kernel, pass on the fixed one; fuzzer FUZZ_KNOWN=1"
	@echo "  make check-debian  baseline and patched as .debs, dpkg-installed in Debian 12, booted with systemd; daemons + suites compared"
	@echo "                     (USERLAND=trixie: in Debian 13 with its own dkms; TREE=6.1: the 6.1 .debs in Debian 12)"
	@echo "  make check-arm64   make check ARCH=arm64: the comparison on arm64 (clang-19 cross build, qemu-system-aarch64 virt, TCG)"
	@echo "Measurements and demonstrations:"
	@echo "  make report        the series' claims measured side by side; the cover paragraph goes to build/report/ (ARCH=arm64: build/report-arm64.md)"
	@echo "  make bench         guest microbenchmark, baseline vs patched booted alternately (ROUNDS= BENCH_MS= ICOUNT=)"
	@echo "  make compile-bench kernel objects recompiled with glibc's default malloc and with malloc on huge pages, side by side (OBJECTS= ROUNDS=)"
	@echo "  make fuzz          N= calls SEED= on the patched kernel: random sockaddr/set-address calls"
	@echo "  make bounds-demo   out-of-bounds sa_data access: reported on patched, not on baseline"
	@echo "  make premise-breaks each guest premise broken once (tests/premise-breaks/): the cases fail on both of make check's kernels"
	@echo "The kernel as Debian packages:"
	@echo "  make deb           the patched kernel via the tree's make bindeb-pkg (gcc-12; TOOLCHAIN=clang hardened), in build/deb/"
	@echo "The series:"
	@echo "  make export FORMAT=stable|debian [SIGNOFF=\"Name <mail>\"]  for a stable or Debian maintainer, in build/export/"
	@echo "  make export-fixes TREE=7.3 SIGNER=\"Name <mail>\" BASE=sha  the ieee802154 fixes, one send-ready mail each (no signer: refused)"
	@echo "  make cover-letter  put make report's verification paragraph into patches/0000-cover-letter.patch"
	@echo "Steps on their own:"
	@echo "  make deps | tree | guest-bins | host-bins | test-host | clean"
	@echo "Variables (config/variables, every one the harness reads):"
	@sed -n '/^# -- Set by the harness/q; /^# --/{s/^# -- /  /;p;d}; /^#/d; s/^/    /p' config/variables

# A SUITES= subset: make run says so in its closing line and checks no
# expectations (config/expect/ lists every suite).
run:
	@PARTIAL_SUITES="$(if $(filter command line environment,$(origin SUITES)),$(SUITES))" scripts/run.sh

# make check compares every suite config/expect/ lists: a SUITES= subset
# would test less and still end clean, so it is refused (make run takes it);
# so is EXPECT_FILE=, which would judge by another file than config/expect/'s.
define refuse_partial
$(if $(filter command line environment,$(origin SUITES)),\
	@echo "ERROR: make $@ runs every suite config/expect/ lists; SUITES=$(SUITES) would test less. Use make run SUITES=... for a partial run." >&2; exit 2)
$(if $(filter command line environment environment override,$(origin EXPECT_FILE)),\
	@echo "ERROR: make $@ judges by config/expect/'s files; EXPECT_FILE=.../$(notdir $(EXPECT_FILE)) would judge by another. Use make run EXPECT_FILE=... to try one." >&2; exit 2)
endef

check:
	$(refuse_partial)
	@scripts/check.sh

check-full:
	$(refuse_partial)
	@CHECK_FULL=1 scripts/check.sh

# make check ARCH=arm64 under its old name (config/arch/arm64); in check-full.
check-arm64:
	$(refuse_partial)
	@ARCH=arm64 scripts/check.sh

deps:
	@scripts/deps.sh

tree: deps
	@scripts/tree.sh

include host/host.mk

guest-bins: $(GUEST_OUT)/init $(addprefix $(GUEST_OUT)/,$(SUITES))

# make check-debian's own suite (guest/oot_modules.mk), not in SUITES.
debian-bins: $(GUEST_OUT)/oot_modules

host-bins: $(BUILD)/host/ktapdiff $(BUILD)/host/ktap_test

print-suites:
	@echo $(addprefix $(GUEST_OUT)/,$(SUITES))

test-host: host-bins
	@scripts/test-host.sh

report:
	@scripts/report.sh

# The ledger (ledger/, one record per pipeline x tree x arch, written by
# each pipeline's finish): the table, and the page written from it.
status:
	@python3 scripts/ledger.py status

results:
	@python3 scripts/ledger.py results

# The API users' outcomes on every kernel, from config/expect[/TREE]/dkms.
dkms-kernels:
	@scripts/dkms-kernels.sh

# make cover-letter: the paragraph make report wrote, into the cover letter
cover-letter:
	@scripts/cover-letter.sh

# make export FORMAT=stable|debian [SIGNOFF="Name <mail>"]: build/export/FORMAT
export:
	@scripts/export.sh "$(FORMAT)"

# make export-fixes [TREE=7.3] SIGNER="Name <mail>" BASE=<sha> [UPSTREAM="sha ..."]:
# the tree's fixes (config/tree's fixes), one send-ready mail each, in
# build/export/fixes-TREE (scripts/export-fixes.sh says why each is asked)
export-fixes:
	@scripts/export-fixes.sh mail "$(BUILD)/export/fixes-$(TREE)"

# make upstream-boot: Linux 7.3 (upstream, the series merged) booted with
# the guest suites, beside patched 6.12's make run, each difference
# classified (config/upstream-boot)
upstream-boot:
	@env -u BUILD TREE=7.3 scripts/upstream-boot.sh

bench:
	@scripts/bench.sh

compile-bench:
	@scripts/compile-bench.sh

# make fuzz N=200000 SEED=1 [KNOWN=1]: the sockaddr fuzzer on the patched
# kernel; KNOWN=1 also makes the calls that hit known 6.12 bugs.
N ?= 200000
SEED ?= 1
KNOWN ?= 0
fuzz:
	@scripts/tree.sh && scripts/build.sh $(BUILD)/src-patched $(BUILD)/src-patched/out-$(TOOLCHAIN) $(TOOLCHAIN) && \
		FUZZ_KNOWN=$(KNOWN) scripts/fuzz.sh $(N) $(SEED)

bounds-demo:
	@scripts/tree.sh && scripts/guest.sh && scripts/bounds-demo.sh

# The guest suites' premises, each broken once, on make check's kernels.
premise-breaks:
	@tests/premise-breaks.sh

# Patch coverage: gcov kernels booted with every suite and the fuzzer;
# per patch and hunk, executed on both kernels or listed (build/coverage/).
coverage:
	@scripts/tree.sh && scripts/coverage.sh

# make deb: gcc-12, Debian's compiler, unless TOOLCHAIN= is given (the
# file's own default above is make check's clang).
DEB_TOOLCHAIN = $(if $(filter file,$(origin TOOLCHAIN)),gcc,$(TOOLCHAIN))
deb:
	@EXTRA_PKGS=debhelper scripts/deps.sh && scripts/tree.sh && TOOLCHAIN=$(DEB_TOOLCHAIN) scripts/deb.sh patched

# make check-debian: make deb for both kernels, booted in Debian 12
check-debian:
	@TOOLCHAIN=$(DEB_TOOLCHAIN) scripts/check-debian.sh

clean:
	rm -rf $(BUILD)/src-*/out-* $(GUEST_OUT) $(BUILD)/host $(BUILD)/logs
include scripts/verify.mk
