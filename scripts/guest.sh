#!/bin/bash
# Build the guest programs (static, on the host) and pack the initramfs.
# Usage: scripts/guest.sh    -> build/guest/initramfs.cpio
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage "guest programs + initramfs"
make -s -C "$ROOT" BUILD="$BUILD" guest-bins
# The project never shows this machine's paths, not even inside a guest
# program (debug info, BTF, __FILE__): every one is checked.
# A path ends in / or, as a compile directory, in NUL.
# shellcheck disable=SC2046
leaks=$(grep -l -a -P "(\\Q$ROOT\\E|\\Q$(realpath "$BUILD")\\E)(/|\\x00)" "$GUEST_OUT/init" \
	$(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites) || true)
[ -z "$leaks" ] || die "guest programs hold this machine's paths: $(for f in $leaks; do rel "$f"; done | xargs)"
# shellcheck disable=SC2046
"$ROOT"/scripts/initramfs.sh "$GUEST_OUT/initramfs.cpio" "$GUEST_OUT/init" \
	$(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites)
note "initramfs $(stat -c %s "$GUEST_OUT/initramfs.cpio") bytes: $(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites | xargs -n1 basename | tr '\n' ' ')"
stage_end
