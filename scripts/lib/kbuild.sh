# shellcheck shell=bash
# Kernel builds: object folders, their build-info, reproducible and
# cached compiles, the series' patches and the objects they touch.
# Part of scripts/lib.sh, which sources it; never run on its own.

# Object dir of a variant (baseline|patched) for a toolchain.  It sits
# inside the worktree so kbuild uses srctree=.. and both worktrees give
# ccache identical command lines: files whose inputs the series does not
# change are compiled once.
objdir() {
	echo "$BUILD/src-$1/out-$2$ARCH_SUFFIX"
}

# dkms_conf SRCDIR FIELD: a field of a module source's dkms.conf
# (PACKAGE_NAME, PACKAGE_VERSION), read as dkms reads it: sourced.
dkms_conf() { bash -c "cd '$1' && . ./dkms.conf >/dev/null 2>&1; echo \"\$$2\""; }

# dkms_fixes SUITE PACKAGE: the fixes of dkms/ for SUITE's PACKAGE, one
# path a line, the most specific that exists for the tree's dkms_modules
# pin: dkms/PACKAGE-VERSION.*.patch for its Debian version (epoch
# dropped: iptables-netflow-dkms-2.6-4+deb12u1.*.patch, whose Debian
# revision differs from trixie's 2.6-7.1 in the lines the fix touches),
# else dkms/PACKAGE-UPSTREAM.*.patch for its upstream version (Debian
# revision dropped too: lime-forensics-dkms-1.12.0.*.patch for
# 1.12.0-1), else dkms/PACKAGE.*.patch; nothing when none exists.
dkms_fixes() {
	local list ver deb up f v
	list=$(tree_dkms_modules) || return 1
	ver=$(awk -v s="$1" -v p="$2" '$1 == s && $2 == p { print $3; exit }' "$list")
	deb=${ver#*:}; up=${deb%-*}
	for v in "-$deb" "-$up" ""; do
		# PACKAGE-VERSION.no-fix: that version adapts by itself (its
		# reason inside); no fix of another version is tried on it.
		[ ! -e "$ROOT/dkms/$2$v.no-fix" ] || return 0
		for f in "$ROOT/dkms/$2$v".*.patch; do
			[ -e "$f" ] || break
			printf '%s\n' "$f"
		done | grep . && return 0
	done
	return 0
}

# series_patches [SERIES]: the patch file names a series file lists, in
# order (comments and blank lines skipped); default the tree's series
# (patches/series for 6.12).
series_patches() {
	grep -v -E '^[[:space:]]*(#|$)' "${1:-$SERIES_PATH/series}"
}

# series_sum [SERIES_FILE]: the hash of every patch the series names, in
# order (default the tree's series): what a build or a kept object
# was made from.
series_sum() {
	local series=${1:-$SERIES_PATH/series} p
	while read -r p; do
		cat "$(dirname "$series")/$p"
	done < <(series_patches "$series") | sha256sum | cut -c1-16
}

# touched_objects: the .o of every .c file the series changes.
touched_objects() {
	git -C "$BUILD/src-patched" diff --name-only baseline HEAD -- '*.c' | sed 's/\.c$/.o/'
}

# seed_objdir MAIN COPY SRC BASE: a kernel whose tree SRC is the tree of
# MAIN's kernel plus a few changed files (since BASE) starts its object
# folder COPY as a copy of MAIN (kbuild names sources relative to the
# object folder: the commands are the same in both trees), every copied
# file dated later than every source, then the files changed since BASE
# dated later still: kbuild rebuilds exactly what depends on them and
# links.  Without it every object would be a ccache lookup.  Nothing to
# do when COPY has been built, or MAIN has not.
seed_objdir() {
	local main=$1 copy=$2 src=$3 base=$4 t
	[ -f "$copy/vmlinux" ] && return 0
	[ -f "$main/vmlinux" ] || return 0
	need_space "$BUILD" 2000 "a copy of $(rel "$main")"
	rm -rf "$copy" && cp -a "$main" "$copy" && info_del "$copy" built || return 1
	# tools/ (objtool) names its files by absolute path: made to name the
	# copy's tree, or objtool is rebuilt, and on 6.1, where every object
	# depends on objtool, every object with it (measured: a whole kernel
	# of ccache hits instead of one file and the link).
	grep -rlZ --include='.*.cmd' --include='.*.d' "$(dirname "$main")/" "$copy/tools" 2>/dev/null |
		xargs -0 -r sed -i "s|$(dirname "$main")/|$(dirname "$copy")/|g"
	t=$(date +%s.%N)
	find "$copy" -print0 | xargs -0 touch -h -d "@$t"
	sleep 1
	git -C "$src" diff --name-only "$base" HEAD | (cd "$src" && xargs -r touch -c)
	note "$(rel "$copy"): seeded from $(rel "$main")"
}

# objects_judge WT LOG STEM [BASE]: a W=1 build of some objects in the
# worktree WT, judged from its LOG (with a line "OBJ: not built" added by
# the caller for each object that did not appear): its errors into
# STEM.err; its warnings, paths relative to WT and line numbers dropped
# (expect.sh normalise_warnings, as build.sh keeps a kernel's), into
# STEM.warn; with BASE, the baseline's STEM, the warnings BASE.warn lacks
# into STEM.new.  Sets OBJ_ERRORS, OBJ_WARNINGS and OBJ_NEW (counts) for
# objects_result.  check-bisect, check-cross and check-testmod judge
# every build with it.
objects_judge() {
	local wt=$1 log=$2 base=${4:-}
	OBJ_STEM=$3
	grep -a -E '(error|Error [0-9]+):|: not built$' "$log" >"$OBJ_STEM.err" || true
	sed "s|$wt/||g" "$log" | normalise_warnings >"$OBJ_STEM.warn"
	# shellcheck disable=SC2034 # OBJ_WARNINGS: for the callers' tables
	OBJ_ERRORS=$(wc -l <"$OBJ_STEM.err") OBJ_WARNINGS=$(wc -l <"$OBJ_STEM.warn") OBJ_NEW=0
	if [ -n "$base" ]; then
		comm -13 "$base.warn" "$OBJ_STEM.warn" >"$OBJ_STEM.new"
		OBJ_NEW=$(wc -l <"$OBJ_STEM.new")
	fi
}

# objects_result NAME [DETAIL]: one result for the last objects_judge:
# passed (with DETAIL) when it found no error and no new warning, else
# failed, its first errors and new warnings shown.  Returns the same.
objects_result() {
	if [ "$OBJ_ERRORS" = 0 ] && [ "$OBJ_NEW" = 0 ]; then
		result pass "$1" "${2:-}"
		return 0
	fi
	head -5 "$OBJ_STEM.err" | unroot
	[ "$OBJ_NEW" = 0 ] || head -5 "$OBJ_STEM.new"
	result fail "$1" "$OBJ_ERRORS errors, $OBJ_NEW new warnings (see $(rel "$OBJ_STEM").{log,err,new})"
	return 1
}

# The build-info record of an object folder, OBJ/build-info: one "KEY
# value" line for each thing the harness made there and the inputs it
# was made from, instead of a stamp file each.  Keys: config (config.sh:
# the fragments' sum), built (build.sh: toolchain, commit, worktree and
# config), warnings and image-bytes (build.sh), deb (deb.sh), dkms
# (dkms-check.sh).
info_get() { sed -n "s/^$2 //p" "$1/build-info" 2>/dev/null | tail -n 1; }

info_set() {
	local f=$1/build-info
	mkdir -p "$1"
	{ grep -v "^$2 " "$f" 2>/dev/null; echo "$2 $3"; } >"$f.new" && mv "$f.new" "$f"
}

info_del() {
	local f=$1/build-info
	[ -f "$f" ] || return 0
	# grep -v finds nothing to keep when KEY was the only line: not an
	# error (under set -e, check-bisect's reconfigure ended there).
	grep -v "^$2 " "$f" >"$f.new" || true
	mv "$f.new" "$f"
}

# kbuild_repro_env: the KBUILD_BUILD_* values every build of this
# project uses, so two builds of the same source compare byte for byte.
kbuild_repro_env() {
	export KBUILD_BUILD_TIMESTAMP="1980-01-01" KBUILD_BUILD_USER=user KBUILD_BUILD_HOST=host
}

# deb_localversion VARIANT: what make deb appends to the release of
# the baseline or patched kernel package (never Debian's +deb12).
deb_localversion() {
	case "$1" in
	patched) echo +sockaddr ;;
	baseline) echo +baseline ;;
	*) die "unknown variant '$1' (baseline or patched)" ;;
	esac
}

# ccache_env: the one compiler cache of every kernel build (main
# kernels, check-bisect, check-testmod, dkms-check): ccache's usual
# per-user cache, so it outlives a fresh clone of the project; entries
# hashed relative to $BUILD, so both worktrees share them.  Depend mode:
# a miss runs the compiler once, keyed by the headers kbuild's -MMD
# lists, instead of a separate preprocessor run first (measured on a cold
# hardened kernel: a third of every miss's time went to that run).
ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime
	export CCACHE_DEPEND=1
	# Not ccache's inode cache (CCACHE_INODECACHE): its shared mapped
	# file cost more page faults than the header hashing it saves (10
	# hits of net/core/sock.o, ~850 headers: 0.43-0.55 s and 4,650
	# minor faults without, 0.57-0.78 s and 11,790 with).
}

# kernel_image OBJDIR: the bootable image a build in OBJDIR made.
kernel_image() {
	echo "$1/$ARCH_IMAGE"
}

# kbuild_cmd OBJDIR OBJ: the command kbuild compiled OBJ with (from its
# .cmd file), without ccache and the dependency-file option; run it in
# OBJDIR.  Exported: the report scripts call it from xargs.
kbuild_cmd() {
	# 6.1's kbuild names it cmd_ (6.12's: savedcmd_) and appends the
	# objtool step after " ; ": only the compile is kept.
	sed -n -E "s|^(saved)?cmd_$2 := ||p" "$1/$(dirname "$2")/.$(basename "$2").cmd" |
		sed -E 's/^ccache //; s/-Wp,-MMD,[^ ]+ //; s/ +; .*$//'
}
export -f kbuild_cmd

# build_beside_guests SRC KDIR NAME: the kernel of SRC built in KDIR
# (scripts/build.sh, TOOLCHAIN) with the guest programs and initramfs
# built beside it (they need only the tree); result build-TC-NAME, and
# the pipeline ends (fatal) when either fails.
build_beside_guests() {
	local src=$1 kdir=$2 name=$3 tc=${TOOLCHAIN:-clang}
	bg_start guest "$ROOT"/scripts/guest.sh
	if "$ROOT"/scripts/build.sh "$src" "$kdir" "$tc"; then
		result pass "build-$tc-$name"
	else
		bg_wait guest
		fatal "build-$tc-$name" "see $(rel "$kdir")/build.log"
	fi
	bg_wait guest || fatal guest "guest programs did not build (see the messages above)"
}
