# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: QEMU and the boot judge: a QEMU killed by a signal,
# TCG arguments, the console judge, the KVM probe's fallback.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# A QEMU that dies by a signal (the KVM probe's abort under a hanging
# /dev/kvm): qemu_run gives its status, and nothing of bash's own notice,
# which names the script's path on this machine, reaches the output.
got=$(cd "$tmp" && bash -c '. "$0/scripts/lib.sh"; qemu_run 10 "$1/sig.log" "$1/sig.ktap" : bash -c "kill -ABRT \$\$"; echo "rc=$QEMU_RC"' "$ROOT" "$tmp" 2>&1)
check qemu-run-signal-quiet "$got" [ "$got" = rc=134 ]

# TCG boots' extra kernel arguments: RCU's stall timeout under any TCG
# boot, x86_64's tcg_append (config/arch) only without make bench's
# -icount, nothing under KVM.
want=$(sed -n 's/^tcg_append[[:space:]]\+//p' "$ROOT/config/arch/x86_64")
rcu=rcupdate.rcu_cpu_stall_timeout=300
got=$(ARCH=x86_64 bash -c ". '$ROOT/scripts/lib.sh'; echo \"tcg[\$(tcg_append tcg)]\" \
	\"icount[\$(QEMU_EXTRA='-icount shift=0,sleep=off' tcg_append tcg)]\" \"kvm[\$(tcg_append kvm)]\"" 2>&1)
check tcg-append-only-without-icount "$got" [ "$got" = "tcg[ $rcu $want] icount[ $rcu] kvm[]" ]

# Console judge: a sanitizer report fails and is quoted; a clean log passes.
printf 'Linux version 6.12\nBUG: KASAN: slab-out-of-bounds in x\n' >"$tmp/dirty.log"
printf 'Linux version 6.12\nreboot: Restarting system\n' >"$tmp/clean.log"
if ! "$ROOT"/scripts/console-check.sh "$tmp/dirty.log" 2>"$tmp/cc" && grep -q 'KASAN' "$tmp/cc" &&
	"$ROOT"/scripts/console-check.sh "$tmp/clean.log" 2>/dev/null; then
	result pass console-report-detected
else
	result fail console-report-detected
fi

# KVM probe: /dev/kvm present but the guest hangs -> tcg within the bound.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexec sleep 300\n' >"$tmp/bin/$ARCH_QEMU"
chmod +x "$tmp/bin/$ARCH_QEMU"
: >"$tmp/kvm"
t0=$(date +%s)
v=$(PATH="$tmp/bin:$PATH" KVM_DEV="$tmp/kvm" KVM_PROBE_TIMEOUT=3 ACCEL_CACHE="$tmp/accel" ACCEL='' \
	"$ROOT"/scripts/accel.sh /dev/null 2>/dev/null)
dt=$(( $(date +%s) - t0 ))
if [ "$v" = tcg ] && [ "$dt" -le 10 ] && ! pgrep -f "$tmp/bin/qemu" >/dev/null; then
	result pass kvm-probe-hang-falls-back-to-tcg "${dt}s"
else
	result fail kvm-probe-hang-falls-back-to-tcg "got '$v' after ${dt}s"
fi
v=$(KVM_DEV="$tmp/absent" ACCEL_CACHE="$tmp/accel2" ACCEL='' "$ROOT"/scripts/accel.sh /dev/null 2>/dev/null)
[ "$v" = tcg ] && result pass kvm-absent-uses-tcg || result fail kvm-absent-uses-tcg "got '$v'"
