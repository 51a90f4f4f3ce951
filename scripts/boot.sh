#!/bin/bash
# Boot a kernel + initramfs in QEMU with a hard timeout and judge the run.
#
# Usage: scripts/boot.sh BZIMAGE INITRAMFS LOG [extra kernel args]
# LOG gets the kernel console (config/arch: ttyS0, ttyAMA0; incl. KUnit's
# KTAP); the guest suites' KTAP goes to a second channel (a second serial
# port, ttyS1, or a virtio console, hvc0) saved as LOG minus .log plus
# .ktap, so printk lines never interleave with it.
# Exit 0: guest powered off after a complete KTAP run with a clean console.
# Exit 1: panic, hang/timeout, QEMU killed, incomplete KTAP, or a sanitizer
#         or WARNING/BUG/Oops report; one line says why, with the log path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 log=$3; shift 3
accel=$("$ROOT"/scripts/accel.sh "$kernel")
timeout_s=${BOOT_TIMEOUT:-$ARCH_BOOT_TIMEOUT}
ktap=${log%.log}.ktap
mkdir -p "$(dirname "$log")"
: >"$log"; : >"$ktap"
boot_verdict "$log" "BOOT FAILED: the boot script did not end (killed or stopped)"

# make coverage (GCOV_DUMP=1): after the suites, guest/init copies the
# kernel's gcov counters to a serial port of their own (config/arch's
# gcov), saved as LOG minus .log plus .gcov.
gcov=()
if [ "${GCOV_DUMP:-0}" = 1 ]; then
	[ -n "${ARCH_GCOV:-}" ] || die "config/arch/$ARCH_NAME has no gcov channel (make coverage runs on x86_64)"
	: >"${log%.log}.gcov"
	gcov=(-serial "file:${log%.log}.gcov")
	set -- "$@" "gcov_out=/dev/$ARCH_GCOV"
fi

# The machine's own options: config/arch/$ARCH; its arguments and the
# command line: lib.sh.
qemu_argv "$accel" "$log" "$kernel" "$(boot_append "$accel") $*" -initrd "$initrd" "${gcov[@]}"
qemu_run "$timeout_s" "$log" "$ktap" : "${QEMU_ARGV[@]}"
rc=$QEMU_RC dur=$QEMU_DUR
RELLOG=$(rel "$log")

fail() {
	boot_verdict "$log" "BOOT FAILED: $* (console log: $RELLOG)"
	echo "BOOT FAILED: $* (console log: $RELLOG)" >&2
	exit 1
}
why=$(qemu_judge "$rc" "$dur" "$timeout_s" "$log")
[ -z "$why" ] || fail "$why"
"$ROOT"/scripts/console-check.sh "$log" || fail "console shows kernel reports (quoted above)"
grep -a -q '# init: done' "$ktap" || fail "guest stopped before init finished (killed or crashed)"
note "guest ran ${dur}s under $accel"
boot_verdict "$log"
