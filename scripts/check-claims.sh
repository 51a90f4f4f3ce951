#!/bin/bash
# make check-claims: the series' claims, which make report measures, as
# a pipeline that fails when one does not hold.
#   1. code identity: every object a patch of config/tree's same_code
#      ("No binary changes expected") touches, compiled just before and
#      just after it (make check-bisect keeps both, for the series it
#      was run on), compared function by function (scripts/code-
#      identity.sh): no changed instruction; under the harness config no
#      changed constant either (allmodconfig's WARN __LINE__s and string
#      offsets do move).  One result per patch x compiler x config.  The
#      judge is broken first, on net/socket.o (patches 02, 03) compiled
#      by kbuild three times: one constant, then one comparison changed
#      in its source, each must fail (as a constant, as an instruction).
#   2. sites and size: make report's counts on the clang kernels (and
#      gcc-12's size on x86_64), each baseline -> patched delta against
#      config/expect/[TREE/]claims, each count read from the kernels,
#      never 0 on the baseline (0 on the patched one only as a claim).
# Usage: scripts/check-claims.sh            (after make check-bisect)
#        scripts/check-claims.sh --write    (also writes build/claims.expect:
#                                           the expectation file with this
#                                           run's deltas, for review)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
write=
[ "${1:-}" = --write ] && write=1
results_init check-claims$ARCH_SUFFIX
tc=clang
logs=$BUILD/verify/check-bisect-logs
R=$BUILD/report$ARCH_SUFFIX
expect=$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}claims$ARCH_SUFFIX
tmp=$(mktemp -d)
# The break's source edit is undone on any exit (wt, bsrc: below).
trap '[ ! -f "$tmp/socket.c" ] || cp "$tmp/socket.c" "$wt/$bsrc"; rm -rf "$tmp"' EXIT
[ "$ARCH_NAME" = x86_64 ] ||
	fatal check-claims "ARCH=$ARCH_NAME: the per-patch objects are x86_64's (make check-bisect); make report ARCH=$ARCH_NAME measures the series as a whole"
[ -n "${TREE_SAME_CODE:-}" ] || fatal check-claims "config/tree/$TREE_NAME names no same_code patches"

stage "code identity of patches $TREE_SAME_CODE (make check-bisect's objects)"
# identity_verdict TSV_ROW: the judge of one row (patch compiler config
# objects identical constants different functions); prints why it fails.
identity_verdict() {
	local cfg n same cons diff funcs
	IFS=$'\t' read -r _ _ cfg n same cons diff funcs <<<"$1"
	if [ "${n:-0}" -eq 0 ]; then
		echo "no object compared"; return 1
	elif [ "$diff" -gt 0 ]; then
		echo "$diff of $n objects with a changed instruction: $funcs"; return 1
	elif [ "$cons" -gt 0 ] && [ "$cfg" != allmod ]; then
		echo "$cons of $n objects with a changed constant under $cfg"; return 1
	fi
	echo "$n objects: $same identical, $cons constants only (allmodconfig's WARN __LINE__s, string offsets)"
}
# The judge first, on an object of the series: net/socket.o (patches 02
# and 03 change it), compiled by kbuild in make check-bisect's worktree
# (harness config, clang-19) as it is, then with one constant of
# move_addr_to_kernel() changed (its bound, 128 to 126), then with one
# comparison turned round (ulen == 0 to ulen != 0).  The judge must fail
# both: the first as a changed constant (harness config), the second as
# a changed instruction.  The source is put back and the object rebuilt.
wt=$(realpath -m "${WT:-$BUILD/verify}")
bobj=net/socket.o bsrc=net/socket.c bdir=out-harness-clang
declare -A bedit=(
	[const]='s/if (ulen < 0 || ulen > sizeof(struct sockaddr_storage))$/if (ulen < 0 || ulen > sizeof(struct sockaddr_storage) - 2)/'
	[insn]='s/if (ulen == 0)$/if (ulen != 0)/'
)
# bcompile DEST: $bobj compiled in the worktree, copied to DEST/$bobj.
bcompile() {
	rm -f "$wt/$bdir/$bobj"
	nice -n 10 make -C "$wt" O="$bdir" -j"${JOBS:-2}" "${KBUILD_CC[@]}" "$bobj" >>"$BUILD/logs/check-claims-breaks.log" 2>&1 &&
		mkdir -p "$(dirname "$1/$bobj")" && cp "$wt/$bdir/$bobj" "$1/$bobj"
}
if [ ! -f "$wt/$bdir/.config" ] || [ ! -f "$wt/$bsrc" ]; then
	result fail identity-breaks "no $(rel "$wt/$bdir") configured: run make check-bisect first"
else
	toolchain clang
	ccache_env
	kbuild_repro_env
	: >"$BUILD/logs/check-claims-breaks.log"
	cp "$wt/$bsrc" "$tmp/socket.c"
	bcompile "$tmp/before" || fatal identity-breaks "$bobj did not compile: see $(rel "$BUILD/logs/check-claims-breaks.log")"
	for b in const insn; do
		sed "${bedit[$b]}" "$tmp/socket.c" >"$wt/$bsrc"
		if cmp -s "$tmp/socket.c" "$wt/$bsrc"; then
			result fail "identity-break-$b" "the $b edit matched nothing in $bsrc"
		elif ! bcompile "$tmp/$b"; then
			result fail "identity-break-$b" "$bobj did not compile with the $b edit"
		else
			"$ROOT"/scripts/code-identity.sh --dirs "$tmp/before" "$tmp/$b" "break-$b" clang harness "$tmp/$b.tsv" >/dev/null 2>&1
			row=$(sed -n 2p "$tmp/$b.tsv")
			IFS=$'\t' read -r _ _ _ _ _ cons diff _ <<<"$row"
			# The break must fail for its own reason: a constant only for
			# const, an instruction for insn.
			if why=$(identity_verdict "$row"); then
				result fail "identity-break-$b" "the judge passed $bobj with one $b change: $why"
			elif { [ "$b" = const ] && [ "${diff:-0}" = 0 ] && [ "${cons:-0}" -gt 0 ]; } ||
				{ [ "$b" = insn ] && [ "${diff:-0}" -gt 0 ]; }; then
				result pass "identity-break-$b" "$bobj with one $b change fails: $why"
			else
				result fail "identity-break-$b" "$bobj with one $b change failed, not as a changed ${b/insn/instruction}: $why"
			fi
		fi
		cp "$tmp/socket.c" "$wt/$bsrc"
	done
	bcompile "$tmp/restored" || fatal identity-breaks "$bobj did not compile once put back"
fi
want=$(series_sum)
if [ ! -d "$logs/obj" ]; then
	result fail identity "no per-patch objects in $(rel "$logs"): run make check-bisect first"
elif [ "$(cat "$logs/series.sum" 2>/dev/null)" != "$want" ]; then
	result fail identity "$(rel "$logs") holds objects of another series ($(cat "$logs/series.sum" 2>/dev/null || echo "an unfinished run")), not $TREE_SERIES's $want: run make check-bisect"
else
	"$ROOT"/scripts/code-identity.sh "$logs" >"$BUILD/logs/check-claims-identity.out" 2>&1 ||
		result fail identity "scripts/code-identity.sh failed: see $(rel "$BUILD/logs/check-claims-identity.out")"
	for p in $TREE_SAME_CODE; do
		pn=$(printf 'p%02d' "$p")
		rows=$(awk -F'\t' -v p="$pn" '$1 == p' "$logs/code-identity.tsv")
		[ -n "$rows" ] || { result fail "identity-$pn" "no objects of patch $p compared (make check-bisect compiled none)"; continue; }
		while IFS= read -r row; do
			IFS=$'\t' read -r _ cmp cfg _ <<<"$row"
			if why=$(identity_verdict "$row"); then
				result pass "identity-$pn-$cfg-$cmp" "$why"
			else
				result fail "identity-$pn-$cfg-$cmp" "$why"
			fi
		done <<<"$rows"
	done
fi
stage_end

stage "sites and size: make report (BENCH=0) on both kernels"
# make check's clang kernels (built here when they are not).
for v in baseline patched; do
	"$ROOT"/scripts/build.sh "$BUILD/src-$v" "$(objdir "$v" "$tc")" "$tc" >"$BUILD/logs/check-claims-build-$v.out" 2>&1 ||
		fatal "check-claims-kernel-$v" "the $v kernel did not build: see $(rel "$BUILD/logs/check-claims-build-$v.out")"
done
if ! BENCH=0 "$ROOT"/scripts/report.sh >"$BUILD/logs/check-claims-report.out" 2>&1; then
	fatal check-claims-report "make report failed: see $(rel "$BUILD/logs/check-claims-report.out")"
fi
stage_end

# The measures, "NAME BASELINE PATCHED", read from the report's files.
sum2() { awk '{s += $2} END {print s + 0}' "$1"; }
arrow() { sed -n -E "s/.*$1 ([0-9]+) -> ([0-9]+).*/\\1 \\2/p" "$2" | head -n 1; }
# bloat-o-meter's "Total: Before=B, After=P, chg ..." as "B P".
bloat_total() { sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\),.*/\1 \2/p' "$R/bloat-$1" 2>/dev/null; }
{
	for m in ubsan fort fpanic; do
		echo "$m $(sum2 "$R/baseline.$m") $(sum2 "$R/patched.$m")"
	done
	echo "ud1_touched $(arrow 'out-of-bounds traps' "$R/ud1/summary")"
	echo "wgnu_touched $(arrow 'all warnings' "$R/wgnu/summary")"
	echo "wgnu_sockaddr_touched $(arrow 'embedding it:' "$R/wgnu/summary")"
	echo "pahole_bytes $(awk -F'\t' '{b += $2; p += $3} END {print b + 0, p + 0}' "$R/pahole/layout.tsv")"
	echo "vmlinux_clang $(bloat_total clang)"
	[ "$ARCH_REPORT" != full ] || echo "vmlinux_gcc $(bloat_total gcc)"
} >"$BUILD/logs/check-claims.measures"

if [ -n "$write" ]; then
	# The expectation file with this run's deltas, comments kept, for
	# review before it replaces the committed one.
	[ -f "$expect" ] && cp "$expect" "$tmp/expect" || : >"$tmp/expect"
	awk 'FILENAME == ARGV[1] { d[$1] = $3 - $2; order[++n] = $1; next }
		/^[a-z_0-9]+ +-?[0-9]+/ && ($1 in d) { sub(/^[a-z_0-9]+ +-?[0-9]+/, sprintf("%-22s %d", $1, d[$1])); seen[$1] = 1 }
		{ print }
		END { for (i = 1; i <= n; i++) if (!(order[i] in seen)) printf "%-22s %d  # (new: say what it claims)\n", order[i], d[order[i]] }' \
		"$BUILD/logs/check-claims.measures" "$tmp/expect" >"$BUILD/claims.expect"
	note "this run's deltas: $(rel "$BUILD/claims.expect") (review, then copy to $(rel "$expect"))"
fi

stage "claims: each delta against $(rel "$expect")"
[ -f "$expect" ] || fatal claims-expect "no $(rel "$expect"): write it with scripts/check-claims.sh --write"
while read -r m b p; do
	want=$(awk -v m="$m" '$1 == m { print $2; exit }' "$expect")
	# The baseline's count is the premise (the measure sees something);
	# the patched one may be 0 where that is the claim (the -Wgnu
	# warnings on struct sockaddr), the delta says so.
	if [ -z "$b" ] || [ -z "$p" ] || [ "$b" -eq 0 ]; then
		result fail "claim-$m" "not measured on both kernels, or 0 on the baseline (baseline '${b:-}', patched '${p:-}')"
	elif [ -z "$want" ]; then
		result fail "claim-$m" "$b -> $p: no expected delta in $(rel "$expect")"
	else
		check "claim-$m" "$b -> $p ($((p - b)), expected $want)" test "$((p - b))" -eq "$want"
	fi
done <"$BUILD/logs/check-claims.measures"
# A claim the file makes that this run did not measure fails too.
while read -r m _; do
	grep -q "^$m " "$BUILD/logs/check-claims.measures" ||
		result fail "claim-$m" "listed in $(rel "$expect"), not measured by this run"
done < <(grep -E '^[a-z_0-9]+ +-?[0-9]+' "$expect")
stage_end
finish
