#!/bin/bash
# Print the expectation lines (config/expect/README) of a measured make
# check: per log and suite, the passed cases and obs lines of the run
# (the lower of the two kernels'; a suite of one kernel only is marked
# so), and the skipped (XFAIL, TODO) cases, each with REASON? for a
# person to write.
# Usage: scripts/expect-floors.sh [TAG]   (TAG: the logs' toolchain and
#        arch suffix, default clang: build/logs/check-TAG-{baseline,patched}.*)
#        scripts/expect-floors.sh --prefix PREFIX   (another pipeline's
#        guest KTAP, PREFIX-{baseline,patched}.ktap: make check-debian's
#        build/logs/debian, or build/6.1/logs/debian for TREE=6.1)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
kinds=(ktap log)
if [ "${1:-}" = --prefix ]; then
	[ -n "${2:-}" ] || die "usage: scripts/expect-floors.sh --prefix PREFIX"
	prefix=$2 kinds=(ktap)
else
	prefix=$BUILD/logs/check-${1:-clang$ARCH_SUFFIX}
fi
kd=$BUILD/host/ktapdiff
[ -x "$kd" ] || make -s -C "$ROOT" BUILD="$BUILD" host-bins
for kind in "${kinds[@]}"; do
	log=$([ "$kind" = log ] && echo console || echo ktap)
	for v in baseline patched; do
		f=$prefix-$v.$kind
		[ -s "$f" ] || die "no $(rel "$f"): run the pipeline first"
		"$kd" --suites "$f" | sed "s/^/$v /"
	done | awk -v logname="$log" '
		$2 == "suite" { k = $3; seen[k] = seen[k] " " $1
			if (!(k in p) || $4 < p[k]) p[k] = $4
			if (!(k in o) || $5 < o[k]) o[k] = $5
			if (!(k in order)) { order[k] = ++n; name[n] = k } }
		$2 == "skip" || $2 == "xfail" || $2 == "todo" || $2 == "xpass" { s[$2 " " logname " " $3] = 1 }
		END {
			for (i = 1; i <= n; i++) { k = name[i]
				only = (seen[k] == " baseline" ? " baseline" : seen[k] == " patched" ? " patched" : "")
				printf "suite %s %s %d %d%s\n", logname, k, p[k], o[k], only }
			for (k in s) printf "%s REASON?\n", k
		}'
done
