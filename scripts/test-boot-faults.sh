#!/bin/bash
# Fault tests of the boot stage with a real kernel: a guest that panics,
# one that never prints its KTAP plan nor powers off, and QEMU killed
# mid-run.  Each must end in bounded time, nonzero, with a clear reason,
# and leave no QEMU running.  Appends to $RESULTS.
#
# Usage: scripts/test-boot-faults.sh BZIMAGE INITRAMFS
set -uo pipefail
. "$(dirname "$0")/lib.sh"
kernel=$1 initrd=$2
dir=$BUILD/logs/faults
mkdir -p "$dir"
stage "harness fault tests (boots)"

# expect NAME PATTERN BOUND -- boot.sh args...: boot.sh must fail within
# BOUND seconds with PATTERN in its message, and leave no QEMU behind.
expect() {
	local name=$1 pat=$2 bound=$3; shift 4
	expect_failure "fault-$name" "$pat" "$bound" "file:$dir/$name" "$ROOT"/scripts/boot.sh "$@"
}

expect panic 'guest panicked' 400 -- "$kernel" "$initrd" "$dir/panic.log" init_panic=1
BOOT_TIMEOUT=${HANG_TIMEOUT:-120} expect hang 'did not power off within' 200 -- \
	"$kernel" "$initrd" "$dir/hang.log" init_hang=1

# Kill QEMU (not its timeout(1) parent) once the kernel is booting; no
# stale log from an earlier run may trigger the kill early.
rm -f "$dir/killed.log"
(
	for _ in $(seq 1 300); do
		pgrep -f "^$ARCH_QEMU .*file:$dir/killed.log" >/dev/null &&
			grep -q 'Linux version' "$dir/killed.log" 2>/dev/null && break
		sleep 1
	done
	pkill -KILL -f "^$ARCH_QEMU .*file:$dir/killed.log"
) &
killer=$!
expect killed 'QEMU was killed by signal 9' 400 -- "$kernel" "$initrd" "$dir/killed.log"
wait "$killer" 2>/dev/null
stage_end
