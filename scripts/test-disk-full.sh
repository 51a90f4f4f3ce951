#!/bin/bash
# Fault test: the build folder's disk is full.  A tiny tmpfs stands in
# for it; each step must stop within the bound, nonzero, with a message
# that says "disk full", and leave no process behind.  Appends to
# $RESULTS.  Needs root to mount; otherwise it skips, saying so.
#
# Usage: scripts/test-disk-full.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
mnt=$BUILD/faults/disk-full
mkdir -p "$mnt"
mountpoint -q "$mnt" && umount "$mnt"
if ! mount -t tmpfs -o size=512k tmpfs "$mnt" 2>/dev/null; then
	result skip fault-disk-full "cannot mount a small tmpfs here (needs root)"
	exit 0
fi
trap 'umount "$mnt" 2>/dev/null' EXIT

# expect NAME BOUND COMMAND...: must fail in BOUND s, saying "disk full".
expect() {
	local name=$1 bound=$2 t0 dt msg rc; shift 2
	t0=$(date +%s)
	msg=$(timeout -k 5 $((bound + 30)) "$@" 2>&1); rc=$?
	dt=$(( $(date +%s) - t0 ))
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && echo "$msg" | grep -q 'disk full' &&
		[ "$dt" -le "$bound" ] && ! pgrep -f "$mnt" >/dev/null; then
		result pass "fault-disk-full-$name" "${dt}s: $(echo "$msg" | grep -m1 'disk full')"
	else
		echo "$msg" | tail -5 | sed 's/^/  | /'
		result fail "fault-disk-full-$name" "rc=$rc after ${dt}s"
	fi
}

# Checked before writing: unpacking the tree into a full build folder.
expect unpack 30 env BUILD="$mnt/build" "$ROOT"/scripts/tree.sh
# Found while writing (the check before the build disabled): kbuild's
# first files no longer fit.
expect build 120 env MIN_FREE_MIB=0 "$ROOT"/scripts/build.sh \
	"$BUILD/src-baseline" "$mnt/obj" gcc
