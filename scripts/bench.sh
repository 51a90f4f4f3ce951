#!/bin/bash
# make bench: the sockaddr_bench guest program on the baseline and the
# patched kernel, booted alternately (baseline, patched, baseline, ...)
# for ROUNDS rounds, one guest at a time so that both see the same host.
# Prints, per op, the median ns/call of each kernel, the ratio
# patched/baseline and its spread (min..max of the per-round ratios).
# A report: it fails only if a guest does not run.  Written to
# build/bench.md as well.
#
# Under TCG the guest's wall clock follows the host's load (about +-30%
# between boots here), so by default the guests run with QEMU's
# -icount shift=0: the virtual clock then advances 1 ns per guest
# instruction, and "ns per call" is the number of instructions a call
# executes, repeatable to well under 1%.  It measures path length, not
# cache or pipeline effects.  ICOUNT=0 times the host's clock instead.
#
# Usage: scripts/bench.sh   (ROUNDS=3 BENCH_MS=500 ICOUNT=1 TOOLCHAIN=clang|gcc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
rounds=${ROUNDS:-3} ms=${BENCH_MS:-500}
accel=$("$ROOT"/scripts/accel.sh "$(kernel_image "$(objdir baseline "$tc")")")
# sleep=off: idle guest time costs nothing (boot waits on timers).
qextra='' clock="host time"
if [ "$accel" = tcg ] && [ "${ICOUNT:-1}" = 1 ]; then
	qextra="-icount shift=0,sleep=off" clock="guest instructions (QEMU -icount shift=0: 1 ns = 1 instruction)"
fi
t0=$(date +%s)
dir=$BUILD/logs/bench
mkdir -p "$dir"
rm -f "$dir"/*.ktap "$dir"/*.log

for v in baseline patched; do
	[ -f "$(kernel_image "$(objdir "$v" "$tc")")" ] ||
		die "no $v kernel for $tc: run make check (or TOOLCHAIN=$tc make check) first"
done
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/guest/init" "$BUILD/guest/sockaddr_bench"
"$ROOT"/scripts/initramfs.sh "$BUILD/guest/bench.cpio" "$BUILD/guest/init" "$BUILD/guest/sockaddr_bench"

stage "bench: $rounds rounds x {baseline, patched}, at least ${ms} ms per op, $tc"
for r in $(seq 1 "$rounds"); do
	for v in baseline patched; do
		log=$dir/$v-$r.log
		# kunit.enable=0: no KUnit at boot, only the benchmark runs.
		QEMU_EXTRA=$qextra "$ROOT"/scripts/boot.sh "$(kernel_image "$(objdir "$v" "$tc")")" \
			"$BUILD/guest/bench.cpio" "$log" suites=sockaddr_bench \
			bench.ms="$ms" kunit.enable=0 >"$dir/$v-$r.out" 2>&1 ||
			{ cat "$dir/$v-$r.out" >&2; die "bench boot $v round $r failed"; }
		note "round $r $v: $(grep -c '# bench .*ns_per_call' "${log%.log}.ktap") ops"
	done
done
stage_end

# rows: op kernel round ns
for f in "$dir"/*.ktap; do
	b=$(basename "$f" .ktap)
	sed -n "s/^ *# bench \([a-z0-9_]*\): ns_per_call=\([0-9]*\).*/\1 ${b%-*} ${b##*-} \2/p" "$f"
done >"$dir/rows"

{
echo "# make bench: baseline vs patched ($tc, $accel, clock: $clock, $rounds rounds, at least ${ms} ms per op, guest clocksource $(sed -n 's/^ *# bench clocksource: //p' "$dir/baseline-1.ktap" | tr -d '\r'))"
echo
echo "Medians of ns per call; ratio = patched / baseline of the medians; spread = min..max of the per-round ratios."
echo
echo "| op | baseline ns | patched ns | ratio | spread |"
echo "|---|---|---|---|---|"
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$1, $2, $3] = $4; ops[$1] = 1; if ($3 > R) R = $3 }
END {
	for (o in ops) {
		nb = np = 0; lo = 1e9; hi = 0
		for (r = 1; r <= R; r++) {
			if ((o, "baseline", r) in v) b[++nb] = v[o, "baseline", r]
			if ((o, "patched", r) in v) p[++np] = v[o, "patched", r]
			if ((o, "baseline", r) in v && (o, "patched", r) in v) {
				q = v[o, "patched", r] / v[o, "baseline", r]
				if (q < lo) lo = q; if (q > hi) hi = q
			}
		}
		if (!nb || !np) { printf "| %s | - | - | - | - |\n", o; continue }
		mb = median(b, nb); mp = median(p, np)
		printf "| %s | %d | %d | %.3f | %.3f..%.3f |\n", o, mb, mp, mp / mb, lo, hi
	}
}' "$dir/rows" | sort >"$dir/table"
cat "$dir/table"
awk -F' [|] ' '$4 ~ /^[0-9.]+$/ { s += log($4); n++ }
	END { if (n) printf "| geometric mean of ratios | | | %.3f | |\n", exp(s / n) }' "$dir/table"
echo
echo "Bench time: $(( $(date +%s) - t0 ))s. Rerun: make bench ROUNDS=$rounds BENCH_MS=$ms ICOUNT=${ICOUNT:-1}."
} >"$BUILD/bench.md"
cat "$BUILD/bench.md"
