#!/bin/bash
# The out-of-tree modules that call an API the series changes, on every
# kernel Debian ships them for: one row per module version, one column
# per kernel (6.1 and 6.12 plain and patched, 7.3 upstream with the
# series), each cell the unfixed outcome and, after "/", the one with
# its fix of dkms/.  Read from the expectation files (config/expect/dkms,
# config/expect/6.1/dkms, config/expect/7.3/dkms: measured by make
# dkms-check of each tree), so it says what was measured and nothing
# else; "-" where a tree's list does not have the module, "not measured"
# where it has it and its expectations do not yet.
# Usage: scripts/dkms-kernels.sh   (a Markdown table on stdout)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

# The API users: a USES field that is not '-' in any tree's list.
users=$(cat "$ROOT"/dkms/modules "$ROOT"/dkms/modules-6.1 "$ROOT"/dkms/modules-7.3 |
	awk '!/^#/ && NF >= 5 && $5 != "-" && $5 != "tool" { print $1, $2, $3 }' | sort -u -k1,1 -k2,2 -k3,3V)
# cell EXPECT SUITE PACKAGE KERNEL: "outcome[/fixed]" of that kernel.
cell() {
	awk -v s="$2" -v p="$3" -v k="$4" '
		$1 == s && $2 == p && $3 == k { o = $4 }
		$1 == s && $2 == p && $3 == "fixed-" k { f = $4 }
		END { if (o == "") print "not measured"; else print o (f != "" ? " / " f : "") }' "$1" 2>/dev/null ||
		echo "not measured"
}
echo "| module | version | suite | 6.1 | 6.1 patched | 6.12 | 6.12 patched | 7.3 |"
echo "|---|---|---|---|---|---|---|---|"
while read -r s p v; do
	e61=$ROOT/config/expect/6.1/dkms e612=$ROOT/config/expect/dkms e73=$ROOT/config/expect/7.3/dkms
	# A tree's cell only when its list has this version of the module.
	has() { grep -q -E "^$s $p $(printf '%s' "$v" | sed 's/[.+~]/\\&/g') " "$ROOT/dkms/$1"; }
	c() { if has "$1"; then cell "$2" "$s" "$p" "$3"; else echo "-"; fi; }
	echo "| $p | $v | $s | $(c modules-6.1 "$e61" baseline) | $(c modules-6.1 "$e61" patched) | $(c modules "$e612" baseline) | $(c modules "$e612" patched) | $(c modules-7.3 "$e73" baseline) |"
done <<<"$users"
