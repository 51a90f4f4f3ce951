#!/bin/bash
# Fail, quoting the lines, when a console log shows a KASAN, UBSAN or
# FORTIFY report, a WARNING, BUG, Oops or panic.
# Usage: scripts/console-check.sh LOG
set -uo pipefail
pat='BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|field-spanning|fortify|general protection fault|Call Trace:'
hits=$(grep -a -n -E "$pat" "$1")
[ -z "$hits" ] && exit 0
echo "Kernel reports in console log:" >&2
echo "$hits" | head -20 | sed 's/^/  | /' >&2
exit 1
