#!/bin/bash
# UBSAN bounds traps as CONFIG_UBSAN_TRAP would emit them: every object
# the series touches, recompiled with the exact kbuild command of make
# check's clang-19 hardened build plus -fsanitize-trap=undefined (what
# scripts/Makefile.ubsan adds for UBSAN_TRAP), baseline and patched.
# Counts, per function, the x86 "ud1" traps with clang's out-of-bounds
# handler code (SanitizerHandler::OutOfBounds = 0x12, encoded as the
# ud1 displacement); on arm64 (ARCH=arm64) "brk #0x5512" (the pattern:
# config/arch/$ARCH, ubsan_trap).  Without UBSAN_TRAP the same sites are
# calls to __ubsan_handle_out_of_bounds, which make report counts over
# vmlinux.
#
# Usage: scripts/ud1-count.sh OUT_DIR
# Writes OUT_DIR/{baseline,patched}.ud1 ("object:function count") and
# OUT_DIR/summary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
out=$(realpath -m "$1")
B=$(objdir baseline clang) P=$(objdir patched clang)
[ -f "$B/vmlinux" ] && [ -f "$P/vmlinux" ] || die "build both clang kernels first (make check)"
grep -q '^CONFIG_UBSAN_BOUNDS=y' "$B/.config" || die "the clang build has no UBSAN_BOUNDS"
mkdir -p "$out"

# One object: recompiled to OUT/<tree>/<obj> with traps, then counted.
one() {
	local obj=$1 o=$2 dst=$3 cmd
	mkdir -p "$(dirname "$dst/$o")"
	cmd=$(kbuild_cmd "$obj" "$o" | sed -E "s| -c -o [^ ]+ | -c -o $dst/$o |")
	(cd "$obj" && eval "$cmd -fsanitize-trap=undefined" >/dev/null 2>&1) || { echo "$o: did not compile" >&2; return 1; }
	"$ARCH_OBJDUMP" -d --no-show-raw-insn "$dst/$o" |
		awk -v o="$o" '/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f) }
			$0 ~ ENVIRON["ARCH_UBSAN_TRAP"] { n[f]++ } END { for (f in n) print o ":" f, n[f] }'
}
export -f one

touched_objects | while read -r o; do
	if [ -f "$B/$o" ] && [ -f "$P/$o" ]; then echo "$o"; fi
done >"$out/objects"
n=$(wc -l <"$out/objects")
for v in baseline patched; do
	obj=$B; [ "$v" = patched ] && obj=$P
	note "$v: $n touched objects recompiled with -fsanitize-trap=undefined"
	xargs -a "$out/objects" -P "${JOBS:-$(nproc)}" -I{} bash -c 'one "$0" "$1" "$2"' "$obj" {} "$out/$v" |
		sort >"$out/$v.ud1"
done
tb=$(awk '{s += $2} END {print s + 0}' "$out/baseline.ud1")
tp=$(awk '{s += $2} END {print s + 0}' "$out/patched.ud1")
echo "ud1: $n touched objects with UBSAN_TRAP: out-of-bounds traps $tb -> $tp" | tee "$out/summary"
