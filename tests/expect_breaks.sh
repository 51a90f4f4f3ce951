#!/bin/bash
# Break once, on this run's own logs: every expectation make check
# judges with must fail when what it guards is taken away.  Each break
# edits a copy of the measured logs (build/logs/check-TAG-*, fuzz.out,
# the kernels' warning records) the way a run that tested less would
# look, runs the very check make check runs, and passes only when that
# check failed and said why; the line it printed is the result's detail.
# Every break it makes is listed first (breaks=); it counts the ones
# that ran and fails when fewer ran than it lists, and its last result,
# expect-breaks-complete, says it got to its end (check.sh's
# runner_judge).
# Usage: tests/expect_breaks.sh [TAG]   (TAG: default clang<arch suffix>;
#        after make check's boots; appends to $RESULTS, or prints its own
#        closing line when run alone)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../scripts/lib.sh"
tc=${TOOLCHAIN:-clang}
tag=${1:-$tc$ARCH_SUFFIX}
L=$BUILD/logs
kd=$BUILD/host/ktapdiff
x=$(expect_file)
allow=$ROOT/config/allowed-differences
standalone=
[ -n "${RESULTS:-}" ] || { results_init expect-breaks; standalone=1; }
first_result=$(( $(wc -l <"$RESULTS") + 1 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$L/check-$tag-baseline.ktap" "$L/check-$tag-patched.ktap" "$L/check-$tag-baseline.log" "$L/check-$tag-patched.log"; do
	[ -s "$f" ] || { result fail expect-breaks "no $(rel "$f"): run make check's boots first"; [ -z "$standalone" ] || finish; exit 1; }
done

# broke NAME WHAT PATTERN COMMAND...: COMMAND, run on a broken copy,
# must fail and print a line matching PATTERN (grep -E).
broke() {
	local name=$1 what=$2 pat=$3 out rc=0 line
	shift 3
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ] && line=$(grep -m1 -E -- "$pat" <<<"$out"); then
		result pass "break-$name" "$what -> $(tr '\t' ' ' <<<"$line" | cut -c1-150)"
	else
		result fail "break-$name" "$what: still passed (rc=$rc) or no /$pat/ in its output"
	fi
}

# suite_edit SUITE ACTION < KTAP > KTAP: ACTION on one top-level suite of
# a guest-suite log (CR LF already dropped): skip (its nested results
# become "# SKIP"), drop (gone, the top plan one less), lastcase (its
# last nested result gone), onecase (its first nested pass skipped),
# xfail (its first nested pass says "# XFAIL").
suite_edit() {
	awk -v suite="$1" -v act="$2" '
		function flush(keep,   i, done) {
			for (i = 1; i <= n; i++) {
				l = buf[i]
				if (!keep) continue
				if (act == "skip" && l ~ /^  ok [0-9]+ / && l !~ /# SKIP/) l = l " # SKIP broken on purpose"
				if (act == "onecase" && !done && l ~ /^  ok [0-9]+ / && l !~ /# SKIP/) { l = l " # SKIP broken on purpose"; done = 1 }
				if (act == "xfail" && !done && l ~ /^  ok [0-9]+ / && l !~ /#/) { l = l " # XFAIL broken on purpose"; done = 1 }
				if (act == "lastcase" && i == last) continue
				print l
			}
			n = 0; last = 0
		}
		/^1\.\.[0-9]+$/ && !plan {
			plan = 1; act0 = act; act = ""; flush(1); act = act0
			if (act == "drop") { split($0, p, "\\.\\."); print "1.." p[2] - 1 } else print
			next
		}
		{ buf[++n] = $0; if ($0 ~ /^  (not )?ok [0-9]+ /) last = n }
		/^(not )?ok [0-9]+ / {
			name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ #.*/, "", name)
			if (name != suite) { act0 = act; act = ""; flush(1); act = act0; next }
			if (act == "drop") { n = 0; next }
			flush(1)
		}
		END { act = ""; flush(1) }'
}

expect() { "$kd" --expect "$x" --log "$1" --kernel "$2" "$3"; }
P=$tmp/patched.ktap B=$tmp/baseline.ktap
tr -d '\r' <"$L/check-$tag-patched.ktap" >"$P"
tr -d '\r' <"$L/check-$tag-baseline.ktap" >"$B"

# The breaks below, each named here; the ones that need something of the
# run (32-bit suites, a skipped case, the fuzzer, warning records) when
# it has it.  A break that did not run fails expect-breaks-ran.
wb=$(objdir baseline "$tc")/warnings wp=$(objdir patched "$tc")/warnings
breaks=(bpf-skipped devices-skipped matrix-shrunk skip-unlisted xfail-unlisted suite-unlisted
	series-kunit-gone allow-stale allow-broad both-failing)
grep -q '^ok [0-9]* setaddr_m32$' "$P" && breaks+=(compat-dropped)
grep -q -E '^  +ok [0-9]+.*# *SKIP' "$P" && breaks+=(skip-stale)
[ -s "$L/fuzz.out" ] && check_extra fuzz && breaks+=(fuzz-path-never-ok fuzz-digest-unrecorded)
[ -s "$L/fuzz.out" ] && [ -s "$L/fuzz-baseline.out" ] && check_extra fuzz && breaks+=(fuzz-baseline-differs)
[ -f "$wb" ] && [ -f "$wp" ] && breaks+=(warnings-new)
# The expectations' first obs content floor (none on an arch without a
# measured run's: config/expect/README).
obs_floor=$(awk '$1 == "obs" && $2 == "ktap" { print $3, $4; exit }' "$x")
[ -n "$obs_floor" ] && breaks+=(obs-value)

# No cgroup2 mount or a failing BPF probe: every bpf_sock_addr case skips.
suite_edit bpf_sock_addr skip <"$P" >"$tmp/b1"
broke bpf-skipped "bpf_sock_addr's cases all skipped" '^fail.bpf_sock_addr.*(floor|not an allowed skip)' expect ktap patched "$tmp/b1"
# A false guest check (guestenv.h): the device suites skip.
{ suite_edit setaddr skip | suite_edit netdevs skip; } <"$P" >"$tmp/b2"
broke devices-skipped "netdevs and setaddr skipped (guest check false)" '^fail.*(not an allowed skip|floor)' expect ktap patched "$tmp/b2"
# An arch profile without compat_cflags: the four 32-bit suites gone.
if grep -q '^ok [0-9]* setaddr_m32$' "$P"; then
	{ suite_edit netdevs_m32 drop | suite_edit sockaddr_matrix_m32 drop | suite_edit setaddr_m32 drop |
		suite_edit tap_ioctl_m32 drop; } <"$P" >"$tmp/b3"
	broke compat-dropped "the 32-bit suites not built" '^fail.*suite missing' expect ktap patched "$tmp/b3"
fi
# Fewer cases: the matrix loses one; one case skips.
suite_edit sockaddr_matrix lastcase <"$P" >"$tmp/b4"
broke matrix-shrunk "sockaddr_matrix one case short" '^fail.sockaddr_matrix.*floor' expect ktap patched "$tmp/b4"
suite_edit sockaddr_matrix onecase <"$P" >"$tmp/b5"
broke skip-unlisted "one matrix case skipped" '^fail.*not an allowed skip' expect ktap patched "$tmp/b5"
# Every skipped case passing instead (a kernel that now has what they
# needed): the allowed skips allow nothing, a stale entry each.
if grep -q -E '^  +ok [0-9]+.*# *SKIP' "$P"; then
	# (6.1's harness prints a skip without its name: "ok N # SKIP ...".)
	sed -E 's/^(  +ok [0-9]+( [^#]*[^# ])?) *# *SKIP.*/\1/' "$P" >"$tmp/b5s"
	broke skip-stale "every skipped case passing: their allowed skips unused" '^fail.*0 allowed skips' \
		expect ktap patched "$tmp/b5s"
fi
# A matrix case that says "# XFAIL": not a passed case, and not listed.
suite_edit sockaddr_matrix xfail <"$P" >"$tmp/b5x"
broke xfail-unlisted "one matrix case XFAIL" '^fail.*not an allowed xfail' expect ktap patched "$tmp/b5x"
# A suite nobody listed.
sed 's/^ok \([0-9]*\) netdevs$/ok \1 netdevs_new/' "$P" >"$tmp/b6"
broke suite-unlisted "a suite the expectations do not list" '^fail.*not listed' expect ktap patched "$tmp/b6"
# A listed obs label that reported another value (its setup failed, on
# one kernel or the same way on both): the obs content floor fails.
if [ -n "$obs_floor" ]; then
	read -r os ol <<<"$obs_floor"
	awk -v p="# obs $ol: " '{ i = index($0, p); if (i) $0 = substr($0, 1, i + length(p) - 1) "broken=on-purpose" } { print }' \
		"$P" >"$tmp/b7"
	broke obs-value "$os's obs $ol reporting another value" "^fail.$os obs.$ol: wanted .*got \"broken=on-purpose\"" \
		expect ktap patched "$tmp/b7"
fi
# Patch 15's KUnit suite not built (config.sh, Kconfig): the patched
# console is then the baseline's.
broke series-kunit-gone "patched console without sockaddr_unsized" '^fail.sockaddr_unsized.*suite missing' \
	expect console patched "$L/check-$tag-baseline.log"
broke allow-stale "the allow-list entry of a suite that no longer runs" 'STALE' \
	"$kd" --allow "$allow" --log console "$L/check-$tag-baseline.log" "$L/check-$tag-baseline.log"
# An allow-list entry that names more than one suite.
{ cat "$allow"; echo "console *  broad on purpose"; } >"$tmp/allow-broad"
broke allow-broad "an allow-list entry over every KUnit suite" 'BROAD' \
	"$kd" --allow "$tmp/allow-broad" --log console "$L/check-$tag-baseline.log" "$L/check-$tag-patched.log"

# One case failing the same way on both kernels: the two runs still
# compare equal, so the engine's per-kernel count must fail it (check-btf
# and check-debian judge their runs with the same pair_judge).
for v in baseline patched; do
	sed -E '0,/^  ok ([0-9]+) /s//  not ok \1 /' "$tmp/$v.ktap" >"$tmp/both-$v.ktap"
	cp "$L/check-$tag-$v.log" "$tmp/both-$v.log"
done
broke both-failing "one case failing on both kernels, the runs equal" '^fail.guest-' \
	env STAGE_LOG=/dev/null bash -c '. "$0"/scripts/lib.sh && run_results pair_judge "$@"' "$ROOT" "$ARCH_NAME" "$tmp/both" "$x" ktap

# The fuzzer: a path whose every call failed, and another N than the
# recorded digest's.  Judged by lib.sh's fuzz_paths, as make check does.
if [ -s "$L/fuzz.out" ] && check_extra fuzz; then
	n=$(sed -n 's/^ *calls: *\([0-9]*\) made.*/\1/p' "$L/fuzz.out")
	seed=$(sed -n 's/^ *seed: *\([0-9]*\)$/\1/p' "$L/fuzz.out")
	first=$(fuzz_path_floors | awk '$3 > 0 {print $1; exit}')
	sed -E "s/^( *path $first calls=[0-9]+) ok=[0-9]+$/\1 ok=0/" "$L/fuzz.out" >"$tmp/fuzz.out"
	broke fuzz-path-never-ok "path $first: every call failed" "^fail.fuzz-path-$first" \
		run_results fuzz_paths "$tmp/fuzz.out" "$n" "$seed" "$ROOT/$TREE_FUZZ_PATHS"
	broke fuzz-digest-unrecorded "another number of calls than the recorded digest's" '^fail.fuzz-digest' \
		run_results fuzz_paths "$L/fuzz.out" "$((n + 1))" "$seed" "$ROOT/$TREE_FUZZ_PATHS"
	# The baseline's same calls, one of them succeeding where it failed
	# on the patched kernel: judged by lib.sh's fuzz_compare.
	if [ -s "$L/fuzz-baseline.out" ]; then
		sed -E "0,/^( *path [^ ]+ calls=[0-9]+ ok=)([0-9]+)$/s//\1\21/" "$L/fuzz-baseline.out" >"$tmp/fuzz-baseline.out"
		broke fuzz-baseline-differs "one path's ok count changed on the baseline" '^fail.fuzz-same-path' \
			run_results fuzz_compare "$tmp/fuzz-baseline.out" "$L/fuzz.out"
	fi
fi

# A compiler warning only the patched kernel has.
if [ -f "$wb" ] && [ -f "$wp" ]; then
	{ cat "$wp"; echo "net/core/dev.c: warning: broken on purpose [-Wbreak]"; } | sort -u >"$tmp/warnings"
	broke warnings-new "one warning added to the patched record" '^fail.warnings' run_results warnings_compare "$wb" "$tmp/warnings" warnings
fi

# Every break listed ran (a result of its own here), and none ran that
# is not listed.
ran=$(tail -n +"$first_result" "$RESULTS" | sed -n 's/^\(pass\|fail\)\tbreak-\([^\t]*\)\t.*/\2/p' | sort -u)
listed=$(printf '%s\n' "${breaks[@]}" | sort -u)
missing=$(comm -23 <(echo "$listed") <(echo "$ran") | paste -sd' ')
unlisted=$(comm -13 <(echo "$listed") <(echo "$ran") | paste -sd' ')
check expect-breaks-ran "$(grep -c . <<<"$ran") of $(grep -c . <<<"$listed") listed breaks ran${missing:+; not run: $missing}${unlisted:+; ran, not listed: $unlisted}" \
	test -z "$missing$unlisted"
runner_complete expect-breaks
[ -z "$standalone" ] || finish
# Inside make check: the exit status says whether a break failed.
! grep -q -P '^fail\t' < <(tail -n +"$first_result" "$RESULTS")
