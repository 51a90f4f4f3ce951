#!/bin/bash
# The series also converts bpf_testmod (tools/testing/selftests/bpf/
# bpf_testmod in 6.12), an external module that check-bisect's kbuild
# object list cannot name.  Build it with M= against the allmodconfig
# object dirs of check-bisect (gcc-12 and clang-19, W=1): on the
# baseline and after every patch that touches it; errors or new
# warnings fail.  A pipeline of its own (check-full nests it): one
# result per state (baseline, or a patch that touches the module) and
# compiler.
#
# Usage: scripts/check-testmod.sh   (after make check-bisect; WT=build/verify)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
results_init check-testmod
wt=$(realpath -m "${WT:-$BUILD/verify}")
mod=tools/testing/selftests/bpf/bpf_testmod
compilers=${COMPILERS:-gcc clang}
for tc in $compilers; do
	[ -f "$wt/out-allmod-$tc/.config" ] || fatal "objdir-$tc" "no allmodconfig object dir for $tc: run make check-bisect first"
done
kbuild_repro_env
ccache_env
g() { git -C "$wt" -c user.name="$(project_name)" -c user.email="$(project_email)" "$@"; }
logs=$wt/check-testmod-logs
mkdir -p "$logs"

build() {	# build TC TAG
	local tc=$1 tag=$2
	toolchain "$tc"
	rm -f "$wt/$mod/bpf_testmod.o"
	nice -n 10 make -C "$wt" O="out-allmod-$tc" "${KBUILD_CC[@]}" M="$wt/$mod" W=1 bpf_testmod.o >"$logs/$tag.log" 2>&1 || true
	[ -f "$wt/$mod/bpf_testmod.o" ] || echo "bpf_testmod.o: not built" >>"$logs/$tag.log"
	grep -E '(error|Error [0-9]+):|not built' "$logs/$tag.log" >"$logs/$tag.err" || true
	grep -E ': warning:' "$logs/$tag.log" | sed -E "s|$wt/||; s/^([^:]+):[0-9]+:([0-9]+:)? /\\1: /" | sort -u >"$logs/$tag.warn" || true
}

g am --abort >/dev/null 2>&1 || true
g checkout -q --detach baseline
g reset -q --hard baseline
stage "bpf_testmod (external module) per patch, allmodconfig, W=1"
rows=() bad=0
for tc in $compilers; do
	build "$tc" "base-$tc"
	rows+=("baseline | $tc | $(wc -l <"$logs/base-$tc.err") | $(wc -l <"$logs/base-$tc.warn")")
	# The baseline must build: new warnings are counted against it.
	check "base-$tc" "$(wc -l <"$logs/base-$tc.err") errors, $(wc -l <"$logs/base-$tc.warn") warnings" \
		test ! -s "$logs/base-$tc.err"
done
while read -r p; do
	g am -q "$SERIES_PATH/$p" || { bad=1; result fail "${p%%-*}-applies" "$p does not apply (git am)"; break; }
	g show --name-only --format= HEAD | grep -q "^$mod/" || continue
	for tc in $compilers; do
		tag="${p%%-*}-$tc"
		build "$tc" "$tag"
		ne=$(wc -l <"$logs/$tag.err")
		nw=$(comm -13 "$logs/base-$tc.warn" "$logs/$tag.warn" | wc -l)
		rows+=("${p%%-*} | $tc | $ne | $nw new")
		if [ "$ne" != 0 ] || [ "$nw" != 0 ]; then
			bad=1
			head -5 "$logs/$tag.err" | unroot
			result fail "$tag" "$ne errors, $nw new warnings (see $(rel "$logs")/$tag.log)"
		else
			result pass "$tag" "0 errors, 0 new warnings"
		fi
	done
done < <(series_patches)
rm -f "$wt/$mod"/*.o "$wt/$mod"/.*.cmd
echo "state | compiler | errors | warnings"
printf '%s\n' "${rows[@]}"
stage_end
[ "$bad" = 0 ] && echo "testmod: ok" || echo "testmod: FAILED"
finish
