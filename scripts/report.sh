#!/bin/bash
# make report: the series' claims measured on this tree, baseline vs
# patched, side by side in one run.  Writes build/report.md, prints it,
# and regenerates the cover letter's verification paragraph from it.
#   1. code identity per patch      (scripts/code-identity.sh, from the
#                                    objects make check-bisect keeps)
#   2. UBSAN bounds / FORTIFY field-spanning sites, vmlinux + touched objects
#   3. -Wgnu-variable-sized-type-not-at-end (scripts/wgnu-count.sh)
#   4. size: bloat-o-meter (clang-19, gcc-12) and pahole layouts
#   5. speed: make bench (scripts/bench.sh; BENCH=0 skips it)
#   6. the cover letter paragraph
# Needs the clang kernels of make check; builds the gcc-12 pair itself.
#
# make report ARCH=arm64 (config/arch/): the same measurements on the
# clang kernels of make check-arm64, in build/report-arm64.md: code
# identity of the whole series (scripts/code-identity.sh --objdirs),
# sites, touched -Wgnu, bloat-o-meter and pahole.  The per-patch
# objects, the gcc-12 pair, the whole-build -Wgnu count, make bench and
# the cover letter are x86_64's: named, not built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
t0=$(date +%s)
R=$BUILD/report$ARCH_SUFFIX
out=$BUILD/report$ARCH_SUFFIX.md
mkdir -p "$R"
# config/arch's report field: "full" (x86_64: every section, the gcc
# kernels, the bench, the cover paragraph) or "series" (the clang
# kernels' sections only).
primary=no
if [ "$ARCH_REPORT" = full ]; then primary=yes; fi

for v in baseline patched; do
	[ -f "$(objdir "$v" clang)/vmlinux" ] || die "no $v clang vmlinux: run make check ARCH=$ARCH_NAME first"
done
if [ "$primary" = yes ]; then
	for v in baseline patched; do
		"$ROOT"/scripts/build.sh "$BUILD/src-$v" "$(objdir "$v" gcc)" gcc >"$R/build-gcc-$v.log" 2>&1 ||
			{ cat "$R/build-gcc-$v.log"; die "gcc-12 $v build failed"; }
	done
fi

# page_refs: for an arch whose code builds an address from a page
# (ARCH_PAGE_ADDR: arm64's adrp) and an add of its low 12 bits, append
# "//= ADDRESS" to each add that completes one (and to adr, one
# instruction), so that an address is found in the line as on x86.
# Within a function, in address order: the page last loaded into the
# add's source register.
page_refs() {
	awk -v op="$ARCH_PAGE_ADDR" '
		function hex(h,   i, n) {
			n = 0
			for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return n
		}
		/^[0-9a-f]+ <.*>:$/ { split("", page) }
		$2 == op { r = $3; sub(/,$/, "", r); page[r] = $4 }
		$2 == "adr" && $4 ~ /^[0-9a-f]+$/ { $0 = $0 "\t//= " $4 }
		$2 == "add" && NF == 5 && $5 ~ /^#/ {
			d = $3; r = $4; sub(/,$/, "", d); sub(/,$/, "", r)
			if (r in page) {
				imm = substr($5, 2); lo = imm ~ /^0x/ ? hex(substr(imm, 3)) : imm + 0
				p = page[r]
				if (lo < 4096) $0 = $0 "\t//= " substr(p, 1, length(p) - 3) sprintf("%03x", lo)
			}
			if (d == r) delete page[r]
		}
		{ print }'
}

stage "disassemble vmlinux (baseline + patched, clang-19)"
for v in baseline patched; do
	if [ -n "$ARCH_PAGE_ADDR" ]; then
		"$ARCH_OBJDUMP" -d -r --no-show-raw-insn "$(objdir "$v" clang)/vmlinux" | page_refs >"$R/$v.dis" &
	else
		"$ARCH_OBJDUMP" -d -r --no-show-raw-insn "$(objdir "$v" clang)/vmlinux" >"$R/$v.dis" &
	fi
done
wait
stage_end

# count_by_function DIS PATTERN: "function count" for lines matching.
count_by_function() {
	awk -v pat="$2" '/^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f) }
		$0 ~ pat { n[f]++ } END { for (f in n) print f, n[f] }' "$1" | sort
}

# The addresses of every copy of a string in vmlinux, as objdump prints
# them in operands (each object file keeps its own format strings).
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
off = data.find(needle)
while off >= 0:
    start = data.rfind(b'\0', 0, off) + 1
    for addr, foff, size in secs:
        if foff <= start < foff + size:
            print('%x' % (addr + start - foff))
    off = data.find(needle, off + 1)
PY
}

# sites_table NAME BASEFILE PATCHFILE: totals and the changed functions.
sites_table() {
	local nb np
	nb=$(awk '{s += $2} END {print s + 0}' "$2") np=$(awk '{s += $2} END {print s + 0}' "$3")
	echo "| $1 | $nb | $np | $((np - nb)) |"
}
# type_table BY_TYPE_TSV: wgnu-count.sh's per-type counts as markdown.
type_table() {
	echo "| variable-sized type | baseline | patched |"
	echo "|---|---|---|"
	awk -F'\t' '{printf "| `%s` | %s | %s |\n", $1, $2, $3}' "$1"
}
changed_functions() {
	join -a1 -a2 -e 0 -o 0,1.2,2.2 "$1" "$2" |
		awk '$2 != $3 { printf "- `%s`: %d -> %d\n", $1, $2, $3; c++ } END { if (!c) print "- none" }'
}

stage "bounds-check sites"
for v in baseline patched; do
	count_by_function "$R/$v.dis" "$ARCH_CALL.*<__ubsan_handle_out_of_bounds>" >"$R/$v.ubsan"
	# __fortify_panic() since 6.9; 6.1's FORTIFY calls fortify_panic().
	count_by_function "$R/$v.dis" "$ARCH_CALL.*<_*fortify_panic>" >"$R/$v.fpanic"
	a=$(string_addr "$(objdir "$v" clang)/vmlinux" "field-spanning write" | paste -sd'|')
	# arm64: the addresses page_refs resolved.
	if [ -n "$a" ] && [ -n "$ARCH_PAGE_ADDR" ]; then a="//= ($a)\$"; fi
	if [ -n "$a" ]; then count_by_function "$R/$v.dis" "$a" >"$R/$v.fort"; else : >"$R/$v.fort"; fi
	# Touched objects: relocations naming the handler; FORTIFY's WARN
	# format string, once per object that has one.
	o=$(objdir "$v" clang)
	touched_objects |
		while read -r f; do
			[ -f "$o/$f" ] || continue
			u=$("$ARCH_OBJDUMP" -d -r "$o/$f" | grep -c "$ARCH_CALL_RELOC.*__ubsan_handle_out_of_bounds" || true)
			echo "$f $u"
		done >"$R/$v.touched-ubsan"
done
# The same sites as UBSAN_TRAP's ud1 traps (touched objects recompiled).
"$ROOT"/scripts/ud1-count.sh "$R/ud1"
stage_end

stage "-Wgnu-variable-sized-type-not-at-end (touched objects)"
"$ROOT"/scripts/wgnu-count.sh "$R/wgnu" touched | tee "$R/wgnu.summary"
# The whole build takes ~45 min on 2 cores: rerun only with WGNU_ALL=1,
# otherwise show the last run if no kernel was rebuilt since.  x86_64
# only, as are make bench and the gcc-12 pair.
wgnu_all=
if [ "$primary" != yes ]; then
	:
elif [ -n "${WGNU_ALL:-}" ]; then
	"$ROOT"/scripts/wgnu-count.sh "$R/wgnu-all" all
	wgnu_all="$(cat "$R/wgnu-all/summary") (this run)"
elif [ -f "$R/wgnu-all/summary" ]; then
	if [ "$R/wgnu-all/summary" -nt "$(objdir baseline clang)/vmlinux" ] &&
		[ "$R/wgnu-all/summary" -nt "$(objdir patched clang)/vmlinux" ]; then
		wgnu_all="$(cat "$R/wgnu-all/summary") (WGNU_ALL=1 run of $(date -r "$R/wgnu-all/summary" '+%Y-%m-%d %H:%M'), kernels unchanged since)"
	else
		wgnu_all="whole build: last WGNU_ALL=1 run is older than the kernels, not shown; rerun WGNU_ALL=1 make report"
	fi
fi
[ -z "$wgnu_all" ] || echo "$wgnu_all"
stage_end

stage "pahole layouts"
"$ROOT"/scripts/pahole-sockaddr.sh "$R/pahole" | tee "$R/pahole.summary"
stage_end

# BENCH=0: no new bench run; the last make bench (build/bench.md) is
# shown, marked as such.
if [ "$primary" = yes ] && [ "${BENCH:-1}" != 0 ]; then
	"$ROOT"/scripts/bench.sh >"$R/bench.log" 2>&1 || { tail -5 "$R/bench.log"; die "bench failed"; }
fi

logs=$BUILD/verify/check-bisect-logs
ident=no
if [ "$primary" != yes ]; then
	# Per patch is x86_64's (check-bisect); here the whole series.
	stage "code identity of the series (touched objects)"
	"$ROOT"/scripts/code-identity.sh --objdirs "$(objdir baseline clang)" "$(objdir patched clang)" "$R/identity.tsv" \
		>"$R/identity.txt" && ident=yes
	stage_end
elif [ -d "$logs/obj" ]; then
	"$ROOT"/scripts/code-identity.sh "$logs" >"$R/identity.txt" && ident=yes
fi

ubsan_b=$(awk '{s += $2} END {print s + 0}' "$R/baseline.ubsan")
ubsan_p=$(awk '{s += $2} END {print s + 0}' "$R/patched.ubsan")
fort_b=$(awk '{s += $2} END {print s + 0}' "$R/baseline.fort")
fort_p=$(awk '{s += $2} END {print s + 0}' "$R/patched.fort")
# Kept in $R/bloat-TC for make check-claims, which reads their totals.
"$BUILD/src-baseline/scripts/bloat-o-meter" "$(objdir baseline clang)/vmlinux" "$(objdir patched clang)/vmlinux" >"$R/bloat-clang"
bloat_clang=$(cat "$R/bloat-clang")
bloat_gcc=
rm -f "$R/bloat-gcc"
if [ "$primary" = yes ]; then
	"$BUILD/src-baseline/scripts/bloat-o-meter" "$(objdir baseline gcc)/vmlinux" "$(objdir patched gcc)/vmlinux" >"$R/bloat-gcc"
	bloat_gcc=$(cat "$R/bloat-gcc")
fi
total() { sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\), chg \(.*\)$/\1 -> \2 (\3)/p'; }

{
if [ "$primary" = yes ]; then
	echo "# make report: sockaddr_unsized on Linux $(cat "$BUILD/kernelversion"), baseline vs patched"
else
	echo "# make report ARCH=$ARCH_NAME: sockaddr_unsized on Linux $(cat "$BUILD/kernelversion"), baseline vs patched"
fi
echo
echo "Tree: $TREE_PACKAGE $(cat "$BUILD/linux/.pkgver"); series: $(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches ($TREE_SERIES/series)."
if [ "$primary" = yes ]; then
	echo "Config: harness config (tinyconfig + config/*.config); clang-19 builds add UBSAN_BOUNDS, FORTIFY_SOURCE, KASAN."
	echo "Compilers: $(clang-19 --version | head -1); $(gcc-12 --version | head -1)."
else
	echo "Config: harness config (tinyconfig + config/*.config, config/${ARCH_FRAGMENT// /, config/}) with UBSAN_BOUNDS, FORTIFY_SOURCE, KASAN: the clang-19 kernels of \`make check-$ARCH_NAME\` (${ARCH_KBUILD[*]} LLVM=-19)."
	echo "Compiler: $(clang-19 --version | head -1); disassembler: $("$ARCH_OBJDUMP" --version | head -1)."
fi
echo
if [ "$primary" = yes ]; then
	echo "## 1. Code identity per patch"
else
	echo "## 1. Code identity of the series"
fi
echo
if [ "$primary" != yes ] && [ "$ident" = yes ]; then
	echo "Every object the series touches (lib.sh \`touched_objects\`, those the harness config builds), as compiled in the baseline and the patched $ARCH_NAME kernel, compared as \`$ARCH_OBJDUMP -d -r\` function by function (\`scripts/code-identity.sh --objdirs\`) and classified as the per-patch identity of the x86_64 report: *identical*; *constants*: only immediates (\`#N\`, not memory offsets) or relocation addends differ; *different*: the functions are named. Per patch (scripts/check-bisect.sh's objects) is x86_64's: every patch compiled on its own once more for $ARCH_NAME costs too much here. Over the whole series, the patches that change code on purpose (8-14, see the x86_64 report) make objects *different*."
	echo
	echo '```'
	cat "$R/identity.txt"
	echo '```'
elif [ "$primary" != yes ]; then
	echo "Not measured: \`scripts/code-identity.sh --objdirs\` failed."
elif [ "$ident" = yes ]; then
	echo "Every object a patch touches, compiled just before and just after it (scripts/check-bisect.sh keeps both), compared as \`objdump -d -r\` function by function. *constants*: only immediates or relocation addends differ (a WARN's \`__LINE__\`, string offsets)."
	echo
	echo '```'
	cat "$R/identity.txt"
	echo '```'
	echo
	echo "Patches 1-7 say \"No binary changes expected\": an object counts as *different* only if an instruction other than a constant changed. Differences in patches 8-14 are by design: 8 (ncsi) grows \`pending_mac\` to a \`sockaddr_storage\`, so the layout of \`struct ncsi_dev_priv\` and every function using fields after it change; 9-13 move set-MAC paths to \`sockaddr_storage\` (copies, stack buffers); 14 makes \`sa_data\` a fixed array, which FORTIFY can now check (\`packet_getname_spkt\`, section 2). Patch 15 only adds its KUnit file: a new object has no before to compare with."
else
	echo "No per-patch objects yet: run \`make check-bisect\` (or \`make check-bisect CONFIGS=harness\`), then \`make report\`."
fi
echo
echo "## 2. Bounds-check sites (patch 14, upstream 8/8)"
echo
if [ "$primary" = yes ]; then
	echo "Sites are calls to \`__ubsan_handle_out_of_bounds\` (the harness builds without UBSAN_TRAP, so each site is a call rather than a \`ud1\`; \`ud1\` traps are counted below for the touched objects) and FORTIFY field-spanning checks (references to the WARN format \"field-spanning write\")."
else
	echo "Sites are calls (\`$ARCH_CALL\`) to \`__ubsan_handle_out_of_bounds\` (no UBSAN_TRAP, so each site is a call rather than a trap; traps are counted below for the touched objects) and FORTIFY field-spanning checks: references to the WARN format \"field-spanning write\" (every copy of the string in vmlinux). On $ARCH_NAME an address is not one operand as on x86 but an \`$ARCH_PAGE_ADDR\` (its 4 KiB page) and an \`add\` (the low 12 bits): each \`add\` that, with the page last loaded into its source register in the same function, makes the address of a copy of the format counts as one site. The \`__fortify_panic\` row counts \`$ARCH_CALL\` calls."
fi
echo
echo "| clang-19 vmlinux | baseline | patched | delta |"
echo "|---|---|---|---|"
sites_table "UBSAN bounds sites" "$R/baseline.ubsan" "$R/patched.ubsan"
sites_table "FORTIFY field-spanning sites" "$R/baseline.fort" "$R/patched.fort"
sites_table "FORTIFY overflow sites (calls to \`__fortify_panic\`, 6.1: \`fortify_panic\`)" "$R/baseline.fpanic" "$R/patched.fpanic"
echo
echo "Functions whose UBSAN count changed:"
echo
changed_functions "$R/baseline.ubsan" "$R/patched.ubsan"
echo
echo "Functions whose FORTIFY field-spanning count changed:"
echo
changed_functions "$R/baseline.fort" "$R/patched.fort"
echo
echo "Functions whose \`__fortify_panic\` count changed:"
echo
changed_functions "$R/baseline.fpanic" "$R/patched.fpanic"
echo
# fpanic_delta FUNC: its __fortify_panic count, patched less baseline.
fpanic_delta() {
	awk -v f="$1" 'FNR == 1 { n++ } $1 == f { c[n] += $2 } END { print c[2] - c[1] }' \
		"$R/baseline.fpanic" "$R/patched.fpanic"
}
# Each classified function's sentence, chosen by its measured delta, so
# a count that moves is not described by an older run's sentence.
echo "Classification (checked by hand in the $ARCH_NAME disassembly; \`__fortify_panic\`'s first argument is the function and direction, its second the size available):"
echo
case $(fpanic_delta packet_getname_spkt) in
1) echo "- \`packet_getname_spkt\` (net/packet/af_packet.c), one \`__fortify_panic\` site more: patch 14's \`sa_data[14]\` lets FORTIFY check \`strscpy(uaddr->sa_data, dev->name, sizeof(uaddr->sa_data_min))\` (strscpy write, 14 bytes available); with a flexible \`sa_data\` FORTIFY knew no destination size: a real bound, never hit (the size passed is 14)." ;;
*) echo "- \`packet_getname_spkt\`: $(fpanic_delta packet_getname_spkt) sites (6.12: one more, classified there): not classified here." ;;
esac
case $(fpanic_delta do_setlink) in
0) echo "- \`do_setlink\` (net/core/rtnetlink.c) keeps its one site (memcpy write): on the baseline against the size of the kmalloc()ed \`struct sockaddr\`, on the patched kernel against the 126 bytes of \`sockaddr_storage.__data\` (patch 12), \`dev->addr_len\` still checked at run time." ;;
-1) echo "- \`do_setlink\` (net/core/rtnetlink.c), one \`__fortify_panic\` site fewer: patch 12's \`struct sockaddr_storage\` on the stack after an explicit \`dev->addr_len > sizeof(ss.__data)\` check lets the compiler prove the memcpy() in bounds." ;;
1) echo "- \`do_setlink\` (net/core/rtnetlink.c), one site more: FORTIFY checks patch 12's memcpy() of \`dev->addr_len\` bytes into the 126-byte \`ss.__data\` on the stack, a bound it did not see in the baseline's kmalloc()ed \`struct sockaddr\`; not classified by hand further." ;;
*) echo "- \`do_setlink\`: $(fpanic_delta do_setlink) sites: not classified." ;;
esac
echo
echo "A function listed above and not here is not classified yet."
echo
echo "Touched objects ($(wc -l <"$R/patched.touched-ubsan") of the harness build): UBSAN sites $(awk '{s += $2} END {print s + 0}' "$R/baseline.touched-ubsan") -> $(awk '{s += $2} END {print s + 0}' "$R/patched.touched-ubsan"); objects whose count changed:"
echo
join <(sort "$R/baseline.touched-ubsan") <(sort "$R/patched.touched-ubsan") |
	awk '$2 != $3 { printf "- `%s`: %d -> %d\n", $1, $2, $3; c++ } END { if (!c) print "- none" }'
echo
if [ "$primary" = yes ]; then
	echo "With CONFIG_UBSAN_TRAP (\`scripts/ud1-count.sh\`: the touched objects recompiled with their exact kbuild command plus \`-fsanitize-trap=undefined\`, counting \`ud1 0x12(%eax),%eax\`, clang's out-of-bounds trap): $(sed 's/^ud1: //' "$R/ud1/summary"). clang-19 may merge identical traps of one function into one \`ud1\` (per-site traps, \`-fno-sanitize-merge\`, arrive with clang 20), so this count is at most the number of sites; the calls above are one per site. Functions whose trap count changed:"
else
	echo "With CONFIG_UBSAN_TRAP (\`scripts/ud1-count.sh\`: the touched objects recompiled with their exact kbuild command plus \`-fsanitize-trap=undefined\`, counting \`brk #0x5512\`, clang's out-of-bounds trap on $ARCH_NAME, 0x5500 | 0x12): $(sed 's/^ud1: //' "$R/ud1/summary"). clang-19 may merge identical traps of one function into one (per-site traps, \`-fno-sanitize-merge\`, arrive with clang 20), so this count is at most the number of sites; the calls above are one per site. Functions whose trap count changed:"
fi
echo
changed_functions "$R/ud1/baseline.ud1" "$R/ud1/patched.ud1"
echo
if [ "$primary" = yes ]; then
	echo "That the bound is real is shown at run time by \`make bounds-demo\` (part of make check): a write at sa_data[14] and a 20-byte memcpy into sa_data are reported by UBSAN and FORTIFY on the patched kernel and not on the baseline. gcc-12 has no \`-fstrict-flex-arrays=3\` (GCC 13+), so with gcc-12 a trailing \`sa_data[14]\` still counts as a flexible array for \`__builtin_object_size\` and array bounds: the gcc builds get no new checks."
else
	echo "The run-time demonstration (\`make bounds-demo\`) and the gcc-12 kernels are x86_64's; neither is built for $ARCH_NAME."
fi
echo
echo "## 3. -Wgnu-variable-sized-type-not-at-end"
echo
echo "clang-19, the warning appended after the kernel's \`-Wno-gnu\`, each object re-parsed (\`-fsyntax-only\`) with its exact kbuild command; a warning counted once per source location."
echo
echo '```'
cat "$R/wgnu.summary"
[ -z "$wgnu_all" ] || echo "$wgnu_all"
echo '```'
echo
echo "Touched objects:"
echo
type_table "$R/wgnu/by-type.tsv"
echo
case "$wgnu_all" in
wgnu:*)
	echo "The whole harness build:"
	echo
	type_table "$R/wgnu-all/by-type.tsv"
	echo ;;
esac
if [ "$primary" = yes ]; then
	echo "The whole harness build: \`WGNU_ALL=1 make report\` (about 1.7 s of CPU per object and tree). GCC 14's \`-Wflex-array-member-not-at-end\` cannot be measured: Debian 12 ships gcc-12 only."
else
	echo "The whole harness build: x86_64 only (\`WGNU_ALL=1 make report\`; the warning is the C front end's, so arch headers aside it does not depend on the target)."
fi
echo
echo "## 4. Size"
echo
echo "| vmlinux (bloat-o-meter) | baseline -> patched |"
echo "|---|---|"
echo "| clang-19 hardened | $(echo "$bloat_clang" | total) |"
if [ "$primary" = yes ]; then
	echo "| gcc-12 | $(echo "$bloat_gcc" | total) |"
	echo
	echo "The patched kernels also carry the KUnit suite of patch 15 (\`CONFIG_SOCKADDR_KUNIT_TEST\`), whose functions and strings appear as additions. Per-function changes (clang-19, then gcc-12):"
	echo
	echo '```'
	echo "$bloat_clang" | head -40
	echo
	echo "$bloat_gcc" | head -40
	echo '```'
else
	echo
	echo "gcc-12: x86_64 only (no $ARCH_NAME gcc kernels are built). The patched kernel also carries the KUnit suite of patch 15 (\`CONFIG_SOCKADDR_KUNIT_TEST\`), whose functions and strings appear as additions. Per-function changes (clang-19):"
	echo
	echo '```'
	echo "$bloat_clang" | head -40
	echo '```'
fi
echo
# Why a function changed size: written once from reading the code and
# printed only for functions that do change in this run.
explain() {
	case "$1" in
	sockaddr_*|*kunit*|*sockaddr_test*) echo "patch 15's KUnit suite (net/core/sockaddr_test.c)" ;;
	dev_ifsioc) echo "patch 13: SIOCSIFHWADDR copies ifr_hwaddr into a struct sockaddr_storage before dev_set_mac_address_user()" ;;
	tun_chr_ioctl|__tun_chr_ioctl) echo "patch 13: tun's SIOCSIFHWADDR copies ifr_hwaddr into a zeroed struct sockaddr_storage, as dev_ifsioc does" ;;
	__unnamed_*|.str*) echo "KASAN globals and strings: mostly patch 15's KUnit suite (its file names, messages, source locations)" ;;
	check_lengths*|connect_once*|bind_once*|kernel_bind_*|kernel_connect_*) echo "patch 15's KUnit suite (net/core/sockaddr_test.c)" ;;
	ieee802154_add_iface|ieee802154_if_add|mac802154_wpan_mac_addr) echo "patch 9: the extended address is passed in a struct sockaddr_storage" ;;
	do_setlink) echo "patch 12: IFLA_ADDRESS goes through a struct sockaddr_storage on the stack instead of a kmalloc()ed struct sockaddr" ;;
	dev_set_mac_address*|dev_pre_changeaddr_notify|netif_set_mac_address) echo "patches 11/13: the address travels as struct sockaddr_storage" ;;
	packet_getname_spkt) echo "patch 14: FORTIFY now checks strscpy() into sa_data[14] (one more __fortify_panic site)" ;;
	ncsi_*) echo "patch 8: pending_mac is a struct sockaddr_storage" ;;
	rtl8152_*|rtl_*) echo "patch 10: r8152 set_mac via struct sockaddr_storage" ;;
	*) echo "not explained yet" ;;
	esac
}
echo "Functions that changed size, and why:"
echo
for b in "$bloat_clang" "$bloat_gcc"; do
	echo "$b" | awk '$1 ~ /^[a-zA-Z_][a-zA-Z0-9_.]*$/ && $NF ~ /^[-+][0-9]+$/ && $NF != "+0" && $NF != "-0" {print $1}'
done | sort -u | while read -r f; do
	echo "- \`$f\`: $(explain "$f")"
done
echo
echo "pahole (objects the series touches, recompiled with -g): every struct that embeds a \`struct sockaddr\`, with its size on each kernel. Were \`struct sockaddr_storage\` (128 bytes) used in place of each \`struct sockaddr\` (16), each struct would grow by at least 112 bytes (one sockaddr, or a union of them) and at most 112 times the member count, plus alignment to 8."
echo
echo '```'
cat "$R/pahole.summary"
echo '```'
echo
echo "| struct | baseline | patched | sockaddr members | +bytes with sockaddr_storage |"
echo "|---|---|---|---|---|"
awk -F'\t' '{lo = 112; hi = 112 * $4; printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, (lo == hi ? lo : lo ".." hi)}' "$R/pahole/layout.tsv"
echo
echo "## 5. Speed"
echo
if [ "$primary" != yes ]; then
	echo "\`make bench\`: x86_64 only (section 5 of the x86_64 report); not run for $ARCH_NAME."
elif [ -f "$BUILD/bench.md" ]; then
	[ "${BENCH:-1}" = 0 ] && echo "(BENCH=0: from the last \`make bench\`, $(date -r "$BUILD/bench.md" '+%Y-%m-%d %H:%M'), not rerun by this report.)" && echo
	sed -n '1s/^# make bench: /Setup: /p' "$BUILD/bench.md"
	sed 1d "$BUILD/bench.md"
else
	echo "Not run: \`make bench\` (or \`make report\` without BENCH=0) runs it."
fi
echo
echo "## 6. Cover letter"
echo
if [ "$primary" = yes ]; then
	echo "The verification paragraph for patches/0000-cover-letter.patch is written to build/report/cover-paragraph.txt; make cover-letter puts it into the patch (a report never changes the series by itself)."
else
	echo "The cover letter's verification paragraph is the x86_64 report's (\`make report\`); this report writes none."
fi
echo
echo "Report time: $(( $(date +%s) - t0 ))s."
} >"$out"

# Another arch's report ends here: the cover letter is x86_64's.
if [ "$primary" != yes ]; then
	cat "$out"
	exit 0
fi

# The paragraph: every number below comes from the files above.
id_line="per-patch code identity: not measured in this run"
if [ "$ident" = yes ]; then
	id_line=$(awk -F'\t' 'NR > 1 && $1 <= "p07" {n += $4; s += $5; c += $6; d += $7}
		END {printf "patches 1-7 (\"no binary changes\"): %d object builds compared before/after, %d identical, %d differing only in constants, %d different", n, s, c, d}' "$logs/code-identity.tsv")
fi
gm=$(sed -n 's/^| geometric mean of ratios | | | \([0-9.]*\).*/\1/p' "$BUILD/bench.md" 2>/dev/null || true)
{
	echo "Verification (generated by make report on Linux $(cat "$BUILD/kernelversion")):"
	echo "$id_line; clang-19 hardened vmlinux: UBSAN bounds sites $ubsan_b -> $ubsan_p, FORTIFY field-spanning sites $fort_b -> $fort_p, UBSAN_TRAP out-of-bounds ud1 traps in the touched objects $(sed -E 's/.*traps ([0-9]+ -> [0-9]+).*/\1/' "$R/ud1/summary"); -Wgnu-variable-sized-type-not-at-end over the $(tail -1 "$R/wgnu.summary" | sed 's/^wgnu: //')$(case "$wgnu_all" in wgnu:*) echo ", over the whole harness build $(head -1 "$R/wgnu-all/summary" | sed 's/^wgnu: [0-9]* objects (all): //')";; esac); vmlinux size clang-19 $(echo "$bloat_clang" | total), gcc-12 $(echo "$bloat_gcc" | total), the growth being the KUnit patch and the sockaddr_storage copies; pahole: $(tail -1 "$R/pahole.summary" | sed 's/^pahole: //'); guest bench patched/baseline geometric mean ${gm:-not run}$(grep -q icount "$BUILD/bench.md" 2>/dev/null && echo ' (instructions per call, QEMU -icount)')."
} | fmt -w 72 >"$R/cover-paragraph.txt"
cat "$out"
echo
echo "cover letter paragraph ($(rel "$R")/cover-paragraph.txt; make cover-letter puts it into patches/0000-cover-letter.patch):"
sed 's/^/  /' "$R/cover-paragraph.txt"
