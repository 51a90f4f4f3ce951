#!/bin/bash
# make check-debian: boot a packaged kernel with the Debian 12 disk of
# scripts/debian-image.sh in QEMU (accelerator as scripts/accel.sh
# decides), systemd as PID 1.  Prints the time to multi-user.target and
# to the login prompt on the console; sockaddr-check.service then runs the
# checks (KTAP on ttyS1) and powers the guest off.
#
# Usage: scripts/debian-boot.sh KERNEL DISK LOG
# LOG gets the console (ttyS0); the KTAP goes to LOG minus .log plus .ktap.
# Env: MULTIUSER_TIMEOUT (s, default 900): multi-user.target must be
#      reached by then; BOOT_TIMEOUT (s, default 2400): the whole run.
# Exit 1, one line naming the console log: no multi-user.target in time,
# no power-off in time, QEMU killed or failed, a kernel report on the
# console, or a KTAP run that did not finish.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1 disk=$2 log=$3
ktap=${log%.log}.ktap
mu_timeout=${MULTIUSER_TIMEOUT:-900}
timeout_s=${BOOT_TIMEOUT:-2400}
mkdir -p "$(dirname "$log")"
: >"$log"; : >"$ktap"
RELLOG=$(rel "$log")
fail() {
	echo "BOOT FAILED: $* (console log: $RELLOG)" >&2
	exit 1
}
[ -r "$kernel" ] || fail "no kernel $(rel "$kernel")"
[ -r "$disk" ] || fail "no disk image $(rel "$disk")"
accel=$("$ROOT"/scripts/accel.sh "$kernel")

# sockaddr.test_guest=1: the suites may make devices (guest/guestenv.h);
# kunit.enable=0: KUnit is make check's; the rest as scripts/boot.sh
# (the machine's console and arguments: config/arches).
append="console=$ARCH_CONSOLE root=/dev/vda rw panic=-1 $ARCH_APPEND dummy.numdummies=0 kunit.enable=0"
append+=" systemd.firstboot=off sockaddr.test_guest=1 ktap=/dev/ttyS1 suite_timeout=${SUITE_TIMEOUT:-900}"
qemu=("$ARCH_QEMU" -accel "$accel" -m "${GUEST_MEM:-2048}" -smp "${GUEST_SMP:-1}"
	-nodefaults -display none -no-reboot -serial "file:$log" -serial "file:$ktap"
	-drive "file=$disk,format=raw,if=virtio" -kernel "$kernel" -append "$append")
[ "$accel" = kvm ] && qemu+=(-cpu host)

t0=$(date +%s.%N)
timeout -k 5 "$timeout_s" "${qemu[@]}" </dev/null >"$log.qemu" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT INT TERM
since() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'; }
t_mu='' t_login='' last=0
while kill -0 "$pid" 2>/dev/null; do
	sleep 0.5
	if [ -z "$t_mu" ] && grep -a -q -E 'Reached target.*Multi-User System' "$log"; then
		t_mu=$(since)
		note "multi-user.target reached after ${t_mu}s"
	fi
	if [ -z "$t_login" ] && grep -a -q -E '^[^ ]+ login: ' "$log"; then
		t_login=$(since)
		note "login prompt on ttyS0 after ${t_login}s"
	fi
	el=$(since); el=${el%.*}
	if [ -z "$t_mu" ] && [ "$el" -ge "$mu_timeout" ]; then
		kill -TERM "$pid" 2>/dev/null
		fail "guest did not reach multi-user.target within ${mu_timeout}s under $accel: last console line: $(grep -a . "$log" | tail -1 | tr -d '\r' | cut -c1-100)"
	fi
	if [ $((el - last)) -ge 60 ]; then
		last=$el
		note "... $accel guest running ${el}s: $(grep -a -E '^ *(ok|not ok) ' "$ktap" | tail -1 | cut -c1-70)"
	fi
done
set +e
wait "$pid"; rc=$?
set -e
trap - EXIT INT TERM
dur=$(since)

if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "${dur%.*}" -ge "$timeout_s" ]; }; then
	fail "guest did not power off within ${timeout_s}s"
fi
[ "$rc" -gt 128 ] && fail "QEMU was killed by signal $((rc - 128)) after ${dur}s"
[ "$rc" != 0 ] && fail "QEMU exited with status $rc ($(head -c 200 "$log.qemu" | tr '\n' ' '))"
grep -a -q 'Kernel panic' "$log" && fail "guest panicked: $(grep -a -m1 'Kernel panic' "$log")"
[ -n "$t_mu" ] || fail "guest powered off without reaching multi-user.target"
"$ROOT"/scripts/console-check.sh "$log" || fail "console shows kernel reports (quoted above)"
grep -a -q '# init: done' "$ktap" || fail "the checks stopped before guest/init finished"
failed_units=$(grep -a -c -F 'Failed to start' "$log" || true)
note "boot to login prompt: ${t_login:-none}s (multi-user.target ${t_mu}s), powered off after ${dur}s under $accel; units failed to start: $failed_units"
