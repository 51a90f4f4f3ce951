#!/bin/bash
# Host-side tests of the harness itself: KTAP parser unit tests, config
# validation, the KVM probe's fallback, apt failure, version warning,
# a patch that does not apply.  Appends to $RESULTS; its last result,
# test-host-complete, says it got to its end (check.sh's runner_judge).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# Inside make check the results go to its list; run alone (make
# test-host) it keeps its own and ends with the closing count line.
standalone=
[ -n "${RESULTS:-}" ] || { results_init test-host; standalone=1; }
first=$(( $(wc -l <"$RESULTS") + 1 ))
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

# Tree profiles: every config/tree file sets every key config/tree/README
# documents (those marked optional aside); a tree of another suite pins
# its version; a series folder exists; a no_pipeline line names a
# pipeline of config/pipelines, and no row there is one its tree refuses.
bad=()
keys=$(awk '/^#   [a-z_0-9]+ / { k = $2; desc[k] = ""; order[++n] = k; sub(/^#   [a-z_0-9]+ +/, ""); desc[k] = $0; next }
	/^#      / && k != "" { desc[k] = desc[k] " " $0; next } { k = "" }
	END { for (i = 1; i <= n; i++) if (desc[order[i]] !~ /\(optional/) print order[i] }' "$ROOT/config/tree/README")
pipes=$(python3 "$ROOT/scripts/ledger.py" rows | awk '{ print $2 }' | sort -u)
for f in "$ROOT"/config/tree/*; do
	t=$(basename "$f")
	[ "$t" = README ] && continue
	for k in $keys; do
		grep -q -E "^${k}[[:space:]]+[^[:space:]]" "$f" || bad+=("$t: no $k")
	done
	suite=$(sed -n 's/^suite[[:space:]]\+//p' "$f")
	[ "$suite" = - ] || [ "$(sed -n 's/^version[[:space:]]\+//p' "$f")" != - ] || bad+=("$t: suite $suite without a version")
	series=$(sed -n 's/^series[[:space:]]\+//p' "$f")
	[ "$series" = - ] || [ -f "$ROOT/$series/series" ] || bad+=("$t: no $series/series")
	while read -r _ p _; do
		grep -qx -- "$p" <<<"$pipes" || bad+=("$t: no_pipeline $p is no pipeline of config/pipelines")
		python3 "$ROOT/scripts/ledger.py" rows | awk -v p="$p" -v t="$t" '$2 == p && $3 == t { f = 1 } END { exit !f }' &&
			bad+=("$t: config/pipelines has a row of $p, which it refuses")
	done < <(grep -E '^no_pipeline[[:space:]]' "$f")
done
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass tree-profiles-complete "$(echo "$keys" | wc -w) keys in $(find "$ROOT/config/tree" -type f ! -name README | wc -l) profiles"
else
	result fail tree-profiles-complete "${bad[*]}"
fi

# A QEMU that dies by a signal (the KVM probe's abort under a hanging
# /dev/kvm): qemu_run gives its status, and nothing of bash's own notice,
# which names the script's path on this machine, reaches the output.
got=$(cd "$tmp" && bash -c '. "$0/scripts/lib.sh"; qemu_run 10 "$1/sig.log" "$1/sig.ktap" : bash -c "kill -ABRT \$\$"; echo "rc=$QEMU_RC"' "$ROOT" "$tmp" 2>&1)
check qemu-run-signal-quiet "$got" [ "$got" = rc=134 ]

# Userland profiles: every config/userland file sets every key its README
# documents; its files exist; its trees are config/tree profiles and
# config/pipelines has its check-<name> row for each; an unknown
# USERLAND is refused with the list.
bad=()
keys=$(sed -n -E 's/^#   ([a-z_]+) .*/\1/p' "$ROOT/config/userland/README")
for f in "$ROOT"/config/userland/*; do
	u=$(basename "$f")
	[ "$u" = README ] && continue
	for k in $keys; do
		grep -qE "^${k}[[:space:]]" "$f" || bad+=("$u: no $k")
	done
	for k in packages dkms; do
		p=$(awk -v k="$k" '$1 == k { print $2 }' "$f")
		[ -z "$p" ] || [ "$p" = - ] || [ -f "$ROOT/$p" ] || bad+=("$u: $k $p missing")
	done
	name=$(awk '$1 == "name" { print $2 }' "$f")
	for t in $(awk '$1 == "trees" { $1 = ""; print }' "$f"); do
		[ -f "$ROOT/config/tree/$t" ] || bad+=("$u: tree $t has no config/tree profile")
		python3 "$ROOT/scripts/ledger.py" rows | awk -v p="check-$name" -v t="$t" '$2 == p && $3 == t { f = 1 } END { exit !f }' ||
			bad+=("$u: no config/pipelines row check-$name $t")
	done
done
msg=$(USERLAND=nosuch bash -c ". '$ROOT/scripts/lib.sh'" 2>&1)
grep -q "unknown USERLAND 'nosuch' (config/userland has: bookworm" <<<"$msg" || bad+=("USERLAND=nosuch: $msg")
if [ ${#bad[@]} = 0 ] && [ -n "$keys" ]; then
	result pass userland-profiles-complete "$(echo "$keys" | wc -w) keys in $(find "$ROOT/config/userland" -type f ! -name README | wc -l) profiles"
else
	result fail userland-profiles-complete "${bad[*]}"
fi

# TCG boots' extra kernel arguments: RCU's stall timeout under any TCG
# boot, x86_64's tcg_append (config/arch) only without make bench's
# -icount, nothing under KVM.
want=$(sed -n 's/^tcg_append[[:space:]]\+//p' "$ROOT/config/arch/x86_64")
rcu=rcupdate.rcu_cpu_stall_timeout=300
got=$(ARCH=x86_64 bash -c ". '$ROOT/scripts/lib.sh'; echo \"tcg[\$(tcg_append tcg)]\" \
	\"icount[\$(QEMU_EXTRA='-icount shift=0,sleep=off' tcg_append tcg)]\" \"kvm[\$(tcg_append kvm)]\"" 2>&1)
check tcg-append-only-without-icount "$got" [ "$got" = "tcg[ $rcu $want] icount[ $rcu] kvm[]" ]

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
	result fail apt-missing-package-fails "rc=$rc: $(tail -2 <<<"$msg" | tr '\n' ' ')"
fi

# Two installs at once (stages beside each other): the second waits for
# the first (deps.sh's lock) instead of failing on apt's own lock; each
# names its own missing package.
for i in 1 2; do
	EXTRA_PKGS=no-such-package-sockaddr-$i APT_TIMEOUT=300 BUILD="$tmp/c$i" "$ROOT"/scripts/deps.sh >"$tmp/c$i.out" 2>&1 &
done
wait
got=$(for i in 1 2; do grep -c "could not install: no-such-package-sockaddr-$i" "$tmp/c$i.out"; done | tr '\n' ' ')
check apt-concurrent-installs-wait "each names its package: $got" [ "$got" = "1 1 " ]

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
not() { ! "$@"; }
quiet() { "$@" >/dev/null; }
# breaks NAME PATTERN COMMAND...: a judge run on broken data must fail
# (exit non-zero) and print a line matching PATTERN (grep -E): the line
# is the result's detail.
breaks() {
	local name=$1 pat=$2 out rc=0 line; shift 2
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ] && line=$(grep -m1 -E -- "$pat" <<<"$out"); then
		result pass "$name" "rc=$rc: $(tr '\t' ' ' <<<"$line" | cut -c1-160)"
	else
		sed 's/^/  | /' <<<"$out" | tail -5
		result fail "$name" "still passed (rc=$rc) or no /$pat/ in its output"
	fi
}
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

# The tree is a profile (config/tree): TREE=6.1 takes its package,
# tarball, series and its own build folder; an unknown tree is refused.
tree_of() { TREE=$1 BUILD='' bash -c '. "$0"/scripts/lib.sh && echo "$TREE_PACKAGE $TREE_SERIES $(rel "$BUILD")"' "$ROOT"; }
check tree-profile-6.1 "$(tree_of 6.1 2>&1)" test "$(tree_of 6.1 2>&1)" = "linux-source-6.1 patches-6.1 build/6.1"
check tree-profile-default "$(tree_of "" 2>&1)" test "$(tree_of "" 2>&1)" = "linux-source-6.12 patches build"
msg=$(tree_of 5.10 2>&1); rc=$?
check tree-profile-unknown-refused "rc=$rc: $msg" test "$rc" != 0 -a -n "$(echo "$msg" | grep "unknown TREE '5.10'")"
# A tree of another suite without series (7.3, upstream): its own build
# folder, no series, and a pipeline it cannot run refused with its reason.
check tree-profile-7.3 "$(tree_of 7.3 2>&1)" test "$(tree_of 7.3 2>&1)" = "linux-source-7.3  build/7.3"
msg=$(TREE=7.3 BUILD=$tmp/t73 bash -c '. "$0"/scripts/lib.sh && results_init check && echo recorded' "$ROOT" 2>&1); rc=$?
check tree-no-pipeline-refused "rc=$rc: $msg" test "$rc" = 2 -a -n "$(grep "cannot run check: no series" <<<"$msg")" -a -z "$(grep recorded <<<"$msg")"
# Another suite's package is read with private apt state: its own
# sources.list, lists and cache, no dpkg status (nothing downloaded here).
got=$(bash -c '. "$0"/scripts/lib.sh && apt_data_opts trixie-backports "$1" && echo "${APT_DATA_OPTS[*]}"' "$ROOT" "$tmp/aptdata" 2>&1)
check apt-data-private-state "$(grep -o "trixie-backports main" "$tmp/aptdata/sources.list" 2>/dev/null)" \
	test -n "$(grep -F "Dir::State::status=/dev/null" <<<"$got")" -a -n "$(grep -F "Dir::State::Lists=$tmp/aptdata/lists" <<<"$got")" \
	-a -n "$(grep -F " trixie-backports main" "$tmp/aptdata/sources.list" 2>/dev/null)"

# One list of the variables the harness reads (config/variables): a
# read with a default that is not listed fails, naming it.
unlisted=$(grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=]' "$ROOT"/scripts/*.sh "$ROOT"/scripts/lib/*.sh "$ROOT"/tests/*.sh |
	sed -E 's/^\$\{([A-Z0-9_]+).*/\1/' | sort -u |
	grep -v -x -F -f <(grep -v '^#' "$ROOT/config/variables" | awk '{for (i = 1; i <= NF && $i ~ /^[A-Z][A-Z0-9_]*$/; i++) print $i}') || true)
# make coverage's line maps and verdict rules (scripts/coverage-table.py).
check coverage-table-selftest "line maps through diffs, sides judged" \
	python3 "$ROOT"/scripts/coverage-table.py --self-test
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
# Among them every spelling of a report the harness has met or expects:
# x86's and arm64's traces, RCU stalls, hung tasks (each then tried below).
for want in 'Call Trace:' 'Call trace:' 'detected stalls' 'blocked for more than'; do
	report_patterns | grep -q -x -F -- "$want" || missed+=("not in config/kernel-reports: $want")
done
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
	result pass kernel-report-list-one-for-all "$n patterns (Call trace:, detected stalls, blocked for more than among them), $judges judges"
else
	result fail kernel-report-list-one-for-all "${missed[*]}"
fi

# config/pipelines, the rows the ledger and make check-full read: each
# row's tree and arch profile exists and its command is a make target
# (make -n: nothing run).
bad=()
while read -r _name pipe tree arch full cmd; do
	read -ra words <<<"$cmd"
	{ [ -f "$ROOT/config/tree/$tree" ] && [ -f "$ROOT/config/arch/$arch" ] &&
		[[ $full == yes || $full == - ]] && [ "${words[0]}" = make ] &&
		env -u TREE -u ARCH -u BUILD make -n -s -C "$ROOT" "${words[@]:1}" >/dev/null 2>&1; } ||
		bad+=("$pipe/$tree/$arch")
done < <(python3 "$ROOT/scripts/ledger.py" rows)
check pipelines-rows "every row of config/pipelines names a tree, an arch and a make target${bad[*]:+ (not: ${bad[*]})}" \
	test "${#bad[@]}" = 0

# A skip's reason that says a pipeline runs the case ("make X runs it",
# "make X and Y run it") names pipelines config/pipelines has a row of
# for the expectation file's own tree and arch: a reason true on 6.12
# x86_64 must not stand for arm64 or 6.1.
bad=()
rows=$(python3 "$ROOT/scripts/ledger.py" rows)
for tf in 6.12:x86_64:x86_64 6.12:arm64:arm64 6.1:x86_64:6.1/x86_64 6.12:x86_64:debian 6.12:x86_64:debian-trixie 6.1:x86_64:6.1/debian; do
	[ -f "$ROOT/config/expect/${tf##*:}" ] || { bad+=("${tf##*:}: no such file"); continue; }
	IFS=: read -r tree arch file <<<"$tf"
	while read -r named; do
		awk -v p="$named" -v t="$tree" -v a="$arch" '$2 == p && $3 == t && $4 == a { f = 1 } END { exit !f }' \
			<<<"$rows" || bad+=("$file:$named")
	done < <(grep '^skip' "$ROOT/config/expect/$file" |
		grep -o -E 'make [a-z0-9-]+( and (make )?[a-z0-9-]+)? runs? it' |
		sed -E 's/^make //; s/ runs? it$//; s/ and (make )?/\n/' | sort -u)
done
check skip-reasons-pipelines "every pipeline a skip reason says runs the case runs on that file's tree and arch${bad[*]:+ (not: ${bad[*]})}" \
	test "${#bad[@]}" = 0

# Tree and arch profiles combined: the tree's check_extras narrow the
# arch's (6.1 on arm64 runs none of x86_64's stages), and a key the tree
# lacks does not keep a value inherited from another tree's pipeline.
combo=""
for ta in 6.12/x86_64 6.1/x86_64 6.12/arm64 6.1/arm64; do
	combo+="$ta:$(TREE=${ta%/*} ARCH=${ta#*/} TREE_CHECK_EXTRAS=leaked TREE_NO_SUCH_KEY=leaked bash -c '. "$0"/scripts/lib.sh
		for x in host-tests boot-faults bounds-demo fuzz; do check_extra "$x" && printf "%s," "$x"; done
		printenv TREE_NO_SUCH_KEY' "$ROOT") "
done
check profiles-combined "check_extras per tree/arch: $combo" test "$combo" = \
	"6.12/x86_64:host-tests,boot-faults,bounds-demo,fuzz, 6.1/x86_64:host-tests,boot-faults,bounds-demo,fuzz, 6.12/arm64: 6.1/arm64: "

# make deb / make check-debian: install with dpkg, packaging names,
# rootfs cache and mirror, bounded boot (no kernel build, no boot).
runner_judge test-debian test-debian "$ROOT"/scripts/test-debian.sh
# The last result: this runner got to its end.
runner_complete test-host
[ -z "$standalone" ] || finish
# Inside make check: the exit status says whether a test here failed.
! grep -q -P '^fail\t' < <(tail -n +"$first" "$RESULTS")
