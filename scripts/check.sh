#!/bin/bash
# make check: the baseline and the patched kernel, same toolchain and
# config (clang-19 hardened), booted side by side; the same guest suites
# compared case by case; plus the harness's own tests.
# Stage order: deps, tree, host tools; the baseline kernel, with the
# harness and export tests beside it, and the patched kernel, the guest
# programs and the bounds demo's trees at the lowest priority; the main
# boots, with the fault boots, the bounds demo and the fuzzer beside
# them; results.
# Ends with "N passed, N failed, N skipped"; exit 0 only if none failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
# One pipeline for every arch (make check ARCH=arm64): what an arch runs
# beside the comparison is its profile's check_extras (config/arch/).
results_init "check$ARCH_SUFFIX"
tree_skips
# Judged by config/expect/'s own files: EXPECT_FILE= fails expect-partial.
expect_partial
extra() { check_extra "$1"; }

scripts/deps.sh || fatal deps "package installation failed"
scripts/tree.sh || fatal tree "tree or series failed"

make -s host-bins || fatal host-build "host tools did not build"
# The export tests (git and quilt on their own worktree) keep about one
# core busy, the harness tests mostly wait (apt, a probe's bound, a full
# disk: 38 s of CPU in 60 s alone): both run beside the baseline kernel,
# which starts at once, at normal priority, so the timed ones keep their
# bounds.
# Each runner must get to its end (its NAME-complete result) and end
# non-zero only with a failed result of its own (runner_judge): one that
# stopped partway fails harness-tests/NAME, and the stage ends non-zero.
harness_tests() {
	local rc=0
	stage "harness tests"
	runner_judge test-host harness-tests/test-host scripts/test-host.sh || rc=1
	runner_judge test-disk-full harness-tests/test-disk-full scripts/test-disk-full.sh || rc=1
	runner_judge ledger-test harness-tests/ledger-test tests/ledger_test.sh || rc=1
	# The results page and README's blocks as committed: what make
	# results writes from HEAD's ledger and inputs (docs/results.md).
	check results-page "docs/results.md and README's blocks as make results writes them" \
		python3 "$ROOT"/scripts/ledger.py results --check
	stage_end
	return "$rc"
}
extra host-tests && BG_NICE=0 bg_start export-tests scripts/test-export.sh
extra host-tests && BG_NICE=0 bg_start harness-tests harness_tests

# fuzz_stage: the fuzzer on the patched kernel, its replay and watcher
# self-tests, its reach over the tree's fuzz paths (config/fuzz-paths),
# and the same calls on the baseline, compared path by path.
fuzz_stage() {
	local n selftest
	stage "fuzz (patched, then baseline, $tc)"
	if tests/fuzz_replay.sh 2000 1 >"$BUILD/logs/fuzz-replay.out" 2>&1; then
		result pass fuzz-replay "same seed, same calls and digest (host dry runs)"
	else
		result fail fuzz-replay "see $(rel "$BUILD/logs/fuzz-replay.out")"
	fi
	sed 's/^/  /' "$BUILD/logs/fuzz-replay.out"
	# The watcher must be able to fail: an injected report stops the run.
	# Its own boot (own console log and initramfs) runs beside the main
	# run rather than before it.
	FUZZ_LOG=$BUILD/logs/fuzz-selftest.log FUZZ_SELFTEST=1 scripts/fuzz.sh 2000 7 \
		>"$BUILD/logs/fuzz-selftest.out" 2>&1 &
	selftest=$!
	n=${FUZZ_N:-200000}
	[ -n "${CHECK_FULL:-}" ] && n=${FUZZ_N_FULL:-1000000}
	if scripts/fuzz.sh "$n" "${FUZZ_SEED:-1}" >"$BUILD/logs/fuzz.out" 2>&1; then
		result pass fuzz "$n calls, seed ${FUZZ_SEED:-1}, 0 kernel reports"
	else
		# The reason in the result itself: a CI log cut to its failures
		# still says whether a report, the time bound or the boot ended it.
		result fail fuzz "$n calls, seed ${FUZZ_SEED:-1}: $(fuzz_why "$BUILD/logs/fuzz.out"); see $(rel "$BUILD/logs/fuzz.out")"
	fi
	if wait "$selftest"; then
		result fail fuzz-watcher-selftest "an injected WARNING went unnoticed"
	elif grep -q 'kernel report after call #100 (seed 7)' "$BUILD/logs/fuzz-selftest.out"; then
		result pass fuzz-watcher-selftest "injected WARNING caught at call 100, seed and last calls named"
	else
		result fail fuzz-watcher-selftest "see $(rel "$BUILD/logs/fuzz-selftest.out")"
	fi
	sed -n '/^fuzz summary/,$p' "$BUILD/logs/fuzz.out"
	fuzz_paths "$BUILD/logs/fuzz.out" "$n" "${FUZZ_SEED:-1}" "$ROOT/$TREE_FUZZ_PATHS"
	# The same calls on the baseline, after the patched run (one fuzzer
	# boot at a time beside the main boots): what each path and op got
	# there must be what it got on the patched kernel.
	if KERNEL=$(kernel_image "$(objdir baseline "$tc")") FUZZ_LOG=$BUILD/logs/fuzz-baseline.log \
		scripts/fuzz.sh "$n" "${FUZZ_SEED:-1}" >"$BUILD/logs/fuzz-baseline.out" 2>&1; then
		result pass fuzz-baseline "$n calls, seed ${FUZZ_SEED:-1}, 0 kernel reports"
	else
		result fail fuzz-baseline "$n calls, seed ${FUZZ_SEED:-1}: $(fuzz_why "$BUILD/logs/fuzz-baseline.out"); see $(rel "$BUILD/logs/fuzz-baseline.out")"
	fi
	fuzz_compare "$BUILD/logs/fuzz-baseline.out" "$BUILD/logs/fuzz.out"
	stage_end
}

# Both kernels built and booted, their runs compared (the same script
# compares on another arch: make check ARCH=arm64).  The demo's two trees
# (88,000 files each) are written while the kernels build, not while the
# boots run.
extra bounds-demo && bg_start demo-trees scripts/bounds-demo.sh trees
scripts/baseline-vs-patched.sh build || {
	extra bounds-demo && bg_stop demo-trees
	extra host-tests && { bg_stop export-tests; bg_stop harness-tests; }
	fatal "baseline-vs-patched" "a kernel or the guest programs did not build"
}
extra bounds-demo && bg_judge demo-trees demo-tree
extra host-tests && bg_judge export-tests export
# A harness test records its own result; the stage ending non-zero is
# a failure of its own.
extra host-tests && bg_judge harness-tests harness-tests
# The main boots are mostly waiting (a matrix case that waits for a
# handshake or a datagram that never comes leaves both guests idle), so
# the other boots run beside them: the fault tests at normal priority,
# since each of them is timed; the patched-only runs, the out-of-bounds
# demonstration (its own kernels: the main ones plus patches/demo) and
# the fuzzer, at nice 10, so that they take what the main boots leave.
extra boot-faults && BG_NICE=0 bg_start boot-faults scripts/test-boot-faults.sh \
	"$(kernel_image "$(objdir baseline "$tc")")" "$GUEST_OUT/initramfs.cpio"
extra bounds-demo && BG_NICE=10 bg_start bounds-demo scripts/bounds-demo.sh
extra fuzz && BG_NICE=10 bg_start fuzz fuzz_stage
scripts/baseline-vs-patched.sh boot
extra boot-faults && bg_judge boot-faults fault-
extra bounds-demo && bg_judge bounds-demo demo-
extra fuzz && bg_judge fuzz fuzz
# Every judge above must be able to fail: each, on a copy of this run's
# own logs with one thing taken away, must (tests/expect_breaks.sh).
# It too must get to its end, and its exit status is judged.
stage "break once: the judges on broken copies of this run's logs"
runner_judge expect-breaks expect-breaks tests/expect_breaks.sh "$tc$ARCH_SUFFIX"
stage_end

if [ -n "${CHECK_FULL:-}" ]; then
	scripts/check-full.sh || result fail check-full
fi
finish
