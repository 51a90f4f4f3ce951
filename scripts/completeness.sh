#!/bin/bash
# Is the sockaddr_unsized conversion complete over the whole tree?  Every
# bind/connect callback named in a proto_ops/proto table, every caller,
# the BPF sock_addr hooks: struct sockaddr_unsized; sa_data_min: gone.
# Coccinelle reads tables, definitions and calls; grep and awk cover what
# spatch 1.1.1 skips (unparsable code, prototypes, macro bodies).
#
# Usage: scripts/completeness.sh [TREE]     (default: build/src-patched)
# Prints "file:line: function: what" per unconverted site; a pipeline of
# its own (build/completeness.results): one failed result per site, one
# passed "completeness" when none is left; exit 1 if any.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$(realpath "${1:-$BUILD/src-patched}")
results_init completeness
[ -f "$tree/net/socket.c" ] || fatal completeness "$(rel "$tree") is not a kernel tree"
cocci=$ROOT/scripts/cocci/sockaddr-unsized.cocci
command -v spatch >/dev/null || fatal completeness "spatch (coccinelle) is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tree"

# Helpers the series converts that no table names: the tree's own list
# (config/tree's helpers; 6.1 has no inet_bind_sk()/inet6_bind_sk()).
named=$TREE_HELPERS

# kfiles, spatch_one, run_spatch: scripts/lib/cocci.sh.

stage "completeness of the sockaddr_unsized conversion in $(rel "$tree")"
kfiles --include='*.c' -E 'proto_ops|struct proto |struct ipv6_bpf_stub|kernel_bind|kernel_connect|->(bind|connect|pre_connect|bind_add)\(|sock_bind_add|BPF_CGROUP_RUN_[A-Z0-9_]*SA_PROG|__cgroup_bpf_run_filter_sock_addr' >"$tmp/tables.list"
note "spatch pass 1 (tables, callers): $(wc -l <"$tmp/tables.list") files"
run_spatch tables "$tmp/tables.list" "$cocci" >"$tmp/facts"

# grep's view of the same tables: entries spatch did not report mean it
# could not parse that initialiser.
xargs -a "$tmp/tables.list" awk -v OFS='\t' '
	FNR == 1 { tab = "" }
	/^[a-z].*struct (proto_ops|proto|ipv6_bpf_stub) [A-Za-z0-9_]+(\[[^]]*\])? *= *\{/ {
		tab = $0; sub(/[ \t]*(\[[^]]*\])?[ \t]*=.*/, "", tab); n = split(tab, w, /[ \t]+/)
		kind = w[n - 1]; tab = w[n]; next }
	tab != "" && /^\};/ { tab = "" }
	tab != "" && match($0, /\.(bind|connect|pre_connect|bind_add|inet6_bind)[ \t]*=[ \t]*[A-Za-z0-9_]+/) {
		s = substr($0, RSTART + 1, RLENGTH - 1); split(s, a, /[ \t]*=[ \t]*/)
		print "GINIT", FILENAME, FNR, kind, tab, a[1], a[2] }' >>"$tmp/facts"
# Single-line casts in calls, for code spatch skipped.
{ xargs -a "$tmp/tables.list" grep -nE '(kernel_bind|kernel_connect|->(bind|connect|pre_connect|bind_add))\(.*\(struct sockaddr[[:space:]]*\*\)' || true; } |
	awk -F: -v OFS='\t' '{ c = $0; sub(/^[^:]*:[^:]*:/, "", c); match(c, /[A-Za-z_>-]+\(/)
		print "GCALL", $1, $2, substr(c, RSTART, RLENGTH - 1) }' >>"$tmp/facts"

{ awk -F'\t' '$1 ~ /INIT$/ { print $7 }' "$tmp/facts"; printf '%s\n' $named; } | sort -u >"$tmp/names"
for n in $named; do printf 'INIT\t-\t%s\thelper\t-\t-\t%s\n' "$n" "$n"; done >>"$tmp/facts"
kfiles --include='*.c' -wF -f "$tmp/names" | xargs -r grep -l sockaddr >"$tmp/defs.list" || true
note "spatch pass 2 (definitions of $(wc -l <"$tmp/names") functions): $(wc -l <"$tmp/defs.list") files"
run_spatch defs "$tmp/defs.list" "$cocci" >>"$tmp/facts"

awk -f "$ROOT/scripts/completeness.awk" "$tmp/facts" >"$tmp/verdicts"
grep '^LEFT' "$tmp/verdicts" | cut -f2 >"$tmp/left" || true

# Definitions spatch never saw (unparsable function, or made by a
# macro): look at the text of the header line(s) instead.
: >"$tmp/nodef"
while IFS=$'\t' read -r _ fn at; do
	hit=$(grep -rnE --include='*.c' --exclude-dir=.git --exclude-dir=tools --exclude-dir='out-*' \
		"^[A-Za-z_].*[ *]$fn\(" . 2>/dev/null | grep -v ';[[:space:]]*$' | head -1 | sed 's|^\./||' || true)
	if [ -z "$hit" ]; then
		echo "$fn (named at $at): no definition found" >>"$tmp/nodef"
		continue
	fi
	f=${hit%%:*} l=${hit#*:}; l=${l%%:*}
	if sed -n "${l},$((l + 3))p" "$f" | tr '\n' ' ' | sed 's/).*//' | grep -qE 'struct sockaddr[[:space:]]*\*'; then
		echo "$f:$l: $fn: takes struct sockaddr * (grep; spatch skipped it)" >>"$tmp/left"
	fi
done < <(grep '^NODEF' "$tmp/verdicts" || true)

# Prototypes, struct members, BPF macros.
kfiles --include='*.h' -l sockaddr >"$tmp/headers.list"
xargs -a "$tmp/headers.list" awk -f "$ROOT/scripts/completeness-headers.awk" "$tmp/names" |
	cut -f2 >>"$tmp/left"

# sa_data_min: the whole tree, tools/ and Documentation/ included.
grep -rn --exclude-dir=.git --exclude-dir='out-*' -w sa_data_min . 2>/dev/null |
	sed 's|^\./||; s|^\([^:]*:[0-9]*\):.*|\1: sa_data_min: still used|' >>"$tmp/left" || true

sort -u -t: -k1,1 -k2,2n "$tmp/left" -o "$tmp/left"
cat "$tmp/left"

left=$(wc -l <"$tmp/left")
checked=$(sort -u "$tmp/tables.list" "$tmp/defs.list" "$tmp/headers.list" | wc -l)
parse=$(awk -F'\t' '$1 == "PARSE" { print $2 }' "$tmp/facts" | sort -u)
missed=$(grep '^MISSED' "$tmp/verdicts" | cut -f2 | sort -u || true)
gaps="tools/ userspace and Documentation/ (sa_data_min only); ops fields assigned at run time (e.g. tcp_bpf, tls copy whole structs); callers whose argument type spatch cannot infer (fields of unparsed structs, macro arguments)"
if [ -n "$parse" ]; then
	gaps="$gaps; code spatch could not parse in $(echo "$parse" | wc -l) files, grep used for tables and one-line casts there: $(echo "$parse" | tr '\n' ' ')"
fi
[ -n "$missed" ] && gaps="$gaps; table entries only grep saw in: $(echo "$missed" | tr '\n' ' ')"
[ -s "$tmp/nodef" ] && gaps="$gaps; $(tr '\n' ';' <"$tmp/nodef")"
echo "completeness: $left left (goal 0); checked $checked files; could not check: $gaps"
stage_end
while IFS= read -r site; do
	result fail "left: ${site%%: *}" "${site#*: }"
done <"$tmp/left"
[ "$left" -ne 0 ] || result pass completeness "0 left in $checked files ($(rel "$tree"))"
finish
