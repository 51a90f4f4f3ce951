#!/bin/bash
# Check that every option requested by the fragments survived olddefconfig.
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
done < <(cat "$@" | sed 's/[[:space:]]*#.*//' | grep '^CONFIG_')
[ "$bad" = 0 ] || exit 1
echo "  config: all $(cat "$@" | grep -c '^CONFIG_') requested options present"
