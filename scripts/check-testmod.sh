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

# build TC TAG: bpf_testmod.o compiled with W=1, judged by
# objects_judge (lib/kbuild.sh) against the baseline's (base-TC) unless
# TAG is it.
build() {
	local tc=$1 tag=$2
	toolchain "$tc"
	rm -f "$wt/$mod/bpf_testmod.o"
	nice -n 10 make -C "$wt" O="out-allmod-$tc" "${KBUILD_CC[@]}" M="$wt/$mod" W=1 bpf_testmod.o >"$logs/$tag.log" 2>&1 || true
	[ -f "$wt/$mod/bpf_testmod.o" ] || echo "bpf_testmod.o: not built" >>"$logs/$tag.log"
	objects_judge "$wt" "$logs/$tag.log" "$logs/$tag" "$([ "$tag" = "base-$tc" ] || echo "$logs/base-$tc")"
}

g am --abort >/dev/null 2>&1 || true
g checkout -q --detach baseline
g reset -q --hard baseline
stage "bpf_testmod (external module) per patch, allmodconfig, W=1"
rows=() bad=0
for tc in $compilers; do
	build "$tc" "base-$tc"
	rows+=("baseline | $tc | $OBJ_ERRORS | $OBJ_WARNINGS")
	# The baseline must build: new warnings are counted against it.
	objects_result "base-$tc" "$OBJ_ERRORS errors, $OBJ_WARNINGS warnings" || bad=1
done
while read -r p; do
	g am -q "$SERIES_PATH/$p" || { bad=1; result fail "${p%%-*}-applies" "$p does not apply (git am)"; break; }
	g show --name-only --format= HEAD | grep -q "^$mod/" || continue
	for tc in $compilers; do
		tag="${p%%-*}-$tc"
		build "$tc" "$tag"
		rows+=("${p%%-*} | $tc | $OBJ_ERRORS | $OBJ_NEW new")
		objects_result "$tag" "0 errors, 0 new warnings" || bad=1
	done
done < <(series_patches)
rm -f "$wt/$mod"/*.o "$wt/$mod"/.*.cmd
echo "state | compiler | errors | warnings"
printf '%s\n' "${rows[@]}"
stage_end
[ "$bad" = 0 ] && echo "testmod: ok" || echo "testmod: FAILED"
finish
