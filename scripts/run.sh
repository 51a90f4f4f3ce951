#!/bin/bash
# The main job: patched kernel built, booted in QEMU, guest suites run,
# summary printed.  Usage: scripts/run.sh  (TOOLCHAIN=clang|gcc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
t_all=$(date +%s)
export STAGE_LOG=$BUILD/run-stages.tsv
mkdir -p "$BUILD"; : >"$STAGE_LOG"

"$ROOT"/scripts/deps.sh
"$ROOT"/scripts/tree.sh
"$ROOT"/scripts/build.sh "$BUILD/src-patched" "$(objdir patched "$tc")" "$tc"
"$ROOT"/scripts/guest.sh

stage "boot patched ($tc)"
log=$BUILD/logs/run-$tc-patched.log
kernel=$(objdir patched "$tc")/arch/x86/boot/bzImage
rc=0
"$ROOT"/scripts/boot.sh "$kernel" "$BUILD/guest/initramfs.cpio" "$log" || rc=1
stage_end

echo
echo "==== summary ===="
echo "tree:        Linux $(cat "$BUILD/kernelversion") (linux-source-6.12 $(cat "$BUILD/linux/.pkgver")), $(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches applied"
case "$tc" in
clang) echo "toolchain:   $(clang-19 --version | head -1) (LLVM=-19, hardened: UBSAN_BOUNDS FORTIFY_SOURCE KASAN)" ;;
gcc) echo "toolchain:   $(gcc-12 --version | head -1)" ;;
esac
echo "accelerator: $("$ROOT"/scripts/accel.sh "$kernel")"
echo "console:     $(rel "$log")"
echo "-- guest suites (ttyS1):"
grep -a -E '^(ok|not ok) ' "${log%.log}.ktap" | tr -d '\r' | sed 's/^/   /' || true
"$BUILD"/host/ktapdiff --check "${log%.log}.ktap" || rc=1
echo "-- KUnit (console):"
grep -a -E '^    (ok|not ok) ' "$log" | sed 's/^ */   /' || true
"$BUILD"/host/ktapdiff --check "$log" || rc=1
echo "total time:  $(( $(date +%s) - t_all ))s"
exit $rc
