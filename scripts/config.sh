#!/bin/bash
# Generate a kernel .config: tinyconfig + config/*.config fragments merged
# with the tree's merge_config.sh, then olddefconfig.  Fails, naming the
# option, when a requested option did not survive.
#
# Usage: scripts/config.sh SRC OBJ TOOLCHAIN   (TOOLCHAIN: gcc | clang)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(realpath "$1") obj=$(realpath -m "$2") tc=$3
frags=("$ROOT"/config/base.config "$ROOT"/config/net.config
	"$ROOT"/config/bpf.config "$ROOT"/config/kunit.config
	"$ROOT"/config/fuzz-netdevs.config "$ROOT"/config/reach.config)
# shellcheck disable=SC2086 # a list of fragments
for f in $ARCH_FRAGMENT; do frags+=("$ROOT/config/$f"); done
toolchain "$tc"
[ -z "$TC_FRAGMENT" ] || frags+=("$ROOT/config/$TC_FRAGMENT")
[ -z "$TREE_FRAGMENT" ] || frags+=("$ROOT/config/$TREE_FRAGMENT")
if grep -q '^config SOCKADDR_KUNIT_TEST' "$src/net/Kconfig"; then
	frags+=("$ROOT"/config/kunit-series.config)
fi
# shellcheck disable=SC2206
frags+=(${EXTRA_FRAGMENTS:-})

mkdir -p "$obj"
# Reconfigure only when a fragment or the tree changed.
sum=$(cat "${frags[@]}" "$src/Makefile" | sha256sum | cut -c1-16)
if [ -f "$obj/.config" ] && [ "$(info_get "$obj" config)" = "$sum" ]; then
	note "config up to date"
	exit 0
fi

# The same compiler as the build (Kconfig records its version).
mk=(make -s -C "$src" O="$obj" "${KBUILD_CC[@]}")
"${mk[@]}" tinyconfig >"$obj/config.log" 2>&1 ||
	{ disk_full_hint "$obj" "$obj/config.log"; tail -3 "$obj/config.log" | unroot >&2; die "make tinyconfig failed, see $(rel "$obj")/config.log"; }
# merge_config.sh -m: merge only; then olddefconfig resolves dependencies.
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "${frags[@]}" >merge.log 2>&1) ||
	die "merge_config.sh failed, see $(rel "$obj")/merge.log"
"${mk[@]}" olddefconfig >/dev/null

scripts/check-config.sh "$obj/.config" "${frags[@]}"
info_set "$obj" config "$sum"
