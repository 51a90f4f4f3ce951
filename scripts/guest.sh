#!/bin/bash
# Build the guest programs (static, on the host) and pack the initramfs.
# Usage: scripts/guest.sh    -> build/guest/initramfs.cpio
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stage "guest programs + initramfs"
make -s -C "$ROOT" BUILD="$BUILD" guest-bins
read -ra suites <<<"$(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites)"
# The project never shows this machine's paths, not even inside a guest
# program (debug info, BTF, __FILE__): every one is checked.  A path
# ends in / or, as a compile directory, in NUL.
leaks=$(grep -l -a -P "(\\Q$ROOT\\E|\\Q$BUILD\\E)(/|\\x00)" "$GUEST_OUT/init" "${suites[@]}" || true)
[ -z "$leaks" ] || die "guest programs hold this machine's paths: $(for f in $leaks; do rel "$f"; done | xargs)"
"$ROOT"/scripts/initramfs.sh "$GUEST_OUT/initramfs.cpio" "$GUEST_OUT/init" "${suites[@]}"
note "initramfs $(stat -c %s "$GUEST_OUT/initramfs.cpio") bytes: $(printf '%s\n' "${suites[@]}" | xargs -n1 basename | tr '\n' ' ')"
stage_end
