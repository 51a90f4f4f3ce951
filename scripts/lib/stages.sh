# shellcheck shell=bash
# Messages, stage timing, background stages, paths in output, disk space.
# Part of scripts/lib.sh, which sources it; never run on its own.

die() {
	echo "ERROR: $*" >&2
	exit 1
}

note() {
	echo "  $*"
}

# stage NAME: print a header; stage_end prints the elapsed time of the
# stage started last.  Stages print their own progress in between.
stage() {
	STAGE_NAME=$1
	STAGE_START=$(date +%s)
	echo "==> [$(date +%H:%M:%S)] $STAGE_NAME"
}

# The stage log: name, seconds, start (seconds after the pipeline's
# start), and "beside" for a stage that ran beside another (bg_start).
stage_end() {
	local t=$(( $(date +%s) - STAGE_START ))
	echo "<== $STAGE_NAME: ${t}s"
	if [ -n "${STAGE_LOG:-}" ]; then
		printf '%s\t%s\t%s\t%s\n' "$STAGE_NAME" "$t" $(( STAGE_START - ${T_ALL:-$STAGE_START} )) \
			"${STAGE_BESIDE:+beside}" >>"$STAGE_LOG"
	fi
}

# bg_start NAME COMMAND...: run a stage beside another, by default at
# the lowest priority (BG_NICE=19) so that beside a kernel build it takes
# only what the build leaves idle (its link steps run on one core); its
# output is kept for bg_wait.
bg_start() {
	local name=$1; shift
	mkdir -p "$BUILD/logs"
	# A subshell, reniced: COMMAND may be a shell function.
	(
		renice -n "${BG_NICE:-19}" -p "$BASHPID" >/dev/null 2>&1 || true
		export STAGE_BESIDE=1
		"$@"
	) >"$BUILD/logs/bg-$name.out" 2>&1 &
	eval "BG_PID_${name//[^A-Za-z0-9]/_}=$!"
}

# bg_wait NAME: print the output of the stage bg_start began, following
# it (heartbeats included) until it ends; return its exit status.
bg_wait() {
	local v="BG_PID_${1//[^A-Za-z0-9]/_}" rc=0
	tail -n +1 -f --pid="${!v}" "$BUILD/logs/bg-$1.out"
	wait "${!v}" || rc=$?
	return "$rc"
}

# bg_judge NAME PREFIX: bg_wait NAME, for a stage that records its own
# results (names starting with PREFIX): one that ended non-zero without
# a failed result of its own (a crash, a die) gets one, never swallowed.
bg_judge() {
	local rc=0
	bg_wait "$1" || rc=$?
	[ "$rc" = 0 ] || grep -q -P "^fail\t\Q$2" "$RESULTS" ||
		result fail "$1" "exit status $rc without a failed result (see $(rel "$BUILD")/logs/bg-$1.out)"
	return 0
}

# bg_stop NAME: stop a stage bg_start began, and every process under it
# (a make and its compilers), without following its output: a failed
# baseline build does not wait for the patched one.
bg_stop() {
	local v="BG_PID_${1//[^A-Za-z0-9]/_}" pids i=0 c
	pids=("${!v}")
	# The whole tree first, then one signal: nothing left to respawn.
	while [ "$i" -lt "${#pids[@]}" ]; do
		for c in $(ps -o pid= --ppid "${pids[i]}"); do pids+=("$c"); done
		i=$((i + 1))
	done
	kill -TERM "${pids[@]}" 2>/dev/null || true
	wait "${!v}" 2>/dev/null || true
}

# Run a long command, printing a heartbeat line every 60 s so that no
# stage is silent for minutes.  Output goes to the log file given.
with_heartbeat() {
	local log=$1; shift
	"$@" >"$log" 2>&1 &
	local pid=$! t0 rc
	t0=$(date +%s)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		if [ $(( ($(date +%s) - t0) % 60 )) -lt 5 ] && [ $(( $(date +%s) - t0 )) -ge 60 ]; then
			note "... $(( $(date +%s) - t0 ))s, $(wc -l <"$log") lines of log"
		fi
	done
	wait "$pid"
	rc=$?
	return $rc
}

# Relative path for messages: the project never prints host paths.
rel() {
	local p=$1
	echo "${p#"$ROOT"/}"
}

# free_mib DIR: MiB free on the file system holding DIR (empty if unknown).
free_mib() {
	df -Pm "$1" 2>/dev/null | awk 'NR == 2 {print $4}'
}

# need_space DIR MIB WHAT: stop before a step that writes a lot when the
# file system holding DIR has less than MIB MiB free (MIN_FREE_MIB=0
# disables the check, for the disk-full fault test).
need_space() {
	local dir=$1 mib=${MIN_FREE_MIB:-$2} what=$3 free
	mkdir -p "$dir" 2>/dev/null
	free=$(free_mib "$dir")
	[ "${free:-0}" -ge "$mib" ] ||
		die "disk full: $(rel "$dir") has ${free:-?} MiB free, $what needs about $mib MiB"
}

# disk_full_hint DIR LOG...: after a failed step, say so plainly when
# the cause was a full file system under DIR (the tools' own messages
# vary: ld, for one, does not always say ENOSPC).
disk_full_hint() {
	local dir=$1 free; shift
	free=$(free_mib "$dir")
	if grep -a -q -s 'No space left on device' "$@" || [ "${free:-1}" -lt 64 ]; then
		echo "ERROR: disk full: ${free:-?} MiB left under $(rel "$dir")" >&2
	fi
}

# unroot: filter that turns the project's absolute paths in tool output
# into relative ones.
unroot() {
	sed "s|$ROOT/||g"
}

# seconds_since T0: seconds (tenths) since T0, a date +%s.%N value.
seconds_since() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'
}
