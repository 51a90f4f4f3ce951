# shellcheck shell=bash
# The results of a pipeline (make run, make check, the nested ones): one
# line per result, the closing count line, the pipeline's KTAP record.
# Part of scripts/lib.sh, which sources it; never run on its own.

# Test results for make check: one line per test in $RESULTS.
# result pass|fail|skip NAME [DETAIL]
result() {
	local r=$1 name=$2; shift 2
	printf '%s\t%s\t%s\n' "$r" "$name" "$*" >>"${RESULTS:?}"
	case "$r" in
	pass) echo "  ok   $name${*:+ ($*)}" ;;
	fail) echo "  FAIL $name${*:+ ($*)}" ;;
	skip) echo "  skip $name${*:+ ($*)}" ;;
	esac
}

# check NAME DETAIL COMMAND...: one result, pass when COMMAND succeeds;
# returns COMMAND's success too.
check() {
	local name=$1 detail=$2; shift 2
	if "$@"; then
		result pass "$name" "$detail"
		return 0
	fi
	result fail "$name" "$detail"
	return 1
}

# expect_failure NAME PATTERN BOUND LEFTOVER COMMAND...: the shape of
# every fault test.  COMMAND must fail (not by running out of time)
# within BOUND seconds, its output must say PATTERN (grep), and no
# process matching LEFTOVER (pgrep -f) may be left behind.
expect_failure() {
	local name=$1 pat=$2 bound=$3 left=$4 t0 dt msg rc; shift 4
	t0=$(date +%s)
	msg=$(timeout -k 5 $((bound + 30)) "$@" 2>&1); rc=$?
	dt=$(( $(date +%s) - t0 ))
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && grep -q -- "$pat" <<<"$msg" &&
		[ "$dt" -le "$bound" ] && ! pgrep -f -- "$left" >/dev/null; then
		result pass "$name" "${dt}s: $(grep -m1 -- "$pat" <<<"$msg")"
	else
		tail -5 <<<"$msg" | sed 's/^/  | /'
		result fail "$name" "rc=$rc after ${dt}s"
	fi
}

# result_counts N_PASS N_FAIL N_SKIP NAME: add an aggregate from a
# sub-runner that printed its own per-test lines.
result_counts() {
	local p=$1 f=$2 s=$3 name=$4 i
	for ((i = 0; i < p; i++)); do printf 'pass\t%s\t\n' "$name" >>"$RESULTS"; done
	for ((i = 0; i < f; i++)); do printf 'fail\t%s\t\n' "$name" >>"$RESULTS"; done
	for ((i = 0; i < s; i++)); do printf 'skip\t%s\t\n' "$name" >>"$RESULTS"; done
	echo "  $name: $p passed, $f failed, $s skipped"
}

# results_init NAME: start $BUILD/NAME.results and NAME-stages.tsv.
# A pipeline the tree cannot run (config/tree's no_pipeline) is refused
# with its reason, exit 2, before anything is recorded.
results_init() {
	local why
	why=$(tree_refuses "${1%"${ARCH_SUFFIX:-}"}")
	if [ -n "$why" ]; then
		echo "ERROR: TREE=$TREE_NAME cannot run $1: $why (config/tree/$TREE_NAME)" >&2
		exit 2
	fi
	export PIPELINE=$1
	export T_ALL; T_ALL=$(date +%s)
	mkdir -p "$BUILD/logs"
	export RESULTS=$BUILD/$1.results STAGE_LOG=$BUILD/$1-stages.tsv
	: >"$RESULTS"; : >"$STAGE_LOG"; : >"$BUILD/$1.attach"
	# The inputs this run starts with: its record names these, and of
	# the top-level scripts only those its bash processes ran (BASH_ENV:
	# lib/ledger-env.sh logs each; a nested pipeline's go to its
	# parent's list too).
	python3 "$ROOT/scripts/ledger.py" start "$(ledger_name "$1")" "$BUILD/$1.inputs" ||
		echo "WARNING: the inputs of $1 not recorded at its start" >&2
	printf '%s/%s\n' "$(cd "$(dirname "$0")" && pwd)" "$(basename "$0")" >"$BUILD/$1.scripts"
	export LEDGER_SCRIPT_LOGS=${LEDGER_SCRIPT_LOGS:+$LEDGER_SCRIPT_LOGS:}$BUILD/$1.scripts
	export BASH_ENV=$ROOT/scripts/lib/ledger-env.sh
	ledger_watch_start "$1"
}

# ledger_watch_start NAME: for a pipeline with a record to come, the
# config files it opens from now on go to $BUILD/NAME.config-read
# (ledger.py watch, outside this shell's jobs so that no wait waits for
# it; it ends with this script or at finish).
ledger_watch_start() {
	local list=$BUILD/$1.config-read i
	rm -f "$list" "$list.pid"
	[ -s "$BUILD/$1.inputs" ] || return 0
	( python3 "$ROOT/scripts/ledger.py" watch $$ "$list" </dev/null >/dev/null 2>&1 & )
	for (( i = 0; i < 100; i++ )); do
		if [ -e "$list" ]; then
			# The profiles lib.sh read before the watch began, opened
			# again so that the list has them.
			cat "$ROOT/config/tree/$TREE_NAME" "$ROOT/config/userland/$USERLAND" "$ARCH_FILE" >/dev/null 2>&1
			return 0
		fi
		sleep 0.05
	done
	echo "WARNING: the config files $1 reads are not watched (its record covers all of config/)" >&2
}

# ledger_watch_stop NAME: the watch ended, its list complete.
ledger_watch_stop() {
	local pid i
	pid=$(cat "$BUILD/$1.config-read.pid" 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	for (( i = 0; i < 100; i++ )); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
}

# result_attach NAME KTAP: the KTAP document a result was counted from
# (a guest's suites): the pipeline's KTAP record nests it under that
# result's test point, so the record holds every guest case too.
result_attach() {
	printf '%s\t%s\n' "$1" "$2" >>"${RESULTS%.results}.attach"
}

# results_ktap RESULTS [ATTACH]: the pipeline's results as a KTAP
# document, one test point per result in the order they came ("# SKIP
# reason" for a skip, the detail as a diagnostic): build/<pipeline>.ktap,
# the record ktapdiff --check [--json] reads like any guest log.  The
# results of one name that ATTACH gives a KTAP document (result_attach)
# are one test point, that document nested under it as its subtest.
results_ktap() {
	awk -F'\t' '
		FILENAME == ARGV[1] { att[$1] = $2; next }
		{ r[FNR] = $1; n[FNR] = $2; d[FNR] = $3; m = FNR }
		END {
			# Test points: a run of results of one attached name is one.
			for (i = 1; i <= m; i++) {
				if (i > 1 && n[i] == n[i - 1] && n[i] in att) { k[np] = (r[i] == "fail" || k[np] == "fail") ? "fail" : k[np]; continue }
				np++; first[np] = i; k[np] = r[i]
			}
			print "KTAP version 1"
			print "1.." np
			for (t = 1; t <= np; t++) {
				i = first[t]; name = n[i]
				if (name in att) {
					nest = 0
					while ((getline line < att[name]) > 0) {
						sub(/\r$/, "", line)
						if (line ~ /^KTAP version/) nest = 1
						if (nest) print "  " line
					}
					close(att[name])
				}
				gsub(/#/, "%23", name); gsub(/ /, "_", name)
				if (k[t] == "skip") { print "ok " t " " name " # SKIP " d[i]; continue }
				if (d[i] != "") print "# " name ": " d[i]
				print (k[t] == "fail" ? "not ok " : "ok ") t " " name
			}
		}' "$(if [ -s "${2:-}" ]; then echo "$2"; else echo /dev/null; fi)" "$1"
}

# finish: stage durations, the failures, the closing count line; exits
# 0 only when nothing failed.
finish() {
	results_ktap "$RESULTS" "${RESULTS%.results}.attach" >"${RESULTS%.results}.ktap"
	echo
	# In the order the stages started, each with its start (min:s into
	# the run); "(beside)": a stage that overlapped others, so the
	# durations add up to more than the total.
	echo "==== stage durations ===="
	echo "     took  start  stage"
	sort -t $'\t' -s -n -k3,3 "$STAGE_LOG" | awk -F'\t' '{
		printf "  %6ss  %2d:%02d  %s%s\n", $2, $3 / 60, $3 % 60, $1, ($4 == "beside" ? " (beside)" : "") }'
	printf '  %6ss         total\n' $(( $(date +%s) - T_ALL ))
	# "|| true": finish() also ends pipelines that run under set -e
	# (check-bisect, check-cross, ...), where grep finding nothing would
	# end them before their closing line.
	{ grep -P '^fail\t' "$RESULTS" || true; } | cut -f2,3 | sort | uniq -c | sed 's/^/  failed: /' | head -40
	local p f s
	pipeline_skips_judge
	p=$(grep -c -P '^pass\t' "$RESULTS" || true); f=$(grep -c -P '^fail\t' "$RESULTS" || true)
	s=$(grep -c -P '^skip\t' "$RESULTS" || true)
	echo "$p passed, $f failed, $s skipped${PARTIAL_SUITES:+ (partial run: SUITES=$PARTIAL_SUITES)}"
	# A nested pipeline (check-full's nested): every result joins the
	# parent's, named under the name the parent gave it (two trees' runs
	# of one pipeline stay apart), else this pipeline's.
	if [ -n "${PARENT_RESULTS:-}" ]; then
		awk -F'\t' -v OFS='\t' -v n="${NESTED_AS:-$PIPELINE}/" '{ $2 = n $2; print }' "$RESULTS" >>"$PARENT_RESULTS"
		awk -F'\t' -v OFS='\t' -v n="${NESTED_AS:-$PIPELINE}/" '{ $1 = n $1; print }' \
			"${RESULTS%.results}.attach" >>"${PARENT_RESULTS%.results}.attach"
	fi
	ledger_record "$p" "$f" "$s"
	[ "$f" = 0 ]
	exit $?
}

# pipeline_skips_judge: every skip this pipeline recorded of its own
# (result skip: a reason given) must be one config/pipeline-skips allows
# for it; any other fails as skip-unlisted-NAME.  The guests' counted
# case skips (result_counts: no reason) and a nested pipeline's
# (NAME/..., judged by its own finish) aside.
pipeline_skips_judge() {
	local name why p g allowed
	while IFS=$'\t' read -r name why; do
		allowed=
		while read -r p g _; do
			# shellcheck disable=SC2053 # both sides are globs of the list
			[[ $PIPELINE == $p && $name == $g ]] && { allowed=1; break; }
		done < <(grep -v -E '^(#|$)' "$ROOT/config/pipeline-skips")
		[ -n "$allowed" ] ||
			result fail "skip-unlisted-$name" "skipped ($why); config/pipeline-skips allows no such skip for $PIPELINE"
	done < <(awk -F'\t' '$1 == "skip" && $3 != "" && $2 !~ /\// { print $2 "\t" $3 }' "$RESULTS")
}

# ledger_name PIPELINE: its name in config/pipelines (less the arch's
# suffix; make check-full is make check with CHECK_FULL set).
ledger_name() {
	local name=${1%"${ARCH_SUFFIX:-}"}
	[ -n "${CHECK_FULL:-}" ] && [ "$name" = check ] && name=check-full
	echo "$name"
}

# ledger_record P F S: this run's record in ledger/ (scripts/ledger.py),
# for a pipeline config/pipelines lists, naming the commit and inputs it
# started with (results_init) and the config files it read (the watch
# stopped first); make check-full is make check
# with CHECK_FULL set.  A record that cannot be written is said, not
# counted: the results stand.
ledger_record() {
	local name
	name=$(ledger_name "$PIPELINE")
	ledger_watch_stop "$PIPELINE"
	python3 "$ROOT/scripts/ledger.py" record "$name" "$@" $(( $(date +%s) - T_ALL )) \
		--inputs "$BUILD/$PIPELINE.inputs" --scripts "$BUILD/$PIPELINE.scripts" \
		--config "$BUILD/$PIPELINE.config-read" ||
		echo "WARNING: no ledger record written for $name" >&2
}

# run_results FUNC ARG...: a function that records results, run against
# a scratch result file: prints what it recorded, fails if one failed
# (tests/expect_breaks.sh runs make check's own judges this way).
run_results() {
	local RESULTS rc=0
	RESULTS=$(mktemp)
	"$@" >/dev/null 2>&1
	cat "$RESULTS"
	grep -q -P '^fail\t' "$RESULTS" && rc=1
	rm -f "$RESULTS"
	return "$rc"
}

# runner_complete NAME [DETAIL]: the last result of a harness runner
# (test-host, test-debian, test-disk-full, expect-breaks): NAME-complete,
# recorded only by a runner that got to its end.
runner_complete() {
	result pass "$1-complete" "ran to its end${2:+: $2}"
}

# runner_judge NAME AS COMMAND...: COMMAND, a harness runner appending to
# $RESULTS, judged as a whole: one that did not record NAME-complete (a
# die or a set -u abort partway drops every later test unseen), or that
# ended non-zero without a failed result, fails AS; returns non-zero
# when it recorded that failure.
runner_judge() {
	local name=$1 as=$2 rc=0 before new; shift 2
	before=$(wc -l <"$RESULTS")
	"$@" || rc=$?
	new=$(tail -n +"$((before + 1))" "$RESULTS")
	if ! grep -q -P "^pass\t\Q$name-complete\E\t" <<<"$new"; then
		result fail "$as" "$name ended partway (exit status $rc): no $name-complete result, its later tests not run"
		return 1
	elif [ "$rc" != 0 ] && ! grep -q -P '^fail\t' <<<"$new"; then
		result fail "$as" "$name: exit status $rc without a failed result"
		return 1
	fi
	return 0
}

# check_extra NAME: NAME is one of make check's stages beside the
# comparison that the arch runs (config/arch's check_extras) and the
# tree too (config/tree's check_extras, where it has one): a tree's list
# narrows the arch's and never widens it, so TREE=6.1 ARCH=arm64 runs
# no x86_64 stage on arm64.
check_extra() {
	[[ " ${ARCH_CHECK_EXTRAS:-} " == *" $1 "* ]] &&
		{ [ -z "${TREE_CHECK_EXTRAS+set}" ] || [[ " $TREE_CHECK_EXTRAS " == *" $1 "* ]]; }
}

# nested NAME TITLE COMMAND...: a pipeline of its own (results_init ...
# finish) as one stage, its every result counted in this one's, under
# NAME/; one that ended non-zero without a failed result, or recorded
# none, fails NAME.
nested() {
	local name=$1 rc=0 before; stage "$2"; shift 2
	before=$(wc -l <"$RESULTS")
	PARENT_RESULTS=$RESULTS NESTED_AS=$name CHECK_FULL="" "$@" || rc=$?
	if [ "$(wc -l <"$RESULTS")" = "$before" ]; then
		result fail "$name" "exit status $rc, no results recorded"
	elif [ "$rc" != 0 ] && ! awk -v n="$before" 'FNR > n && /^fail\t/ { f = 1 } END { exit !f }' "$RESULTS"; then
		result fail "$name" "exit status $rc without a failed result"
	fi
	stage_end
}

# fatal STAGE WHY: a stage that cannot produce what later stages need
# ends the run, still with the closing count line.
fatal() {
	result fail "$1" "$2"
	finish
}
