# shellcheck shell=bash
# What a run is judged against: the expectations (config/expect), the
# fuzzer's paths, kernel reports on a console, new build warnings.
# Part of scripts/lib.sh, which sources it; never run on its own.

# fuzz_path_floors [FILE]: config/fuzz-paths' path lines, "NAME CALLS
# OK" (the floors of calls and of calls that returned 0), comments dropped.
fuzz_path_floors() {
	sed 's/#.*//' "${1:-$ROOT/$TREE_FUZZ_PATHS}" | awk 'NF && $1 != "digest" {print $1, $2, $3}'
}

# fuzz_paths OUT N SEED FILE: every path FILE (config/fuzz-paths) lists
# got at least its floor of
# calls, and of calls that returned 0, in that run, one result each,
# from the summary's "path NAME calls=N ok=M" lines; and the calls were
# the recorded ones (the host dry run's digest for that N and seed).
# A path the run printed that FILE does not list fails too.
fuzz_paths() {
	local seen name calls ok got c o want digest n=$2 seed=$3 file=$4
	seen=$(fuzz_counts "$1" | sed -n -E 's/^path\.([^\t]+)\tcalls=([0-9]+) ok=([0-9]+)$/\1 \2 \3/p')
	while read -r name calls ok; do
		got=$(awk -v p="$name" '$1 == p {print $2, $3}' <<<"$seen")
		if [ -z "$got" ]; then
			result fail "fuzz-path-$name" "missing from the fuzzer's output"
			continue
		fi
		read -r c o <<<"$got"
		check "fuzz-path-$name" "$c calls (floor $calls), $o ok (floor $ok)" \
			test "$c" -ge "$calls" -a "$o" -ge "$ok"
	done < <(fuzz_path_floors "$file")
	# A path the guest counts that the file does not list is one whose
	# floor nobody set: it fails until it has a line with its reason.
	while read -r name calls ok; do
		fuzz_path_floors "$file" | awk -v p="$name" '$1 == p { f = 1 } END { exit !f }' ||
			result fail "fuzz-path-$name" "$calls calls, $ok ok: printed by the fuzzer, not listed in $(rel "$file")"
	done <<<"$seen"
	want=$(awk -v n="$n" -v s="$seed" '$1 == "digest" && $2 == n && $3 == s {print $4}' "$file")
	digest=$(sed -n 's/^ *digest: *\([0-9a-f]*\) .*/\1/p' "$1")
	if [ -z "$want" ]; then
		result fail fuzz-digest "$(rel "$file") records no digest for $n calls, seed $seed"
	else
		check fuzz-digest "$digest, recorded $want ($n calls, seed $seed)" test "$digest" = "$want"
	fi
}

# fuzz_counts FUZZ_OUT: "path.NAME<TAB>calls=N ok=M" per set-address
# path and "op.NAME<TAB>calls=N" per op, from a fuzz summary, sorted by
# name.  An op's successes are left out: whether a bind or listen
# succeeds depends on which ports earlier random calls still hold
# (measured: two TREE=6.1 make check runs, the first with every op the
# same on both kernels, the second with one bind and one listen apart),
# while the set-address paths' outcomes are the same run after run
# (their floors are the measured counts).
fuzz_counts() {
	sed -n -E 's/^ *path ([^ ]+) (calls=[0-9]+ ok=[0-9]+)$/path.\1\t\2/p; s/^ *op ([^ ]+) (calls=[0-9]+) .*/op.\1\t\2/p' "$1" | LC_ALL=C sort
}

# fuzz_compare BASELINE_OUT PATCHED_OUT: the same calls (one N, one
# seed, the digest each run checked) made on both kernels.  Per
# set-address path, the calls and the calls that succeeded, and per op
# the calls, must be the same on both: the series changes nothing a
# call can see.  One result fuzz-same-NAME each, and a name on one side
# only fails; no counts on a side fails (two empty summaries are not the
# same behaviour).
fuzz_compare() {
	local b=$1 p=$2 f name bc pc
	for f in "$b" "$p"; do
		[ -n "$(fuzz_counts "$f")" ] || { result fail fuzz-same "no per-path or per-op counts in $(rel "$f")"; return; }
	done
	while IFS=$'\t' read -r name bc pc; do
		if [ "$bc" = "$pc" ]; then
			result pass "fuzz-same-$name" "$bc on both kernels"
		else
			result fail "fuzz-same-$name" "baseline ${bc:-absent}, patched ${pc:-absent}"
		fi
	done < <(LC_ALL=C join -t$'\t' -a1 -a2 -e '' -o 0,1.2,2.2 <(fuzz_counts "$b") <(fuzz_counts "$p"))
}

# fuzz_why FUZZ_OUT: why a failed fuzz run failed, on one line: the
# fuzzer's kernel report or time-bound line, else scripts/fuzz.sh's
# first reason.
fuzz_why() {
	local why
	why=$(grep -a -m 1 -E 'kernel report (after|during)|time bound [0-9]+s reached' "$1" | sed 's/^ *//')
	[ -n "$why" ] || why=$(sed -n '/^fuzz: FAIL/{n;s/^ *//;p;q}' "$1")
	echo "${why:-no reason printed}" | cut -c1-200
}

# report_patterns: config/kernel-reports without its comments.
report_patterns() {
	grep -v -E '^(#|$)' "$ROOT/config/kernel-reports"
}

# report_lines LOG [EXPECTED_ERE]: the lines of LOG (numbered) that carry
# a kernel report, less those matching EXPECTED_ERE (the bounds demo
# expects its own UBSAN and FORTIFY reports).
report_lines() {
	local hits
	hits=$(grep -a -n -F -f <(report_patterns) "$1")
	if [ -n "${2:-}" ]; then
		hits=$(grep -a -v -E "$2" <<<"$hits")
	fi
	[ -n "$hits" ] && echo "$hits"
	return 0
}

# The bounds demo's own reports, expected on the patched kernel: UBSAN's
# index report and FORTIFY's warning, both about the demo file.
export DEMO_EXPECTED_REPORTS='UBSAN: array-index-out-of-bounds in .*net/core/sockaddr_bounds_demo\.c|detected field-spanning write .*net/core/sockaddr_bounds_demo\.c|WARNING: .* at .*net/core/sockaddr_bounds_demo\.c'

# demo_unexpected_reports LOG: the report lines of LOG that are not the
# bounds demo's own.  A "Call Trace:" (arm64: "Call trace:") is taken as
# the trace of a demo report while there are no more of them than demo
# report lines.
demo_unexpected_reports() {
	local own traces
	report_lines "$1" "$DEMO_EXPECTED_REPORTS|Call [Tt]race:"
	own=$(grep -a -c -E "$DEMO_EXPECTED_REPORTS" "$1")
	traces=$(grep -a -c -E 'Call [Tt]race:' "$1")
	[ "$traces" -le "$own" ] || echo "$traces Call Trace: lines for $own demo report lines"
}

# normalise_warnings: a build log's compiler warnings as "FILE: warning:
# TEXT", FILE relative to the tree (kbuild prints ../FILE from the object
# folder inside the worktree), line and column numbers dropped.
normalise_warnings() {
	# No warning at all is a clean build, not a failed grep.
	{ grep -a -E ': warning: ' || true; } | unroot |
		sed -E 's#^(\.\./)+##; s#^build/src-[^/]+/##; s#^([^:]+):[0-9]+(:[0-9]+)?: #\1: #' | sort -u
}

# warnings_compare BASELINE PATCHED NAME: one result, failing on a
# warning the PATCHED record (build.sh's OBJ/warnings) has and the
# BASELINE one not.
warnings_compare() {
	local new
	if [ ! -f "$1" ] || [ ! -f "$2" ]; then
		result fail "$3" "no warning record (build.sh writes OBJ/warnings)"
		return 1
	fi
	new=$(comm -13 "$1" "$2")
	[ -z "$new" ] || sed 's/^/  new: /' <<<"$new" | head -20
	check "$3" "$(grep -c . <"$1") on baseline, $(grep -c . <"$2") on patched, $(grep -c . <<<"$new") new${new:+: $(head -1 <<<"$new" | cut -c1-120)}" \
		test -z "$new"
}

# The expectations every run of $ARCH_NAME is checked against
# (config/expect/README); EXPECT_FILE= another one (the harness tests,
# make run; make check refuses it: expect_partial).
expect_file() {
	echo "${EXPECT_FILE:-$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}$ARCH_NAME}"
}

# expect_partial: make check judges by config/expect/'s files; one run
# with EXPECT_FILE= from outside judges by another and could still end
# clean, so it records a failed expect-partial (as dkms-check records
# dkms-partial for a DKMS_ONLY= subset).
expect_partial() {
	[ -z "${EXPECT_FILE:-}" ] ||
		result fail expect-partial "EXPECT_FILE=.../$(basename "$EXPECT_FILE"): judged by it, not by $(rel "$(EXPECT_FILE='' expect_file)")"
}

# expect_check LOG FILE KERNEL [NAME]: one kernel's run (FILE, the log
# LOG: ktap or console) against the expectations, one result per check
# (expect-NAME-KERNEL-LOG: ..., NAME the arch's by default): every suite
# listed and at its floors, every skip an allowed one, every listed obs
# label with its value (one result per suite, one per label that fails).  ktapdiff ends 0,
# 1 (a failed line for each expectation that failed) or 2 (it could not
# judge); any other end (a crash, a kill) or a line that is not a
# result fails, as does an exit status its lines do not explain.
expect_check() {
	local x out rc=0 r name detail tag=${4:-$ARCH_NAME} failed=0 bad=0
	local me="expect-$tag-$3-$1"
	x=$(expect_file)
	[ -f "$x" ] || { result fail "$me" "no $(rel "$x")"; return 1; }
	out=$("$BUILD"/host/ktapdiff --expect "$x" --log "$1" --kernel "$3" "$2" 2>&1) || rc=$?
	case $rc in
	0 | 1) ;;
	2)
		result fail "$me" "$(head -1 <<<"$out")"
		return 1 ;;
	*)
		result fail "$me" "ktapdiff ended with exit status $rc (not 0, 1 or 2): $(tail -n 1 <<<"$out" | cut -c1-120)"
		return 1 ;;
	esac
	while IFS=$'\t' read -r r name detail; do
		case $r in
		'') [ -z "$name$detail" ] && continue; bad=$((bad + 1)); continue ;;
		pass) ;;
		fail) failed=$((failed + 1)) ;;
		*) bad=$((bad + 1)); continue ;;
		esac
		result "$r" "$me: $name" "$detail"
	done <<<"$out"
	if [ "$bad" != 0 ]; then
		result fail "$me" "$bad line(s) of ktapdiff's output not a result: $(grep -v -m1 -P '^(pass|fail)\t' <<<"$out" | cut -c1-120)"
		return 1
	fi
	if [ "$rc" = 1 ] && [ "$failed" = 0 ]; then
		result fail "$me" "ktapdiff ended with exit status 1 without a failed expectation"
		return 1
	fi
	[ "$failed" = 0 ]
}

# compare_runs NAME LOG BASELINE PATCHED: the two kernels' runs of one
# log (ktap or console) compared case by case with the allow-list, one
# result NAME; the comparison in build/logs/NAME.txt and on stdout.  The
# one comparison of every pipeline (make check on each arch,
# check-debian, check-btf).
compare_runs() {
	local out=$BUILD/logs/$1.txt
	if "$BUILD"/host/ktapdiff --allow "$ROOT"/config/allowed-differences --log "$2" \
		"$3" "$4" >"$out" 2>&1; then
		result pass "$1"
	else
		result fail "$1" "see $(rel "$out")"
	fi
	cat "$out"
}

# ktap_counts LOG NAME: validate one KTAP log with ktapdiff --check and
# add its case counts to $RESULTS.
ktap_counts() {
	local line p f s
	# The failures named for a person, then the counts as data: ktapdiff
	# --check --json's "cases" (host/ktapdiff.c), read as JSON.
	"$BUILD"/host/ktapdiff --check "$1" 2>&1 | sed 's/^/  /'
	line=$("$BUILD"/host/ktapdiff --check --json "$1" 2>/dev/null | python3 -c '
import json, sys
c = json.load(sys.stdin)["cases"]
print(c["passed"], c["failed"], c["skipped"])' 2>/dev/null) || true
	if [ -n "$line" ]; then
		read -r p f s <<<"$line"
		result_counts "$p" "$f" "$s" "$2"
	else
		result fail "$2" "no complete KTAP in $(rel "$1")"
	fi
}

# ktap_join OUT KTAP...: the KTAP of several guests that shared one
# suite list (make run's split boot) as the one document a single guest
# would have written: the suites numbered on in the order given, a suite
# an earlier guest already ran left out with its cases (a guest's setup
# run, judged by its caller), the plan the sum of the plans less those,
# each guest's other lines kept, and "# init: done" once at the end when
# every guest wrote it.  Lines end as the guests' serial ports ended
# them (CR LF).
ktap_join() {
	local out=$1; shift
	awk -v files=$# '
		function suite(s) { sub(/^(not )?ok [0-9]+ /, "", s); sub(/ .*/, "", s); return s }
		{ line = $0; cr = sub(/\r$/, "", line) ? "\r" : "" }
		line ~ /^1\.\.[0-9]+$/ { plan += substr(line, 4); next }
		{ l[++n] = line; e[n] = cr }
		END {
			# First pass: which results repeat a suite, and so leave.
			for (i = 1; i <= n; i++)
				if (l[i] ~ /^(not )?ok [0-9]+ /) {
					if (suite(l[i]) in seen) { drop[i] = 1; plan-- }
					seen[suite(l[i])] = 1
				}
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^# init: done$/) { done++; continue }
				if (l[i] ~ /^KTAP version/) {
					if (!head++) print l[i] e[i] "\n1.." plan e[i]
					continue
				}
				if (l[i] ~ /^ / || l[i] ~ /^(not )?ok [0-9]+ /) {
					# The lines of a result come before it: held until
					# it says whether they stay.
					held[++h] = i
					if (l[i] ~ /^ /) continue
					if (!drop[i]) {
						sub(/ok [0-9]+ /, "ok " ++t " ", l[i])
						for (k = 1; k <= h; k++) print l[held[k]] e[held[k]]
					}
					h = 0
					continue
				}
				print l[i] e[i]
			}
			if (done == files) print "# init: done" (n ? e[n] : "")
		}' "$@" >"$out"
}
