# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: The lists the pipelines read: kernel reports,
# config/pipelines' rows, skip reasons naming pipelines, tree and arch
# profiles combined.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

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

# make premise-breaks' sets: every set tests/premise-breaks/sets lists
# has its patch and cases, every patch there is listed, and each set's
# kernel options are spelled as .config options (or "-").
pb=$ROOT/tests/premise-breaks bad=()
while read -r pset needs; do
	[ -f "$pb/$pset.patch" ] && [ -f "$pb/$pset.cases" ] || bad+=("$pset: no $pset.patch or $pset.cases")
	for o in $needs; do
		[ "$o" = - ] || [[ $o =~ ^CONFIG_[A-Z0-9_]+$ ]] || bad+=("$pset: $o")
	done
done < <(grep -v -E '^(#|$)' "$pb/sets")
for p in "$pb"/*.patch; do
	pset=$(basename "$p" .patch)
	grep -q -E "^${pset}[[:space:]]" "$pb/sets" || bad+=("$pset.patch: not in sets")
done
check premise-break-sets-listed "tests/premise-breaks/sets: $(grep -c -v -E '^(#|$)' "$pb/sets") sets, each with its patch and cases${bad[*]:+ (${bad[*]})}" \
	test "${#bad[@]}" = 0
