# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: The judges on broken data: nested pipelines, floors
# and obs lines, kernel reports, allowed skips, XFAIL/TODO/XPASS,
# expectation files, ktapdiff crashes, EXPECT_FILE, runners,
# expect_breaks' count, finish under set -e.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# A nested pipeline (check-full's nested): its results join the parent's
# under the name the parent gives it (two trees' check-bisect stay
# apart), its failure stays a failure, and one that records nothing fails.
printf '%s\n' '. "$1"/scripts/lib.sh; results_init child; result pass a; result fail b why; finish' >"$tmp/child.sh"
printf '%s\n' '. "$1"/scripts/lib.sh; results_init child; exit 3' >"$tmp/silent.sh"
got=$(BUILD=$tmp/nest bash -c '. "$0"/scripts/lib.sh && results_init parent &&
	{ nested bisect-6.1 "two" bash "$1" "$0"; nested quiet "none" bash "$2" "$0"; } >/dev/null 2>&1
	cut -f1,2 "$RESULTS" | tr "\t\n" ": "' "$ROOT" "$tmp/child.sh" "$tmp/silent.sh")
check pipeline-nested-named "$got" test "$got" = "pass:bisect-6.1/a fail:bisect-6.1/b fail:quiet "
# scripts/expect-floors.sh prints a run's floors: fed back as the
# expectation file, the run it was made from must meet it.
mkdir -p "$tmp/floors/logs"
ln -s "$BUILD/host" "$tmp/floors/host"
for v in baseline patched; do
	for k in ktap log; do cp "$ROOT/tests/data/expect_ok.log" "$tmp/floors/logs/check-t-$v.$k"; done
done
BUILD=$tmp/floors "$ROOT"/scripts/expect-floors.sh t 2>&1 | sed 's/REASON?$/for a test/' >"$tmp/floors.txt"
got=$(grep -c '^suite ktap ' "$tmp/floors.txt")
check expect-floors-roundtrip "$got suite lines; the run meets its own floors" \
	"$BUILD"/host/ktapdiff --expect "$tmp/floors.txt" --log ktap --kernel patched "$ROOT/tests/data/expect_ok.log"
# scripts/expect-obs.sh prints a run's obs content floors: the labels
# the premises select, left out where the value is not an accepted one
# (matrix_m32's caif connect), where the label's lines differ (reach's
# bond_enslave) or where a "none" line excludes it (mptcp_join); fed
# back with the run's floors, the run meets them.
BUILD=$tmp/floors "$ROOT"/scripts/expect-obs.sh "$ROOT/tests/data/obs_two.log" "$ROOT/tests/data/obs_premises.txt" \
	>"$tmp/obs.txt" 2>"$tmp/obs.err"
got=$(awk '{ print $3 ":" $4 }' "$tmp/obs.txt" | paste -sd' ')
want="matrix:inet4_tcp.bind_valid.bind matrix:inet4_tcp.connect_valid.connect matrix:caif.connect_valid.connect"
want+=" matrix_m32:inet4_tcp.bind_valid.bind matrix_m32:inet4_tcp.connect_valid.connect reach:reach.bond_create"
grep '^suite ' "$ROOT/tests/data/expect_obs.txt" >>"$tmp/obs.txt"
check expect-obs-roundtrip "$(grep -c '^obs ' "$tmp/obs.txt") obs lines, $(grep -c '^left out: ' "$tmp/obs.err") left out; the run meets them" \
	test "$got" = "$want" -a "$(grep -c -E '^left out: (matrix_m32 caif.connect|reach reach.bond_enslave)' "$tmp/obs.err")" = 2 \
	-a -n "$("$BUILD"/host/ktapdiff --expect "$tmp/obs.txt" --log ktap --kernel patched "$ROOT/tests/data/obs_two.log" | grep -P '^pass\tmatrix obs\t')"
# config/expect/obs-premises reads (a run without its labels: nothing
# listed); a premise with another ACCEPT than ok, any, none or an errno
# name stops naming its line.
out=$(BUILD=$tmp/floors "$ROOT"/scripts/expect-obs.sh "$ROOT/tests/data/expect_ok.log" 2>&1 >/dev/null); rc=$?
check expect-obs-premises-read "rc=$rc: $(grep -c 'matched no obs label' <<<"$out") premises matched no label of tests/data's run" \
	test "$rc" = 0
printf 'matrix  *.bind_valid.bind  ok;ENODEV  a typo\n' >"$tmp/premises-bad"
# The boot judge on the console lines of an RCU stall, a hung task and
# an arm64 trace (config/kernel-reports once had none of the three).
for r in 'rcu-stall|rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
	'hung-task|INFO: task kworker/0:1:12 blocked for more than 122 seconds.' \
	'arm64-trace|Call trace:'; do
	printf 'Linux version 6.12\n[   42.000000] %s\nreboot: Restarting system\n' "${r#*|}" >"$tmp/report.log"
	breaks "console-report-${r%%|*}" "\\| .*${r#*|}" "$ROOT"/scripts/console-check.sh "$tmp/report.log"
done
breaks expect-obs-premises-bad '^premises-bad:1: ACCEPT "ok;ENODEV"' \
	env BUILD="$tmp/floors" "$ROOT"/scripts/expect-obs.sh "$ROOT/tests/data/obs_two.log" "$tmp/premises-bad"
expect_on() { "$BUILD"/host/ktapdiff --expect "$ROOT/tests/data/$1" --log ktap --kernel "$2" "$ROOT/tests/data/$3"; }
# An allowed skip that matched no skipped case fails (a stale entry
# would allow a future skip unseen), as a stale allow-list entry does;
# one whose suite runs on the other kernel only has nothing to allow.
breaks expect-skip-stale-fails '^fail.*0 allowed skips' expect_on expect_skip_stale.txt baseline expect_ok.log
got=$(expect_on expect_complete.txt baseline expect_ok.log 2>&1 | grep -P '^pass\tpatched_only/' | tr '\t' ' ')
check expect-skip-other-kernel-only "$got" test -n "$got"
# XFAIL and TODO cases are not passed cases for the floors, and must be
# listed (xfail/todo lines); listed, the run passes.
breaks expect-xfail-unlisted-fails '^fail.*not an allowed xfail' expect_on expect_xfail_unlisted.txt baseline xfail.log
breaks expect-todo-unlisted-fails '^fail.*not an allowed todo' expect_on expect_xfail_unlisted.txt baseline xfail.log
breaks expect-xfail-not-a-pass '^fail.sockaddr_basic.*1 passed \(floor 2\)' expect_on expect_xfail_floor.txt baseline xfail.log
check expect-xfail-listed "XFAIL and TODO cases listed, floors without them" \
	quiet expect_on expect_xfail.txt baseline xfail.log
# XPASS (an expected failure that passed: the test's own expectation is
# stale) is not a pass either: unlisted it fails, listed it is counted apart.
sed 's/# XFAIL/# XPASS/' "$ROOT/tests/data/xfail.log" >"$tmp/xpass.log"
sed 's/^xfail /xpass /' "$ROOT/tests/data/expect_xfail.txt" >"$tmp/expect_xpass.txt"
xpass_on() { "$BUILD"/host/ktapdiff --expect "$1" --log ktap --kernel baseline "$tmp/xpass.log"; }
breaks expect-xpass-unlisted-fails '^fail.*ok # XPASS, not an allowed xpass' xpass_on "$ROOT/tests/data/expect_xfail_unlisted.txt"
check expect-xpass-listed "XPASS case listed (xpass line), not counted as passed" quiet xpass_on "$tmp/expect_xpass.txt"
# Every expectation file parses (ktapdiff ends 2 on a line it cannot read).
bad=()
for f in "$ROOT"/config/expect/{x86_64,arm64,btf,coverage-suites} "$ROOT"/config/expect/debian* "$ROOT"/config/expect/*/x86_64 "$ROOT"/config/expect/*/debian*; do
	[ -f "$f" ] || continue # a glob that matched nothing
	for log in ktap console; do
		"$BUILD"/host/ktapdiff --expect "$f" --log "$log" --kernel patched "$ROOT/tests/data/expect_ok.log" >/dev/null 2>&1
		[ "$?" != 2 ] || bad+=("$(rel "$f")")
	done
done
check expect-files-parse "config/expect's suite files${bad[*]:+; unreadable: ${bad[*]}}" test "${#bad[@]}" = 0
# expect_check (make run, pair_judge): a ktapdiff that ends other than 0,
# 1 or 2 (a crash: its output cut short) fails, and so does a line of its
# output that is not a result; a fake ktapdiff stands in for the crash.
mkdir -p "$tmp/crash/host"
printf '%s\n' '#!/bin/sh' 'printf "pass\tsuite_a\tok\nfail\tsuite_b\tok, 3 pa"' 'kill -SEGV $$' >"$tmp/crash/host/ktapdiff"
chmod +x "$tmp/crash/host/ktapdiff"
crash() {
	BUILD=$tmp/crash EXPECT_FILE=$ROOT/tests/data/expect_run.txt bash -c \
		'. "$0"/scripts/lib.sh && BUILD=$1 && run_results expect_check ktap "$2" patched' \
		"$ROOT" "$tmp/crash" "$ROOT/tests/data/expect_ok.log"
}
breaks expect-check-ktapdiff-crash 'exit status 139' crash
printf '%s\n' '#!/bin/sh' 'printf "pass\tsuite_a\tok\nSegmentation fault\n"' >"$tmp/crash/host/ktapdiff"
breaks expect-check-ktapdiff-garbled 'not a result' crash
# make check judges by config/expect/'s files: EXPECT_FILE= records a
# failed expect-partial (scripts/check.sh), and the Makefile refuses it
# as it refuses SUITES= (tried on a copy whose scripts/check.sh only
# says it ran).
breaks expect-file-partial '^fail.expect-partial' env EXPECT_FILE="$ROOT/tests/data/expect_run.txt" \
	bash -c '. "$0"/scripts/lib.sh && run_results expect_partial' "$ROOT"
check expect-file-unset-whole "no EXPECT_FILE: nothing recorded" \
	env -u EXPECT_FILE bash -c '. "$0"/scripts/lib.sh && test -z "$(run_results expect_partial)"' "$ROOT"
mk=$tmp/mk
mkdir -p "$mk/scripts"
for d in Makefile host guest config; do ln -s "$ROOT/$d" "$mk/$d"; done
ln -s "$ROOT/scripts/verify.mk" "$mk/scripts/verify.mk"
printf '%s\n' '#!/bin/sh' 'echo "scripts/check.sh ran"' >"$mk/scripts/check.sh"
chmod +x "$mk/scripts/check.sh"
plain() { env -u MAKEFLAGS -u MAKELEVEL -u SUITES -u EXPECT_FILE "$@"; }
ran=$(plain make -s --no-print-directory -C "$mk" check 2>&1)
got=$(plain make -s --no-print-directory -C "$mk" check EXPECT_FILE=x.txt 2>&1; echo "rc=$?")
got2=$(plain env EXPECT_FILE=x.txt make -s --no-print-directory -C "$mk" check-full 2>&1; echo "rc=$?")
check make-check-refuses-expect-file "$(head -1 <<<"$got" | cut -c1-100)" \
	test "$ran" = "scripts/check.sh ran" -a -n "$(grep 'ERROR: make check judges by' <<<"$got")" \
	-a "$(tail -1 <<<"$got")" = rc=2 -a "$(tail -1 <<<"$got2")" = rc=2 -a -z "$(grep -h 'check.sh ran' <<<"$got$got2")"
# A harness runner (test-host, test-disk-full, expect-breaks) is judged
# as a whole (runner_judge): one that stops partway (a set -u abort)
# without its NAME-complete result fails, and so does one that ends
# non-zero without a failed result; one that got to its end passes.
printf '%s\n' '. "$1"/scripts/lib.sh; result pass a; set -u; echo "$no_such_variable"; runner_complete r1' >"$tmp/r1.sh"
printf '%s\n' '. "$1"/scripts/lib.sh; result pass b; runner_complete r2; exit 3' >"$tmp/r2.sh"
printf '%s\n' '. "$1"/scripts/lib.sh; result pass c; runner_complete r3' >"$tmp/r3.sh"
got=$(BUILD=$tmp/nest bash -c '. "$0"/scripts/lib.sh && results_init runners &&
	{ runner_judge r1 t-partway bash "$1" "$0"; a=$?; runner_judge r2 t-status bash "$2" "$0"; b=$?
	  runner_judge r3 t-whole bash "$3" "$0"; echo "rc=$a$b$?"; } 2>/dev/null | grep "^rc=" | tr "\n" " "
	cut -f1,2 "$RESULTS" | tr "\t\n" ": "' "$ROOT" "$tmp/r1.sh" "$tmp/r2.sh" "$tmp/r3.sh")
check harness-runner-judged "$got" \
	test "$got" = "rc=110 pass:a fail:t-partway pass:b pass:r2-complete fail:t-status pass:c pass:r3-complete "
# tests/expect_breaks.sh counts its breaks: on a copy without one of
# them (its logs: tests/data's), fewer ran than it lists, and it fails.
eb=$tmp/eb
mkdir -p "$eb/tests" "$eb/build/logs" "$eb/build/host"
for d in scripts config; do ln -s "$ROOT/$d" "$eb/$d"; done
ln -s "$BUILD/host/ktapdiff" "$eb/build/host/ktapdiff"
for v in baseline patched; do
	cp "$ROOT/tests/data/expect_ok.log" "$eb/build/logs/check-t-$v.ktap"
	cp "$ROOT/tests/data/kunit4.log" "$eb/build/logs/check-t-$v.log"
done
cp "$ROOT/tests/expect_breaks.sh" "$eb/tests/whole.sh"
sed '/^broke allow-broad /,/^$/d' "$ROOT/tests/expect_breaks.sh" >"$eb/tests/short.sh"
ebrun() { env -u RESULTS BUILD="$eb/build" EXPECT_FILE="$ROOT/tests/data/expect_run.txt" bash "$eb/tests/$1" t; }
got=$(ebrun whole.sh 2>&1 | grep -E '(ok|FAIL) +expect-breaks-ran' | sed 's/^ *//')
check expect-breaks-counts-whole "$got" grep -q '^ok   expect-breaks-ran' <<<"$got"
breaks expect-breaks-one-missing 'FAIL +expect-breaks-ran .*not run: allow-broad' ebrun short.sh
# finish() under set -e (check-bisect, check-cross, check-distcc run so):
# no failure to grep for must not end the pipeline before its closing line.
printf '%s\n' 'set -euo pipefail; . "$1"/scripts/lib.sh; results_init strict; result pass a; finish' >"$tmp/strict.sh"
got=$(BUILD=$tmp/nest bash "$tmp/strict.sh" "$ROOT" 2>&1 | tail -n 1)
check pipeline-finish-under-set-e "$got" test "$got" = "1 passed, 0 failed, 0 skipped"

# A pipeline's own skip must be one config/pipeline-skips allows for it
# (finish: pipeline_skips_judge): an unlisted one fails the run, naming
# it; a listed one (a tree's skip_suite) and the guests' counted case
# skips (no reason) pass.
ps_run() {
	env -u RESULTS -u PARENT_RESULTS -u NESTED_AS BUILD="$tmp/ps" bash -c \
		'. "$0"/scripts/lib.sh; results_init ps-test; result pass one; result_counts 1 0 2 guest-t >/dev/null; result skip "$1" "$2"; finish' \
		"$ROOT" "$@" 2>&1
}
out=$(ps_run made-up-skip "nothing allows this"); rc=$?
check pipeline-skip-unlisted-fails "rc=$rc: $(grep -m1 'skip-unlisted' <<<"$out" | sed 's/^ *//')" \
	grep -q 'FAIL skip-unlisted-made-up-skip' <<<"$out"
out=$(ps_run suite-foo "config/tree's skip_suite"); rc=$?
check pipeline-skip-listed-passes "rc=$rc: $(tail -n 1 <<<"$out")" test "$rc" = 0
