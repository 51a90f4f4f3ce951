#!/bin/bash
# The warning that motivated the series: clang-19's
# -Wgnu-variable-sized-type-not-at-end, appended after the kernel's own
# -Wno-gnu, on the baseline and the patched tree.  Each object is
# re-parsed with the exact command kbuild used for it (from its .o.cmd),
# with -fsyntax-only, so the built objects are not touched.  A warning
# is counted once per header location, however many objects include it.
#
# Usage: scripts/wgnu-count.sh OUT_DIR [touched|all]
#   touched (default): the .c files the series changes that the harness
#   config builds; all: every C object of the harness build (slow:
#   about 1.7 s of CPU per object and tree).
# Writes OUT_DIR/{baseline,patched}.warn and OUT_DIR/by-type.tsv
# (type, baseline count, patched count); prints a summary, also kept in
# OUT_DIR/summary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$1 scope=${2:-touched}
mkdir -p "$out"
B=$(objdir baseline clang) P=$(objdir patched clang)
[ -f "$B/vmlinux" ] && [ -f "$P/vmlinux" ] || die "build both clang kernels first (make check)"

# Objects present in both builds.
case "$scope" in
touched)
	touched_objects ;;
all)
	(cd "$B" && find . -name '.*.o.cmd' | sed -E 's|^\./||; s|(^\|/)\.([^/]*)\.cmd$|\1\2|') ;;
*) die "scope must be touched or all" ;;
esac | while read -r o; do
	c=$(dirname "$o")/.$(basename "$o").cmd
	if [ -f "$B/$c" ] && [ -f "$P/$c" ] && grep -q -E ' -c -o .*\.c *(;|$)' "$B/$c"; then echo "$o"; fi
done | sort -u >"$out/objects"
n=$(wc -l <"$out/objects")
[ "$n" -gt 0 ] || die "no objects to check"

# One object: its compile command, minus ccache, dep file and output,
# plus -fsyntax-only and the warning (last, so it beats -Wno-gnu).
one() {
	local obj=$1 o=$2 cmd
	cmd=$(kbuild_cmd "$obj" "$o" | sed -E 's/ -c -o [^ ]+ / -fsyntax-only /')
	(cd "$obj" && eval "$cmd -Wgnu-variable-sized-type-not-at-end" 2>&1 |
		grep -a --line-buffered 'Wgnu-variable-sized-type-not-at-end' || true)
}
export -f one

for v in baseline patched; do
	obj=$B; [ "$v" = patched ] && obj=$P
	note "$v: $n objects ($scope), -fsyntax-only"
	xargs -a "$out/objects" -P "${JOBS:-$(nproc)}" -I{} bash -c 'one "$0" "$1"' "$obj" {} |
		sed -E 's/^(\.\.\/)+//' | sort -u >"$out/$v.warn"
done

# "struct sockaddr" itself, and every type whose warnings the series
# removes (structs and unions that embed one, such as struct ifreq).
type_of() { sed -nE "s/.*with variable sized type '([^']+)'.*/\1/p" "$1" | sort | uniq -c | awk '{c=$1; $1=""; sub(/^ /, ""); print $0 "\t" c}' | sort -t$'\t' -k1,1; }
join -t$'\t' -a1 -a2 -e 0 -o 0,1.2,2.2 <(type_of "$out/baseline.warn") <(type_of "$out/patched.warn") >"$out/by-type.tsv"
tb=$(wc -l <"$out/baseline.warn") tp=$(wc -l <"$out/patched.warn")
sb=$(awk -F'\t' '$1 == "struct sockaddr" || $3 == 0 {s += $2} END {print s + 0}' "$out/by-type.tsv")
sp=$(awk -F'\t' '$1 == "struct sockaddr" || $3 == 0 {s += $3} END {print s + 0}' "$out/by-type.tsv")
echo "wgnu: $n objects ($scope): all warnings $tb -> $tp; struct sockaddr or embedding it: $sb -> $sp" | tee "$out/summary"
