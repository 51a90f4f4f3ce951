#!/bin/bash
# make upstream-oracle: upstream as the oracle of what the backport
# should have converted.  Linux 7.3 (config/tree/7.3, Debian's
# trixie-backports tree, fetched as data) has the series; every function
# whose address parameter it types struct sockaddr_unsized * (bind,
# connect and the helpers on their path), or struct sockaddr_storage *
# in a set-address file (dev_set_mac_address() and the functions that
# pass the address on, which the series' patches 8-13 take from v6.16),
# is looked up in the patched 6.12 and 6.1 trees by function and file;
# every function converted there is looked up upstream.  A difference
# fails unless config/upstream-oracle lists it with its reason; a
# function that does not exist in the tree is automatic (said so); an
# entry that matches nothing fails as stale.
#
# The definitions are Coccinelle's (scripts/cocci/sockaddr-unsized.cocci
# -D defs -D storage, completeness's rules, one file per spatch) and,
# where spatch skips a function it cannot parse or reports no type, the
# header text's (scripts/upstream-oracle-defs.awk); the comparison is
# scripts/upstream-oracle.awk.
#
# Then the oracle is broken once on purpose (every run): in a copy of
# one file of the patched 6.12 tree, one converted callback's parameter
# goes back to struct sockaddr *, and the comparison of that tree must
# fail naming it; an entry added for a difference that does not exist
# must fail as stale.
#
# Usage: scripts/upstream-oracle.sh (make upstream-oracle; tree.sh
#        prepares the three trees: 7.3's baseline, 6.12's and 6.1's
#        patched).  Out: the table on stdout and in
#        build/upstream-oracle.md; one result per tree pair, two breaks.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

results_init upstream-oracle
data=$ROOT/config/upstream-oracle
cocci=$ROOT/scripts/cocci/sockaddr-unsized.cocci
md=$BUILD/upstream-oracle.md
# A set-address file: one that reaches the set-address API (the names
# below) and uses struct sockaddr_storage.
setaddr='set_mac_address|do_setlink'
command -v spatch >/dev/null || fatal upstream-oracle "spatch (coccinelle) is not installed (make upstream-oracle installs it)"
[ -f "$data" ] || fatal upstream-oracle "no $(rel "$data")"
anchor=$(awk '$1 == "anchor" { print $2; exit }' "$data")
read -ra trees < <(awk '$1 == "trees" { $1 = ""; print; exit }' "$data")
[ -n "$anchor" ] && [ "${#trees[@]}" -gt 0 ] || fatal upstream-oracle "$(rel "$data") names no anchor or trees"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tree_dir TREE VARIANT: the tree's worktree: this run's own tree in
# BUILD, another in its default build folder (as check-full runs it).
tree_dir() {
	local sub
	sub=$(awk '$1 == "build" { print $2 }' "$ROOT/config/tree/$1")
	[ "$sub" != - ] || sub=
	if [ "$1" = "$TREE_NAME" ]; then echo "$BUILD/src-$2"; else echo "$ROOT/build${sub:+/$sub}/src-$2"; fi
}

# variant TREE: baseline for a tree without series (upstream), else patched.
variant() { if [ "$(awk '$1 == "series" { print $2 }' "$ROOT/config/tree/$1")" = - ]; then echo baseline; else echo patched; fi; }

stage "trees: $anchor (anchor) and ${trees[*]}"
for t in "$anchor" "${trees[@]}"; do
	wd=$(tree_dir "$t" "$(variant "$t")")
	log=$BUILD/logs/upstream-oracle-tree-$t.log
	if ! env -u SERIES_DIR -u TARBALL -u STAGE_LOG TREE="$t" BUILD="$(dirname "$wd")" "$ROOT"/scripts/tree.sh "$(variant "$t")" >"$log" 2>&1; then
		tail -3 "$log" >&2
		stage_end
		fatal "tree-$t" "scripts/tree.sh $(variant "$t") for TREE=$t failed (see $(rel "$log"))"
	fi
	note "$t: $(rel "$wd") ($(grep -m1 -o 'Linux [^,]*, Debian package .*' "$log" || echo '?'))"
done
stage_end

# tree_defs DIR OUT [FILES NAMES]: DIR's definitions, merged (D lines of
# upstream-oracle.awk) in OUT: every file with sockaddr_unsized or a
# set-address file; FILES (paths upstream, where they exist in DIR);
# and, for NAMES not defined in those, the files of the whole tree that
# name them (a function moved or removed).
tree_defs() {
	local dir=$1 out=$2 files=${3:-} names=${4:-} w
	w=$tmp/$(basename "$out")
	(
		cd "$dir" || exit 1
		kfiles --include='*.c' sockaddr_unsized >"$w.unsized"
		kfiles --include='*.c' sockaddr_storage | { xargs -r grep -l -E "$setaddr" || true; } >"$w.scope"
		{
			cat "$w.unsized" "$w.scope"
			[ -z "$files" ] || while read -r f; do [ ! -f "$f" ] || echo "$f"; done <"$files"
		} | sort -u >"$w.list"
		defs_of "$w.list" >"$w.facts"
		if [ -n "$names" ]; then
			awk -F'\t' '$1 == "DEF" || $1 == "GDEF" { print $4 }' "$w.facts" | sort -u >"$w.have"
			sort -u "$names" | comm -23 - "$w.have" >"$w.missing"
			if [ -s "$w.missing" ]; then
				kfiles --include='*.c' -w -F -f "$w.missing" | comm -23 - "$w.list" >"$w.more"
				defs_of "$w.more" >>"$w.facts"
				cat "$w.more" >>"$w.list"
			fi
		fi
		{ sed 's/^/SCOPE\t/' "$w.scope"; cat "$w.facts"; } |
			awk -v mode=merge -f "$ROOT/scripts/upstream-oracle.awk" >"$out"
		awk -F'\t' '$1 == "PARSE" { print $2 }' "$w.facts" | sort -u >"$out.parse"
		wc -l <"$w.list" >"$out.files"
	)
}

# defs_of LIST: spatch's facts and the header text's of the files in LIST.
defs_of() {
	run_spatch defs,storage "$1" "$cocci"
	xargs -a "$1" -r awk -f "$ROOT/scripts/upstream-oracle-defs.awk"
}

# compare TREE UPDEFS TREEDEFS DATA: upstream-oracle.awk's ROW/STALE lines.
compare() {
	awk -F'\t' -v t="$1" -v OFS='\t' '!/^#/ && $1 == t && NF >= 5 { print "E", $2, $3, $4, $5 }' "$4" >"$tmp/entries-$1"
	awk -v mode=compare -v tree="$1" -f "$ROOT/scripts/upstream-oracle.awk" "$2" "$3" "$tmp/entries-$1" | sort -t$'\t' -k3,3 -k2,2
}

# judge TREE ROWS: one result for the pair; the unlisted differences and
# stale entries named.
judge() {
	local t=$1 rows=$2 up conv moved absent listed unl stale detail
	up=$(awk -F'\t' '$1 == "ROW" && $4 != "-"' "$rows" | wc -l)
	conv=$(awk -F'\t' '$1 == "ROW" && $6 == "converted"' "$rows" | wc -l)
	moved=$(awk -F'\t' '$1 == "ROW" && $6 == "moved"' "$rows" | wc -l)
	absent=$(awk -F'\t' '$1 == "ROW" && $6 == "absent"' "$rows" | wc -l)
	listed=$(awk -F'\t' '$1 == "ROW" && $8 == "listed"' "$rows" | wc -l)
	unl=$(awk -F'\t' '$1 == "ROW" && $8 == "UNLISTED" { printf "%s%s (%s: %s)", n++ ? "; " : "", $3, ($5 == "-" ? $4 : $5), $6 }' "$rows")
	stale=$(awk -F'\t' '$1 == "STALE" { printf "%s%s (%s: %s)", n++ ? "; " : "", $2, $3, $4 }' "$rows")
	detail="$up converted upstream: $conv converted, $moved moved, $absent absent in $t (automatic); $listed listed differences"
	if [ "$up" = 0 ]; then
		result fail "$anchor-vs-$t" "no function converted upstream was read: nothing compared"
	elif [ -z "$unl" ] && [ -z "$stale" ]; then
		result pass "$anchor-vs-$t" "$detail"
	else
		result fail "$anchor-vs-$t" "${unl:+unlisted: $unl}${unl:+${stale:+; }}${stale:+stale entries (match nothing): $stale}"
	fi
}

stage "definitions in $anchor (spatch + header text)"
updir=$(tree_dir "$anchor" "$(variant "$anchor")")
tree_defs "$updir" "$tmp/defs-$anchor" || fatal "defs-$anchor" "could not read $(rel "$updir")"
# The anchor's converted functions: their names and files, looked up in
# every tree.
awk -F'\t' '$5 == "unsized" || ($5 == "storage" && $6 == 1) { print $2 > "'"$tmp/up.names"'"; print $3 > "'"$tmp/up.files"'" }' "$tmp/defs-$anchor"
note "$(wc -l <"$tmp/up.names") converted functions in $(cat "$tmp/defs-$anchor.files") files; spatch skipped code in $(wc -l <"$tmp/defs-$anchor.parse") (the header text read there), $(awk -F'\t' '$7 == "grep" && ($5 == "unsized" || ($5 == "storage" && $6 == 1))' "$tmp/defs-$anchor" | wc -l) converted ones only the text saw"
stage_end

for t in "${trees[@]}"; do
	stage "$anchor vs $t"
	tdir=$(tree_dir "$t" "$(variant "$t")")
	tree_defs "$tdir" "$tmp/defs-$t" "$tmp/up.files" "$tmp/up.names" || fatal "defs-$t" "could not read $(rel "$tdir")"
	compare "$t" "$tmp/defs-$anchor" "$tmp/defs-$t" "$data" >"$tmp/rows-$t"
	awk -F'\t' '$1 == "ROW" && $8 == "UNLISTED" { print "  UNLISTED " $3 " (" ($5 == "-" ? $4 : $5) "): " $6 ", " $7 }
		$1 == "STALE" { print "  STALE entry " $2 " (" $3 "): " $4 " matches nothing" }' "$tmp/rows-$t"
	stage_end
	judge "$t" "$tmp/rows-$t"
done

# The table: one row per function (and file), a column per tree.
{
	echo "# make upstream-oracle: Linux $anchor's conversions in ${trees[*]}"
	echo
	echo "Written by scripts/upstream-oracle.sh from build trees; the differences' reasons are config/upstream-oracle's."
	echo "Classes: converted, moved (converted, defined in another file), absent (no such function: automatic),"
	echo "not-converted (upstream converted it, the tree did not), backport-only (the tree converted it, upstream did not)."
	echo "A file in parentheses is the trees' own (upstream has no such function there); kind: the converted type"
	echo "(unsized: struct sockaddr_unsized *; storage: struct sockaddr_storage * in a set-address file)."
	echo
	printf '| function | %s file | kind |' "$anchor"
	for t in "${trees[@]}"; do printf ' %s |' "$t"; done
	echo
	printf '|---|---|---|'
	for t in "${trees[@]}"; do printf -- '---|'; done
	echo
	for t in "${trees[@]}"; do awk -F'\t' -v t="$t" -v OFS='\t' '$1 == "ROW" { print t, $0 }' "$tmp/rows-$t"; done |
		awk -F'\t' -v trees="${trees[*]}" '
			{ key = $4 "\t" ($5 == "-" ? "(" $6 ")" : $5) "\t" $3
			  if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
			  cell = $7 ($6 != "-" && $6 != $5 ? " (" $6 ")" : "") ($9 == "listed" ? " †" : $9 == "UNLISTED" ? " **UNLISTED**" : "")
			  c[key, $1] = cell }
			END {
				nt = split(trees, T, " ")
				for (i = 1; i <= n; i++) {
					split(keys[i], k, "\t"); line = "| " k[1] " | " k[2] " | " k[3] " |"
					for (j = 1; j <= nt; j++) line = line " " ((keys[i], T[j]) in c ? c[keys[i], T[j]] : "-") " |"
					print line
				}
			}' | sort
	echo
	echo "† listed in config/upstream-oracle:"
	echo
	for t in "${trees[@]}"; do
		awk -F'\t' -v t="$t" '$1 == "ROW" && ($8 == "listed" || $8 == "UNLISTED") {
			printf "- %s, `%s` (%s), %s: %s\n", t, $3, ($5 == "-" ? $4 : $5), $6, ($8 == "listed" ? $9 : "**UNLISTED** (" $7 ")") }' "$tmp/rows-$t"
	done
} >"$md"

stage "break once: a converted callback reverted in a copy of $(rel "$(tree_dir "${trees[0]}" patched)")"
t=${trees[0]}
tdir=$(tree_dir "$t" "$(variant "$t")")
# The first callback both converted, by file and name, in a file of the
# tree spatch parsed whole.
pick=$(awk -F'\t' '$1 == "ROW" && $2 == "unsized" && $6 == "converted" { print $5 "\t" $3 }' "$tmp/rows-$t" |
	grep -v -F -f <(sed 's/$/\t/' "$tmp/defs-$t.parse") | sort | head -1)
bf=${pick%%$'\t'*} bfn=${pick#*$'\t'}
broken=$tmp/broken
if [ -n "$pick" ] && mkdir -p "$broken/$(dirname "$bf")" && cp "$tdir/$bf" "$broken/$bf"; then
	bl=$(awk -F'\t' -v f="$bf" -v fn="$bfn" '$2 == fn && $3 == f { print $4 }' "$tmp/defs-$t")
	# The definition's header, from its first line to its "{".
	sed -i "${bl},/{/ s/struct sockaddr_unsized \*/struct sockaddr */" "$broken/$bf"
	note "$bf:$bl: $bfn: $(sed -n "${bl},/{/p" "$broken/$bf" | tr -s '\t\n' '  ' | cut -c1-110)"
	# That file's definitions read again from the copy, the others as
	# they were: the same reading and the same comparison as above.
	(cd "$broken" && echo "$bf" >list && defs_of list) >"$tmp/broken.facts"
	{
		awk -F'\t' '$6 == 1 { print "SCOPE\t" $3 }' "$tmp/defs-$t" | sort -u
		awk -F'\t' -v f="$bf" -v OFS='\t' '$3 != f { print "DEF", $3, $4, $2, $5 }' "$tmp/defs-$t"
		cat "$tmp/broken.facts"
	} | awk -v mode=merge -f "$ROOT/scripts/upstream-oracle.awk" >"$tmp/defs-broken"
	out=$(compare "$t" "$tmp/defs-$anchor" "$tmp/defs-broken" "$data" |
		awk -F'\t' -v fn="$bfn" '$1 == "ROW" && $8 == "UNLISTED" { print "UNLISTED " $3 " (" ($5 == "-" ? $4 : $5) "): " $6 ", " $7; if ($3 == fn) hit = 1 }
			END { exit !hit }') && got=1 || got=0
	if [ "$got" = 1 ]; then
		result pass break-revert "$bfn in a copy of $bf takes struct sockaddr * -> $(grep -m1 -F "UNLISTED $bfn " <<<"$out")"
	else
		result fail break-revert "$bfn reverted in a copy of $bf: the comparison did not fail naming it (${out:-no unlisted difference})"
	fi
else
	result fail break-revert "no converted callback of $t to revert"
fi
# An entry for a difference that does not exist must fail as stale.
cp "$data" "$tmp/data-stale"
[ -n "$pick" ] || bfn=no-such-function bf=no/such/file.c
printf '%s\t%s\t%s\tnot-converted\tbroken on purpose\n' "$t" "$bfn" "$bf" >>"$tmp/data-stale"
if line=$(compare "$t" "$tmp/defs-$anchor" "$tmp/defs-$t" "$tmp/data-stale" | grep -m1 -P "^STALE\t\Q$bfn\E\t"); then
	result pass break-stale "an entry for $bfn ($bf), converted in both -> $(tr '\t' ' ' <<<"$line")"
else
	result fail break-stale "an entry for $bfn ($bf), converted in both, was not reported stale"
fi
stage_end

echo
sed -n '/^| function/,/^$/p' "$md"
echo "table: $(rel "$md")"
finish
