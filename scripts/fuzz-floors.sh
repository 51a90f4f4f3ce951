#!/bin/bash
# The fuzz-paths file with its floors set to what a run measured: every
# listed path's calls and ok floors become the run's own counts (the
# digest pins the calls, so a run of the same N and seed makes the same
# ones), its reason kept and its "(measured ...)" note rewritten.  A
# path the run printed that the file does not list is named on stderr
# and makes the exit status 1: it needs a line with its reason.
# Usage: scripts/fuzz-floors.sh FUZZ_OUT [FILE] > NEW_FILE
#        FUZZ_OUT: a fuzz run's output (build/logs/fuzz.out); FILE: the
#        paths file (default the tree's, config/tree's fuzz_paths).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || die "usage: scripts/fuzz-floors.sh FUZZ_OUT [FILE]"
out=$1 file=${2:-$ROOT/$TREE_FUZZ_PATHS}
awk '
	FILENAME == ARGV[1] {
		if (match($0, /^ *path [^ ]+ calls=[0-9]+ ok=[0-9]+$/)) {
			split($0, w, /[ =]+/); n = (w[1] == "" ? 2 : 1)
			calls[w[n + 1]] = w[n + 3]; ok[w[n + 1]] = w[n + 5]; order[++np] = w[n + 1]
		}
		next
	}
	/^[a-z0-9_]+\.[a-z0-9]+ +[0-9]+ +[0-9]+/ && ($1 in calls) {
		listed[$1] = 1
		reason = $0; sub(/^[^#]*#/, "#", reason)
		sub(/ *\(measured [0-9]+ calls, [0-9]+ ok\)$/, "", reason)
		printf "%-26s %6d %5d  %s (measured %d calls, %d ok)\n", $1, calls[$1], ok[$1], reason, calls[$1], ok[$1]
		next
	}
	/^[a-z0-9_]+\.[a-z0-9]+ +[0-9]+ +[0-9]+/ { missing = missing " " $1 }
	{ print }
	END {
		for (i = 1; i <= np; i++)
			if (!(order[i] in listed)) { printf "fuzz-floors: path %s (calls=%d ok=%d) is not in the file\n", order[i], calls[order[i]], ok[order[i]] > "/dev/stderr"; bad = 1 }
		if (missing != "") { printf "fuzz-floors: listed, not in the run:%s\n", missing > "/dev/stderr"; bad = 1 }
		exit bad
	}' "$out" "$file"
