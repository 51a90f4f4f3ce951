#!/bin/bash
# Code identity per patch: every object a patch touches, compiled just
# before and just after it by scripts/check-bisect.sh (same compiler,
# same config, reproducible KBUILD_BUILD_*), compared as disassembly with
# relocations (objdump -d -r), function by function.
#   identical   the same instructions and relocations
#   constants   only immediates/relocation addends differ (__LINE__ of a
#               WARN moved by the patch, string offsets in .rodata)
#   different   instructions differ: the functions are named
#
# Usage: scripts/code-identity.sh [LOGS]   (default build/verify/check-bisect-logs)
# Prints one row per patch x compiler x config, then the differing
# functions; writes LOGS/code-identity.tsv.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
logs=${1:-$BUILD/verify/check-bisect-logs}
[ -d "$logs/obj" ] || die "no saved objects in $(rel "$logs"): run make check-bisect first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# dis OBJ: "function<TAB>instruction" lines, relocations folded in.
dis() {
	objdump -d -r -w --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); next }
		/^ +[0-9a-f]+:/ && f != "" { sub(/^ +[0-9a-f]+:[ \t]*/, ""); print f "\t" $0 }'
}
# Mask immediates, addends and branch targets' offsets: what a moved
# __LINE__, a string or a function placed elsewhere in .text changes.
mask() {
	sed -E 's/\$0x[0-9a-f]+/$IMM/g; s/\b[0-9a-f]+ <([^>+]*)(\+0x[0-9a-f]+)?>/<\1>/g; s/([+-])0x[0-9a-f]+/\1OFF/g'
}

printf 'patch\tcompiler\tconfig\tobjects\tidentical\tconstants\tdifferent\tfunctions\n' >"$logs/code-identity.tsv"
for d in "$logs"/obj/p*; do
	tag=$(basename "$d")	# pNN-config-compiler
	IFS=- read -r pn cfg tc <<<"$tag"
	[ -d "$d/after" ] || continue
	n=0 same=0 cons=0 diff=0 funcs=()
	while read -r o; do
		[ -f "$d/before/$o" ] || continue
		n=$((n + 1))
		dis "$d/before/$o" >"$tmp/b"; dis "$d/after/$o" >"$tmp/a"
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
	done < <(cd "$d/after" && find . -name '*.o' | sed 's|^\./||' | sort)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pn" "$tc" "$cfg" "$n" "$same" "$cons" "$diff" \
		"$(IFS=' '; echo "${funcs[*]:-}")" >>"$logs/code-identity.tsv"
done
awk -F'\t' '{printf "%-6s %-9s %-8s %8s %10s %10s %10s\n", $1, $2, $3, $4, $5, $6, $7}' "$logs/code-identity.tsv"
awk -F'\t' 'NR > 1 && $7 > 0 {print "  " $1 " " $2 "/" $3 " differing: " $8}' "$logs/code-identity.tsv"
