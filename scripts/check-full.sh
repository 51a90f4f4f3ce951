#!/bin/bash
# make check-full extras, run after make check's own stages: the heavy
# checks that do not fit make check's 60 minutes.  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

stage "completeness over the whole tree"
if EXTRA_PKGS=coccinelle "$ROOT"/scripts/deps.sh && "$ROOT"/scripts/completeness.sh "$BUILD/src-patched"; then
	result pass completeness
else
	result fail completeness
fi
stage_end

stage "bisect build of every patch (gcc-12 + clang-19)"
if "$ROOT"/scripts/check-bisect.sh; then
	result pass check-bisect
else
	result fail check-bisect
fi
stage_end

stage "bpf_testmod (external module), per patch"
if "$ROOT"/scripts/check-testmod.sh; then
	result pass check-testmod
else
	result fail check-testmod
fi
stage_end

stage "s390-only files, cross-compiled (gcc-12 + clang-19)"
if "$ROOT"/scripts/check-cross.sh; then
	result pass check-cross
else
	result fail check-cross
fi
stage_end

stage "checkpatch --strict on every patch"
if "$ROOT"/scripts/checkpatch.sh; then
	result pass checkpatch
else
	result fail checkpatch
fi
stage_end
