#!/bin/bash
# The two exports checked the way their users take them (make check):
# stable's headers and sign-offs, then git am onto the pristine tree;
# Debian's DEP-3 headers, then quilt push -a --fuzz=0 onto the pristine
# tree, as Debian's build applies its patches.  Both must give exactly
# the tree the harness boots (src-patched).  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULTS=${RESULTS:-$BUILD/test-export.results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
signoff="Export Test <export-test@example.org>"
project=$(project_identity)
want_tree=$(git -C "$BUILD/src-patched" rev-parse 'HEAD^{tree}') || die "no patched tree: run make tree first"
mapfile -t patches < <(series_patches)
n=${#patches[@]}

# One scratch worktree of the pristine tree (the unpacked
# the tree's linux-source, committed as tag baseline), reset before each use.
wt=$BUILD/export-check
reset_wt() {
	if [ ! -e "$wt/.git" ]; then
		git -C "$BUILD/linux" worktree add -q -f --detach "$wt" baseline || return 1
	fi
	git -C "$wt" am --abort >/dev/null 2>&1
	git -C "$wt" checkout -q -f --detach baseline && git -C "$wt" reset -q --hard baseline &&
		git -C "$wt" clean -q -fdx
}
# tree_of_wt: the worktree's content as a git tree (quilt's .pc left out).
tree_of_wt() {
	rm -rf "$wt/.pc"
	git -C "$wt" add -A -f && git -C "$wt" write-tree
}

# verdict NAME DETAIL: pass when no problem was collected in bad[].
verdict() {
	if [ "${#bad[@]}" = 0 ]; then
		result pass "$1" "$2"
	else
		printf '    %s\n' "${bad[@]}"
		result fail "$1" "${#bad[@]} problems"
	fi
}

# --- stable --------------------------------------------------------------
stage "export tests"
if ! SIGNOFF=$signoff EXPORT_DIR=$tmp/stable "$ROOT"/scripts/export.sh stable >"$tmp/stable.out" 2>&1; then
	result fail export-stable "$(tail -1 "$tmp/stable.out")"
else
	result pass export-stable
	# Upstream authors: the From: of every patch that is an upstream commit.
	upstream_authors=$(for p in "${patches[@]}"; do
		grep -q -E '^Backport of upstream commit' "$SERIES_PATH/$p" ||
			grep -q -E '^commit [0-9a-f]{40} upstream\.$' "$SERIES_PATH/$p" &&
			sed -n 's/^From: //p' "$SERIES_PATH/$p" | head -1
	done | sort -u)
	bad=()
	i=0
	for p in "${patches[@]}"; do
		i=$((i + 1))
		f=$tmp/stable/$p
		nn=$(printf '%02d/%02d' "$i" "$n")
		# Headers: one From, Date and Subject each, numbered in order.
		hdr=$(sed '/^$/q' "$f")
		from=$(sed -e ':a' -e 'N; $!ba' -e 's/\n / /g' <<<"$hdr" | sed -n 's/^From: //p')
		[ "$(grep -c '^From: ' <<<"$hdr")" = 1 ] && [ "$(grep -c '^Date: ' <<<"$hdr")" = 1 ] &&
			grep -q "^Subject: \[PATCH $TREE_NAME.y $nn\] " <<<"$hdr" || bad+=("$p: headers")
		body=$(sed -n '/^$/,/^---$/p' "$f")
		# Upstream-derived: the full commit id first; the project's own
		# patch (no upstream commit) must say so.
		if grep -q -E '^(Backport of upstream commit|commit [0-9a-f]{40} upstream\.$)' <<<"$body"; then
			[ "$(sed -n '2p' <<<"$body")" != "" ] && grep -q -E '^commit [0-9a-f]{40} upstream\.$' <<<"$(sed -n '2p' <<<"$body")" ||
				bad+=("$p: no 'commit <40-hex sha> upstream.' first")
		elif [ "$from" != "$project" ] || ! grep -q '^Not an upstream commit' <<<"$body"; then
			bad+=("$p: neither upstream-derived nor the project's own")
		fi
		# A patch written here is the project's: its author line says so.
		if grep -q '^Backport of upstream commit' <<<"$body" && [ "$from" != "$project" ]; then
			bad+=("$p: reimplementation not authored by the project identity")
		fi
		# Sign-offs: upstream authors, the project (its own patches), the
		# exporter, and the exporter's last.
		while read -r s; do
			[ "$s" = "$signoff" ] || { [ "$s" = "$project" ] && [ "$from" = "$project" ]; } ||
				grep -q -x -F "$s" <<<"$upstream_authors" || bad+=("$p: Signed-off-by: $s")
		done < <(sed -n 's/^Signed-off-by: //p' <<<"$body")
		[ "$(grep '^Signed-off-by: ' <<<"$body" | tail -1)" = "Signed-off-by: $signoff" ] ||
			bad+=("$p: exporter's Signed-off-by not last")
		dep=$(awk -v n="${nn%/*}" '$1 == n' "$SERIES_PATH/stable-deps")
		if [ -n "$dep" ] && ! grep -q '^Stable-dep-of: [0-9a-f]\{12\} ("' <<<"$body"; then
			bad+=("$p: Stable-dep-of missing")
		fi
	done
	verdict export-stable-headers "$n patches: headers, 40-hex upstream ids, sign-offs, Stable-dep-of"
	# git am onto the pristine tree gives the harness's tree.
	if reset_wt && git -C "$wt" -c user.name="$(project_name)" -c user.email="$(project_email)" \
		am -q --keep-cr "${patches[@]/#/$tmp/stable/}" >"$tmp/am.log" 2>&1 && [ "$(tree_of_wt)" = "$want_tree" ]; then
		result pass export-stable-git-am-same-tree
	else
		head -3 "$tmp/am.log"
		result fail export-stable-git-am-same-tree "not the src-patched tree"
	fi
	# The fixes set (config/tree's fixes, scripts/export-fixes.sh): git
	# am on the pristine tree, as the tree alone takes it.
	if [ -n "${TREE_FIXES:-}" ]; then
		mapfile -t fixes < <(series_patches "$ROOT/$TREE_FIXES/series")
		if reset_wt && git -C "$wt" -c user.name="$(project_name)" -c user.email="$(project_email)" \
			am -q --keep-cr "${fixes[@]/#/$tmp/stable/fixes/}" >"$tmp/am-fixes.log" 2>&1 &&
			! grep -q -v "^Subject: \[PATCH $TREE_NAME.y\] " < <(grep -h '^Subject: ' "${fixes[@]/#/$tmp/stable/fixes/}"); then
			result pass export-stable-fixes-git-am "${#fixes[@]} fix(es), one [PATCH $TREE_NAME.y] mail each, git am on the pristine tree"
		else
			head -3 "$tmp/am-fixes.log"
			result fail export-stable-fixes-git-am "see the lines above"
		fi
	fi
fi

# --- the fixes as send-ready mails (make export-fixes) ---------------------
if [ -n "${TREE_FIXES:-}" ]; then
	base=$(printf '%040d' 0 | tr 0 a)
	# OUTDIR relative, as make export-fixes passes it ($(BUILD)/export/...):
	# the mails are checked from inside the tree, which once missed them.
	fx() { (cd "$tmp" && "$ROOT"/scripts/export-fixes.sh mail fx 2>&1); }
	msg=$(SIGNER='' BASE=$base fx); rc=$?
	check export-fixes-refuses-without-signer "rc=$rc: $(tail -c 120 <<<"$msg")" \
		eval '[ "$rc" != 0 ] && grep -q "Certificate of Origin" <<<"$msg" && [ ! -e "$tmp/fx" ]'
	msg=$(SIGNER="$(project_identity)" BASE=$base fx); rc=$?
	check export-fixes-refuses-project-identity "rc=$rc" \
		eval '[ "$rc" != 0 ] && grep -q "no person answers for" <<<"$msg"'
	msg=$(SIGNER='root <root@localhost>' BASE=$base fx); rc=$?
	check export-fixes-refuses-localhost "rc=$rc" eval '[ "$rc" != 0 ] && grep -q localhost <<<"$msg"'
	msg=$(SIGNER='A U Thor <author@example.com>' BASE=$base fx); rc=$?
	check export-fixes-refuses-example "rc=$rc" eval '[ "$rc" != 0 ] && grep -q "example domain" <<<"$msg"'
	# git's own test identity, allowed only here (EXPORT_FIXES_CHECK=1).
	export_ok=1
	msg=$(EXPORT_FIXES_CHECK=1 SIGNER='A U Thor <author@example.com>' BASE=$base UPSTREAM="$base $base" fx) || export_ok=0
	if [ "$export_ok" = 1 ]; then
		mapfile -t fixes < <(series_patches "$ROOT/$TREE_FIXES/series")
		bad=()
		for p in "${fixes[@]}"; do
			m=$tmp/fx/$p
			grep -q '^From: A U Thor <author@example.com>$' "$m" || bad+=("$p: From")
			grep -q '^Signed-off-by: A U Thor <author@example.com>$' "$m" || bad+=("$p: sign-off")
			grep -q '^To: .*@' "$m" && grep -q '^Cc: .*netdev@vger.kernel.org' "$m" || bad+=("$p: To/Cc")
			grep -q "^base-commit: $base\$" "$m" || bad+=("$p: base-commit")
			grep -q '^Reproducer (repro/' "$m" || bad+=("$p: reproducer")
			! grep -q 'Written by the sockaddr_unsized' "$m" || bad+=("$p: the project's paragraph")
			! grep -q -F "$(project_email)" "$m" || bad+=("$p: the project identity")
			if [ -n "$SERIES_PATH" ]; then
				grep -q "^commit $base upstream\.$" "$m" || bad+=("$p: commit ... upstream.")
			fi
		done
		check export-fixes-mails "${#fixes[@]} mail(s): From and sign-off the signer's, To/Cc, reproducer, base-commit, checkpatch --strict clean${bad[*]:+; ${bad[*]}}" \
			test "${#bad[@]}" = 0
	else
		result fail export-fixes-mails "$(tail -2 <<<"$msg")"
	fi
fi

# No sign-off to be had: refused, never invented.
msg=$(cd "$tmp" && SIGNOFF='' GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_DIR=$tmp/no-repo \
	EXPORT_DIR=$tmp/x "$ROOT"/scripts/export.sh stable 2>&1); rc=$?
if [ "$rc" != 0 ] && grep -q 'no Signed-off-by for the exporter' <<<"$msg" && [ ! -e "$tmp/x" ]; then
	result pass export-stable-refuses-without-signoff
else
	result fail export-stable-refuses-without-signoff "rc=$rc: $msg"
fi
msg=$(SIGNOFF='root <root@localhost>' EXPORT_DIR=$tmp/x "$ROOT"/scripts/export.sh stable 2>&1); rc=$?
if [ "$rc" != 0 ] && grep -q 'localhost' <<<"$msg"; then
	result pass export-stable-refuses-localhost
else
	result fail export-stable-refuses-localhost "rc=$rc"
fi

# --- debian --------------------------------------------------------------
if ! EXPORT_DIR=$tmp/debian "$ROOT"/scripts/export.sh debian >"$tmp/debian.out" 2>&1; then
	result fail export-debian "$(tail -1 "$tmp/debian.out")"
else
	result pass export-debian
	bad=()
	sub=features/all/sockaddr-unsized
	[ "$(cat "$tmp/debian/series.append")" = "$(printf "$sub/%s\n" "${patches[@]}")" ] ||
		bad+=("series.append does not list the series in order")
	for p in "${patches[@]}"; do
		f=$tmp/debian/patches/$sub/$p
		hdr=$(sed '/^$/q' "$f")
		grep -q '^From: ' <<<"$hdr" && grep -q '^Subject: [^[]' <<<"$hdr" || bad+=("$p: From/Subject")
		grep -q -x 'Forwarded: not-needed' <<<"$hdr" || bad+=("$p: Forwarded")
		grep -q -E '^Last-Update: [0-9]{4}-[0-9]{2}-[0-9]{2}$' <<<"$hdr" || bad+=("$p: Last-Update")
		if grep -q -E '^(Backport of upstream commit|commit [0-9a-f]{40} upstream\.$)' "$SERIES_PATH/$p"; then
			kind=upstream
			grep -q '^Backport of upstream commit' "$SERIES_PATH/$p" && kind=backport
			grep -q -E "^Origin: $kind, https://git.kernel.org/linus/[0-9a-f]{40}$" <<<"$hdr" ||
				bad+=("$p: Origin: $kind, <commit URL>")
		fi
		head -1 "$f" | grep -q '^From [0-9a-f]* Mon Sep' && bad+=("$p: mbox From line")
	done
	verdict export-debian-dep3 "$n patches: From, Subject, Origin, Forwarded, Last-Update; series.append"
	# quilt, as Debian's build applies it: no fuzz.
	mkdir -p "$tmp/qp"
	cp -r "$tmp/debian/patches/." "$tmp/qp/"
	cp "$tmp/debian/series.append" "$tmp/qp/series"
	if reset_wt && (cd "$wt" && QUILT_PATCHES=$tmp/qp QUILT_PC=.pc quilt push -a -q --fuzz=0) >"$tmp/quilt.log" 2>&1 &&
		[ "$(tree_of_wt)" = "$want_tree" ]; then
		result pass export-debian-quilt-fuzz0-same-tree "$(grep -c '^Applying' "$tmp/quilt.log") patches"
	else
		grep -v -e '^Applying' -e '^Now at patch' "$tmp/quilt.log" | head -5
		result fail export-debian-quilt-fuzz0-same-tree "see the quilt lines above"
	fi
	# The fixes set: DEP-3 Forwarded: no, quilt with no fuzz on the
	# pristine tree.
	if [ -f "$SERIES_PATH/fixes/series" ]; then
		mkdir -p "$tmp/qf"
		cp -r "$tmp/debian/fixes/patches/." "$tmp/qf/"
		cp "$tmp/debian/fixes/series.append" "$tmp/qf/series"
		if reset_wt && (cd "$wt" && QUILT_PATCHES=$tmp/qf QUILT_PC=.pc quilt push -a -q --fuzz=0) >"$tmp/quilt-fixes.log" 2>&1 &&
			! (cd "$tmp/qf" && xargs grep -L -x 'Forwarded: no' <series) | grep -q .; then
			result pass export-debian-fixes-quilt-fuzz0 "$(grep -c '^Applying' "$tmp/quilt-fixes.log") fix(es), Forwarded: no, quilt --fuzz=0 on the pristine tree"
		else
			grep -v -e '^Applying' -e '^Now at patch' "$tmp/quilt-fixes.log" | head -5
			result fail export-debian-fixes-quilt-fuzz0 "see the quilt lines above"
		fi
		# ... and on top of the series, as a Debian kernel with both
		# takes them: one quilt series, the 15 patches, then the fixes.
		mkdir -p "$tmp/qall"
		cp -r "$tmp/qp/." "$tmp/qf/." "$tmp/qall/"
		cat "$tmp/qp/series" "$tmp/qf/series" >"$tmp/qall/series"
		want=$(grep -c . "$tmp/qall/series")
		if reset_wt && (cd "$wt" && QUILT_PATCHES=$tmp/qall QUILT_PC=.pc quilt push -a -q --fuzz=0) >"$tmp/quilt-all.log" 2>&1 &&
			[ "$(grep -c '^Applying' "$tmp/quilt-all.log")" = "$want" ]; then
			result pass export-debian-fixes-on-series-quilt-fuzz0 "$want patches: the series, then the fixes, quilt --fuzz=0"
		else
			grep -v -e '^Applying' -e '^Now at patch' "$tmp/quilt-all.log" | head -5
			result fail export-debian-fixes-on-series-quilt-fuzz0 "see the quilt lines above"
		fi
	fi
fi
[ -n "${KEEP_WT:-}" ] || reset_wt >/dev/null 2>&1
stage_end
