#!/bin/bash
# The ledger and the results page (scripts/ledger.py), on a throwaway
# git copy of this working tree: a record is written for a listed
# pipeline only, a narrowing variable makes it partial, its digests
# cover the scripts it started and the config files it read, a one-line
# change to a patch makes its record STALE in make status, and the
# committed-page check (make check's results-page) fails until make
# results is run and committed.  Appends to $RESULTS, or prints its own
# closing line when run alone.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../scripts/lib.sh"
standalone=
[ -n "${RESULTS:-}" ] || { results_init ledger-test; standalone=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The copy: this tree's tracked files as they are now, one commit.
c=$tmp/copy
mkdir -p "$c"
git -C "$ROOT" ls-files -z --cached --others --exclude-standard | (cd "$ROOT" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$c"
rm -rf "$c/ledger"
g() { git -C "$c" -c user.name=ledger-test -c user.email=ledger-test@invalid "$@"; }
g init -q && g add -A && g commit -q -m copy
L() { env -u LEDGER_DIR TREE_NAME=6.12 ARCH_NAME=x86_64 python3 "$c/scripts/ledger.py" "$@"; }
# run_row: make run's row of make status; commit_change FILE WHAT: one
# comment line appended to the copy's FILE, committed.
run_row() { L status | awk '$1 == "run" && $2 == "6.12" && $3 == "x86_64"'; }
commit_change() { echo "# $2" >>"$c/$1"; g commit -q -a -m "$1 changed"; }

# record: a listed pipeline gets one; an unlisted one does not.
L record run 10 0 2 60 >/dev/null
L record no-such-pipeline 1 0 0 1 >/dev/null
check ledger-record "make run's record written with its counts and digests, none for an unlisted pipeline" \
	python3 -c 'import json, os, sys
r = json.load(open(sys.argv[1] + "/ledger/run.6.12.x86_64.json"))
assert (r["passed"], r["failed"], r["skipped"], r["verdict"]) == (10, 0, 2, "pass"), r
assert set(r["digests"]) == {"series", "config", "guest", "harness"}, r
assert os.listdir(sys.argv[1] + "/ledger") == ["run.6.12.x86_64.json"]' "$c"
# start + record --inputs: a commit made while a run builds is not what
# it ran; the record names the commit and inputs it started with.
L start run "$tmp/inputs"
c0=$(g rev-parse --short=12 HEAD)
echo "# changed during the run" >>"$c/scripts/boot.sh"
g commit -q -a -m "a harness change while a run builds"
L record run 10 0 2 60 --inputs "$tmp/inputs" >"$tmp/rec.out"
st=$(run_row)
check ledger-record-start-inputs "the record names the commit it started on ($c0) and shows the harness changed since: ${st//  / }" \
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ledger/run.6.12.x86_64.json"))
assert r["commit"] == sys.argv[2], r["commit"]' "$c" "$c0"
check ledger-record-start-moved "it says what changed while it ran ($(cat "$tmp/rec.out" | head -1))" \
	grep -q 'harness changed while run ran' "$tmp/rec.out"
check ledger-status-changed-since "make status: harness changed since the record" grep -q 'changed: harness' <<<"$st"
# A record's harness digest covers the top-level scripts its run started
# (--scripts: each bash logs its own through BASH_ENV,
# scripts/lib/ledger-env.sh) and every other harness file: a change to
# a script the run never started leaves it current, one to a script it
# ran shows it changed.
printf '#!/bin/bash\nset -u\nexit 0\n' >"$tmp/probe.sh"; chmod +x "$tmp/probe.sh"
: >"$tmp/scripts"
LEDGER_SCRIPT_LOGS=$tmp/scripts BASH_ENV=$c/scripts/lib/ledger-env.sh "$tmp/probe.sh"
check ledger-env-logs "a bash script started under the pipeline's BASH_ENV logs its path" \
	grep -qx "$tmp/probe.sh" "$tmp/scripts"
L start run "$tmp/inputs2"
printf '%s\n' "$c/scripts/boot.sh" >"$tmp/scripts"
L record run 10 0 2 60 --inputs "$tmp/inputs2" --scripts "$tmp/scripts" >/dev/null
commit_change scripts/bench.sh "a change to a script this run did not start"
st1=$(run_row)
commit_change scripts/boot.sh "a change to a script it ran"
st2=$(run_row)
check ledger-harness-per-run "bench.sh changed: ${st1##*  }; then boot.sh, which it ran: ${st2##*  }" \
	eval 'grep -q "current$" <<<"$st1" && grep -q "changed: harness$" <<<"$st2"'
# The config digest covers the config files the run opened (ledger.py
# watch, inotify, as results_init starts it): a change to one it never
# opened leaves the record current, one to a file it read shows it.
L start run "$tmp/inputs3"
( env -u LEDGER_DIR python3 "$c/scripts/ledger.py" watch $$ "$tmp/read" </dev/null >/dev/null 2>&1 & )
for (( i = 0; i < 100; i++ )); do [ -e "$tmp/read" ] && break; sleep 0.05; done
cat "$c/config/toolchains" >/dev/null
kill -TERM "$(cat "$tmp/read.pid" 2>/dev/null)" 2>/dev/null
for (( i = 0; i < 100; i++ )); do kill -0 "$(cat "$tmp/read.pid")" 2>/dev/null || break; sleep 0.05; done
L record run 10 0 2 60 --inputs "$tmp/inputs3" --config "$tmp/read" >/dev/null
check ledger-config-read "the watch logged the one config file opened, the record names it ($(tr '\n' ' ' <"$tmp/read"))" \
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/ledger/run.6.12.x86_64.json"))
assert r["config_read"] == ["config/toolchains"], r.get("config_read")' "$c"
commit_change config/fuzz-paths "a change to a config file the run did not open"
st1=$(run_row)
commit_change config/toolchains "a change to one it read"
st2=$(run_row)
check ledger-config-per-run "fuzz-paths changed: ${st1##*  }; then toolchains, which it read: ${st2##*  }" \
	eval 'grep -q "current$" <<<"$st1" && grep -q "changed: config$" <<<"$st2"'
L record run 10 0 2 60 >/dev/null
# counts (.ci/run's): a record written after the mark gives its closing
# counts; one older than the mark (the run died before finish()) counts
# as one failure.
touch -d '1 hour ago' "$tmp/mark-old"; touch -d '1 hour' "$tmp/mark-new"
got="$(L counts run --newer "$tmp/mark-old");$(L counts run --newer "$tmp/mark-new")"
check ledger-counts "a fresh record's counts, an old one's a failure ($got)" \
	test "$got" = "10 passed, 0 failed, 2 skipped;0 passed, 1 failed, 0 skipped"
# A narrowed run never replaces the record (SUITES= of make run); with
# LEDGER_PARTIAL=1 it is written, as partial.
PARTIAL_SUITES=reach L record run 1 0 0 5 >/dev/null
check ledger-partial-keeps-record "make run SUITES=reach leaves make run's record as it was" \
	grep -q '"passed": 10,' "$c/ledger/run.6.12.x86_64.json"
LEDGER_PARTIAL=1 EXPECT_FILE=x L record check 10 0 0 60 >/dev/null
check ledger-narrowed-partial "EXPECT_FILE set, LEDGER_PARTIAL=1: make check's record is partial, not pass" \
	grep -q '"verdict": "partial"' "$c/ledger/check.6.12.x86_64.json"
rm "$c/ledger/check.6.12.x86_64.json"

# The page, written and committed: the check passes.
L results >/dev/null && g add -A && g commit -q -m results
check ledger-page-current "the page and README's blocks written from the ledger pass the committed-page check" \
	L results --check

# One line of a patch changed and committed without the page: the
# record is STALE in make status, the page check fails and says so.
p=$(cd "$c" && git ls-files 'patches/0*.patch' | sed -n 2p)
sed -i '0,/^---$/s//--- /' "$c/$p"
g commit -q -a -m "one line of $p"
st=$(run_row)
if grep -q 'STALE (series changed)' <<<"$st"; then
	result pass ledger-stale "a one-line change to $(basename "$p"): ${st//  / }"
else
	result fail ledger-stale "make status after a one-line change to $p: $st"
fi
out=$(L results --check 2>&1) && rc=0 || rc=$?
if [ "$rc" = 1 ] && line=$(grep -m1 'as committed differs' <<<"$out"); then
	result pass ledger-page-stale-fails "$line"
else
	result fail ledger-page-stale-fails "rc=$rc: $(head -3 <<<"$out")"
fi
L results >/dev/null && g commit -q -a -m results
check ledger-page-regenerated "make results and a commit: the check passes again" L results --check
runner_complete ledger-test
[ -z "$standalone" ] || finish
