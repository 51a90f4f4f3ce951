#!/bin/bash
# make check-full extras, run after make check's own stages: the heavy
# checks that do not fit make check's 60 minutes.  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Every stage is a pipeline of its own (results_init ... finish), its
# every result counted in make check-full's closing line under its name
# (lib.sh's nested).

completeness() {
	EXTRA_PKGS=coccinelle "$ROOT"/scripts/deps.sh && "$ROOT"/scripts/completeness.sh "$BUILD/src-patched"
}

nested completeness "completeness over the whole tree (one result per site left)" completeness
nested check-bisect "bisect build of every patch (gcc-12 + clang-19; one result per patch, compiler, config)" \
	"$ROOT"/scripts/check-bisect.sh
nested check-testmod "bpf_testmod (external module), per patch" "$ROOT"/scripts/check-testmod.sh
nested check-cross "s390-only files, cross-compiled (gcc-12 + clang-19)" "$ROOT"/scripts/check-cross.sh
nested check-btf "BPF sock_addr suite and test_progs on BTF kernels (unix path rewritten longer), baseline vs patched" "$ROOT"/scripts/check-btf.sh
nested checkpatch "checkpatch --strict on every patch (one result each)" "$ROOT"/scripts/checkpatch.sh
nested dkms-check "out-of-tree modules: Debian 13's *-dkms and Debian 12's API users, baseline vs patched, fixes" \
	"$ROOT"/scripts/dkms-check.sh
# gcc-12 by default, as make check-debian: the kernel a Debian user would build.
nested check-debian "kernel as .debs, Debian 12 + systemd + daemons, baseline vs patched" \
	env TOOLCHAIN="${DEB_TOOLCHAIN:-gcc}" "$ROOT"/scripts/check-debian.sh
# make check ARCH=arm64: the same pipeline, config/arch/arm64's stages.
nested check-arm64 "arm64: both kernels cross-built, booted on QEMU virt, compared" \
	env ARCH=arm64 "$ROOT"/scripts/check.sh
# TREE=6.1 make check: the series for Debian 12's own kernel, in its own
# build folder (BUILD empty: the tree profile's).
nested check-6.1 "Linux 6.1: patches-6.1 on linux-source-6.1, both kernels built, booted, compared" \
	env TREE=6.1 BUILD= "$ROOT"/scripts/check.sh
# Linux 6.1: every patch of patches-6.1 built on its own, as for 6.12.
nested check-bisect-6.1 "Linux 6.1: every patch built on its own (gcc-12 + clang-19)" \
	env TREE=6.1 BUILD= "$ROOT"/scripts/check-bisect.sh
nested check-testmod-6.1 "Linux 6.1: bpf_testmod (external module), per patch" \
	env TREE=6.1 BUILD= "$ROOT"/scripts/check-testmod.sh
nested check-cross-6.1 "Linux 6.1: s390-only files, cross-compiled (gcc-12 + clang-19)" \
	env TREE=6.1 BUILD= "$ROOT"/scripts/check-cross.sh
nested check-distcc "kernel objects through distcc (CCACHE_PREFIX) on 127.0.0.1" "$ROOT"/scripts/check-distcc.sh
# make coverage: its results (builds, boots, the table's verdict) here.
nested coverage "patch coverage: gcov kernels, every changed hunk executed or listed" "$ROOT"/scripts/coverage.sh
# The guest premises broken once, on make check's own kernels.
nested premise-breaks "each guest premise broken once: the cases fail on both kernels" "$ROOT"/tests/premise-breaks.sh
nested check-fix "ieee802154 fix (patches/fixes): reproducer unfixed and fixed, fuzzer FUZZ_KNOWN=1" "$ROOT"/scripts/test-fix-ieee802154.sh
