#!/bin/bash
# Boot a kernel + initramfs in QEMU with a hard timeout and judge the run.
#
# Usage: scripts/boot.sh BZIMAGE INITRAMFS LOG [extra kernel args]
# LOG gets the kernel console (ttyS0, incl. KUnit's KTAP); the guest
# suites' KTAP goes to a second port (ttyS1) saved as LOG minus .log
# plus .ktap, so printk lines never interleave with it.
# Exit 0: guest powered off after a complete KTAP run with a clean console.
# Exit 1: panic, hang/timeout, QEMU killed, incomplete KTAP, or a sanitizer
#         or WARNING/BUG/Oops report; one line says why, with the log path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1 initrd=$2 log=$3; shift 3
accel=$("$ROOT"/scripts/accel.sh "$kernel")
timeout_s=${BOOT_TIMEOUT:-1500}
ktap=${log%.log}.ktap
mkdir -p "$(dirname "$log")"
: >"$log"; : >"$ktap"

# panic=-1 + -no-reboot: a panic ends QEMU at once instead of hanging.
# The machine's own console and arguments: config/arches.
append="console=$ARCH_CONSOLE panic=-1 $ARCH_APPEND ktap=/dev/ttyS1 dummy.numdummies=0 suite_timeout=${SUITE_TIMEOUT:-900} $*"
qemu=("$ARCH_QEMU" -accel "$accel" -m "${GUEST_MEM:-2048}" -smp "${GUEST_SMP:-1}"
	-nodefaults -display none -no-reboot -serial "file:$log" -serial "file:$ktap"
	-kernel "$kernel" -initrd "$initrd" -append "$append")
[ "$accel" = kvm ] && qemu+=(-cpu host)
# QEMU_EXTRA: more QEMU options (make bench adds -icount under TCG).
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && qemu+=($QEMU_EXTRA)

t0=$(date +%s)
timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null >"$log.qemu" 2>&1 &
pid=$!
# Kill QEMU if we are interrupted: nothing is left running.
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT INT TERM
last=$t0
while kill -0 "$pid" 2>/dev/null; do
	sleep 1
	now=$(date +%s)
	if [ $((now - last)) -ge 30 ]; then
		last=$now
		note "... $accel guest running $((now - t0))s: $(grep -a -E '^ *(ok|not ok) ' "$ktap" | tail -1 | cut -c1-70)"
	fi
done
set +e
wait "$pid"; rc=$?
set -e
trap - EXIT INT TERM
dur=$(( $(date +%s) - t0 ))
RELLOG=$(rel "$log")

fail() {
	echo "BOOT FAILED: $* (console log: $RELLOG)" >&2
	exit 1
}
# timeout(1) says 124 or 137 when it fired; an outside kill also gives
# 137, so the elapsed time tells the two apart.
if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$dur" -ge "$timeout_s" ]; }; then
	fail "guest did not power off within ${timeout_s}s"
fi
[ "$rc" -gt 128 ] && fail "QEMU was killed by signal $((rc - 128)) after ${dur}s"
[ "$rc" != 0 ] && fail "QEMU exited with status $rc ($(head -c 200 "$log.qemu" | tr '\n' ' '))"
if grep -a -q 'Kernel panic' "$log"; then
	fail "guest panicked: $(grep -a -m1 'Kernel panic' "$log")"
fi
"$ROOT"/scripts/console-check.sh "$log" || fail "console shows kernel reports (quoted above)"
grep -a -q '# init: done' "$ktap" || fail "guest stopped before init finished (killed or crashed)"
note "guest ran ${dur}s under $accel"
