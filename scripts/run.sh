#!/bin/bash
# make run, the main job: the patched kernel built, booted in QEMU, the
# guest suites run.  Ends like make check, with "N passed, N failed,
# N skipped", and exits 0 only when everything it ran passed; a failed
# stage is named with its log.  Usage: scripts/run.sh (TOOLCHAIN=clang|gcc)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
results_init run
tree_skips

"$ROOT"/scripts/deps.sh || fatal deps "package installation failed (see $(rel "$BUILD")/apt.log)"
"$ROOT"/scripts/tree.sh patched || fatal tree "tree or series failed (see the messages above)"
kdir=$(objdir patched "$tc")
build_beside_guests "$BUILD/src-patched" "$kdir" patched

stage "boot patched ($tc)"
log=$BUILD/logs/run-$tc$ARCH_SUFFIX-patched.log
kernel=$(kernel_image "$kdir")
boot_suites "$kernel" "$log" patched
stage_end

echo
echo "==== summary ===="
echo "tree:        Linux $(cat "$BUILD/kernelversion") ($TREE_PACKAGE $(cat "$BUILD/linux/.pkgver")), $(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches applied"
toolchain "$tc"
echo "toolchain:   $("$TC_CC" --version | head -1) (${TC_VARS[*]}${TC_FRAGMENT:+, config/$TC_FRAGMENT})"
echo "accelerator: $("$ROOT"/scripts/accel.sh "$kernel")"
echo "console:     $(rel "$log")"
exec "$ROOT"/scripts/run-summary.sh "$log"
