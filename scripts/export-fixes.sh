#!/bin/bash
# The project's fixes of pre-existing 6.12 bugs (patches/fixes, their
# own series and cover letter), exported beside the series by
# scripts/export.sh as their own set:
#
# stable  git format-patch files as in patches/fixes, "[PATCH wpan N/M]"
#         made "[PATCH 6.12.y N/M]", the exporter's Signed-off-by
#         (SIGNOFF) added last unless it is the author's own; the cover
#         letter says the fix is not in mainline yet.  git am takes them.
# debian  patches/bugfix/all/*.patch with DEP-3 headers (From, Subject,
#         Forwarded: no, Last-Update) and a first description paragraph
#         saying why not forwarded; series.append.  quilt takes them.
#
# Usage: scripts/export-fixes.sh stable|debian OUTDIR   (SIGNOFF for stable)
# Nothing is exported when patches/fixes has no series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

format=$1 out=$2
FIXES_DIR=${FIXES_DIR:-$SERIES_PATH/fixes}
DEBIAN_SUBDIR=bugfix/all
# Where they would go: MAINTAINERS of the tree, IEEE 802.15.4 SUBSYSTEM
# and NETWORKING [GENERAL].
NOT_FORWARDED="Not forwarded: not yet sent; to be sent to linux-wpan@vger.kernel.org and\\nnetdev@vger.kernel.org (MAINTAINERS: IEEE 802.15.4 SUBSYSTEM, NETWORKING\\n[GENERAL]), and to stable@vger.kernel.org once in mainline."
[ -f "$FIXES_DIR/series" ] || exit 0
mapfile -t fixes < <(series_patches "$FIXES_DIR/series")
[ "${#fixes[@]}" -gt 0 ] || exit 0

last_update() {
	local d
	d=$(git -C "$ROOT" log -1 --format=%cs -- "$1" 2>/dev/null || true)
	echo "${d:-$(date -u +%F)}"
}

# convert MODE FILE: one patch (or the cover letter) on stdout.
convert() {
	awk -v mode="$1" -v signoff="${SIGNOFF:-}" -v lastupd="$(last_update "$2")" \
		-v nf="$NOT_FORWARDED" -v cover="$3" '
	state == 0 {
		if (FNR == 1 && /^From [0-9a-f]+ /) { if (mode == "stable") print; next }
		if (/^Subject: /) {
			if (mode == "stable") sub(/\[PATCH [a-z-]+/, "[PATCH 6.12.y")
			else sub(/^Subject: \[[^]]*\] */, "Subject: ")
		}
		if ($0 == "") {
			if (mode == "debian") { print "Forwarded: no"; print "Last-Update: " lastupd }
			print ""
			if (mode == "debian") { print nf; print "" }
			if (mode == "stable" && cover == 1) {
				print "For 6.12.y, tested on 6.12.118.  Not in mainline yet: for mainline"
				print "first (the wpan tree, then net); then for 6.12.y with \"commit <sha>"
				print "upstream.\" as the first line of the patch."
				print ""
			}
			state = 1; next
		}
		print; next
	}
	state == 1 && /^Signed-off-by: / { last = $0 }
	state == 1 && $0 == "---" {
		if (mode == "stable" && signoff != "" && last != "" && last != "Signed-off-by: " signoff)
			print "Signed-off-by: " signoff
		state = 2
	}
	{ print }
	' "$2"
}

rm -rf "$out"
if [ "$format" = stable ]; then
	mkdir -p "$out"
	convert stable "$FIXES_DIR/0000-cover-letter.patch" 1 >"$out/0000-cover-letter.patch"
	for p in "${fixes[@]}"; do
		convert stable "$FIXES_DIR/$p" 0 >"$out/$p"
	done
	note "fixes: ${#fixes[@]} patch(es) + cover letter in $(rel "$out")"
else
	mkdir -p "$out/patches/$DEBIAN_SUBDIR"
	: >"$out/series.append"
	for p in "${fixes[@]}"; do
		convert debian "$FIXES_DIR/$p" 0 >"$out/patches/$DEBIAN_SUBDIR/$p"
		echo "$DEBIAN_SUBDIR/$p" >>"$out/series.append"
	done
	note "fixes: ${#fixes[@]} patch(es) in $(rel "$out")/patches/$DEBIAN_SUBDIR"
fi
