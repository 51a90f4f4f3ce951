#!/bin/bash
# Decide the QEMU accelerator: a short bounded test boot under KVM; any
# failure or hang falls back to TCG.  The answer is cached in build/accel
# (build/accel-arm64 for arm64: one per arch).
#
# Usage: scripts/accel.sh KERNEL       prints "kvm" or "tcg"
# Env:   ACCEL=kvm|tcg forces; KVM_PROBE_TIMEOUT (s, default 20);
#        KVM_DEV (default /dev/kvm) lets the fault tests point elsewhere.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1
cache=${ACCEL_CACHE:-$BUILD/accel$ARCH_SUFFIX}
if [ -n "${ACCEL:-}" ]; then echo "$ACCEL"; exit 0; fi
if [ -s "$cache" ]; then cat "$cache"; exit 0; fi
mkdir -p "$(dirname "$cache")"

verdict=tcg
dev=${KVM_DEV:-/dev/kvm}
if [ -r "$dev" ] && [ -w "$dev" ]; then
	log=$(mktemp)
	# KVM "works" only if the kernel gets far enough to print its banner.
	# shellcheck disable=SC2086 # machine options: words by design
	timeout -k 2 "${KVM_PROBE_TIMEOUT:-20}" "$ARCH_QEMU" $ARCH_MACHINE -accel kvm -m 256 \
		-nodefaults -display none -no-reboot -serial "file:$log" \
		-kernel "$kernel" -append "console=$ARCH_CONSOLE panic=-1 rdinit=/nonexistent" \
		>/dev/null 2>&1 || true
	if grep -q "Linux version" "$log"; then verdict=kvm; fi
	rm -f "$log"
	echo "  accel: KVM probe $( [ $verdict = kvm ] && echo booted || echo 'hung or failed'): using $verdict" >&2
else
	echo "  accel: $dev not usable: using tcg" >&2
fi
echo "$verdict" >"$cache"
echo "$verdict"
