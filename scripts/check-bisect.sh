#!/bin/bash
# Bisectability: after each patch of patches/series, every object the
# patch touches must compile without errors and without new W=1 warnings
# (relative to the same object on the baseline), with gcc-12 and
# clang-19, under allmodconfig (WERROR off) and the harness config.
#
# Usage: scripts/check-bisect.sh
#   PATCHES=N        only the first N patches of the series
#   ONLY="5 10"      apply every patch, but compile only after these (by
#                    series number): a re-check of the patches that changed
#   COMPILERS="gcc clang"  CONFIGS="allmod harness"  JOBS=2
#   SERIES=file      series file (default patches/series); patch names are
#                    relative to its directory
#   WT=build/verify  worktree used (reset to tag baseline, patches applied
#                    with git am; object dirs out-<config>-<compiler> inside)
# A pipeline of its own (make check-full nests it): one result per patch,
# compiler and config ("pNN-CONFIG-COMPILER", the objects built as its
# detail); exit 1 on any error, new warning or patch that does not apply.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
results_init check-bisect

wt=$(realpath -m "${WT:-$BUILD/verify}")
compilers=${COMPILERS:-gcc clang}
configs=${CONFIGS:-allmod harness}
series=$(realpath "${SERIES:-$SERIES_PATH/series}")
pdir=$(dirname "$series")
# Includers compiled for a patch that touches only headers.
includers="net/socket.o net/ipv4/af_inet.o net/ipv6/af_inet6.o net/core/sock.o"

mapfile -t patches < <(series_patches "$series")
[ "${#patches[@]}" -gt 0 ] || fatal series "$(rel "$series") lists no patches"
[ -n "${PATCHES:-}" ] && patches=("${patches[@]:0:$PATCHES}")

ccache_env
kbuild_repro_env

git_wt() { git -C "$wt" -c user.name="$(project_name)" -c user.email="$(project_email)" "$@"; }

# mk TC OBJDIR ARGS...: niced kbuild in the worktree (relative paths).
mk() {
	local tc=$1 obj=$2; shift 2
	toolchain "$tc"
	nice -n 15 make -C "$wt" O="$obj" -j"${JOBS:-2}" "${KBUILD_CC[@]}" "$@"
}

# configure CFG TC: object dir with its .config, once per dir.
configure() {
	local cfg=$1 tc=$2 obj=out-$1-$2
	# The harness config follows config/*.config (config.sh redoes it
	# only when a fragment changed); allmodconfig is made once.
	[ "$cfg" = allmod ] && [ -f "$wt/$obj/.config" ] && return 0
	note "configure $obj"
	if [ "$cfg" = allmod ]; then
		mk "$tc" "$obj" -s allmodconfig >/dev/null
		# Count warnings instead of failing on the first one.
		"$wt"/scripts/config --file "$wt/$obj/.config" -d WERROR
		mk "$tc" "$obj" -s olddefconfig >/dev/null
	else
		(cd "$ROOT" && scripts/config.sh "$wt" "$wt/$obj" "$tc" >/dev/null)
	fi
}

# objects PATCH: the .o for each .c it touches; includers for headers.
objects() {
	local f hdr=0
	while read -r f; do
		case "$f" in
		tools/*) note "$f: not a kbuild object (tools/), not compiled" >&2 ;;
		*.c) echo "${f%.c}.o" ;;
		*.h) hdr=1 ;;
		esac
	done < <(git_wt apply --numstat "$1" | cut -f3)
	[ "$hdr" = 0 ] || printf '%s\n' $includers
}

# in_config OBJDIR PATH.o|DIR/: does kbuild build it under this .config?
# A single-target make compiles any object, configured or not (and fails
# on files that are #included, not built), so read the Makefiles: the
# line naming the object gives obj-y, obj-$(CONFIG_X) or a composite
# name-y/name-objs/name-$(CONFIG_X) (also with $(subst ...) forms); its
# directory must be reached the same way.
in_config() {
	local cfgf=$wt/$1/.config p=$2 dir base lhs sym
	dir=$(dirname "$p") base=$(basename "$p")
	case "$p" in */) base=$base/ ;; esac
	[ "$dir" = . ] && return 0
	local mf=$wt/$dir/Makefile
	[ -f "$wt/$dir/Kbuild" ] && mf=$wt/$dir/Kbuild
	lhs=$(sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$mf" 2>/dev/null |
		grep -E '^[A-Za-z0-9_$(][A-Za-z0-9_$(),[:space:]-]*[:+]?=.*(^|[[:space:]])'"$base"'([[:space:]]|$)' |
		head -1 | sed -E 's/[[:space:]]*[:+]?=.*//')
	[ -n "$lhs" ] || return 1
	sym=$(sed -nE 's/.*\$\((CONFIG_[A-Za-z0-9_]+)\).*/\1/p' <<<"$lhs")
	[ -z "$sym" ] || grep -qE "^$sym=(y|m)" "$cfgf" || return 1
	case "$lhs" in
	obj-*|lib-*) in_config "$1" "$dir/" ;;
	# name-y, name-objs, name-$(CONFIG_X): the composite is name.o
	*) in_config "$1" "$dir/${lhs%-*}.o" ;;
	esac
}

# build CFG TC TAG OBJS...: compile the objects (removed first so that
# they rebuild; ccache replays warnings), write TAG.{built,missing}, and
# judge the build (objects_judge, lib/kbuild.sh: TAG.{err,warn,new}).
build() {
	local cfg=$1 tc=$2 tag=$3; shift 3
	local obj=out-$cfg-$tc o log=$logs/$tag.log want=()
	: >"$logs/$tag.built"; : >"$logs/$tag.missing"
	# Objects before and after, kept for scripts/code-identity.sh: the
	# object dir holds the last build of each, i.e. its state before
	# this patch.
	rm -rf "${logs:?}/obj/$tag"
	for o in "$@"; do
		if in_config "$obj" "$o"; then
			want+=("$o")
			if [ -f "$wt/$obj/$o" ]; then
				mkdir -p "$(dirname "$logs/obj/$tag/before/$o")"
				mv "$wt/$obj/$o" "$logs/obj/$tag/before/$o"
			fi
		else
			echo "$o" >>"$logs/$tag.missing"
		fi
	done
	: >"$log"
	[ "${#want[@]}" -eq 0 ] || mk "$tc" "$obj" -k W=1 "${want[@]}" >"$log" 2>&1 || true
	for o in "${want[@]}"; do
		[ -f "$wt/$obj/$o" ] || continue
		echo "$o" >>"$logs/$tag.built"
		mkdir -p "$(dirname "$logs/obj/$tag/after/$o")"
		cp "$wt/$obj/$o" "$logs/obj/$tag/after/$o"
	done
	# Warnings without line/column numbers, so that moved code compares.
	objects_judge "$wt" "$log" "$logs/$tag" "$([ "$tag" = "base-$cfg-$tc" ] || echo "$logs/base-$cfg-$tc")"
}

logs=$wt/check-bisect-logs
[ -d "$wt/.git" ] || [ -f "$wt/.git" ] ||
	git -C "$BUILD/linux" worktree add -q -f --detach "$wt" baseline >/dev/null
mkdir -p "$logs"
# The series the kept objects were built from (series_sum), written when
# every patch was compiled with both compilers under both configs: make
# check-claims judges only a whole run's objects of the series it checks.
rm -f "$logs/series.sum"
git_wt am --abort >/dev/null 2>&1 || true
git_wt checkout -q --detach baseline
git_wt reset -q --hard baseline

stage "bisect: ${#patches[@]} patches x {$compilers} x {$configs} in $(rel "$wt")"
declare -A objs
all=()
# wanted I: is patch index I (0-based) to be compiled?  (ONLY)
wanted() {
	[ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $(($1 + 1)) "* ]]
}
for i in "${!patches[@]}"; do
	objs[$i]=
	wanted "$i" || continue
	objs[$i]=$(objects "$pdir/${patches[$i]}" | sort -u | tr '\n' ' ')
	read -ra o <<<"${objs[$i]}"
	all+=("${o[@]}")
done
mapfile -t all < <(printf '%s\n' "${all[@]}" | sort -u)

# Baseline warnings of every object any patch touches.
for cfg in $configs; do
	for tc in $compilers; do
		configure "$cfg" "$tc"
		note "baseline: $cfg/$tc, ${#all[@]} objects"
		build "$cfg" "$tc" "base-$cfg-$tc" "${all[@]}"
	done
done

rows=() bad=0
for i in "${!patches[@]}"; do
	p=${patches[$i]}
	if ! git_wt am -q "$pdir/$p" >/dev/null 2>&1; then
		git_wt am --abort >/dev/null 2>&1 || true
		rows+=("$p | - | - | - | does not apply | - | -")
		result fail "p$(printf %02d "$((i + 1))")-applies" "$p does not apply (git am)"
		bad=1
		break
	fi
	wanted "$i" || continue
	read -ra o <<<"${objs[$i]}"
	# A patch that adds a Kconfig symbol (patch 15's test) gets configs
	# made again, so that its new object is built.
	if git_wt show --name-only --format= HEAD | grep -q 'Kconfig'; then
		for cfg in $configs; do
			for tc in $compilers; do
				rm -f "$wt/out-$cfg-$tc/.config"; info_del "$wt/out-$cfg-$tc" config
				configure "$cfg" "$tc"
			done
		done
	fi
	for cfg in $configs; do
		for tc in $compilers; do
			tag=$(printf 'p%02d-%s-%s' "$((i + 1))" "$cfg" "$tc")
			note "$p: $cfg/$tc, ${#o[@]} objects"
			build "$cfg" "$tc" "$tag" "${o[@]}"
			nb=$(wc -l <"$logs/$tag.built") nm=$(wc -l <"$logs/$tag.missing")
			[ "$nm" -eq 0 ] || note "  not built under $cfg: $(tr '\n' ' ' <"$logs/$tag.missing")"
			rows+=("$p | $tc | $cfg | $nb | $nm | $OBJ_ERRORS | $OBJ_NEW")
			objects_result "$tag" "$nb objects built, $nm not built under $cfg, 0 errors, 0 new warnings" || bad=1
		done
	done
done

echo "patch | compiler | config | objects | not built | errors | new warnings"
printf '%s\n' "${rows[@]}"
echo "logs: $(rel "$logs")"
[ -n "${ONLY:-}${PATCHES:-}${COMPILERS:-}${CONFIGS:-}" ] || series_sum "$series" >"$logs/series.sum"
stage_end
if [ "$bad" = 0 ]; then
	echo "bisect: ${#patches[@]} patches x $(wc -w <<<"$compilers") compilers: ok"
else
	echo "bisect: FAILED (errors, new warnings or a patch that does not apply; see above)"
fi
finish
