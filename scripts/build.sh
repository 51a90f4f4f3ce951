#!/bin/bash
# Build the kernel image (config/arch/$ARCH) for one tree with one toolchain, through ccache, with
# reproducible KBUILD_BUILD_* so two builds of the same source compare.
#
# Usage: scripts/build.sh SRC OBJ TOOLCHAIN   (TOOLCHAIN: gcc | clang)
# BUILD_TARGETS: kbuild targets (default the arch profile's image; make check-btf adds
# modules, for the Module.symvers an external module needs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(realpath "$1") obj=$(realpath -m "$2") tc=$3
stage "kernel $tc $(basename "$src" | sed s/^src-//)"
"$ROOT"/scripts/config.sh "$src" "$obj" "$tc"

# Skip make entirely when source commit, worktree state, config and
# toolchain are those of the last good build: a no-op kbuild walk alone
# takes tens of seconds on 2 cores.
targets=${BUILD_TARGETS:-$ARCH_TARGET}
image=$(kernel_image "$obj")
key="$tc $(git -C "$src" rev-parse HEAD) $(git -C "$src" status --porcelain | sha256sum | cut -c1-16) $(info_get "$obj" config)${BUILD_TARGETS:+ $targets}"
if [ -f "$image" ] && [ "$(info_get "$obj" built)" = "$key" ]; then
	note "$(basename "$image") up to date"
	stage_end
	exit 0
fi
info_del "$obj" built
# A hardened build writes ~1 GiB of objects when cold; much less after.
cold=
if [ -f "$obj/vmlinux" ]; then need_space "$obj" 300 "an incremental kernel build"
else need_space "$obj" 1500 "a kernel build"; cold=1; fi

kbuild_repro_env
export KBUILD_BUILD_VERSION=1
ccache_env
mk=(make -C "$src" O="$obj" -j"${JOBS:-$(nproc)}")
toolchain "$tc"
mk+=("${KBUILD_CC[@]}")

log=$obj/build.log
if ! with_heartbeat "$log" "${mk[@]}" $targets; then
	grep -E 'error:|Error [0-9]' "$log" | head -20 | unroot >&2
	disk_full_hint "$obj" "$log"
	die "kernel build failed ($tc, $(rel "$src")), full log: $(rel "$log")"
fi
warn=$(grep -c 'warning:' "$log" || true)
# The warnings of every object this build compiled, paths relative to
# the tree and without line numbers, so that two trees compare (make
# check fails on one the patched kernel has and the baseline not).  An
# incremental build adds to the set its cold build started.
[ -n "$cold" ] && : >"$obj/warnings"
{ normalise_warnings <"$log"; cat "$obj/warnings" 2>/dev/null; } | sort -u >"$obj/warnings.new"
mv "$obj/warnings.new" "$obj/warnings"
info_set "$obj" warnings "$warn"
info_set "$obj" image-bytes "$(stat -c %s "$image")"
info_set "$obj" built "$key"
note "built $(rel "$image") ($(stat -c %s "$image") bytes, $warn warnings)"
stage_end
