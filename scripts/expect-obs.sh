#!/bin/bash
# Print the "obs" expectation lines (config/expect/README) of a measured
# run: every obs label of its guest suites' KTAP that the premises
# (config/expect/obs-premises, whose head says how) select, with the
# value the run reported, as
#   obs ktap SUITE LABEL VALUE
# in the log's order, one line per suite and label.  A selected label
# left out (another value than the premises accept, values that differ
# between its lines) is named on stderr, with a count per suite.  The
# sibling of scripts/expect-floors.sh, which prints a run's floors.
# Usage: scripts/expect-obs.sh KTAP [PREMISES]
#        (KTAP: a guest-suite log, e.g. build/logs/run-*.ktap or
#        build/logs/check-TAG-patched.ktap)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: scripts/expect-obs.sh KTAP [PREMISES]"
log=$1 premises=${2:-$ROOT/config/expect/obs-premises}
# A file for messages: relative to the tree, else its name only.
shown() { local r; r=$(rel "$1"); [ "${r#/}" = "$r" ] && echo "$r" || basename "$1"; }
[ -s "$log" ] || die "no $(shown "$log")"
[ -s "$premises" ] || die "no $(shown "$premises")"
kd=$BUILD/host/ktapdiff
[ -x "$kd" ] || make -s -C "$ROOT" BUILD="$BUILD" host-bins
dump=$("$kd" --obs "$log") || die "ktapdiff --obs $(shown "$log") failed"
awk -F'\t' -v premises="$(shown "$premises")" '
	# A glob ("*", "?") as an anchored regular expression.
	function glob_re(g,   i, c, re) {
		re = "^"
		for (i = 1; i <= length(g); i++) {
			c = substr(g, i, 1)
			if (c == "*") re = re ".*"
			else if (c == "?") re = re "."
			else if (index("\\.[]()+^$|{}/", c)) re = re "\\" c
			else re = re c
		}
		return re "$"
	}
	function bad(msg) { printf "%s:%d: %s\n", premises, FNR, msg >"/dev/stderr"; failed = 1; exit 2 }
	# The premises: SUITE LABEL ACCEPT REASON, split on blanks.
	FNR == NR {
		line = $0
		if (line ~ /^[ \t]*(#|$)/) next
		n = split(line, w, /[ \t]+/)
		if (w[1] == "") { for (i = 1; i < n; i++) w[i] = w[i + 1]; n-- }
		if (n < 4) bad("not \"SUITE LABEL ACCEPT REASON\": " line)
		np++; sre[np] = glob_re(w[1]); lre[np] = glob_re(w[2]); pline[np] = FNR
		m = split(w[3], acc, ",")
		for (i = 1; i <= m; i++) {
			if (acc[i] !~ /^(ok|any|none|E[A-Z0-9]+)$/) bad("ACCEPT \"" acc[i] "\": not ok, any, none or an errno name")
			accepts[np, acc[i]] = 1
		}
		next
	}
	# The run: SUITE<TAB>LABEL<TAB>VALUE per obs line.
	{
		suite = $1; label = $2; value = $3; sel = 0; excl = 0
		for (p = 1; p <= np; p++) {
			if (suite !~ sre[p] || label !~ lre[p]) continue
			matched[p] = 1
			if ((p, "none") in accepts) { excl = 1; break }
			sel = sel ? sel : p
			cand[p] = 1
		}
		if (!sel || excl) { delete cand; next }
		# The value listed: "ret=N errno=E" of a ret= value, else all of it.
		if (value ~ /^ret=-?[0-9]+ errno=[^ ]+/) {
			split(value, v, " "); listed = v[1] " " v[2]
			err = substr(v[2], 7); ret = substr(v[1], 5)
		} else {
			listed = value; err = ""; ret = ""
		}
		ok = 0
		for (p in cand) {
			this = ((p, "any") in accepts && listed != "") ||
				((p, "ok") in accepts && err == "0" && ret != "" && ret !~ /^-/) ||
				(err != "" && err != "0" && ret ~ /^-/ && (p, err) in accepts)
			if (this) { used[p] = 1; ok = 1 }
		}
		delete cand
		key = suite SUBSEP label
		if (!(key in first)) { first[key] = listed; order[++nk] = key; ks[nk] = suite; kl[nk] = label; good[key] = 1 }
		if (!ok) { good[key] = 0; why[key] = "reported \"" value "\", not accepted" }
		else if (listed != first[key] && good[key]) { good[key] = 0; why[key] = "its lines differ: \"" first[key] "\", \"" listed "\"" }
	}
	END {
		if (failed) exit 2
		for (i = 1; i <= nk; i++) {
			key = order[i]
			if (!(ks[i] in seen)) { seen[ks[i]] = 1; suites[++ns] = ks[i] }
			if (good[key]) { print "obs ktap " ks[i] " " kl[i] " " first[key]; listed_n[ks[i]]++ }
			else { printf "left out: %s %s: %s\n", ks[i], kl[i], why[key] >"/dev/stderr"; left[ks[i]]++ }
		}
		for (i = 1; i <= ns; i++)
			printf "%s: %d obs lines, %d labels left out\n", suites[i], listed_n[suites[i]] + 0, left[suites[i]] + 0 >"/dev/stderr"
		for (p = 1; p <= np; p++)
			if (!(p in matched))
				printf "%s:%d: matched no obs label of the run\n", premises, pline[p] >"/dev/stderr"
			else if (!(p in used) && !((p, "none") in accepts))
				printf "%s:%d: selected nothing the run reported as accepted\n", premises, pline[p] >"/dev/stderr"
	}' "$premises" - <<<"$dump"
