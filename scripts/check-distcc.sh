#!/bin/bash
# Kernel builds through a distributed compiler: every kernel build runs
# "ccache <compiler>", and ccache hands a cache miss to CCACHE_PREFIX, so
# a user with distcc (or icecc) sets CCACHE_PREFIX=distcc and
# DISTCC_HOSTS and nothing else changes.  Tested once here against a
# Debian distccd on 127.0.0.1: two objects of the patched kernel are
# compiled through it (cache bypassed, no local fallback), and distccd's
# log must show them.
#
# Usage: scripts/check-distcc.sh   (after make check: needs the patched
# clang build's .config).  A pipeline of its own (check-full nests it):
# one result per object compiled by distccd.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
results_init check-distcc

EXTRA_PKGS=distcc "$ROOT"/scripts/deps.sh >/dev/null || fatal deps "could not install distcc"
tc=${TOOLCHAIN:-clang}
src=$BUILD/src-patched main=$(objdir patched "$tc")
[ -f "$main/.config" ] || fatal config "no $(rel "$main")/.config: run make check first"
dir=$BUILD/distcc-check obj=$BUILD/distcc-check/obj
objs=(net/socket.o net/core/dev_ioctl.o)
port=${DISTCC_PORT:-36320}
rm -rf "$dir"; mkdir -p "$obj"
cp "$main/.config" "$obj/.config"

kbuild_repro_env
ccache_env
# The build as a distcc user runs it: CCACHE_PREFIX and DISTCC_HOSTS set
# before toolchain(), which adds what clang needs through distcc.
# CCACHE_RECACHE: compile even when the cache has the object;
# DISTCC_FALLBACK=0: a compile distccd did not do fails.
export CCACHE_PREFIX=distcc CCACHE_RECACHE=1 DISTCC_HOSTS="127.0.0.1:$port/2"
export DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1
toolchain "$tc"
# distccd runs only the compilers its masquerade directory names.
update-distcc-symlinks >/dev/null 2>&1 || true
[ -e "/usr/lib/distcc/$TC_CC" ] || ln -s ../../bin/distcc "/usr/lib/distcc/$TC_CC"

# As root, distccd runs its jobs as the distccd user: it must write its log.
: >"$dir/distccd.log"; chmod 666 "$dir/distccd.log"
distccd --daemon --listen 127.0.0.1 --allow 127.0.0.1 --port "$port" \
	--jobs 2 --log-file "$dir/distccd.log" --log-level info --pid-file "$dir/distccd.pid" ||
	fatal distccd "distccd did not start (port $port)"
# distccd forks its workers: stop all of them, nothing is left running.
trap 'pkill -f -- "--pid-file $dir/distccd.pid" || true' EXIT

mk=(make -s -C "$src" O="$obj" -j2 "${KBUILD_CC[@]}")
note "prepare $(rel "$obj") (the patched kernel's config)"
"${mk[@]}" olddefconfig prepare >"$dir/prepare.log" 2>&1 || fatal prepare "prepare failed, see $(rel "$dir")/prepare.log"

# Only the objects' own compiles count: prepare's went through distccd too.
skip=$(wc -l <"$dir/distccd.log")
note "compile ${objs[*]} through distcc (127.0.0.1:$port)"
if ! "${mk[@]}" "${objs[@]}" >"$dir/build.log" 2>&1; then
	tail -5 "$dir/build.log" | unroot >&2
	fatal build "build through distcc failed, see $(rel "$dir")/build.log"
fi
tail -n +"$((skip + 1))" "$dir/distccd.log" >"$dir/distccd-objects.log"
done_remote=$(grep -c 'COMPILE_OK' "$dir/distccd-objects.log" || true)
note "distccd compiled $done_remote job(s) after prepare"
# shellcheck disable=SC2317 # called through check()
compiled_remotely() { [ -s "$obj/$1" ] && grep COMPILE_OK "$dir/distccd-objects.log" | grep -F "${1%.o}.c" >/dev/null; }
for o in "${objs[@]}"; do
	check "$o" "built, and distccd's log shows its compile after prepare (see $(rel "$dir")/distccd.log)" \
		compiled_remotely "$o"
done
finish
