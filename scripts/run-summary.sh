#!/bin/bash
# The last step of make run: count the guest suites' KTAP (LOG's .ktap
# twin, from the second channel: ttyS1, hvc0) and KUnit's (LOG, the console), then the closing line.
# It builds the host tools it calls itself: make run never runs make
# check's host stage.  Usage: scripts/run-summary.sh CONSOLE_LOG
set -uo pipefail
. "$(dirname "$0")/lib.sh"
log=$1
# Called on its own (the harness test does), it starts its own results.
[ -n "${RESULTS:-}" ] && [ -n "${STAGE_LOG:-}" ] || results_init run-summary
[ -n "${T_ALL:-}" ] || T_ALL=$(date +%s)

stage "summary"
make -s -C "$ROOT" BUILD="$BUILD" host-bins >"$BUILD/logs/host-bins.log" 2>&1 ||
	fatal host-build "host tools did not build (see $(rel "$BUILD")/logs/host-bins.log)"
echo "-- guest suites ($ARCH_KTAP):"
ktap_counts "${log%.log}.ktap" guest-patched
echo "-- KUnit (console):"
ktap_counts "$log" kunit-patched
if [ -n "${PARTIAL_SUITES:-}" ]; then
	result skip expectations "partial run, SUITES=$PARTIAL_SUITES: $(rel "$(expect_file)") not checked"
else
	echo "-- expectations ($(rel "$(expect_file)")):"
	expect_check ktap "${log%.log}.ktap" patched
	expect_check console "$log" patched
fi
stage_end
finish
