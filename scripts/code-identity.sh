#!/bin/bash
# Code identity: objects compiled before and after a change (same
# compiler, same config, reproducible KBUILD_BUILD_*), compared as
# disassembly with relocations (objdump -d -r), function by function.
#   identical   the same instructions and relocations
#   constants   only immediates/relocation addends differ (__LINE__ of a
#               WARN moved by the patch, string offsets in .rodata)
#   different   instructions differ: the functions are named
#
# Usage: scripts/code-identity.sh [LOGS]   (default build/verify/check-bisect-logs)
#   per patch: every object a patch touches, compiled just before and
#   just after it by scripts/check-bisect.sh (x86_64).  One row per
#   patch x compiler x config; writes LOGS/code-identity.tsv.
# Usage: scripts/code-identity.sh --objdirs BASELINE PATCHED TSV
#   the whole series: every object it touches (lib.sh touched_objects)
#   as built in two kernel object dirs of $ARCH (make report ARCH=arm64).
#   One row, "series"; writes TSV.
# Usage: scripts/code-identity.sh --dirs BEFORE AFTER NAME COMPILER CONFIG TSV
#   every .o under AFTER against the same path under BEFORE (make
#   check-claims' breaks: one object compiled twice).  One row, NAME,
#   labelled with the COMPILER and CONFIG it was built with.
# Prints the rows, then the differing functions.  The disassembler and
# what counts as an immediate come from config/arch/$ARCH.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# dis OBJ: "function<TAB>instruction" lines, relocations folded in.
dis() {
	"$ARCH_OBJDUMP" -d -r -w --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
		/^ +[0-9a-f]+:/ && f != "" { sub(/^ +[0-9a-f]+:[ \t]*/, ""); print f "\t" $0 }'
}
# Mask immediates, addends, branch targets' offsets and the addresses
# of relocation sites: what a moved __LINE__, a string or a function
# placed elsewhere in .text changes (an immediate that needs a longer
# encoding moves every later instruction and relocation of its function,
# and with them the alignment padding: nops of another length, dropped).
mask() {
	sed -E "$ARCH_IMM_MASK"'; /\t([a-z0-9]+ )*nop[a-z]*( |$)/d; s/\b[0-9a-f]+ <([^>+]*)(\+0x[0-9a-f]+)?>/<\1>/g; s/\t[0-9a-f]+: (R_[A-Z0-9_]+)/\t\1/g; s/([+-])0x[0-9a-f]+/\1OFF/g'
}

# compare BEFORE AFTER: the objects named on stdin, each compiled in
# both dirs, compared; sets n same cons diff and funcs (the differing
# objects, "obj:function,function").
compare() {
	local before=$1 after=$2 o f
	n=0 same=0 cons=0 diff=0 funcs=()
	while read -r o; do
		[ -f "$before/$o" ] && [ -f "$after/$o" ] || continue
		n=$((n + 1))
		dis "$before/$o" >"$tmp/b"; dis "$after/$o" >"$tmp/a"
		if cmp -s "$tmp/b" "$tmp/a"; then
			same=$((same + 1))
		elif cmp -s <(mask <"$tmp/b") <(mask <"$tmp/a"); then
			cons=$((cons + 1))
		else
			diff=$((diff + 1))
			# Functions whose masked bodies differ, or exist on one side.
			mapfile -t f < <(join -t$'\t' -a1 -a2 -e '' -o 0,1.2,2.2 \
				<(mask <"$tmp/b" | awk -F'\t' '{b[$1] = b[$1] $2 ";"} END {for (k in b) print k "\t" length(b[k]) ":" b[k]}' | sort) \
				<(mask <"$tmp/a" | awk -F'\t' '{b[$1] = b[$1] $2 ";"} END {for (k in b) print k "\t" length(b[k]) ":" b[k]}' | sort) |
				awk -F'\t' '$2 != $3 {print $1}')
			funcs+=("$o:$(IFS=,; echo "${f[*]}")")
		fi
	done
}
# row PATCH COMPILER CONFIG: the counts of compare as one TSV row.
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$n" "$same" "$cons" "$diff" \
		"$(IFS=' '; echo "${funcs[*]:-}")"
}

if [ "${1:-}" = --objdirs ]; then
	[ $# = 4 ] || die "usage: code-identity.sh --objdirs BASELINE PATCHED TSV"
	base=$2 patched=$3 tsv=$4
	for d in "$base" "$patched"; do
		[ -f "$d/vmlinux" ] || die "no kernel built in $(rel "$d")"
	done
	tc=$(awk -F= '$1 ~ /^CONFIG_(CLANG|GCC)_VERSION$/ && $2 > 0 {
		print ($1 ~ /CLANG/ ? "clang-" : "gcc-") int($2 / 10000)}' "$patched/.config")
	printf 'patch\tcompiler\tconfig\tobjects\tidentical\tconstants\tdifferent\tfunctions\n' >"$tsv"
	compare "$base" "$patched" < <(touched_objects | sort)
	row series "${tc:-?}" harness >>"$tsv"
elif [ "${1:-}" = --dirs ]; then
	[ $# = 7 ] || die "usage: code-identity.sh --dirs BEFORE AFTER NAME COMPILER CONFIG TSV"
	tsv=$7
	printf 'patch\tcompiler\tconfig\tobjects\tidentical\tconstants\tdifferent\tfunctions\n' >"$tsv"
	compare "$2" "$3" < <(cd "$3" && find . -name '*.o' | sed 's|^\./||' | sort)
	row "$4" "$5" "$6" >>"$tsv"
else
	logs=${1:-$BUILD/verify/check-bisect-logs}
	[ -d "$logs/obj" ] || die "no saved objects in $(rel "$logs"): run make check-bisect first"
	tsv=$logs/code-identity.tsv
	printf 'patch\tcompiler\tconfig\tobjects\tidentical\tconstants\tdifferent\tfunctions\n' >"$tsv"
	for d in "$logs"/obj/p*; do
		tag=$(basename "$d")	# pNN-config-compiler
		IFS=- read -r pn cfg tc <<<"$tag"
		[ -d "$d/after" ] || continue
		compare "$d/before" "$d/after" < <(cd "$d/after" && find . -name '*.o' | sed 's|^\./||' | sort)
		row "$pn" "$tc" "$cfg" >>"$tsv"
	done
fi
awk -F'\t' '{printf "%-6s %-9s %-8s %8s %10s %10s %10s\n", $1, $2, $3, $4, $5, $6, $7}' "$tsv"
awk -F'\t' 'NR > 1 && $7 > 0 {print "  " $1 " " $2 "/" $3 " differing: " $8}' "$tsv"
