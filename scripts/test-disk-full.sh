#!/bin/bash
# Fault test: the build folder's disk is full.  A tiny tmpfs stands in
# for it; each step must stop within the bound, nonzero, with a message
# that says "disk full", and leave no process behind.  Appends to
# $RESULTS, ending with test-disk-full-complete when it got to its end
# (check.sh judges it with runner_judge).  Needs root to mount;
# otherwise it skips, saying so.
#
# Usage: scripts/test-disk-full.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
mnt=$BUILD/faults/disk-full
mkdir -p "$mnt"
mountpoint -q "$mnt" && umount "$mnt"
if ! mount -t tmpfs -o size=512k tmpfs "$mnt" 2>/dev/null; then
	result skip fault-disk-full "cannot mount a small tmpfs here (needs root)"
	runner_complete test-disk-full "skipped, no tmpfs"
	exit 0
fi
trap 'umount "$mnt" 2>/dev/null' EXIT

# expect NAME BOUND COMMAND...: must fail in BOUND s, saying "disk full".
expect() {
	local name=$1 bound=$2; shift 2
	expect_failure "fault-disk-full-$name" 'disk full' "$bound" "$mnt" "$@"
}

# Checked before writing: unpacking the tree into a full build folder.
expect unpack 30 env BUILD="$mnt/build" "$ROOT"/scripts/tree.sh
# Found while writing (the check before the build disabled): kbuild's
# first files no longer fit.
expect build 120 env MIN_FREE_MIB=0 "$ROOT"/scripts/build.sh \
	"$BUILD/src-baseline" "$mnt/obj" gcc
runner_complete test-disk-full
