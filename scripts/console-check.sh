#!/bin/bash
# Fail, quoting the lines, when a console log shows a kernel report: any
# line of config/kernel-reports (KASAN, UBSAN, FORTIFY, WARNING, BUG,
# Oops, panic, ...).
# Usage: scripts/console-check.sh LOG
set -uo pipefail
. "$(dirname "$0")/lib.sh"
hits=$(report_lines "$1")
[ -z "$hits" ] && exit 0
echo "Kernel reports in console log:" >&2
echo "$hits" | head -20 | sed 's/^/  | /' >&2
exit 1
