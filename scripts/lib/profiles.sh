# shellcheck shell=bash
# The profiles that make a tree, an arch and a toolchain data
# (config/tree, config/arch, config/toolchains), and the project's identity.
# Part of scripts/lib.sh, which sources it; never run on its own.

# profile_read PREFIX FILE: a profile's "KEY value" lines (config/tree,
# config/arch, config/userland) as exported PREFIX_<KEY> variables, "-"
# read as empty; the tree's lines of many values (skip_suite,
# no_pipeline) are its own reader's.
profile_read() {
	local key value
	while read -r key value; do
		case $key in '' | '#'* | skip_suite | no_pipeline) continue ;; esac
		[ "$value" = - ] && value=
		declare -gx "$1_${key^^}=$value"
	done <"$2"
}

# tree_profile: the kernel tree of $TREE (default 6.12), config/tree/$TREE
# ("KEY value" lines, the keys in config/tree/README), read once:
# TREE_<KEY> for every key ("-" is empty) and TREE_NAME.
tree_profile() {
	TREE_NAME=${TREE:-6.12}
	local file=$ROOT/config/tree/$TREE_NAME
	if [ ! -f "$file" ]; then
		echo "ERROR: unknown TREE '$TREE_NAME' (config/tree has: $(find "$ROOT/config/tree" -type f ! -name README -printf '%f\n' | sort -V | xargs))" >&2
		exit 1
	fi
	# A key this profile lacks must not keep another tree's value (a
	# pipeline started from one of another tree inherits its exports).
	local v
	for v in $(compgen -v TREE_); do
		[ "$v" = TREE_NAME ] || unset "$v"
	done
	profile_read TREE "$file"
	# The skip_suite names, for the Makefile's SUITES (the reasons:
	# tree_skips).
	TREE_SKIP_SUITES=$(awk '$1 == "skip_suite" { print $2 }' "$file" | xargs)
	export TREE_SKIP_SUITES
	# The series folder, absolute: patches/ for 6.12 (empty for a tree
	# without series).
	export TREE_NAME SERIES_PATH=${TREE_SERIES:+$ROOT/$TREE_SERIES}
}

# userland_profile: the Debian userland make check-debian boots with,
# config/userland/$USERLAND (default bookworm; keys in its README):
# USERLAND_<KEY> for every key ("-" is empty), reset first like the
# tree's.
userland_profile() {
	local name=${USERLAND:-bookworm} file v
	file=$ROOT/config/userland/$name
	if [ ! -f "$file" ]; then
		echo "ERROR: unknown USERLAND '$name' (config/userland has: $(find "$ROOT/config/userland" -type f ! -name README -printf '%f\n' | sort | xargs))" >&2
		exit 1
	fi
	for v in $(compgen -v USERLAND_); do unset "$v"; done
	profile_read USERLAND "$file"
	export USERLAND=$name
}

# tree_dkms_modules: the path of the tree's out-of-tree module list
# (config/tree's dkms_modules); fails, saying so, for a tree that names
# none (another tree's list is never the fallback).
tree_dkms_modules() {
	if [ -z "${TREE_DKMS_MODULES:-}" ]; then
		echo "ERROR: TREE=${TREE_NAME:-?}: config/tree/${TREE_NAME:-?} names no dkms_modules list" >&2
		return 1
	fi
	echo "$ROOT/$TREE_DKMS_MODULES"
}

# tree_refuses PIPELINE: the reason this tree's no_pipeline line gives
# for PIPELINE (config/tree; a tree without series runs no pipeline that
# builds, boots or walks the patches), empty when it can run it.
tree_refuses() {
	[ -n "${TREE_NAME:-}" ] || return 0
	awk -v p="$1" '$1 == "no_pipeline" && $2 == p { $1 = $2 = ""; sub(/^ +/, ""); print; exit }' \
		"$ROOT/config/tree/$TREE_NAME"
}

# tree_skips: one skipped result per suite the tree cannot run
# (config/tree's skip_suite lines), with its reason: left out of SUITES
# by the Makefile, never dropped silently.
tree_skips() {
	local key name reason
	while read -r key name reason; do
		[ "$key" = skip_suite ] && result skip "suite-$name" "$reason"
	done <"$ROOT/config/tree/$TREE_NAME"
	return 0
}

# The project's one identity (config/identity), "NAME <EMAIL>", and its
# two halves: the author of the project's own patches and of the commits
# it makes in the build trees.
project_identity() { grep -v '^#' "$ROOT/config/identity" | head -1; }

project_name() { project_identity | sed 's/ <.*//'; }

project_email() { project_identity | sed 's/.*<\(.*\)>.*/\1/'; }

# toolchain NAME: the profile of config/toolchains, as TC_CC (compiler),
# TC_VARS (kbuild variables that select it, an array), TC_FRAGMENT (its
# config fragment, empty for none) and KBUILD_CC (the arch's ARCH=, TC_VARS
# and CC="ccache TC_CC": what every kernel build passes to make).
toolchain() {
	local line name frag vars
	line=$(awk -v t="$1" '!/^#/ && $1 == t' "$ROOT/config/toolchains")
	[ -n "$line" ] || die "unknown toolchain '$1' (config/toolchains has: $(awk '!/^#/ && NF {printf "%s ", $1}' "$ROOT/config/toolchains"))"
	read -r name TC_CC vars frag _ <<<"$line"
	read -ra TC_VARS <<<"$vars"
	TC_FRAGMENT=${frag#-}
	# shellcheck disable=SC2034 # used by the callers
	KBUILD_CC=("${ARCH_KBUILD[@]}" "${TC_VARS[@]}" CC="ccache $TC_CC")
	# Through distcc/icecc (CCACHE_PREFIX) clang compiles preprocessed
	# source, where -fmacro-prefix-map is unused, and kbuild's clang
	# flags make an unused argument an error.
	if [ -n "${CCACHE_PREFIX:-}" ] && [[ $TC_CC == clang* ]]; then
		KBUILD_CC+=(KCFLAGS="${KCFLAGS:+$KCFLAGS }-Wno-unused-command-line-argument")
	fi
	export TC_CC TC_FRAGMENT
	: "$name"
}

# arch_profile: the profile of $ARCH (default x86_64), config/arch/$ARCH
# ("KEY value" lines, the keys described in config/arch/README), read
# once: ARCH_<KEY> for every key (ARCH_TARGET, ARCH_QEMU, ARCH_KTAP, ...;
# "-" is empty), plus ARCH_NAME, ARCH_KBUILD (kbuild's ARCH=, an array,
# empty for the host's own), GUEST_OUT (the guest programs' folder) and
# GUEST_CC and COMPAT_CFLAGS for host/host.mk.
arch_profile() {
	# lib.sh does not export ARCH: kbuild gets it from ARCH_KBUILD only.
	# kbuild's own name of the host's architecture, x86, means x86_64.
	ARCH_NAME=${ARCH:-x86_64}
	[ "$ARCH_NAME" = x86 ] && ARCH_NAME=x86_64
	ARCH_FILE=$ROOT/config/arch/$ARCH_NAME
	[ -f "$ARCH_FILE" ] || die "unknown ARCH '$ARCH_NAME' (config/arch has: $(find "$ROOT/config/arch" -type f ! -name README -printf '%f ' | sort))"
	profile_read ARCH "$ARCH_FILE"
	ARCH_KBUILD=()
	[ -z "${ARCH_KBUILD_ARCH:-}" ] || ARCH_KBUILD=(ARCH="$ARCH_KBUILD_ARCH")
	export ARCH_NAME ARCH_FILE GUEST_OUT=$BUILD/guest${ARCH_SUFFIX:-} \
		GUEST_CC=${ARCH_GUEST_CC:-} COMPAT_CFLAGS=${ARCH_COMPAT_CFLAGS:-}
}

# full_rows: the pipelines make check-full runs (config/pipelines' rows
# marked "full"), in order, one line each: the nested name (the
# pipeline, -TREE and -ARCH added for a tree or arch not the default)
# and the row's make command; config/pipelines' one reader is ledger.py.
full_rows() {
	python3 "$ROOT/scripts/ledger.py" rows --full
}
