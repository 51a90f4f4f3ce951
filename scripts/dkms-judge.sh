#!/bin/bash
# make dkms-check's verdict: measured outcomes against config/expect/dkms.
# One result per module (SUITE PACKAGE) of OUTCOMES, in its order:
#  - every line of the module (baseline, patched, fixed-*, fix) must be
#    the expected one, word for word (outcome and first error);
#  - a module that builds on the baseline and not on the patched kernel
#    needs a fix of dkms/ that builds on both, and a word in
#    docs/out-of-tree-modules.md;
#  - on a tree without series (7.3: one kernel), a module that calls a
#    changed API and fails there at an error naming one of them needs a
#    fix of dkms/ that builds, or whose build fails at an error naming
#    none of them;
# and an expectation for a module the tree's dkms_modules list no longer
# has fails.
# Lines of OUTCOMES and EXPECT: SUITE PACKAGE KERNEL OUTCOME [FIRST-ERROR]
# (KERNEL: baseline, patched, fixed-baseline, fixed-patched or fix).
# Records with lib.sh's result (RESULTS); exit 1 when one failed.
# Usage: scripts/dkms-judge.sh OUTCOMES [EXPECT]   (default the tree's:
#        config/expect/dkms, config/expect/6.1/dkms)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

OUT=$1
EXPECT=${2:-$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}dkms}
MODULES=$(tree_dkms_modules) || exit 1
DOC=$ROOT/docs/out-of-tree-modules.md
[ -n "${RESULTS:-}" ] || die "dkms-judge: no RESULTS file (run from dkms-check or run_results)"
grep -q -v -E '^(#|$)' "$OUT" || { result fail dkms-outcomes "no outcome measured ($(rel "$OUT") empty)"; exit 1; }
[ -r "$EXPECT" ] || { result fail dkms-expect "no expectation file $(rel "$EXPECT")"; exit 1; }
# Named from the project root; a scratch copy (the break tests) by its name.
exp=$(rel "$EXPECT")
[[ $exp != /* ]] || exp="the expectations ($(basename "$EXPECT"))"
rc=0 fx=
lines() { grep -v -E '^(#|$)' "$1" | awk -v s="$2" -v p="$3" '$1 == s && $2 == p'; }
# fixed_clear SUITE PACKAGE OUTCOMES: the module's fixed build on a tree
# without series builds, or fails at an error that names none of the
# APIs its USES field lists (kernel_bind, ops->bind, ...): the fix did
# its part, and the module fails there for another reason (Debian 13's
# LiME 1.9.1 on 7.3: objtool's init_module() check).  Says which.
fixed_clear() {
	local fixed
	fixed=$(awk -v s="$1" -v p="$2" '$1 == s && $2 == p && $3 == "fixed-baseline" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' <<<"$3")
	[ -n "$fixed" ] || { echo "no fixed build"; return 1; }
	[ "$fixed" != builds ] || { echo "fixed builds"; return 0; }
	if names_api "$1" "$2" "$fixed"; then
		echo "fixed still ${fixed#fails }"
		return 1
	fi
	echo "fixed fails for a reason the series has no part in: ${fixed#fails }"
}

# names_api SUITE PACKAGE TEXT: TEXT (an outcome's first error) names an
# API the module's USES field lists.
names_api() {
	local api
	for api in $(awk -v s="$1" -v p="$2" '$1 == s && $2 == p { print $5 }' "$MODULES" | tr ',' '\n' | cut -d: -f1 | sort -u); do
		[[ $3 == *"$api"* ]] && return 0
	done
	return 1
}

# uses_api SUITE PACKAGE: the list says the module calls an API the
# series changes (its USES field is not '-').
uses_api() { awk -v s="$1" -v p="$2" '$1 == s && $2 == p && $5 != "-" { f = 1 } END { exit !f }' "$MODULES"; }
while read -r s p; do
	want=$(lines "$EXPECT" "$s" "$p")
	got=$(lines "$OUT" "$s" "$p")
	b=$(awk '$3 == "baseline" { print $4 }' <<<"$got")
	pt=$(awk '$3 == "patched" { print $4 }' <<<"$got")
	fixed_both=0
	grep -q "^$s $p fixed-baseline builds" <<<"$got" && grep -q "^$s $p fixed-patched builds" <<<"$got" && fixed_both=1
	if [ "$want" != "$got" ]; then
		result fail "dkms-$s-$p" "outcome differs from $exp"
		diff <(echo "$want") <(echo "$got") | grep '^[<>]' | sed 's/^</  expected:/; s/^>/  measured:/'
		rc=1
		continue
	fi
	# A tree without series (7.3): one kernel; a module that calls a
	# changed API and fails there at an error naming one needs a fix of
	# dkms/ that clears it.
	if [ -z "$SERIES_PATH" ]; then
		if [ "$b" != builds ] && uses_api "$s" "$p" &&
			names_api "$s" "$p" "$(awk '$3 == "baseline"' <<<"$got")" && ! fx=$(fixed_clear "$s" "$p" "$got"); then
			result fail "dkms-$s-$p" "calls a changed API, fails on $TREE_NAME and no fix in dkms/ clears it: $fx"
			rc=1
		else
			[ "$b" = builds ] || names_api "$s" "$p" "$(awk '$3 == "baseline"' <<<"$got")" ||
				fx="fails for a reason the series has no part in${fx:+; $fx}"
			result pass "dkms-$s-$p" "$TREE_NAME: $b${fx:+; $fx}"
		fi
		fx=
		continue
	fi
	if [ "$b" = builds ] && [ "$pt" != builds ] && [ "$fixed_both" = 0 ]; then
		result fail "dkms-$s-$p" "broken by the series and no fix in dkms/ that builds on both kernels"
		rc=1
	elif [ "$b" = builds ] && [ "$pt" != builds ] && ! grep -q -F "$p" "$DOC"; then
		result fail "dkms-$s-$p" "broken by the series and not in $(rel "$DOC")"
		rc=1
	else
		result pass "dkms-$s-$p" "baseline $b, patched $pt$([ "$fixed_both" = 1 ] && echo ", fixed builds on both")"
	fi
done < <(grep -v -E '^(#|$)' "$OUT" | awk '!seen[$1 " " $2]++ { print $1, $2 }')
# An expectation for a module the list no longer has: the list lost it.
while read -r s p; do
	grep -q -E "^$s $p " "$MODULES" || { result fail "dkms-$s-$p" "in $exp but not in $(rel "$MODULES")"; rc=1; }
done < <(grep -v -E '^(#|$)' "$EXPECT" | awk '!seen[$1 " " $2]++ { print $1, $2 }')
exit "$rc"
