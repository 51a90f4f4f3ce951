#!/bin/bash
# make check-full extras, run after make check's own stages: the heavy
# checks that do not fit make check's 60 minutes.  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# The rows of config/pipelines marked "full", in their order: each a
# pipeline of its own run by its own make command (the one make status
# tells to rerun it), its every result counted in make check-full's
# closing line under the row's name (lib.sh's nested).  The tree, arch,
# toolchain and build folder are the row's, never this run's.
mapfile -t rows < <(full_rows)
[ "${#rows[@]}" -gt 0 ] || die "config/pipelines marks no pipeline for check-full"
for row in "${rows[@]}"; do
	read -r name cmd <<<"$row"
	read -ra words <<<"$cmd"
	nested "$name" "$cmd" env -u BUILD -u TREE -u ARCH -u TOOLCHAIN \
		make -s -C "$ROOT" --no-print-directory "${words[@]:1}"
done
