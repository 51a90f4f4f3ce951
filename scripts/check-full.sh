#!/bin/bash
# make check-full extras, run after make check's own stages: the heavy
# checks that do not fit make check's 60 minutes.  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# check NAME TITLE COMMAND...: one stage, one pass/fail result.
check() {
	local name=$1; stage "$2"; shift 2
	if "$@"; then result pass "$name"; else result fail "$name"; fi
	stage_end
}

completeness() {
	EXTRA_PKGS=coccinelle "$ROOT"/scripts/deps.sh && "$ROOT"/scripts/completeness.sh "$BUILD/src-patched"
}

check completeness "completeness over the whole tree" completeness
check check-bisect "bisect build of every patch (gcc-12 + clang-19)" "$ROOT"/scripts/check-bisect.sh
check check-testmod "bpf_testmod (external module), per patch" "$ROOT"/scripts/check-testmod.sh
check check-cross "s390-only files, cross-compiled (gcc-12 + clang-19)" "$ROOT"/scripts/check-cross.sh
check check-btf "BPF sock_addr suite on BTF kernels (unix path rewritten longer)" "$ROOT"/scripts/check-btf.sh
check checkpatch "checkpatch --strict on every patch" "$ROOT"/scripts/checkpatch.sh
check dkms-check "Debian 12 *-dkms modules, baseline vs patched, and the LiME patch" "$ROOT"/scripts/dkms-check.sh
