#!/bin/bash
# checkpatch.pl --strict of the tree itself on every patch of the tree's
# series (run from inside the tree, as it expects): one result per patch,
# failed on any error.  Warnings are explained in the patches' port notes
# (upstream commit ids unknown to this tree, etc.) and shown as details.
# Usage: scripts/checkpatch.sh   (TREE=6.1: patches-6.1 on the 6.1 tree)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
results_init checkpatch
tree=$BUILD/src-patched
[ -x "$tree/scripts/checkpatch.pl" ] || fatal checkpatch "no tree: run make tree first"
stage "checkpatch --strict, $(rel "$SERIES_PATH")"
while read -r p; do
	total=$(cd "$tree" && ./scripts/checkpatch.pl --strict "$SERIES_PATH/$p" 2>/dev/null | grep '^total:')
	case "$total" in
	"total: 0 errors"*) result pass "${p%%-*}" "${total#total: }" ;;
	*) result fail "${p%%-*}" "${total:-no result from checkpatch.pl}" ;;
	esac
done < <(series_patches)
stage_end
finish
