# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: The harness's own tools: the variables list, coverage-
# table, dkms-judge, shellcheck, the guest's suite order, bg_stop, make
# run's summary rebuilding its tools.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# One list of the variables the harness reads (config/variables): a
# read with a default that is not listed fails, naming it.
unlisted=$(grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=]' "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT"/tests/*.sh "$ROOT"/tests/host/*.sh |
	sed -E 's/^\$\{([A-Z0-9_]+).*/\1/' | sort -u |
	grep -v -x -F -f <(grep -v '^#' "$ROOT/config/variables" | awk '{for (i = 1; i <= NF && $i ~ /^[A-Z][A-Z0-9_]*$/; i++) print $i}') || true)
# make coverage's line maps and verdict rules (scripts/coverage-table.py).
check coverage-table-selftest "line maps through diffs, sides judged" \
	python3 "$ROOT"/scripts/coverage-table.py --self-test
# make dkms-check's verdict (scripts/dkms-judge.sh) on its expectations
# as if measured: every rule holds; broken once, a changed outcome fails.
# 6.12's expectations with 6.12's module list, whatever TREE this runs
# under (make check TREE=6.1 runs these tests too).
check dkms-judge-expect "config/expect/dkms judged as measured outcomes" \
	quiet run_results env TREE=6.12 "$ROOT"/scripts/dkms-judge.sh "$ROOT/config/expect/dkms"
# The other trees' expectations, each with its own list and rules.
check dkms-judge-expect-6.1 "config/expect/6.1/dkms judged as measured outcomes" \
	quiet run_results env TREE=6.1 "$ROOT"/scripts/dkms-judge.sh "$ROOT/config/expect/6.1/dkms"
check dkms-judge-expect-7.3 "config/expect/7.3/dkms judged as measured outcomes (one kernel)" \
	quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$ROOT/config/expect/7.3/dkms"
sed -E 's/^(trixie lime-forensics-dkms patched) .*/\1 builds/' "$ROOT/config/expect/dkms" >"$tmp/dkms-broken"
check dkms-judge-break "LiME building on the patched kernel, unexpected: fails" \
	not quiet run_results env TREE=6.12 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-broken"
# On a tree without series (7.3: one kernel) a module that calls a
# changed API and fails there at an error naming one needs a fix that
# clears it: without one, or with one still failing there, fails even
# when the expectations say so; with one that builds or fails
# elsewhere, passes; failing elsewhere unfixed passes too.
printf '%s\n' "sid iptables-netflow-dkms baseline fails x.c:1: error: passing argument 2 of 'sock->ops->bind' from incompatible pointer type" >"$tmp/dkms-73-nofix"
check dkms-judge-one-kernel-nofix "7.3: an API user failing without a fix: fails" \
	not quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-73-nofix" "$tmp/dkms-73-nofix"
cp "$tmp/dkms-73-nofix" "$tmp/dkms-73-still"
printf 'sid iptables-netflow-dkms fixed-baseline builds\n' >>"$tmp/dkms-73-nofix"
check dkms-judge-one-kernel-fixed "7.3: the same with a fix that builds: passes" \
	quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-73-nofix" "$tmp/dkms-73-nofix"
cp "$tmp/dkms-73-still" "$tmp/dkms-73-other"
printf '%s\n' "sid iptables-netflow-dkms fixed-baseline fails x.c:9: error: passing argument 2 of 'sock->ops->bind' from incompatible pointer type" >>"$tmp/dkms-73-still"
check dkms-judge-one-kernel-still "7.3: a fixed build still failing on the changed API: fails" \
	not quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-73-still" "$tmp/dkms-73-still"
printf '%s\n' "sid iptables-netflow-dkms fixed-baseline fails x.c:9: error: implicit declaration of function 'del_timer_sync'" >>"$tmp/dkms-73-other"
check dkms-judge-one-kernel-other "7.3: a fixed build failing for another reason (not a changed API): passes" \
	quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-73-other" "$tmp/dkms-73-other"
printf '%s\n' "sid openafs-modules-dkms baseline fails osi_compat.h:71: error: passing argument 1 of 'inode->i_op->setattr'" >"$tmp/dkms-73-elsewhere"
check dkms-judge-one-kernel-elsewhere "7.3: an API user failing at an error that names none of its APIs, no fix: passes" \
	quiet run_results env TREE=7.3 "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-73-elsewhere" "$tmp/dkms-73-elsewhere"
# docs/out-of-tree-modules.md shows make dkms-kernels' table as the
# expectations give it now (regenerated when one changes).
"$ROOT"/scripts/dkms-kernels.sh >"$tmp/dkms-kernels"
awk '/^\| module \| version \| suite \| 6\.1 \|/ { on = 1 } on && !/^\|/ { exit } on' "$ROOT/docs/out-of-tree-modules.md" >"$tmp/dkms-kernels-doc"
check dkms-kernels-doc "docs/out-of-tree-modules.md's five-kernel table is make dkms-kernels' output" \
	cmp -s "$tmp/dkms-kernels" "$tmp/dkms-kernels-doc"
check variables-listed "config/variables lists every variable read${unlisted:+; not listed: $(echo $unlisted)}" test -z "$unlisted"

# Shell scripts pass shellcheck.
if shellcheck -x -S warning "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT"/tests/*.sh "$ROOT"/tests/host/*.sh "$ROOT"/guest/debian/*.sh "$ROOT"/.ci/run >"$tmp/sc" 2>&1; then
	result pass shellcheck
else
	head -20 "$tmp/sc"
	result fail shellcheck
fi

# guest/init runs the suites in the order /suites/.order gives (the
# initramfs builder's argument order), not alphabetically.
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/guest/init" >/dev/null
mkdir -p "$tmp/suites"
for n in zeta alpha; do
	printf '#!/bin/sh\necho "KTAP version 1"\necho "1..1"\necho "ok 1 %s"\n' "$n" >"$tmp/suites/$n"
	chmod +x "$tmp/suites/$n"
done
printf 'zeta\nalpha\n' >"$tmp/suites/.order"
order=$(INIT_SUITE_DIR="$tmp/suites" INIT_CMDLINE="" "$BUILD/guest/init" | sed -n 's/^ok [0-9]* //p' | tr '\n' ' ')
if [ "$order" = "zeta alpha " ]; then
	result pass init-suite-order
else
	result fail init-suite-order "ran: $order"
fi

# bg_stop: a stage beside another (make check's patched kernel beside a
# baseline build that failed) is stopped with everything under it.
tree_of_sleeps() { sh -c "sleep 307 & sleep 307 & wait"; }
BUILD=$tmp bg_start stop-me tree_of_sleeps
# Until both have started (up to 10 s: a loaded machine starts them late).
for _ in $(seq 20); do
	before=$(pgrep -c -x -f 'sleep 307' || true)
	[ "$before" = 2 ] && break
	sleep 0.5
done
t0=$(date +%s)
BUILD=$tmp bg_stop stop-me
sleep 0.5
after=$(pgrep -c -x -f 'sleep 307')
dt=$(( $(date +%s) - t0 ))
if [ "$before" = 2 ] && [ "$after" = 0 ] && [ "$dt" -le 5 ]; then
	result pass bg-stop-ends-the-whole-stage "2 processes under it, none left after ${dt}s"
else
	result fail bg-stop-ends-the-whole-stage "$before processes under it, $after left after ${dt}s"
fi

# Every pipeline builds the products it calls: make run's summary step,
# given a recorded guest run and no build/host, rebuilds ktapdiff and
# counts instead of failing with "No such file" (it once did).
rs=$tmp/run-summary
mkdir -p "$rs/logs"
cp "$ROOT"/tests/data/expect_ok.log "$rs/logs/run.ktap"
cp "$ROOT"/tests/data/expect_ok.log "$rs/logs/run.log"
out=$(BUILD=$rs RESULTS='' STAGE_LOG='' EXPECT_FILE=$ROOT/tests/data/expect_run.txt \
	"$ROOT"/scripts/run-summary.sh "$rs/logs/run.log" 2>&1); rc=$?
last=$(echo "$out" | tail -1)
# (13: expect_run.txt's obs line is one result of its own.)
if [ "$rc" = 0 ] && [ -x "$rs/host/ktapdiff" ] && [ "$last" = "13 passed, 0 failed, 2 skipped" ]; then
	result pass run-summary-builds-host-tools
else
	result fail run-summary-builds-host-tools "rc=$rc, last line: $last"
fi
# ... and a failed KUnit case still fails the run, with its count.
cp "$ROOT"/tests/data/kunit4.log "$rs/logs/run.log"
rm -rf "$rs/host"
out=$(BUILD=$rs RESULTS='' STAGE_LOG='' EXPECT_FILE=$ROOT/tests/data/expect_run_kunit4.txt \
	"$ROOT"/scripts/run-summary.sh "$rs/logs/run.log" 2>&1); rc=$?
last=$(echo "$out" | tail -1)
if [ "$rc" = 1 ] && [ "$last" = "8 passed, 3 failed, 1 skipped" ]; then
	result pass run-summary-counts-failures
else
	result fail run-summary-counts-failures "rc=$rc, last line: $last"
fi
