#!/bin/bash
# make report (partial): baseline vs patched measurements on the kernels
# make check builds (clang-19 hardened config), side by side in one run.
# Writes build/report.md and prints it.
#   - size: scripts/bloat-o-meter on vmlinux
#   - UBSAN bounds sites: calls to __ubsan_handle_out_of_bounds, by function
#   - FORTIFY field-spanning memcpy sites: references to the WARN format
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
t0=$(date +%s)
out=$BUILD/report.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for v in baseline patched; do
	[ -f "$(objdir "$v" "$tc")/vmlinux" ] || die "no $v vmlinux: run make check first"
done
B=$(objdir baseline "$tc")/vmlinux P=$(objdir patched "$tc")/vmlinux

stage "disassemble vmlinux (baseline + patched)"
for v in baseline patched; do
	objdump -d --no-show-raw-insn "$(objdir "$v" "$tc")/vmlinux" >"$tmp/$v.dis" &
done
wait
stage_end

# count_by_function DIS PATTERN: "function count" for lines matching.
count_by_function() {
	awk -v pat="$2" '/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f) }
		$0 ~ pat { n[f]++ } END { for (f in n) print f, n[f] }' "$1" | sort
}

# The addresses of every copy of a string in vmlinux, as objdump prints
# them in operands.
string_addr() {
	python3 - "$1" "$2" <<'PY'
import sys, subprocess
path, needle = sys.argv[1], sys.argv[2].encode()
data = open(path, 'rb').read()
hdr = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True).stdout
secs = []
for line in hdr.splitlines():
    f = line.replace('[ ', '[').split()
    if len(f) > 6 and f[0].startswith('[') and f[2] == 'PROGBITS':
        secs.append((int(f[3], 16), int(f[4], 16), int(f[5], 16)))
# every copy: each object file keeps its own format strings
off = data.find(needle)
while off >= 0:
    start = data.rfind(b'\0', 0, off) + 1
    for addr, foff, size in secs:
        if foff <= start < foff + size:
            print('%x' % (addr + start - foff))
    off = data.find(needle, off + 1)
PY
}

{
echo "# make report (partial): baseline vs patched, $tc"
echo
echo "Tree: Linux $(cat "$BUILD/kernelversion"), linux-source-6.12 $(cat "$BUILD/linux/.pkgver"); series: $(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches."
echo "Config: harness config (tinyconfig + config/*.config), UBSAN_BOUNDS, FORTIFY_SOURCE, KASAN; $(clang-19 --version | head -1)."
echo
echo "## Size (scripts/bloat-o-meter, vmlinux)"
echo
echo "The patched kernel also carries the KUnit suite of patch 15 (CONFIG_SOCKADDR_KUNIT_TEST), so its symbols and strings appear as additions."
echo
echo '```'
"$BUILD/src-baseline/scripts/bloat-o-meter" "$B" "$P" >"$tmp/bloat"
head -60 "$tmp/bloat"
echo '```'
echo
echo "## UBSAN bounds check sites (calls to __ubsan_handle_out_of_bounds)"
echo
for v in baseline patched; do
	count_by_function "$tmp/$v.dis" 'call.*<__ubsan_handle_out_of_bounds>' >"$tmp/$v.ubsan"
done
nb=$(awk '{s += $2} END {print s + 0}' "$tmp/baseline.ubsan")
np=$(awk '{s += $2} END {print s + 0}' "$tmp/patched.ubsan")
echo "| | baseline | patched | delta |"
echo "|---|---|---|---|"
echo "| sites in vmlinux | $nb | $np | $((np - nb)) |"
echo
echo "Functions whose count changed (function: baseline -> patched):"
echo
join -a1 -a2 -e 0 -o 0,1.2,2.2 "$tmp/baseline.ubsan" "$tmp/patched.ubsan" |
	awk '$2 != $3 { printf "- `%s`: %d -> %d\n", $1, $2, $3; c++ } END { if (!c) print "- none" }'
echo
echo "## FORTIFY field-spanning memcpy sites (references to the WARN format)"
echo
for v in baseline patched; do
	a=$(string_addr "$(objdir "$v" "$tc")/vmlinux" "field-spanning write" | paste -sd'|')
	if [ -n "$a" ]; then
		count_by_function "$tmp/$v.dis" "$a" >"$tmp/$v.fort"
	else
		: >"$tmp/$v.fort"
	fi
done
nb=$(awk '{s += $2} END {print s + 0}' "$tmp/baseline.fort")
np=$(awk '{s += $2} END {print s + 0}' "$tmp/patched.fort")
echo "| | baseline | patched | delta |"
echo "|---|---|---|---|"
echo "| sites in vmlinux | $nb | $np | $((np - nb)) |"
echo
echo "Functions whose count changed:"
echo
join -a1 -a2 -e 0 -o 0,1.2,2.2 "$tmp/baseline.fort" "$tmp/patched.fort" |
	awk '$2 != $3 { printf "- `%s`: %d -> %d\n", $1, $2, $3; c++ } END { if (!c) print "- none" }'
echo
echo "Not measured here yet: per-patch code identity (objdiff), gcc-12 builds, the -Wgnu-variable-sized-type-not-at-end count, pahole layouts (the harness config has no DWARF), the speed benchmark."
echo
echo "Report time: $(( $(date +%s) - t0 ))s."
} >"$out"
cat "$out"
