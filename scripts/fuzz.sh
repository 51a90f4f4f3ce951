#!/bin/bash
# Boot the patched kernel with the sockaddr fuzzer (guest/fuzz*.c) as the
# only suite and summarize the run.
#
# Usage: scripts/fuzz.sh [N] [SEED]
#   N     calls (default $FUZZ_N, else 200000)
#   SEED  PRNG seed (default $FUZZ_SEED, else 1)
# Env: KERNEL=image (default: the patched build of TOOLCHAIN), FUZZ_TIME (the
#      fuzzer's own time bound, s, default 120 + N/400), FUZZ_SELFTEST=1 (inject
#      a fake WARNING after call 100: the run must fail), FUZZ_LOG (the
#      console log, default build/logs/fuzz.log; its KTAP file and the
#      initramfs are named after it, so two runs can boot at once), FUZZ_KNOWN=1
#      (also the calls that hit known 6.12 bugs), BOOT_TIMEOUT,
#      SUITE_TIMEOUT (default: derived from FUZZ_TIME).
# Exit 0 only if the boot was clean (scripts/boot.sh: no KASAN, UBSAN,
# WARNING, BUG, Oops on the console), the fuzzer passed, it made all N
# calls and its digest equals the host's dry run of the same seed.
# The summary lists the calls per op and per set-address path
# ("path NAME calls=N ok=M"); make check requires calls on the paths
# config/fuzz-paths lists, this script does not.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

n=${1:-${FUZZ_N:-200000}}
seed=${2:-${FUZZ_SEED:-1}}
[[ $n =~ ^[0-9]+$ ]] || die "N is not a number: $n"
[[ $seed =~ ^[0-9]+$ ]] || die "SEED is not a number: $seed"
# About 2000 calls/s under TCG with KASAN: five times that, plus setup.
tbound=${FUZZ_TIME:-$((120 + n / 400))}
[[ $tbound =~ ^[0-9]+$ ]] || die "FUZZ_TIME is not a number: $tbound"
kernel=${KERNEL:-$(kernel_image "$(objdir patched "${TOOLCHAIN:-clang}")")}
[ -f "$kernel" ] || die "no kernel at $(rel "$kernel") (make run first, or KERNEL=path)"

log=${FUZZ_LOG:-$BUILD/logs/fuzz.log}
ktap=${log%.log}.ktap

stage "fuzz: guest programs"
make -s -C "$ROOT" BUILD="$BUILD" guest-bins SUITES=fuzz
cpio=$GUEST_OUT/$(basename "${log%.log}").cpio
"$ROOT"/scripts/initramfs.sh "$cpio" "$GUEST_OUT/init" "$GUEST_OUT/fuzz"
# The same calls, generated on the host: the guest must report this digest.
host_digest=$("$BUILD/guest/fuzz" --dry-run "$n" "$seed" | tail -n 1 |
	sed -n 's/^digest=\([0-9a-f]*\) .*/\1/p')
note "initramfs $(rel "$cpio"), host dry-run digest $host_digest"
stage_end

export SUITE_TIMEOUT=${SUITE_TIMEOUT:-$((tbound + 120))}
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-$((tbound + 300))}
args=(suites=fuzz "fuzz.n=$n" "fuzz.seed=$seed" "fuzz.time=$tbound")
[ "${FUZZ_SELFTEST:-0}" = 1 ] && args+=(fuzz.selftest=1)
# Calls that hit known 6.12 bugs (guest/fuzz_net.c) only when asked.
[ "${FUZZ_KNOWN:-0}" = 1 ] && args+=(fuzz.known=1)

stage "fuzz: boot $(rel "$kernel"), $n calls, seed $seed"
t0=$(date +%s)
boot_rc=0
"$ROOT"/scripts/boot.sh "$kernel" "$cpio" "$log" "${args[@]}" || boot_rc=$?
dur=$(( $(date +%s) - t0 ))
stage_end

# The fuzzer's lines, nested two spaces deep by init; the serial port
# ends lines with CR LF.
fz() { tr -d '\r' <"$ktap" | grep -a -E "^ +# fuzz: $1" | sed 's/^ *# fuzz: //' || true; }
final=$(fz 'seed=' | tail -n 1)
made=$(sed -n 's/.* calls=\([0-9]*\)\/.*/\1/p' <<<"$final")
digest=$(sed -n 's/.* digest=\([0-9a-f]*\) .*/\1/p' <<<"$final")
reports=$(sed -n 's/.* reports=\([0-9]*\) .*/\1/p' <<<"$final")
ftime=$(sed -n 's/.* time=\([0-9]*\)s.*/\1/p' <<<"$final")
rate=$(sed -n 's/.* rate=\([0-9]*\)\/s.*/\1/p' <<<"$final")
# A run stopped early is checked against a dry run of as many calls.
if [[ ${made:-} =~ ^[0-9]+$ ]] && [ "$made" != "$n" ]; then
	host_digest=$("$BUILD/guest/fuzz" --dry-run "$made" "$seed" | tail -n 1 |
		sed -n 's/^digest=\([0-9a-f]*\) .*/\1/p')
fi
console=$(report_lines "$log" | wc -l)
fuzz_ok=0
# grep without -q reads to the end: no SIGPIPE for tr under pipefail.
if tr -d '\r' <"$ktap" | grep -a -E '^ +ok 1 fuzz$' >/dev/null; then fuzz_ok=1; fi

echo "fuzz summary"
note "seed:            $seed"
note "calls:           ${made:-?} made of $n requested"
note "digest:          ${digest:-?} (host dry run of ${made:-$n}: $host_digest$( [ "$digest" = "$host_digest" ] && echo ', same' || echo ', DIFFERENT'))"
note "kernel reports:  ${reports:-?} seen by the fuzzer, $console report lines on the console"
note "time:            ${ftime:-?}s fuzzing (${rate:-?} calls/s), ${dur}s boot in all"
fz 'op ' | sed 's/^/    /'
# Calls per set-address path; make check judges them (config/fuzz-paths).
fz 'path ' | sed 's/^/    /'
note "logs:            $(rel "$log"), $(rel "$ktap")"

fail=()
[ "$boot_rc" = 0 ] || fail+=("boot failed (see above)")
[ "$fuzz_ok" = 1 ] || fail+=("the fuzzer did not pass")
[ "${made:-}" = "$n" ] || fail+=("${made:-no} calls made, $n requested")
[ -z "${made:-}" ] || [ "$digest" = "$host_digest" ] ||
	fail+=("digest differs from the host dry run: calls are not deterministic")
if [ ${#fail[@]} -eq 0 ]; then
	echo "fuzz: PASS ($n calls, seed $seed)"
	exit 0
fi
echo "fuzz: FAIL, seed $seed:"
printf '  %s\n' "${fail[@]}"
fz 'kernel report' | sed 's/^/  /'
fz 'time bound' | sed 's/^/  /'
last=$(fz 'last call')
if [ -n "$last" ]; then
	while IFS= read -r l; do echo "  $l"; done <<<"$last"
else
	note "no last-call lines (the guest died or was killed); last progress: $(fz '[0-9]*/' | tail -n 1)"
	note "replay the calls with: $(rel "$BUILD")/guest/fuzz --dry-run $n $seed"
fi
exit 1
