#!/bin/bash
# The project's fixes of pre-existing bugs (config/tree's fixes folder:
# patches-7.3/fixes, the submission for mainline; patches/fixes and
# patches-6.1/fixes, the stable backports), exported one mail per fix:
#
# mail    send-ready mails, for make export-fixes: the signer (SIGNER,
#         "Name <mail>", a real person who certifies the Developer's
#         Certificate of Origin) becomes the author and signs off, the
#         project's first paragraph about that goes, To/Cc come from the
#         tree's get_maintainer.pl (the fix's own files, plus the
#         maintainers of the drivers that make the devices, bonding,
#         team and tun, as FYI), the standalone reproducer (repro/, the
#         file whose "Fix:" line names the patch's subject) goes below
#         "---" with the run that measured it (ledger/check-fix.<tree>),
#         and base-commit: BASE ends it.  A stable backport starts with
#         "commit <UPSTREAM> upstream." (UPSTREAM: the mainline ids, in
#         series order; until merged, refused).  Refused without a
#         signer or with one that cannot certify (the project's identity,
#         a reserved or local address), never invented; the harness's
#         own test passes EXPORT_FIXES_CHECK=1 to sign as an example.com
#         address into a temporary folder.
# stable  for make export FORMAT=stable: the git format-patch files as
#         they are, the exporter's Signed-off-by (SIGNOFF) added last.
# debian  patches/bugfix/all/*.patch with DEP-3 headers (From, Subject,
#         Forwarded: no, Last-Update) and a first description paragraph
#         saying why not forwarded; series.append.  quilt takes them.
#
# Usage: scripts/export-fixes.sh mail|stable|debian OUTDIR
# Nothing is exported when the tree names no fixes folder.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Absolute: checkpatch runs from inside the tree.
format=$1 out=$(realpath -m "$2")
FIXES_DIR=${FIXES_DIR:-${TREE_FIXES:+$ROOT/$TREE_FIXES}}
DEBIAN_SUBDIR=bugfix/all
# Where they would go: MAINTAINERS of the tree, IEEE 802.15.4 SUBSYSTEM
# and NETWORKING [GENERAL].
NOT_FORWARDED="Not forwarded: not yet sent; to be sent to linux-wpan@vger.kernel.org and\\nnetdev@vger.kernel.org (MAINTAINERS: IEEE 802.15.4 SUBSYSTEM, NETWORKING\\n[GENERAL]), and to stable@vger.kernel.org once in mainline."
# The drivers that make the devices the fixes are about: FYI.
FYI_PATHS=(drivers/net/bonding/ drivers/net/team/ drivers/net/tun.c)
[ -n "$FIXES_DIR" ] && [ -f "$FIXES_DIR/series" ] || exit 0
mapfile -t fixes < <(series_patches "$FIXES_DIR/series")
[ "${#fixes[@]}" -gt 0 ] || exit 0

last_update() {
	local d
	d=$(git -C "$ROOT" log -1 --format=%cs -- "$1" 2>/dev/null || true)
	echo "${d:-$(date -u +%F)}"
}

# convert MODE FILE: one patch on stdout (stable, debian).
convert() {
	awk -v mode="$1" -v signoff="${SIGNOFF:-}" -v lastupd="$(last_update "$2")" \
		-v nf="$NOT_FORWARDED" '
	state == 0 {
		if (FNR == 1 && /^From [0-9a-f]+ /) { if (mode == "stable") print; next }
		if (mode == "debian" && /^Subject: /) sub(/^Subject: \[[^]]*\] */, "Subject: ")
		if ($0 == "") {
			if (mode == "debian") { print "Forwarded: no"; print "Last-Update: " lastupd }
			print ""
			if (mode == "debian") { print nf; print "" }
			state = 1; next
		}
		print; next
	}
	state == 1 && /^Signed-off-by: / { last = $0 }
	state == 1 && $0 == "---" {
		if (mode == "stable" && signoff != "" && last != "Signed-off-by: " signoff)
			print "Signed-off-by: " signoff
		state = 2
	}
	{ print }
	' "$2"
}

# --- mail: send-ready, one per fix --------------------------------------
# signer_ok: SIGNER reads "Name <mail>" and can certify the DCO.
signer_ok() {
	local why="make export-fixes needs SIGNER=\"Your Name <you@your.domain>\": the person who sends the fixes, certifies the Developer's Certificate of Origin (Documentation/process/submitting-patches.rst) and becomes their author; the project cannot, and none is ever invented"
	[ -n "${SIGNER:-}" ] || die "$why"
	[[ "$SIGNER" =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@([^\<\>@\ ]+)\>$ ]] || die "SIGNER must read \"Name <mail>\", got: $SIGNER"
	local domain=${BASH_REMATCH[1],,}
	[ "$SIGNER" != "$(project_identity)" ] ||
		die "SIGNER is the project's identity (config/identity), which no person answers for: $why"
	case $domain in
	localhost | localhost.* | *.localdomain | *.invalid | *.test | *.local)
		die "SIGNER's address is local or reserved ($domain), nobody reads it: $why" ;;
	example | *.example | example.com | example.org | example.net)
		# RFC 2606's example domains: only for the harness's own test
		# of the mails (EXPORT_FIXES_CHECK=1, a temporary folder).
		[ "${EXPORT_FIXES_CHECK:-0}" = 1 ] ||
			die "SIGNER's address is an example domain ($domain), nobody reads it: $why" ;;
	esac
}

# maintainers OPTIONS... -- FILE...: get_maintainer.pl's addresses, one
# per line, without roles, git history or the fallback to all of LKML.
maintainers() {
	(cd "$src" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats --no-tree --no-multiline "$@" 2>/dev/null) | tr ',' '\n' |
		sed 's/^ *//; /^$/d'
}

# repro_for SUBJECT: the repro/ file whose "Fix:" line names SUBJECT.
repro_for() {
	grep -l -F -x " * Fix: $1" "$ROOT"/repro/*.c 2>/dev/null | head -1
}

# measured: the check-fix record of this tree, one line, or why none.
measured() {
	python3 - "$ROOT/ledger/check-fix.$TREE_NAME.${ARCH_NAME:-x86_64}.json" <<'EOF'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except OSError:
    print("no make check-fix record of this tree yet (ledger/)")
    sys.exit()
print("make check-fix TREE=%s: %s passed, %s failed, %s skipped, verdict %s, on %s (commit %s of the project)"
      % (r.get("tree"), r.get("passed"), r.get("failed"), r.get("skipped"),
         r.get("verdict"), r.get("date", "?")[:10], r.get("commit", "?")[:12]))
EOF
}

# mail N FILE: fix number N (1-based) as a send-ready mail on stdout.
mail() {
	local n=$1 f=$2 subject bare repro to cc fyi upstream=
	subject=$(awk '/^Subject: /{s=$0; getline; while (/^ /) {s=s $0; getline}; print s; exit}' "$f" |
		sed 's/^Subject: //')
	bare=$(sed 's/^\[[^]]*\] *//' <<<"$subject")
	repro=$(repro_for "$bare")
	[ -n "$repro" ] || die "no repro/*.c has \" * Fix: $bare\": every fix is sent with its reproducer"
	to=$(maintainers --no-l --no-r "$f" | paste -sd ',' - | sed 's/,/, /g')
	cc=$(maintainers --no-m "$f" | paste -sd ',' - | sed 's/,/, /g')
	fyi=$(maintainers --no-l --no-r -f "${FYI_PATHS[@]}" | grep -v -x -F -f <(maintainers --no-l --no-r "$f") |
		paste -sd ',' - | sed 's/,/, /g')
	if [ "$stable" = 1 ]; then
		upstream=$(awk -v n="$n" '{ print $n }' <<<"$UPSTREAM")
		[[ $upstream =~ ^[0-9a-f]{40}$ ]] || die "UPSTREAM must give the 40-hex mainline id of each fix, in series order: a stable backport names its commit, and these are not merged yet"
		cc="$to${cc:+, $cc}"; to="stable@vger.kernel.org"
	fi
	awk -v signer="$SIGNER" -v to="$to" -v cc="$cc${fyi:+, $fyi}" -v upstream="$upstream" \
		-v base="$BASE" -v reprofile="$repro" -v reproname="repro/$(basename "$repro")" \
		-v measured="$(measured)" -v fyitxt="$fyi" '
	state == 0 {
		if (/^From: /) { print "From: " signer; skipfold = 1; next }
		if (skipfold && /^ /) next
		skipfold = 0
		if (/^Subject: /) { insubj = 1; print; next }
		if (insubj && /^ /) { print; next }
		if (insubj) { insubj = 0; print "To: " to; if (cc != "") print "Cc: " cc }
		if ($0 == "") { print; state = 1; para = 0; next }
		print; next
	}
	# The first paragraph (the project wrote it, the signer sends it) goes.
	state == 1 {
		if (!para && upstream != "") { print "commit " upstream " upstream."; print "" }
		para = 1
		if ($0 == "") { state = 2 }
		next
	}
	state == 2 && $0 == "---" {
		print "Signed-off-by: " signer
		print "---"
		print "Prepared with the sockaddr_unsized backport project, whose harness"
		print "measured it: " measured "."
		if (fyitxt != "") print "The bonding, team and tun maintainers are copied as FYI: their devices\nreach this; the fix stays on the 802.15.4 side."
		print ""
		print "Reproducer (" reproname "):"
		print ""
		while ((getline line < reprofile) > 0) print "    " line
		print ""
		state = 3; next
	}
	state == 3 && $0 == "-- " && !based { print "base-commit: " base; print ""; based = 1 }
	{ print }
	' "$f"
}

rm -rf "$out"
case $format in
mail)
	signer_ok
	[[ ${BASE:-} =~ ^[0-9a-f]{40}$ ]] ||
		die "make export-fixes needs BASE=<40-hex commit id> for base-commit: the tree here is Debian's tarball of $(cat "$BUILD/kernelversion" 2>/dev/null || echo "$TREE_NAME"), which carries no upstream commit id; give the id of the tree you tested them on (the wpan tree for mainline)"
	if [ -n "$SERIES_PATH" ]; then stable=1; src=$BUILD/src-patched; else stable=0; src=$BUILD/src-baseline; fi
	[ -x "$src/scripts/get_maintainer.pl" ] || die "no tree at $(rel "$src") (make tree TREE=$TREE_NAME)"
	mkdir -p "$out"
	i=0
	for p in "${fixes[@]}"; do
		i=$((i + 1))
		mail "$i" "$FIXES_DIR/$p" >"$out/$p"
		# The mail as sent, checked by the tree's own checkpatch.pl;
		# only the Fixes: ids a tarball without history cannot know.
		cp_out=$(cd "$src" && ./scripts/checkpatch.pl --strict --ignore UNKNOWN_COMMIT_ID "$out/$p" 2>&1) || true
		res=$(grep '^total:' <<<"$cp_out" || true)
		case $res in
		"total: 0 errors, 0 warnings, 0 checks"*) note "$p: checkpatch --strict: $res" ;;
		*) die "$(rel "$out")/$p: checkpatch --strict: ${res:-no verdict: $(tail -1 <<<"$cp_out" | unroot)}" ;;
		esac
	done
	note "fixes: ${#fixes[@]} mail(s) in $(rel "$out"), one per fix, from $SIGNER"
	note "send each: git send-email $(rel "$out")/<file> (To/Cc are in the mail)"
	;;
stable)
	mkdir -p "$out"
	for p in "${fixes[@]}"; do
		convert stable "$FIXES_DIR/$p" >"$out/$p"
	done
	note "fixes: ${#fixes[@]} patch(es) in $(rel "$out"); to send them, make export-fixes SIGNER=... BASE=... UPSTREAM=... (after mainline merges them)"
	;;
debian)
	mkdir -p "$out/patches/$DEBIAN_SUBDIR"
	: >"$out/series.append"
	for p in "${fixes[@]}"; do
		convert debian "$FIXES_DIR/$p" >"$out/patches/$DEBIAN_SUBDIR/$p"
		echo "$DEBIAN_SUBDIR/$p" >>"$out/series.append"
	done
	note "fixes: ${#fixes[@]} patch(es) in $(rel "$out")/patches/$DEBIAN_SUBDIR"
	;;
*) die "format must be mail, stable or debian" ;;
esac
