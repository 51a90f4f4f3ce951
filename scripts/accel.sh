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
	# The one QEMU command line of every boot (lib/qemu.sh), 256 MiB and
	# no initramfs: its argv beside the probe's log, build/logs/.
	log=$BUILD/logs/accel-probe$ARCH_SUFFIX.log
	mkdir -p "$BUILD/logs"
	GUEST_MEM=256 qemu_argv kvm "$log" "$kernel" "console=$ARCH_CONSOLE panic=-1 rdinit=/nonexistent"
	# KVM "works" only if the kernel gets far enough to print its banner.
	qemu_run "${KVM_PROBE_TIMEOUT:-20}" "$log" "${log%.log}.ktap" : "${QEMU_ARGV[@]}" >/dev/null
	if grep -q "Linux version" "$log"; then verdict=kvm; fi
	echo "  accel: KVM probe $( [ $verdict = kvm ] && echo booted || echo 'hung or failed'): using $verdict" >&2
else
	echo "  accel: $dev not usable: using tcg" >&2
fi
echo "$verdict" >"$cache"
echo "$verdict"
