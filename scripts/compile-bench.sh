#!/bin/bash
# make compile-bench: what the compilers' malloc on transparent huge
# pages saves (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which lib.sh sets
# for every program the harness starts), measured side by side in one run.
# A sample of the built baseline kernel's objects is recompiled from
# kbuild's own commands (.*.o.cmd, without ccache), each object under
# both settings in alternating order, for ROUNDS rounds; prints the
# summed wall, user and system time of each setting and checks that each
# object comes out byte-identical under both (the setting may change how
# fast the compiler runs, never what it writes).
# A report: it fails only if an object differs or does not compile.
#
# Usage: scripts/compile-bench.sh   (OBJECTS=40 ROUNDS=2 TOOLCHAIN=clang|gcc)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
# What lib.sh set (plus any tunables of the caller's), against nothing.
harness=$GLIBC_TUNABLES
n=${OBJECTS:-40} rounds=${ROUNDS:-2}
obj=$(objdir baseline "$tc")
[ -f "$obj/vmlinux" ] || die "no baseline kernel for $tc: run make check (or TOOLCHAIN=$tc make check) first"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
[ "$thp" = never ] && note "transparent huge pages are off on this machine ([never]): both settings are the same"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$BUILD/compile-bench.md

# The sample: every k-th C object whose kbuild command is one compile
# through ccache, in name order, so that two runs take the same objects.
mapfile -t objs < <(cd "$obj" && find . -name '.*.o.cmd' | LC_ALL=C sort |
	xargs grep -l -m1 '^savedcmd_.* := ccache .* -c -o ' | sed -E 's|^\./(.*/)?\.(.*)\.cmd$|\1\2|')
[ "${#objs[@]}" -gt 0 ] || die "no compile commands in $(rel "$obj")"
step=$(((${#objs[@]} + n - 1) / n))
stage "compile-bench: $n of ${#objs[@]} objects of $(rel "$obj"), $rounds rounds x {glibc default, $harness}"

# compile OBJ SETTING: OBJ recompiled (lib.sh kbuild_cmd) into
# $tmp/SETTING.o; appends "wall user sys" to $tmp/SETTING.times.
compile() {
	local cmd
	cmd=$(kbuild_cmd "$obj" "$1" | sed -E "s| -c -o [^ ]+ | -c -o $tmp/$2.o |")
	local TIMEFORMAT='%R %U %S' tunables=
	[ "$2" = harness ] && tunables=$harness
	{ time (cd "$obj" && GLIBC_TUNABLES=$tunables bash -c "$cmd" 2>/dev/null); } 2>>"$tmp/$2.times" ||
		die "$1 did not compile"
}

same=0 total=0
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < ${#objs[@]}; i += step)); do
		# Alternate which setting goes first, so neither always gets a
		# warm page cache.
		if (((i / step + r) % 2)); then order=(default harness); else order=(harness default); fi
		for s in "${order[@]}"; do compile "${objs[i]}" "$s"; done
		total=$((total + 1))
		cmp -s "$tmp/default.o" "$tmp/harness.o" && same=$((same + 1)) ||
			echo "DIFFERS: ${objs[i]}" >&2
	done
	note "round $r of $rounds done"
done
stage_end

{
	echo "# compile-bench: $((total / rounds)) objects of $(rel "$obj"), $rounds rounds (THP: ${thp:-unknown})"
	echo
	printf '| %-30s | %8s | %8s | %8s | %8s |\n' "malloc" "wall s" "user s" "sys s" "cpu s"
	echo "|--------------------------------|----------|----------|----------|----------|"
	for s in default harness; do
		label="glibc default"
		[ "$s" = harness ] && label=$harness
		awk -v s="$label" '{w += $1; u += $2; y += $3}
			END {printf "| %-30s | %8.1f | %8.1f | %8.1f | %8.1f |\n", s, w, u, y, u + y}' "$tmp/$s.times"
	done
	paste "$tmp/default.times" "$tmp/harness.times" | awk '{w0 += $1; w1 += $4; c0 += $2 + $3; c1 += $5 + $6}
		END {printf "\nthe harness'"'"'s setting against glibc'"'"'s default: wall %+.1f%%, cpu %+.1f%%\n", 100 * (w1 - w0) / w0, 100 * (c1 - c0) / c0}'
	echo "objects byte-identical under both: $same of $total"
} | tee "$out"
note "written to $(rel "$out")"
[ "$same" = "$total" ]
