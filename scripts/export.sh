#!/bin/bash
# make export FORMAT=stable|debian [SIGNOFF="Name <mail>"]: the series in
# the form a stable or a Debian kernel maintainer takes, under
# build/export/FORMAT/.
#
# stable  git format-patch files "[PATCH 6.12.y NN/15]", cover letter
#         included; every upstream-derived patch starts with
#         "commit <full sha> upstream." (a reimplementation gets it
#         above its "Backport of upstream commit" paragraph), keeps its
#         port note, gets the Stable-dep-of lines of patches/stable-deps
#         and, last, the exporter's Signed-off-by: SIGNOFF, else git's
#         user.name/user.email; with neither, it refuses.
# debian  patches/features/all/sockaddr-unsized/*.patch with DEP-3
#         headers (Origin: upstream|backport, <commit URL>; Forwarded:
#         not-needed; Last-Update: the date the patch last changed in
#         this repository), and series.append: the lines to append to
#         debian/patches/series.  No cover letter: it is not a patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

format=${1:-${FORMAT:-}}
SERIES_DIR=${SERIES_DIR:-$SERIES_PATH}
DEBIAN_SUBDIR=features/all/sockaddr-unsized
case "$format" in
stable | debian) ;;
*) die "FORMAT must be stable or debian (make export FORMAT=stable|debian [SIGNOFF=\"Name <mail>\"])" ;;
esac
out=${EXPORT_DIR:-$BUILD/export/$format}

signoff=
if [ "$format" = stable ]; then
	signoff=${SIGNOFF:-}
	if [ -z "$signoff" ]; then
		n=$(git config user.name 2>/dev/null || true)
		m=$(git config user.email 2>/dev/null || true)
		[ -n "$n" ] && [ -n "$m" ] && signoff="$n <$m>"
	fi
	[ -n "$signoff" ] || die "no Signed-off-by for the exporter: set SIGNOFF=\"Your Name <you@example.org>\" or git config user.name and user.email (none is ever invented)"
	[[ "$signoff" =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]] ||
		die "SIGNOFF must read \"Name <mail>\", got: $signoff"
	case "$signoff" in *@localhost*) die "SIGNOFF must be a real address, not @localhost: $signoff" ;; esac
fi

# last_update FILE: the date FILE last changed in this repository
# (reproducible: the same commit always exports the same bytes).
last_update() {
	local d
	d=$(git -C "$ROOT" log -1 --format=%cs -- "$1" 2>/dev/null || true)
	echo "${d:-$(date -u +%F)}"
}

# convert MODE FILE: one patch, rewritten for MODE on stdout.
convert() {
	local mode=$1 f=$2 nn dep
	nn=$(basename "$f" | cut -c3-4)
	dep=$(awk -v n="$nn" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$SERIES_DIR/stable-deps" 2>/dev/null || true)
	awk -v mode="$mode" -v signoff="$signoff" -v dep="$dep" -v lastupd="$(last_update "$f")" '
	function flush_subject() {
		if (subject == "") return
		if (mode == "stable") { print subject_raw }
		else { s = subject; sub(/^Subject: \[PATCH[^]]*\] */, "", s); print "Subject: " s }
		subject = ""
	}
	# Header: up to the first blank line; Subject may be folded.
	state == 0 {
		if (FNR == 1 && /^From [0-9a-f]+ /) { if (mode == "stable") print; next }
		if (/^ / && subject != "") { subject = subject $0; subject_raw = subject_raw "\n" $0; next }
		flush_subject()
		if (/^Subject: /) { subject = subject_raw = $0; next }
		if ($0 == "") { state = 1; nb = 0; next }
		print; next
	}
	# Body: up to the "---" line before the diffstat.
	state == 1 && $0 != "---" { body[++nb] = $0; next }
	state == 1 {
		up = ""; kind = ""
		for (i = 1; i <= nb; i++) {
			# (mawk has no {40}: match the run of hex, then check its length)
			if (match(body[i], /^commit [0-9a-f]+ upstream\.$/) && length(body[i]) == 57) {
				up = substr(body[i], 8, 40); kind = "upstream"; break
			}
			if (match(body[i], /^Backport of upstream commits? [0-9a-f]+/) && RLENGTH >= 40) {
				up = substr(body[i], RSTART + RLENGTH - 40, 40); kind = "backport"; break
			}
		}
		while (nb > 0 && body[nb] == "") nb--
		if (mode == "debian") {
			if (kind != "") print "Origin: " kind ", https://git.kernel.org/linus/" up
			print "Forwarded: not-needed"
			print "Last-Update: " lastupd
		}
		print ""
		if (mode == "stable" && kind == "backport") { print "commit " up " upstream."; print "" }
		for (i = 1; i <= nb; i++) print body[i]
		if (mode == "stable" && nb > 0) {
			if (dep != "") print "Stable-dep-of: " dep
			print "Signed-off-by: " signoff
		}
		print "---"; state = 2; next
	}
	{ print }
	' "$f"
}

stage "export $format"
rm -rf "$out"
mkdir -p "$out"
mapfile -t patches < <(series_patches "$SERIES_DIR/series")
[ "${#patches[@]}" -gt 0 ] || die "$(rel "$SERIES_DIR")/series lists no patches"
if [ "$format" = stable ]; then
	# The cover letter is no patch: no sign-off, taken as it is.
	cp "$SERIES_DIR/0000-cover-letter.patch" "$out/"
	for p in "${patches[@]}"; do
		convert stable "$SERIES_DIR/$p" >"$out/$p"
	done
	note "${#patches[@]} patches + cover letter in $(rel "$out"), signed off by $signoff"
	note "send: git send-email --to=stable@vger.kernel.org $(rel "$out")/*.patch"
else
	mkdir -p "$out/patches/$DEBIAN_SUBDIR"
	: >"$out/series.append"
	for p in "${patches[@]}"; do
		convert debian "$SERIES_DIR/$p" >"$out/patches/$DEBIAN_SUBDIR/$p"
		echo "$DEBIAN_SUBDIR/$p" >>"$out/series.append"
	done
	note "${#patches[@]} patches in $(rel "$out")/patches/$DEBIAN_SUBDIR"
	note "in the Debian kernel source: cp -r $(rel "$out")/patches/features debian/patches/ && cat $(rel "$out")/series.append >>debian/patches/series"
fi
# The project's fixes of pre-existing bugs (patches/fixes): their own set.
SIGNOFF=$signoff "$ROOT"/scripts/export-fixes.sh "$format" "$out/fixes"
stage_end
