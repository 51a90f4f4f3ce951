#!/bin/bash
# Host-side checks of the sockaddr fuzzer's determinism, in --dry-run
# mode only (it generates calls and executes nothing):
#   - the same seed twice gives the same call list and digest;
#   - another seed gives another digest;
#   - a shorter run is a prefix of a longer one (call i depends only on
#     the seed and i, not on how many calls follow);
#   - it prints a path line for every path config/fuzz-paths lists (the
#     names make check looks for in the guest's output);
#   - without --dry-run, off the test guest, it refuses (exit 4).
# Usage: tests/fuzz_replay.sh [N] [SEED]   (default 5000 1)
# Prints "ok - ..." / "not ok - ..." per check; exits 1 if any failed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../scripts/lib.sh"

n=${1:-5000}
seed=${2:-1}
other=$((seed + 1))
bin=$BUILD/guest/fuzz
make -s -C "$ROOT" "$bin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failed=0
check() {
	local what=$1; shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		failed=1
	fi
}
digest() { tail -n 1 "$1" | sed -n 's/^digest=\([0-9a-f]\{16\}\) .*/\1/p'; }

"$bin" --dry-run "$n" "$seed" >"$tmp/a"
"$bin" --dry-run "$n" "$seed" >"$tmp/b"
"$bin" --dry-run "$n" "$other" >"$tmp/c"
"$bin" --dry-run "$((n / 2))" "$seed" >"$tmp/half"

check "dry run prints $n calls and a digest line" \
	test "$(grep -c '^#[0-9][0-9]* ' "$tmp/a")" = "$n" -a -n "$(digest "$tmp/a")"
check "seed $seed twice: same calls and digest ($(digest "$tmp/a"))" \
	cmp -s "$tmp/a" "$tmp/b"
check "seed $other: another digest ($(digest "$tmp/c"))" \
	test "$(digest "$tmp/a")" != "$(digest "$tmp/c")"
check "seed $other: another call list" \
	test "$(head -n "$n" "$tmp/a" | md5sum)" != "$(head -n "$n" "$tmp/c" | md5sum)"
check "first $((n / 2)) calls do not depend on N" \
	cmp -s <(head -n "$((n / 2))" "$tmp/a") <(head -n "$((n / 2))" "$tmp/half")
fuzz_path_floors | awk '{print $1}' >"$tmp/want"
sed -n 's/^# fuzz: path \([^ ]*\) calls=0 ok=0$/\1/p' "$tmp/a" >"$tmp/paths"
check "dry run prints each of the $(wc -l <"$tmp/want") paths of config/fuzz-paths" \
	test -s "$tmp/want" -a -z "$(grep -v -x -F -f "$tmp/paths" "$tmp/want")"

# Safe only where in_test_guest() cannot be true: it needs /suites.
if [ -d /suites ]; then
	echo "ok - refuses off the guest # SKIP this host has /suites"
else
	rc=0
	"$bin" 10 "$seed" >"$tmp/refuse" 2>&1 || rc=$?
	check "without --dry-run off the test guest: exit 4 (skip), nothing run" \
		test "$rc" = 4
fi
exit "$failed"
