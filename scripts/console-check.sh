#!/bin/bash
# Fail, quoting the lines, when a console log shows a KASAN, UBSAN or
# FORTIFY report, a WARNING, BUG, Oops or panic.
# Usage: scripts/console-check.sh LOG
set -euo pipefail
pat='BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|field-spanning|fortify|general protection fault|Call Trace:'
if grep -a -n -E "$pat" "$1" >/tmp/console-check.$$ 2>/dev/null; then
	echo "Kernel reports in console log:" >&2
	head -20 /tmp/console-check.$$ | sed 's/^/  | /' >&2
	rm -f /tmp/console-check.$$
	exit 1
fi
rm -f /tmp/console-check.$$
