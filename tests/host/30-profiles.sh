# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: The profiles that make a tree, an arch and a userland
# data: every key set, unknown names refused.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# Architecture profiles: every config/arch file sets every key that
# config/arch/README documents, its fragment exists, and an unknown ARCH
# stops naming the known ones.
keys=$(sed -n 's/^#   \([a-z_0-9][a-z_0-9]*\) .*/\1/p' "$ROOT/config/arch/README")
bad=()
for f in "$ROOT"/config/arch/*; do
	[ "$(basename "$f")" = README ] && continue
	for k in $keys; do
		grep -q -E "^${k}[[:space:]]+[^[:space:]]" "$f" || bad+=("$(basename "$f"): no $k")
	done
	for frag in $(sed -n 's/^fragment[[:space:]]\+//p' "$f"); do
		[ "$frag" = - ] || [ -f "$ROOT/config/$frag" ] || bad+=("$(basename "$f"): no config/$frag")
	done
done
msg=$(ARCH=nosuch bash -c ". '$ROOT/scripts/lib.sh'" 2>&1)
grep -q "unknown ARCH 'nosuch' (config/arch has: .*x86_64" <<<"$msg" || bad+=("ARCH=nosuch: $msg")
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass arch-profiles-complete "$(echo "$keys" | wc -w) keys"
else
	result fail arch-profiles-complete "${bad[*]}"
fi

# Tree profiles: every config/tree file sets every key config/tree/README
# documents (those marked optional aside); a tree of another suite pins
# its version; a series folder exists; a no_pipeline line names a
# pipeline of config/pipelines, and no row there is one its tree refuses.
bad=()
keys=$(awk '/^#   [a-z_0-9]+ / { k = $2; desc[k] = ""; order[++n] = k; sub(/^#   [a-z_0-9]+ +/, ""); desc[k] = $0; next }
	/^#      / && k != "" { desc[k] = desc[k] " " $0; next } { k = "" }
	END { for (i = 1; i <= n; i++) if (desc[order[i]] !~ /\(optional/) print order[i] }' "$ROOT/config/tree/README")
pipes=$(python3 "$ROOT/scripts/ledger.py" rows | awk '{ print $2 }' | sort -u)
for f in "$ROOT"/config/tree/*; do
	t=$(basename "$f")
	[ "$t" = README ] && continue
	for k in $keys; do
		grep -q -E "^${k}[[:space:]]+[^[:space:]]" "$f" || bad+=("$t: no $k")
	done
	suite=$(sed -n 's/^suite[[:space:]]\+//p' "$f")
	[ "$suite" = - ] || [ "$(sed -n 's/^version[[:space:]]\+//p' "$f")" != - ] || bad+=("$t: suite $suite without a version")
	series=$(sed -n 's/^series[[:space:]]\+//p' "$f")
	[ "$series" = - ] || [ -f "$ROOT/$series/series" ] || bad+=("$t: no $series/series")
	while read -r _ p _; do
		grep -qx -- "$p" <<<"$pipes" || bad+=("$t: no_pipeline $p is no pipeline of config/pipelines")
		python3 "$ROOT/scripts/ledger.py" rows | awk -v p="$p" -v t="$t" '$2 == p && $3 == t { f = 1 } END { exit !f }' &&
			bad+=("$t: config/pipelines has a row of $p, which it refuses")
	done < <(grep -E '^no_pipeline[[:space:]]' "$f")
done
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass tree-profiles-complete "$(echo "$keys" | wc -w) keys in $(find "$ROOT/config/tree" -type f ! -name README | wc -l) profiles"
else
	result fail tree-profiles-complete "${bad[*]}"
fi

# Userland profiles: every config/userland file sets every key its README
# documents; its files exist; its trees are config/tree profiles and
# config/pipelines has its check-<name> row for each; an unknown
# USERLAND is refused with the list.
bad=()
keys=$(sed -n -E 's/^#   ([a-z_]+) .*/\1/p' "$ROOT/config/userland/README")
for f in "$ROOT"/config/userland/*; do
	u=$(basename "$f")
	[ "$u" = README ] && continue
	for k in $keys; do
		grep -qE "^${k}[[:space:]]" "$f" || bad+=("$u: no $k")
	done
	for k in packages dkms; do
		p=$(awk -v k="$k" '$1 == k { print $2 }' "$f")
		[ -z "$p" ] || [ "$p" = - ] || [ -f "$ROOT/$p" ] || bad+=("$u: $k $p missing")
	done
	name=$(awk '$1 == "name" { print $2 }' "$f")
	for t in $(awk '$1 == "trees" { $1 = ""; print }' "$f"); do
		[ -f "$ROOT/config/tree/$t" ] || bad+=("$u: tree $t has no config/tree profile")
		python3 "$ROOT/scripts/ledger.py" rows | awk -v p="check-$name" -v t="$t" '$2 == p && $3 == t { f = 1 } END { exit !f }' ||
			bad+=("$u: no config/pipelines row check-$name $t")
	done
done
msg=$(USERLAND=nosuch bash -c ". '$ROOT/scripts/lib.sh'" 2>&1)
grep -q "unknown USERLAND 'nosuch' (config/userland has: bookworm" <<<"$msg" || bad+=("USERLAND=nosuch: $msg")
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass userland-profiles-complete "$(echo "$keys" | wc -w) keys in $(find "$ROOT/config/userland" -type f ! -name README | wc -l) profiles"
else
	result fail userland-profiles-complete "${bad[*]}"
fi

# The tree is a profile (config/tree): TREE=6.1 takes its package,
# tarball, series and its own build folder; an unknown tree is refused.
tree_of() { TREE=$1 BUILD='' bash -c '. "$0"/scripts/lib.sh && echo "$TREE_PACKAGE $TREE_SERIES $(rel "$BUILD")"' "$ROOT"; }
check tree-profile-6.1 "$(tree_of 6.1 2>&1)" test "$(tree_of 6.1 2>&1)" = "linux-source-6.1 patches-6.1 build/6.1"
check tree-profile-default "$(tree_of "" 2>&1)" test "$(tree_of "" 2>&1)" = "linux-source-6.12 patches build"
msg=$(tree_of 5.10 2>&1); rc=$?
check tree-profile-unknown-refused "rc=$rc: $msg" test "$rc" != 0 -a -n "$(echo "$msg" | grep "unknown TREE '5.10'")"
# A tree of another suite without series (7.3, upstream): its own build
# folder, no series, and a pipeline it cannot run refused with its reason.
check tree-profile-7.3 "$(tree_of 7.3 2>&1)" test "$(tree_of 7.3 2>&1)" = "linux-source-7.3  build/7.3"
msg=$(TREE=7.3 BUILD=$tmp/t73 bash -c '. "$0"/scripts/lib.sh && results_init check && echo recorded' "$ROOT" 2>&1); rc=$?
check tree-no-pipeline-refused "rc=$rc: $msg" test "$rc" = 2 -a -n "$(grep "cannot run check: no series" <<<"$msg")" -a -z "$(grep recorded <<<"$msg")"
# Another suite's package is read with private apt state: its own
# sources.list, lists and cache, no dpkg status (nothing downloaded here).
got=$(bash -c '. "$0"/scripts/lib.sh && apt_data_opts trixie-backports "$1" && echo "${APT_DATA_OPTS[*]}"' "$ROOT" "$tmp/aptdata" 2>&1)
check apt-data-private-state "$(grep -o "trixie-backports main" "$tmp/aptdata/sources.list" 2>/dev/null)" \
	test -n "$(grep -F "Dir::State::status=/dev/null" <<<"$got")" -a -n "$(grep -F "Dir::State::Lists=$tmp/aptdata/lists" <<<"$got")" \
	-a -n "$(grep -F " trixie-backports main" "$tmp/aptdata/sources.list" 2>/dev/null)"
