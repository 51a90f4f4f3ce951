#!/bin/bash
# make cover-letter: put the verification paragraph that make report
# wrote (build/report/cover-paragraph.txt) into the series' cover letter,
# replacing the paragraph that starts with "Verification".  The only
# step that rewrites the tracked patch; make report never does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
para=${COVER_PARAGRAPH:-$BUILD/report/cover-paragraph.txt}
cover=$SERIES_PATH/0000-cover-letter.patch
[ -s "$para" ] || die "no $(rel "$para"): run make report first"
grep -q '^Verification' "$cover" || die "$(rel "$cover") has no Verification paragraph to replace"
awk -v para="$para" '
	/^Verification/ && !done { while ((getline l < para) > 0) print l; skip = 1; done = 1; next }
	skip && /^$/ { skip = 0 }
	!skip { print }
' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
note "$(rel "$cover"): verification paragraph from $(rel "$para")"
git -C "$ROOT" diff --stat -- "$cover" | sed 's/^/  /'
