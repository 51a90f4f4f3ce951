#!/bin/bash
# checkpatch.pl --strict of the tree itself on every patch of the series
# (run from inside the tree, as it expects).  Prints one total per patch;
# exit 1 if any patch has an error.  Warnings are explained in the
# patches' port notes (upstream commit ids unknown to this tree, etc.).
# Usage: scripts/checkpatch.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tree=$BUILD/src-patched
[ -x "$tree/scripts/checkpatch.pl" ] || die "no tree: run make tree first"
bad=0
while read -r p; do
	total=$(cd "$tree" && ./scripts/checkpatch.pl --strict "$SERIES_PATH/$p" 2>/dev/null | grep '^total:')
	echo "  $p: ${total:-no result}"
	case "$total" in "total: 0 errors"*) ;; *) bad=1 ;; esac
done < <(series_patches)
[ "$bad" = 0 ] && echo "checkpatch: 0 errors on every patch" || { echo "checkpatch: errors (see above)"; exit 1; }
