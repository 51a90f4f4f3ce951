#!/bin/bash
# make check-debian: boot a packaged kernel with the Debian 12 disk of
# scripts/debian-image.sh in QEMU (accelerator as scripts/accel.sh
# decides), systemd as PID 1.  Prints the time to multi-user.target and
# to the login prompt on the console; sockaddr-check.service then runs the
# checks (KTAP on the second channel, config/arch) and powers the guest off.
#
# Usage: scripts/debian-boot.sh KERNEL DISK LOG
# LOG gets the console (config/arch: ttyS0); the KTAP goes to LOG minus .log plus .ktap.
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
boot_verdict "$log" "BOOT FAILED: the boot script did not end (killed or stopped)"
RELLOG=$(rel "$log")
fail() {
	boot_verdict "$log" "BOOT FAILED: $* (console log: $RELLOG)"
	echo "BOOT FAILED: $* (console log: $RELLOG)" >&2
	exit 1
}
[ -r "$kernel" ] || fail "no kernel $(rel "$kernel")"
[ -r "$disk" ] || fail "no disk image $(rel "$disk")"
accel=$("$ROOT"/scripts/accel.sh "$kernel")

# The arguments of every test boot (lib.sh boot_append), plus:
# sockaddr.test_guest=1: the suites may make devices (guest/guestenv.h);
# kunit.enable=0: KUnit is make check's.
append="$(boot_append "$accel") root=/dev/vda rw kunit.enable=0 systemd.firstboot=off sockaddr.test_guest=1"
qemu_argv "$accel" "$log" "$kernel" "$append" -drive "file=$disk,format=raw,if=virtio"

# Every half second: has the guest reached multi-user.target, the login
# prompt; give up when multi-user.target takes longer than MULTIUSER_TIMEOUT.
t_mu='' t_login=''
watch_boot() {
	if [ -z "$t_mu" ] && grep -a -q -E 'Reached target.*Multi-User System' "$log"; then
		t_mu=$1
		note "multi-user.target reached after ${t_mu}s"
	fi
	if [ -z "$t_login" ] && grep -a -q -E '^[^ ]+ login: ' "$log"; then
		t_login=$1
		note "login prompt on $ARCH_CONSOLE after ${t_login}s"
	fi
	if [ -z "$t_mu" ] && [ "${1%.*}" -ge "$mu_timeout" ]; then
		kill -TERM "$QEMU_PID" 2>/dev/null
		fail "guest did not reach multi-user.target within ${mu_timeout}s under $accel: last console line: $(grep -a . "$log" | tail -1 | tr -d '\r' | cut -c1-100)"
	fi
}
qemu_run "$timeout_s" "$log" "$ktap" watch_boot "${QEMU_ARGV[@]}"
rc=$QEMU_RC dur=$QEMU_DUR

why=$(qemu_judge "$rc" "$dur" "$timeout_s" "$log")
[ -z "$why" ] || fail "$why"
[ -n "$t_mu" ] || fail "guest powered off without reaching multi-user.target"
"$ROOT"/scripts/console-check.sh "$log" || fail "console shows kernel reports (quoted above)"
grep -a -q '# init: done' "$ktap" || fail "the checks stopped before guest/init finished"
failed_units=$(grep -a -c -F 'Failed to start' "$log" || true)
note "boot to login prompt: ${t_login:-none}s (multi-user.target ${t_mu}s), powered off after ${dur}s under $accel; units failed to start: $failed_units"
# A unit that failed to start is a boot that did not do its work.
[ "$failed_units" = 0 ] ||
	fail "$failed_units unit(s) failed to start: $(grep -a -F 'Failed to start' "$log" | head -3 | tr -d '\r' | sed 's/.*Failed to start //' | tr '\n' ';')"
boot_verdict "$log"
