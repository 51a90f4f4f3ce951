#!/bin/bash
# Layout of every struct that embeds a struct sockaddr, baseline vs
# patched (goal: no size changes).  The harness kernels carry no DWARF,
# so the objects the series touches are recompiled, with the exact
# kbuild command plus -g, into OUT_DIR, and read with pahole -E (which
# expands embedded structs, so nested and union members count too).
#
# Usage: scripts/pahole-sockaddr.sh OUT_DIR
# Writes OUT_DIR/layout.tsv: struct, baseline size, patched size,
# struct sockaddr members (union alternatives included); prints it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$1
mkdir -p "$out"
B=$(objdir baseline clang) P=$(objdir patched clang)
[ -f "$B/vmlinux" ] && [ -f "$P/vmlinux" ] || die "build both clang kernels first (make check)"

touched_objects |
	while read -r o; do
		c=$(dirname "$o")/.$(basename "$o").cmd
		if [ -f "$B/$c" ] && [ -f "$P/$c" ]; then echo "$o"; fi
	done >"$out/objects"

# one OBJDIR OBJ DEST: recompile with -g (DWARF 4: what pahole 1.24 reads best).
one() {
	local obj=$1 o=$2 dest=$3 cmd
	cmd=$(kbuild_cmd "$obj" "$o" | sed -E "s| -c -o [^ ]+ | -g -gdwarf-4 -c -o $dest/${o//\//_} |")
	(cd "$obj" && eval "$cmd" >/dev/null 2>&1) || echo "  $o: recompile failed" >&2
}
export -f one

for v in baseline patched; do
	obj=$B; [ "$v" = patched ] && obj=$P
	mkdir -p "$out/$v"
	note "$v: $(wc -l <"$out/objects") objects recompiled with -g"
	xargs -a "$out/objects" -P "${JOBS:-$(nproc)}" -I{} bash -c 'one "$0" "$1" "$2"' "$obj" {} "$out/$v"
	# Top-level structs whose expansion holds "struct sockaddr {".
	for f in "$out/$v"/*.o; do pahole -E "$f" 2>/dev/null || true; done | awk '
		/^struct [A-Za-z0-9_]+ \{$/ { name = $2; inblk = 1; n = 0; next }
		inblk && /struct sockaddr \{/ { n++ }
		inblk && /^\t\/\* size: / { size = $3; sub(",", "", size) }
		inblk && /^\};/ { if (n) print name "\t" size "\t" n; inblk = 0 }' |
		sort -u -t$'\t' -k1,1 >"$out/$v.tsv"
done
join -t$'\t' -a1 -a2 -e - -o 0,1.2,2.2,1.3 "$out/baseline.tsv" "$out/patched.tsv" >"$out/layout.tsv"
changed=$(awk -F'\t' '$2 != $3' "$out/layout.tsv" | wc -l)
echo "pahole: $(wc -l <"$out/layout.tsv") structs embed struct sockaddr; $changed change size"
