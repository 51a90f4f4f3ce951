#!/bin/bash
# Host-side tests of the harness itself: KTAP parser unit tests, config
# validation, the KVM probe's fallback, apt failure, version warning,
# a patch that does not apply.  Appends to $RESULTS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# Inside make check the results go to its list; run alone (make
# test-host) it keeps its own and ends with the closing count line.
standalone=
[ -n "${RESULTS:-}" ] || { results_init test-host; standalone=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# KTAP parser/differ unit tests (C): their KTAP judged by the same
# parser as the guest suites' (ktap_counts, ktapdiff --check).
"$BUILD"/host/ktap_test "$BUILD"/host/ktapdiff "$ROOT"/tests/data >"$tmp/ktap_test.ktap" 2>&1
grep '^not ok' "$tmp/ktap_test.ktap"
ktap_counts "$tmp/ktap_test.ktap" ktap_test >/dev/null

# Config validation: a dropped option is named and fails.
printf 'CONFIG_NET=y\n# CONFIG_UNIX is not set\n' >"$tmp/.config"
printf 'CONFIG_NET=y\nCONFIG_UNIX=y\n' >"$tmp/frag"
msg=$("$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag" 2>&1); rc=$?
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'CONFIG_UNIX dropped out'; then
	result pass config-dropped-option-named
else
	result fail config-dropped-option-named "rc=$rc: $msg"
fi
printf 'CONFIG_NET=y\nCONFIG_UNIX=y\n' >"$tmp/.config"
if "$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag" >/dev/null 2>&1; then
	result pass config-complete-accepted
else
	result fail config-complete-accepted
fi

# A later fragment overrides an earlier one (config/btf.config turns
# CONFIG_MODULES back on): the last request is the one checked.
printf 'CONFIG_MODULES=n\n' >"$tmp/frag-a"
printf 'CONFIG_MODULES=y\n' >"$tmp/frag-b"
printf 'CONFIG_MODULES=y\n' >"$tmp/.config"
ok1=0 ok2=0
"$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag-a" "$tmp/frag-b" >/dev/null 2>&1 && ok1=1
printf '# CONFIG_MODULES is not set\n' >"$tmp/.config"
if ! msg=$("$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag-a" "$tmp/frag-b" 2>&1); then
	echo "$msg" | grep -q 'CONFIG_MODULES dropped out' && ok2=1
fi
if [ "$ok1$ok2" = 11 ]; then
	result pass config-later-fragment-wins
else
	result fail config-later-fragment-wins "accepted override: $ok1, dropped override named: $ok2"
fi

# Architecture profiles: every config/arch file sets every key that
# config/arch/README documents, its fragment exists, and an unknown ARCH
# stops naming the known ones.
keys=$(sed -n 's/^#   \([a-z_0-9][a-z_0-9]*\) .*/\1/p' "$ROOT/config/arch/README")
bad=()
for f in "$ROOT"/config/arch/*; do
	[ "$(basename "$f")" = README ] && continue
	for k in $keys; do
		grep -q -E "^${k}[[:space:]]+[^[:space:]]" "$f" || bad+=("$(basename "$f"): no $k")
	done
	frag=$(sed -n 's/^fragment[[:space:]]\+//p' "$f")
	[ "$frag" = - ] || [ -f "$ROOT/config/$frag" ] || bad+=("$(basename "$f"): no config/$frag")
done
msg=$(ARCH=nosuch bash -c ". '$ROOT/scripts/lib.sh'" 2>&1)
grep -q "unknown ARCH 'nosuch' (config/arch has: .*x86_64" <<<"$msg" || bad+=("ARCH=nosuch: $msg")
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass arch-profiles-complete "$(echo "$keys" | wc -w) keys"
else
	result fail arch-profiles-complete "${bad[*]}"
fi

# TCG boots' extra kernel arguments: x86_64's tcg_append (config/arch)
# under TCG, none under make bench's -icount or under KVM.
want=$(sed -n 's/^tcg_append[[:space:]]\+//p' "$ROOT/config/arch/x86_64")
got=$(ARCH=x86_64 bash -c ". '$ROOT/scripts/lib.sh'; echo \"tcg[\$(tcg_append tcg)]\" \
	\"icount[\$(QEMU_EXTRA='-icount shift=0,sleep=off' tcg_append tcg)]\" \"kvm[\$(tcg_append kvm)]\"" 2>&1)
check tcg-append-only-without-icount "$got" [ "$got" = "tcg[ $want] icount[] kvm[]" ]

# Console judge: a sanitizer report fails and is quoted; a clean log passes.
printf 'Linux version 6.12\nBUG: KASAN: slab-out-of-bounds in x\n' >"$tmp/dirty.log"
printf 'Linux version 6.12\nreboot: Restarting system\n' >"$tmp/clean.log"
if ! "$ROOT"/scripts/console-check.sh "$tmp/dirty.log" 2>"$tmp/cc" && grep -q 'KASAN' "$tmp/cc" &&
	"$ROOT"/scripts/console-check.sh "$tmp/clean.log" 2>/dev/null; then
	result pass console-report-detected
else
	result fail console-report-detected
fi

# KVM probe: /dev/kvm present but the guest hangs -> tcg within the bound.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexec sleep 300\n' >"$tmp/bin/$ARCH_QEMU"
chmod +x "$tmp/bin/$ARCH_QEMU"
: >"$tmp/kvm"
t0=$(date +%s)
v=$(PATH="$tmp/bin:$PATH" KVM_DEV="$tmp/kvm" KVM_PROBE_TIMEOUT=3 ACCEL_CACHE="$tmp/accel" ACCEL='' \
	"$ROOT"/scripts/accel.sh /dev/null 2>/dev/null)
dt=$(( $(date +%s) - t0 ))
if [ "$v" = tcg ] && [ "$dt" -le 10 ] && ! pgrep -f "$tmp/bin/qemu" >/dev/null; then
	result pass kvm-probe-hang-falls-back-to-tcg "${dt}s"
else
	result fail kvm-probe-hang-falls-back-to-tcg "got '$v' after ${dt}s"
fi
v=$(KVM_DEV="$tmp/absent" ACCEL_CACHE="$tmp/accel2" ACCEL='' "$ROOT"/scripts/accel.sh /dev/null 2>/dev/null)
[ "$v" = tcg ] && result pass kvm-absent-uses-tcg || result fail kvm-absent-uses-tcg "got '$v'"

# A package apt cannot install: clear error, nonzero exit, bounded time.
t0=$(date +%s)
msg=$(EXTRA_PKGS=no-such-package-sockaddr-harness APT_TIMEOUT=300 BUILD="$tmp/b" "$ROOT"/scripts/deps.sh 2>&1); rc=$?
dt=$(( $(date +%s) - t0 ))
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'no-such-package-sockaddr-harness'; then
	result pass apt-missing-package-fails "${dt}s"
else
	result fail apt-missing-package-fails "rc=$rc"
fi

# A tree version other than the verified one: loud warning, carries on.
# A patch that does not apply: stops naming the patch and the file.
# Both run against a tiny throwaway git tree, not the kernel.
mkdir -p "$tmp/t/linux" "$tmp/t/p"
(cd "$tmp/t/linux" && printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 999\nkernelversion:\n\t@echo 6.12.999\n' >Makefile &&
	echo hello >file.c && git init -q -b pristine && git add -A &&
	git -c user.name=t -c user.email=t@t commit -q -m base && git tag baseline &&
	echo 6.12.999-test >.pkgver && touch .unpacked)
cat >"$tmp/t/p/0001-bad.patch" <<'PATCH'
From: Test <t@t>
Subject: [PATCH] bad

---
 file.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/file.c b/file.c
--- a/file.c
+++ b/file.c
@@ -1 +1 @@
-goodbye
+world
PATCH
echo 0001-bad.patch >"$tmp/t/p/series"
msg=$(BUILD="$tmp/t" SERIES_DIR="$tmp/t/p" TARBALL=/dev/null "$ROOT"/scripts/tree.sh 2>&1); rc=$?
if echo "$msg" | grep -q 'WARNING: apt served Linux 6.12.999'; then
	result pass tree-version-warning
else
	result fail tree-version-warning
fi
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'patch does not apply: 0001-bad.patch' && echo "$msg" | grep -q 'failing files: file.c'; then
	result pass patch-not-applying-named
else
	result fail patch-not-applying-named "rc=$rc: $(echo "$msg" | tail -2)"
fi
git -C "$tmp/t/linux" worktree prune 2>/dev/null || true

# The pipeline's KTAP record (finish(): build/<pipeline>.ktap): every
# result a test point, read back by ktapdiff with the same counts.
printf 'pass\ta-stage\tdetail\nfail\tb stage\tx # y\nskip\tc\twhy\npass\td\t\n' >"$tmp/r.results"
bash -c '. "$0"/scripts/lib.sh && results_ktap "$1"' "$ROOT" "$tmp/r.results" >"$tmp/r.ktap"
counts=$("$BUILD"/host/ktapdiff --check "$tmp/r.ktap" 2>&1 | sed -n 's/^top level: //p')
check pipeline-ktap-record "results as KTAP, read back: $counts" test "$counts" = "2 passed, 1 failed, 1 skipped"
# A guest's KTAP (result_attach) nested under its result's test point:
# the record's top level has one point for the guest's three results,
# and every result line of the guest's log is in it, one level deeper.
printf 'pass\tbuild\t\npass\tguest\t\npass\tguest\t\nskip\tguest\t\n' >"$tmp/g.results"
printf 'guest\t%s\n' "$ROOT/tests/data/complete.log" >"$tmp/g.attach"
bash -c '. "$0"/scripts/lib.sh && results_ktap "$1" "$2"' "$ROOT" "$tmp/g.results" "$tmp/g.attach" >"$tmp/g.ktap"
top=$("$BUILD"/host/ktapdiff --check "$tmp/g.ktap" 2>&1 | sed -n 's/^top level: //p')
inner=$(grep -c -E '^  +(not )?ok ' "$tmp/g.ktap")
want=$(tr -d '\r' <"$ROOT/tests/data/complete.log" | grep -c -E '^ *(not )?ok ')
check pipeline-ktap-nests-guest "top level: $top; $inner nested result lines, the guest log has $want" \
	test "$top" = "2 passed, 0 failed, 0 skipped" -a "$inner" = "$want"
# KUnit's KTAP, taken out of a console among kernel messages
# (console_ktap) to be nested the same way: the same cases as ktapdiff
# reads from the console itself, and no kernel message.
bash -c '. "$0"/scripts/lib.sh && console_ktap "$1"' "$ROOT" "$ROOT/tests/data/kunit4.log" >"$tmp/k.ktap"
a=$("$BUILD"/host/ktapdiff --check "$ROOT/tests/data/kunit4.log" 2>&1 | sed -n 's/^cases: //p')
b=$("$BUILD"/host/ktapdiff --check "$tmp/k.ktap" 2>&1 | sed -n 's/^cases: //p')
check pipeline-kunit-ktap "console: $a; taken out: $b" \
	test -n "$a" -a "$a" = "$b" -a "$(grep -c -E 'Run /init|reboot:' "$tmp/k.ktap")" = 0

# make run's two guests (ktap_join): their KTAP as one document holding
# the cases of both, a suite the second only repeats (its setup run)
# left out with its cases, "# init: done" at the end only when both
# wrote it; a guest cut short leaves the joined run short of its plan.
printf '%s\n' 'KTAP version 1' '1..2' '  KTAP version 1' '  1..1' '  ok 1 setup_case' 'ok 1 sockaddr_basic' \
	'  KTAP version 1' '  1..2' '  ok 1 x' '  not ok 2 y' 'not ok 2 other' '# init: done' >"$tmp/g1.ktap"
j=$(bash -c '. "$0"/scripts/lib.sh && ktap_join "$1" "$2" "$3" && ktap_join "$4" "$2" "$5"' "$ROOT" \
	"$tmp/j2.ktap" "$ROOT/tests/data/complete.log" "$tmp/g1.ktap" "$tmp/jt.ktap" "$ROOT/tests/data/truncated.log"
	"$BUILD"/host/ktapdiff --check "$tmp/j2.ktap" | sed -n 's/^\(top level\|cases\): //p'
	echo "$(grep -c setup_case "$tmp/j2.ktap") $(tail -n 1 "$tmp/j2.ktap")"
	"$BUILD"/host/ktapdiff --check "$tmp/jt.ktap" >/dev/null 2>&1; echo "rc=$? $(grep -c 'init: done' "$tmp/jt.ktap")")
j=$(echo "$j" | paste -sd';')
check ktap-join-guests "$j" test "$j" = "1 passed, 1 failed, 1 skipped;4 passed, 1 failed, 1 skipped;0 # init: done;rc=2 0"

# objects_judge (check-bisect, check-cross, check-testmod): errors and
# objects not built counted; a warning that only moved is not new, one
# under the worktree's absolute path is named relative to it.
printf '%s\n' "../net/a.c:10:5: warning: old [-Wx]" >"$tmp/oj-base.log"
printf '%s\n' "../net/a.c:12:5: warning: old [-Wx]" "$tmp/wt/net/b.c:3:1: warning: new one [-Wy]" \
	"../net/c.c:1:1: error: broken" "net/d.o: not built" >"$tmp/oj-p.log"
got=$(bash -c '. "$0"/scripts/lib.sh; objects_judge "$1" "$2" "$3"; objects_judge "$1" "$4" "$5" "$3"
	echo "$OBJ_ERRORS $OBJ_WARNINGS $OBJ_NEW $(cat "$5.new")"' \
	"$ROOT" "$tmp/wt" "$tmp/oj-base.log" "$tmp/oj-base" "$tmp/oj-p.log" "$tmp/oj-p")
check objects-judge "$got" test "$got" = "2 2 1 net/b.c: warning: new one [-Wy]"

# The engine's boots (lib/engine.sh pair_boot): both variants booted,
# one result each; a boot that fails is a failed result with the line
# saying why, at once and one after the other (SERIAL_BOOTS=1).
for serial in 0 1; do
	got=$(BUILD=$tmp/eng SERIAL_BOOTS=$serial bash -c '. "$0"/scripts/lib.sh; results_init eng
		fake() { echo "$1" >"$2"; [ "$1" = baseline ] || { echo "BOOT FAILED: broken on purpose" >&2; return 3; }; }
		pair_boot t "$BUILD/logs/e" fake >/dev/null; pair_boot_results boot-t "$BUILD/logs/e" >/dev/null
		cat "$BUILD"/logs/e-*.log | tr "\n" " "; cut -f1-3 "$RESULTS" | tr "\t\n" " ;"' "$ROOT")
	check "engine-pair-boot-serial$serial" "$got" \
		test "$got" = "baseline patched pass boot-t-baseline ;fail boot-t-patched BOOT FAILED: broken on purpose;"
done

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
# finish() under set -e (check-bisect, check-cross, check-distcc run so):
# no failure to grep for must not end the pipeline before its closing line.
printf '%s\n' 'set -euo pipefail; . "$1"/scripts/lib.sh; results_init strict; result pass a; finish' >"$tmp/strict.sh"
got=$(BUILD=$tmp/nest bash "$tmp/strict.sh" "$ROOT" 2>&1 | tail -n 1)
check pipeline-finish-under-set-e "$got" test "$got" = "1 passed, 0 failed, 0 skipped"

# The tree is a profile (config/tree): TREE=6.1 takes its package,
# tarball, series and its own build folder; an unknown tree is refused.
tree_of() { TREE=$1 BUILD='' bash -c '. "$0"/scripts/lib.sh && echo "$TREE_PACKAGE $TREE_SERIES $(rel "$BUILD")"' "$ROOT"; }
check tree-profile-6.1 "$(tree_of 6.1 2>&1)" test "$(tree_of 6.1 2>&1)" = "linux-source-6.1 patches-6.1 build/6.1"
check tree-profile-default "$(tree_of "" 2>&1)" test "$(tree_of "" 2>&1)" = "linux-source-6.12 patches build"
msg=$(tree_of 5.10 2>&1); rc=$?
check tree-profile-unknown-refused "rc=$rc: $msg" test "$rc" != 0 -a -n "$(echo "$msg" | grep "unknown TREE '5.10'")"

# One list of the variables the harness reads (config/variables): a
# read with a default that is not listed fails, naming it.
unlisted=$(grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=]' "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT"/tests/*.sh |
	sed -E 's/^\$\{([A-Z0-9_]+).*/\1/' | sort -u |
	grep -v -x -F -f <(grep -v '^#' "$ROOT/config/variables" | awk '{for (i = 1; i <= NF && $i ~ /^[A-Z][A-Z0-9_]*$/; i++) print $i}') || true)
# make coverage's line maps and verdict rules (scripts/coverage-table.py).
check coverage-table-selftest "line maps through diffs, sides judged" \
	python3 "$ROOT"/scripts/coverage-table.py --self-test
not() { ! "$@"; }
quiet() { "$@" >/dev/null; }
# make dkms-check's verdict (scripts/dkms-judge.sh) on its expectations
# as if measured: every rule holds; broken once, a changed outcome fails.
check dkms-judge-expect "config/expect/dkms judged as measured outcomes" \
	quiet run_results "$ROOT"/scripts/dkms-judge.sh "$ROOT/config/expect/dkms"
sed -E 's/^(trixie lime-forensics-dkms patched) .*/\1 builds/' "$ROOT/config/expect/dkms" >"$tmp/dkms-broken"
check dkms-judge-break "LiME building on the patched kernel, unexpected: fails" \
	not quiet run_results "$ROOT"/scripts/dkms-judge.sh "$tmp/dkms-broken"
check variables-listed "config/variables lists every variable read${unlisted:+; not listed: $(echo $unlisted)}" test -z "$unlisted"

# Shell scripts pass shellcheck.
if shellcheck -x -S warning "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT"/tests/*.sh "$ROOT"/guest/debian/*.sh "$ROOT"/.ci/run >"$tmp/sc" 2>&1; then
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
if [ "$rc" = 0 ] && [ -x "$rs/host/ktapdiff" ] && [ "$last" = "14 passed, 0 failed, 2 skipped" ]; then
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
if [ "$rc" = 1 ] && [ "$last" = "9 passed, 3 failed, 1 skipped" ]; then
	result pass run-summary-counts-failures
else
	result fail run-summary-counts-failures "rc=$rc, last line: $last"
fi

# One list of kernel reports (config/kernel-reports): every judge
# rejects a console line carrying any one of them: the boot judge (and
# the fuzz summary, through the same report_lines), the fuzzer's watcher
# in the guest (built from the generated header) and the bounds demo.
# The watcher is a guest program built with the tree's kselftest
# headers: without a tree (make test-host alone) it is skipped, named.
fuzz=$BUILD/guest/fuzz judges=3
if [ ! -f "$BUILD/linux/tools/testing/selftests/kselftest_harness.h" ]; then
	result skip kernel-report-list-fuzz-watcher "no tree (make tree)"
	fuzz='' judges=2
elif ! make -s -C "$ROOT" BUILD="$BUILD" "$fuzz" >"$tmp/fuzz-build.log" 2>&1; then
	sed 's/^/  | /' "$tmp/fuzz-build.log" | tail -5
	result fail kernel-report-list-fuzz-watcher "guest/fuzz did not build"
	fuzz='' judges=2
fi
missed=() n=0
while read -r pat; do
	n=$((n + 1))
	printf '[    1.000000] %s in net/ipv4/elsewhere.c\n' "$pat" >"$tmp/one.log"
	"$ROOT"/scripts/console-check.sh "$tmp/one.log" 2>/dev/null && missed+=("boot judge: $pat")
	[ -z "$fuzz" ] || "$fuzz" --is-report <"$tmp/one.log" >/dev/null || missed+=("fuzz watcher: $pat")
	[ -n "$(demo_unexpected_reports "$tmp/one.log")" ] || missed+=("bounds demo: $pat")
done < <(report_patterns)
printf '[    1.000000] ok 1 sockaddr_unsized\n' >"$tmp/one.log"
"$ROOT"/scripts/console-check.sh "$tmp/one.log" 2>/dev/null || missed+=("boot judge: a clean line")
[ -z "$fuzz" ] || ! "$fuzz" --is-report <"$tmp/one.log" >/dev/null || missed+=("fuzz watcher: a clean line")
if [ "${#missed[@]}" = 0 ] && [ "$n" -gt 0 ]; then
	result pass kernel-report-list-one-for-all "$n patterns, $judges judges"
else
	result fail kernel-report-list-one-for-all "${missed[*]}"
fi

# make deb / make check-debian: install with dpkg, packaging names,
# rootfs cache and mirror, bounded boot (no kernel build, no boot).
"$ROOT"/scripts/test-debian.sh
[ -z "$standalone" ] || finish
