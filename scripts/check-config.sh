#!/bin/bash
# Check that every option requested by the fragments survived olddefconfig.
# A later fragment overrides an earlier one (as in merge_config.sh).
# Usage: scripts/check-config.sh DOTCONFIG FRAGMENT...
# Exit 1 naming each dropped option.
set -euo pipefail
cfg=$1; shift
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		if grep -q "^$opt=[ym]" "$cfg"; then
			echo "ERROR: $opt requested off but is on in .config" >&2; bad=1
		fi ;;
	CONFIG_*=*) opt=${line%%=*}
		if ! grep -qxF "$line" "$cfg"; then
			got=$(grep -E "^$opt=|^# $opt is not set" "$cfg" || echo "absent")
			echo "ERROR: $opt dropped out of .config (requested ${line#*=}, got: $got)" >&2; bad=1
		fi ;;
	esac
done < <(cat "$@" | sed 's/[[:space:]]*#.*//' | grep '^CONFIG_' |
	awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = n++ } END { for (k in v) print o[k], v[k] }' |
	sort -n | cut -d' ' -f2-)
[ "$bad" = 0 ] || exit 1
echo "  config: all $(cat "$@" | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' | sort -u | wc -l) requested options present"
