#!/bin/bash
# Unpack the tree's Debian source package (config/tree/$TREE: by default
# linux-source-6.12) under build/, keep a pristine baseline commit, and
# apply the tree's series (patches/series) with git am on a branch.  A
# tree of another suite (config/tree's suite key: 7.3, trixie-backports)
# is downloaded as data with private apt state (scripts/lib/aptdata.sh),
# never installed; a tree without series (7.3: upstream has it) gets
# the baseline worktree only.
#
# Usage: scripts/tree.sh [VARIANT...]   (idempotent; re-applies when
#        patches change).  VARIANT: baseline, patched (default both, or
#        baseline alone for a tree without series; make run needs only
#        the patched worktree).
# Result: build/linux (git repo), tags "baseline"; branch "patched";
#         worktrees build/src-baseline and build/src-patched (the bounds
#         demo adds its own, scripts/bounds-demo.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variants=("$@")
if [ "$#" = 0 ]; then
	variants=(baseline patched)
	[ -n "$TREE_SERIES" ] || variants=(baseline)
fi
for v in "${variants[@]}"; do
	case "$v" in baseline | patched) ;; *) die "unknown variant '$v' (baseline or patched)" ;; esac
	[ "$v" != patched ] || [ -n "$TREE_SERIES" ] || [ -n "${SERIES_DIR:-}" ] ||
		die "TREE=$TREE_NAME has no series (config/tree/$TREE_NAME): no patched tree, only baseline"
done
# A suite's tree: the tarball is taken from the downloaded package,
# into build/<build>/pkg/ at its path in the package.
if [ -n "$TREE_SUITE" ]; then
	TARBALL=${TARBALL:-$BUILD/pkg$TREE_TARBALL}
else
	TARBALL=${TARBALL:-$TREE_TARBALL}
fi
REPO=$BUILD/linux
SERIES_DIR=${SERIES_DIR:-$SERIES_PATH}

stage "tree"
if [ ! -f "$REPO/.unpacked" ]; then
	if [ -n "$TREE_SUITE" ] && [ "$TARBALL" = "$BUILD/pkg$TREE_TARBALL" ]; then
		[ -n "$TREE_VERSION" ] || die "config/tree/$TREE_NAME: suite $TREE_SUITE without a version pin"
		note "downloading $TREE_PACKAGE $TREE_VERSION ($TREE_SUITE) as data, apt state in $(rel "$BUILD/apt-$TREE_SUITE")"
		deb=$(apt_data_fetch "$TREE_SUITE" "$TREE_PACKAGE" "$TREE_VERSION" "$BUILD/debs" \
			"$BUILD/apt-$TREE_SUITE" "$BUILD" "config/tree/$TREE_NAME")
		rm -rf "$BUILD/pkg"; mkdir -p "$BUILD/pkg"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$BUILD/pkg" ".$TREE_TARBALL" ||
			die "$(rel "$deb") has no $TREE_TARBALL"
		pkgver=$(dpkg-deb -f "$deb" Version)
	else
		[ -f "$TARBALL" ] || die "$TREE_PACKAGE tarball missing: install the package (make deps)"
		pkgver=$(dpkg-query -W -f '${Version}' "$TREE_PACKAGE" 2>/dev/null || echo unknown)
	fi
	rm -rf "$REPO"
	need_space "$BUILD" 3000 "unpacking and committing the tree"
	mkdir -p "$REPO"
	note "unpacking $TREE_PACKAGE $pkgver"
	# Debian's tarball is xz in many blocks: xz decompresses them on
	# every core.
	tar -I 'xz -T0' -xf "$TARBALL" -C "$REPO" --strip-components=1 2>"$BUILD/tar.log" ||
		{ disk_full_hint "$REPO" "$BUILD/tar.log"; head -3 "$BUILD/tar.log" >&2; die "unpacking failed"; }
	git -C "$REPO" init -q -b pristine
	git -C "$REPO" config user.name "$(project_name)"
	git -C "$REPO" config user.email "$(project_email)"
	git -C "$REPO" config gc.auto 0
	note "committing pristine baseline"
	git -C "$REPO" add -A -f
	git -C "$REPO" commit -q -m "$TREE_PACKAGE $pkgver (pristine)"
	git -C "$REPO" tag -f baseline >/dev/null
	echo "$pkgver" >"$REPO/.pkgver"
	touch "$REPO/.unpacked"
fi

kv=$(make -s -C "$REPO" kernelversion 2>/dev/null)
echo "$kv" >"$BUILD/kernelversion"
note "tree: Linux $kv, Debian package $TREE_PACKAGE $(cat "$REPO/.pkgver")"
if [ "$kv" != "$TREE_VERIFIED" ]; then
	echo "WARNING: ****************************************************************"
	echo "WARNING: apt served Linux $kv; the series was last verified on $TREE_VERIFIED."
	echo "WARNING: carrying on, but results are for an unverified tree."
	echo "WARNING: ****************************************************************"
fi


# checkout.workers: the worktree's 88,000 files written by every core.
for v in "${variants[@]}"; do
	if [ ! -d "$BUILD/src-$v" ]; then
		need_space "$BUILD" 1600 "worktree src-$v"
		git -C "$REPO" -c checkout.workers=0 worktree add -q -f --detach "$BUILD/src-$v" baseline
	fi
done

# The patched branch is rebuilt only when the series changes.
if [ ! -d "$BUILD/src-patched" ]; then
	: # only the baseline asked for (or no series)
elif [ -z "$SERIES_DIR" ]; then
	die "no series to apply to $(rel "$BUILD/src-patched") (config/tree/$TREE_NAME has none)"
elif sum=$(series_sum "$SERIES_DIR/series"); [ "$(cat "$BUILD/patched.series-sum" 2>/dev/null)" != "$sum" ]; then
	P=$BUILD/src-patched
	git -C "$P" am --abort >/dev/null 2>&1 || true
	git -C "$P" checkout -q -B patched baseline
	n=0
	while read -r p; do
		n=$((n + 1))
		if ! git -C "$P" am -q --keep-cr "$SERIES_DIR/$p" >"$BUILD/am.log" 2>&1; then
			echo "ERROR: patch does not apply: $p" >&2
			files=$(git -C "$P" am --show-current-patch=diff 2>/dev/null |
				grep '^diff --git' | awk '{print $3}' | sed 's|^a/||' | sort -u || true)
			# Name only the files whose hunks fail.
			bad=$(git -C "$P" apply --check "$SERIES_DIR/$p" 2>&1 |
				sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist.*/\1/p' | sort -u || true)
			echo "ERROR: failing files: ${bad:-$files}" >&2
			git -C "$P" am --abort >/dev/null 2>&1 || true
			exit 1
		fi
	done < <(series_patches "$SERIES_DIR/series")
	echo "$sum" >"$BUILD/patched.series-sum"
	note "applied $n patch(es) from $(rel "$SERIES_DIR")/series"
else
	note "patched branch up to date ($(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches)"
fi

stage_end
