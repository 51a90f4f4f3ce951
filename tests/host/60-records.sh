# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: What a pipeline records: its KTAP, nested guest KTAP,
# KUnit's, make run's joined guests, object builds, the engine's boots.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

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
		fake() { echo "$1" >"$2"; boot_verdict "$2"; [ "$1" = baseline ] || { boot_verdict "$2" "BOOT FAILED: broken on purpose"; return 3; }; }
		pair_boot t "$BUILD/logs/e" fake >/dev/null; pair_boot_results boot-t "$BUILD/logs/e" >/dev/null
		cat "$BUILD"/logs/e-*.log | tr "\n" " "; cut -f1-3 "$RESULTS" | tr "\t\n" " ;"' "$ROOT")
	check "engine-pair-boot-serial$serial" "$got" \
		test "$got" = "baseline patched pass boot-t-baseline ;fail boot-t-patched BOOT FAILED: broken on purpose;"
done
