#!/bin/bash
# make check-arm64 (in make check-full): make check's comparison on
# Debian's second architecture.  Both kernels cross-built by clang-19
# (LLVM=-19 ARCH=arm64, the same hardened config plus config/arm64.config),
# the guest suites cross-compiled static by clang-19 against Debian's
# aarch64 cross glibc (config/arch/arm64 says why not gcc), both
# booted on QEMU's virt machine under TCG, compared case by case with the
# same allowed differences.  Machine settings: config/arch/arm64.
# Ends with "N passed, N failed, N skipped".
set -uo pipefail
export ARCH=arm64
. "$(dirname "$0")/lib.sh"
results_init check-arm64

"$ROOT"/scripts/deps.sh || fatal deps "package installation failed"
"$ROOT"/scripts/tree.sh || fatal tree "tree or series failed"
make -s -C "$ROOT" BUILD="$BUILD" host-bins || fatal host-build "host tools did not build"
"$ROOT"/scripts/baseline-vs-patched.sh || fatal "baseline-vs-patched" "a kernel or the guest programs did not build"
finish
