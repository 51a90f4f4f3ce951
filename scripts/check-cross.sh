#!/bin/bash
# Files of the series that do not build on x86 (net/iucv is s390 only),
# cross-compiled under s390 allmodconfig with gcc-12 (Debian's
# gcc-s390x-linux-gnu) and clang-19: on the baseline, then after every
# patch that touches them.  W=1; new warnings against the baseline and
# any error fail.  A pipeline of its own (check-full nests it): one
# result per state (baseline, or a patch touching those files) and
# compiler.
#
# Usage: scripts/check-cross.sh   (WT=build/cross, COMPILERS="gcc clang")
set -euo pipefail
. "$(dirname "$0")/lib.sh"
results_init check-cross
wt=$(realpath -m "${WT:-$BUILD/cross}")
compilers=${COMPILERS:-gcc clang}
series=$SERIES_PATH/series
# Paths only an s390 kernel builds.
only_s390='^(net/iucv/|drivers/s390/|arch/s390/)'

EXTRA_PKGS=gcc-s390x-linux-gnu "$ROOT"/scripts/deps.sh >/dev/null || fatal deps "gcc-s390x-linux-gnu not installed"
kbuild_repro_env
g() { git -C "$wt" -c user.name="$(project_name)" -c user.email="$(project_email)" "$@"; }
mk() {	# mk TC ARGS...
	local tc=$1; shift
	local cc=(CROSS_COMPILE=s390x-linux-gnu- HOSTCC=gcc-12)
	[ "$tc" = clang ] && cc=(LLVM=-19)
	nice -n 10 make -C "$wt" ARCH=s390 O="out-s390-$tc" -j"${JOBS:-$(nproc)}" "${cc[@]}" "$@"
}

[ -e "$wt/.git" ] || git -C "$BUILD/linux" worktree add -q -f --detach "$wt" baseline
g am --abort >/dev/null 2>&1 || true
g checkout -q --detach baseline
g reset -q --hard baseline

stage "cross: s390 allmodconfig, files no x86 build compiles"
for tc in $compilers; do
	if [ ! -f "$wt/out-s390-$tc/.config" ]; then
		note "configure s390 allmodconfig ($tc)"
		mk "$tc" -s allmodconfig >/dev/null
		"$wt"/scripts/config --file "$wt/out-s390-$tc/.config" -d WERROR
		mk "$tc" -s olddefconfig >/dev/null
	fi
done

# build TC TAG OBJ...: compile with W=1, judged by objects_judge
# (lib/kbuild.sh) against the baseline's build (base-TC) unless TAG is it.
logs=$wt/cross-logs
mkdir -p "$logs"
build() {
	local tc=$1 tag=$2 o; shift 2
	for o in "$@"; do rm -f "$wt/out-s390-$tc/$o"; done
	mk "$tc" -k W=1 "$@" >"$logs/$tag.log" 2>&1 || true
	for o in "$@"; do
		[ -f "$wt/out-s390-$tc/$o" ] || echo "$o: not built" >>"$logs/$tag.log"
	done
	objects_judge "$wt" "$logs/$tag.log" "$logs/$tag" "$([ "$tag" = "base-$tc" ] || echo "$logs/base-$tc")"
}

mapfile -t patches < <(series_patches "$series")
objs=()
for p in "${patches[@]}"; do
	while read -r f; do
		if [[ $f =~ $only_s390 ]] && [[ $f == *.c ]]; then objs+=("${f%.c}.o"); fi
	done < <(g apply --numstat "$SERIES_PATH/$p" | cut -f3)
done
mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)
[ "${#objs[@]}" -gt 0 ] || { result skip objects "no s390-only files in the series"; stage_end; finish; }
note "objects: ${objs[*]}"

bad=0 rows=()
for tc in $compilers; do
	build "$tc" "base-$tc" "${objs[@]}"
	rows+=("baseline | $tc | $OBJ_ERRORS | $OBJ_WARNINGS")
	# The baseline must build: new warnings are counted against it.
	objects_result "base-$tc" "$OBJ_ERRORS errors, $OBJ_WARNINGS warnings" || bad=1
done
for p in "${patches[@]}"; do
	g am -q "$SERIES_PATH/$p" || { bad=1; result fail "${p%%-*}-applies" "$p does not apply (git am)"; break; }
	touched=$(g show --name-only --format= HEAD | grep -E "$only_s390" || true)
	[ -n "$touched" ] || continue
	for tc in $compilers; do
		tag="${p%%-*}-$tc"
		build "$tc" "$tag" "${objs[@]}"
		rows+=("${p%%-*} | $tc | $OBJ_ERRORS | $OBJ_NEW new")
		objects_result "$tag" "${#objs[@]} objects, 0 errors, 0 new warnings" || bad=1
	done
done
echo "state | compiler | errors | warnings"
printf '%s\n' "${rows[@]}"
stage_end
[ "$bad" = 0 ] && echo "cross: ok" || echo "cross: FAILED"
finish
