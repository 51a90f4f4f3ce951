#!/bin/bash
# Host-side tests of the harness itself (make test-host, and make
# check's harness-tests): the runner.  The tests are tests/host/NN-*.sh,
# one topic per file (KTAP, config, profiles, boot, deps, records,
# judges, tools, pipelines), sourced in order into this shell with the
# scratch folder $tmp and the helpers below; then make check-debian's
# host tests (scripts/test-debian.sh).  Appends to $RESULTS; its last
# result, test-host-complete, says it got to its end (check.sh's
# runner_judge).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# Inside make check the results go to its list; run alone (make
# test-host) it keeps its own and ends with the closing count line.
standalone=
[ -n "${RESULTS:-}" ] || { results_init test-host; standalone=1; }
first=$(( $(wc -l <"$RESULTS") + 1 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

# The tests, one topic per file (tests/host/NN-topic.sh), in order.
for t in "$ROOT"/tests/host/[0-9][0-9]-*.sh; do
	# shellcheck source=/dev/null
	. "$t"
done

# make deb / make check-debian: install with dpkg, packaging names,
# rootfs cache and mirror, bounded boot (no kernel build, no boot).
runner_judge test-debian test-debian "$ROOT"/scripts/test-debian.sh
# The last result: this runner got to its end.
runner_complete test-host
[ -z "$standalone" ] || finish
# Inside make check: the exit status says whether a test here failed.
! grep -q -P '^fail\t' < <(tail -n +"$first" "$RESULTS")
