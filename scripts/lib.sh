# shellcheck shell=bash
# Common helpers for the harness scripts: stage timing, errors, paths.
# Sourced, never executed.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# tree_profile: the kernel tree of $TREE (default 6.12), config/tree/$TREE
# ("KEY value" lines, the keys in config/tree/README), read once:
# TREE_<KEY> for every key ("-" is empty) and TREE_NAME.
tree_profile() {
	TREE_NAME=${TREE:-6.12}
	local file=$ROOT/config/tree/$TREE_NAME key value
	if [ ! -f "$file" ]; then
		echo "ERROR: unknown TREE '$TREE_NAME' (config/tree has: $(find "$ROOT/config/tree" -type f ! -name README -printf '%f\n' | sort -V | xargs))" >&2
		exit 1
	fi
	while read -r key value; do
		case $key in '' | '#'* | skip_suite) continue ;; esac
		[ "$value" = - ] && value=
		declare -gx "TREE_${key^^}=$value"
	done <"$file"
	# The series folder, absolute: patches/ for 6.12.
	export TREE_NAME SERIES_PATH=$ROOT/$TREE_SERIES
}
tree_profile

# tree_skips: one skipped result per suite the tree cannot run
# (config/tree's skip_suite lines), with its reason: left out of SUITES
# by the Makefile, never dropped silently.
tree_skips() {
	local key name reason
	while read -r key name reason; do
		[ "$key" = skip_suite ] && result skip "suite-$name" "$reason"
	done <"$ROOT/config/tree/$TREE_NAME"
	return 0
}

# Absolute: worktrees and kbuild are driven from other directories.  A
# tree other than 6.12 keeps everything in its own subfolder.
BUILD=$(realpath -m "${BUILD:-$ROOT/build${TREE_BUILD:+/$TREE_BUILD}}")
export ROOT BUILD

# malloc on transparent huge pages for every program the harness starts
# (compilers, linkers, QEMU): where a page fault is dear, as in the VM
# this project is measured on, a cold hardened kernel built with it took
# 21% less time, its vmlinux byte-identical (make compile-bench measures
# it side by side).  No effect where THP is off; added to the caller's
# own tunables, never replacing them.
case ":${GLIBC_TUNABLES:-}:" in
*:glibc.malloc.hugetlb=*) ;;
*) export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1 ;;
esac

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

# Object dir of a variant (baseline|patched) for a toolchain.  It sits
# inside the worktree so kbuild uses srctree=.. and both worktrees give
# ccache identical command lines: files whose inputs the series does not
# change are compiled once.
objdir() {
	echo "$BUILD/src-$1/out-$2$ARCH_SUFFIX"
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

# dkms_conf SRCDIR FIELD: a field of a module source's dkms.conf
# (PACKAGE_NAME, PACKAGE_VERSION), read as dkms reads it: sourced.
dkms_conf() { bash -c "cd '$1' && . ./dkms.conf >/dev/null 2>&1; echo \"\$$2\""; }

# The project's one identity (config/identity), "NAME <EMAIL>", and its
# two halves: the author of the project's own patches and of the commits
# it makes in the build trees.
project_identity() { grep -v '^#' "$ROOT/config/identity" | head -1; }
project_name() { project_identity | sed 's/ <.*//'; }
project_email() { project_identity | sed 's/.*<\(.*\)>.*/\1/'; }

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
fuzz_paths() {
	local seen name calls ok got c o want digest n=$2 seed=$3 file=$4
	seen=$(sed -n 's/^ *path \([^ ]*\) calls=\([0-9]*\) ok=\([0-9]*\)$/\1 \2 \3/p' "$1")
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
	want=$(awk -v n="$n" -v s="$seed" '$1 == "digest" && $2 == n && $3 == s {print $4}' "$file")
	digest=$(sed -n 's/^ *digest: *\([0-9a-f]*\) .*/\1/p' "$1")
	if [ -z "$want" ]; then
		result fail fuzz-digest "$(rel "$file") records no digest for $n calls, seed $seed"
	else
		check fuzz-digest "$digest, recorded $want ($n calls, seed $seed)" test "$digest" = "$want"
	fi
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
# bounds demo's own.  A "Call Trace:" is taken as the trace of a demo
# report while there are no more of them than demo report lines.
demo_unexpected_reports() {
	local own traces
	report_lines "$1" "$DEMO_EXPECTED_REPORTS|Call Trace:"
	own=$(grep -a -c -E "$DEMO_EXPECTED_REPORTS" "$1")
	traces=$(grep -a -c -F 'Call Trace:' "$1")
	[ "$traces" -le "$own" ] || echo "$traces Call Trace: lines for $own demo report lines"
}

# series_patches [SERIES]: the patch file names a series file lists, in
# order (comments and blank lines skipped); default the tree's series
# (patches/series for 6.12).
series_patches() {
	grep -v -E '^[[:space:]]*(#|$)' "${1:-$SERIES_PATH/series}"
}

# touched_objects: the .o of every .c file the series changes.
touched_objects() {
	git -C "$BUILD/src-patched" diff --name-only baseline HEAD -- '*.c' | sed 's/\.c$/.o/'
}

# normalise_warnings: a build log's compiler warnings as "FILE: warning:
# TEXT", FILE relative to the tree (kbuild prints ../FILE from the object
# folder inside the worktree), line and column numbers dropped.
normalise_warnings() {
	# No warning at all is a clean build, not a failed grep.
	{ grep -a -E ': warning: ' || true; } | unroot |
		sed -E 's#^(\.\./)+##; s#^build/src-[^/]+/##; s#^([^:]+):[0-9]+(:[0-9]+)?: #\1: #' | sort -u
}

# seed_objdir MAIN COPY SRC BASE: a kernel whose tree SRC is the tree of
# MAIN's kernel plus a few changed files (since BASE) starts its object
# folder COPY as a copy of MAIN (kbuild names sources relative to the
# object folder: the commands are the same in both trees), every copied
# file dated later than every source, then the files changed since BASE
# dated later still: kbuild rebuilds exactly what depends on them and
# links.  Without it every object would be a ccache lookup.  Nothing to
# do when COPY has been built, or MAIN has not.
seed_objdir() {
	local main=$1 copy=$2 src=$3 base=$4 t
	[ -f "$copy/vmlinux" ] && return 0
	[ -f "$main/vmlinux" ] || return 0
	need_space "$BUILD" 2000 "a copy of $(rel "$main")"
	rm -rf "$copy" && cp -a "$main" "$copy" && info_del "$copy" built || return 1
	t=$(date +%s.%N)
	find "$copy" -print0 | xargs -0 touch -h -d "@$t"
	sleep 1
	git -C "$src" diff --name-only "$base" HEAD | (cd "$src" && xargs -r touch -c)
	note "$(rel "$copy"): seeded from $(rel "$main")"
}

# The build-info record of an object folder, OBJ/build-info: one "KEY
# value" line for each thing the harness made there and the inputs it
# was made from, instead of a stamp file each.  Keys: config (config.sh:
# the fragments' sum), built (build.sh: toolchain, commit, worktree and
# config), warnings and image-bytes (build.sh), deb (deb.sh), dkms
# (dkms-check.sh).
info_get() { sed -n "s/^$2 //p" "$1/build-info" 2>/dev/null | tail -n 1; }
info_set() {
	local f=$1/build-info
	mkdir -p "$1"
	{ grep -v "^$2 " "$f" 2>/dev/null; echo "$2 $3"; } >"$f.new" && mv "$f.new" "$f"
}
info_del() {
	local f=$1/build-info
	[ -f "$f" ] || return 0
	grep -v "^$2 " "$f" >"$f.new"; mv "$f.new" "$f"
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

# kbuild_repro_env: the KBUILD_BUILD_* values every build of this
# project uses, so two builds of the same source compare byte for byte.
kbuild_repro_env() {
	export KBUILD_BUILD_TIMESTAMP="1980-01-01" KBUILD_BUILD_USER=user KBUILD_BUILD_HOST=host
}

# deb_localversion VARIANT: what make deb appends to the release of
# the baseline or patched kernel package (never Debian's +deb12).
deb_localversion() {
	case "$1" in
	patched) echo +sockaddr ;;
	baseline) echo +baseline ;;
	*) die "unknown variant '$1' (baseline or patched)" ;;
	esac
}

# tcg_append ACCEL: more kernel arguments for a boot under ACCEL, with a
# space before them: config/arch's tcg_append under TCG without -icount
# in QEMU_EXTRA (the guest's clocks then follow the host's load),
# nothing otherwise (KVM; make bench's -icount).
tcg_append() {
	if [ "$1" = tcg ] && [[ " ${QEMU_EXTRA:-} " != *" -icount "* ]] && [ -n "${ARCH_TCG_APPEND:-}" ]; then
		echo " $ARCH_TCG_APPEND"
	fi
}

# boot_append ACCEL: the kernel arguments of every boot of a test kernel
# under ACCEL (scripts/boot.sh, scripts/debian-boot.sh); callers add
# their own.  panic=-1 (with QEMU's -no-reboot): a panic ends QEMU at
# once instead of hanging; the machine's console and arguments from
# config/arch; the suites' KTAP channel and bound; no dummy devices
# but the ones the suites make.
boot_append() {
	echo "console=$ARCH_CONSOLE panic=-1 $ARCH_APPEND ktap=/dev/$ARCH_KTAP dummy.numdummies=0 suite_timeout=${SUITE_TIMEOUT:-900}$(tcg_append "$1")"
}

# ccache_env: the one compiler cache of every kernel build (main
# kernels, check-bisect, check-testmod, dkms-check): ccache's usual
# per-user cache, so it outlives a fresh clone of the project; entries
# hashed relative to $BUILD, so both worktrees share them.  Depend mode:
# a miss runs the compiler once, keyed by the headers kbuild's -MMD
# lists, instead of a separate preprocessor run first (measured on a cold
# hardened kernel: a third of every miss's time went to that run).
ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime
	export CCACHE_DEPEND=1
	# Not ccache's inode cache (CCACHE_INODECACHE): its shared mapped
	# file cost more page faults than the header hashing it saves (10
	# hits of net/core/sock.o, ~850 headers: 0.43-0.55 s and 4,650
	# minor faults without, 0.57-0.78 s and 11,790 with).
}

# toolchain NAME: the profile of config/toolchains, as TC_CC (compiler),
# TC_VARS (kbuild variables that select it, an array), TC_FRAGMENT (its
# config fragment, empty for none) and KBUILD_CC (the arch's ARCH=, TC_VARS
# and CC="ccache TC_CC": what every kernel build passes to make).
toolchain() {
	local line name frag vars
	line=$(awk -v t="$1" '!/^#/ && $1 == t' "$ROOT/config/toolchains")
	[ -n "$line" ] || die "unknown toolchain '$1' (config/toolchains has: $(awk '!/^#/ && NF {printf "%s ", $1}' "$ROOT/config/toolchains"))"
	read -r name TC_CC vars frag <<<"$line"
	read -ra TC_VARS <<<"$vars"
	TC_FRAGMENT=${frag#-}
	# shellcheck disable=SC2034 # used by the callers
	KBUILD_CC=("${ARCH_KBUILD[@]}" "${TC_VARS[@]}" CC="ccache $TC_CC")
	# Through distcc/icecc (CCACHE_PREFIX) clang compiles preprocessed
	# source, where -fmacro-prefix-map is unused, and kbuild's clang
	# flags make an unused argument an error.
	if [ -n "${CCACHE_PREFIX:-}" ] && [[ $TC_CC == clang* ]]; then
		KBUILD_CC+=(KCFLAGS="${KCFLAGS:+$KCFLAGS }-Wno-unused-command-line-argument")
	fi
	export TC_CC TC_FRAGMENT
	: "$name"
}

# arch_profile: the profile of $ARCH (default x86_64), config/arch/$ARCH
# ("KEY value" lines, the keys described in config/arch/README), read
# once: ARCH_<KEY> for every key (ARCH_TARGET, ARCH_QEMU, ARCH_KTAP, ...;
# "-" is empty), plus ARCH_NAME, ARCH_KBUILD (kbuild's ARCH=, an array,
# empty for the host's own), GUEST_OUT (the guest programs' folder) and
# GUEST_CC and COMPAT_CFLAGS for host/host.mk.
arch_profile() {
	# lib.sh does not export ARCH: kbuild gets it from ARCH_KBUILD only.
	# kbuild's own name of the host's architecture, x86, means x86_64.
	ARCH_NAME=${ARCH:-x86_64}
	[ "$ARCH_NAME" = x86 ] && ARCH_NAME=x86_64
	ARCH_FILE=$ROOT/config/arch/$ARCH_NAME
	[ -f "$ARCH_FILE" ] || die "unknown ARCH '$ARCH_NAME' (config/arch has: $(find "$ROOT/config/arch" -type f ! -name README -printf '%f ' | sort))"
	local key value
	while read -r key value; do
		case $key in '' | '#'*) continue ;; esac
		[ "$value" = - ] && value=
		declare -gx "ARCH_${key^^}=$value"
	done <"$ARCH_FILE"
	ARCH_KBUILD=()
	[ -z "${ARCH_KBUILD_ARCH:-}" ] || ARCH_KBUILD=(ARCH="$ARCH_KBUILD_ARCH")
	export ARCH_NAME ARCH_FILE GUEST_OUT=$BUILD/guest${ARCH_SUFFIX:-} \
		GUEST_CC=${ARCH_GUEST_CC:-} COMPAT_CFLAGS=${ARCH_COMPAT_CFLAGS:-}
}
arch_profile

# ktap_channel FILE: the QEMU options that give the guest ARCH_KTAP
# writing into FILE (words; FILE has no spaces).
ktap_channel() {
	case $ARCH_KTAP in
	ttyS1) echo "-serial file:$1" ;;
	hvc0) echo "-device virtio-serial-device -chardev file,id=ktap,path=$1 -device virtconsole,chardev=ktap" ;;
	*) die "config/arch/$ARCH_NAME: no QEMU channel known for ktap $ARCH_KTAP" ;;
	esac
}

# qemu_argv ACCEL LOG KERNEL APPEND MEDIA...: the one QEMU command line
# of every test boot, in QEMU_ARGV: the arch's machine (config/arch) under
# ACCEL, the console into LOG, the suites' KTAP channel into LOG's .ktap
# twin, the boot MEDIA (-initrd FILE, -drive ...), KERNEL with APPEND,
# and QEMU_EXTRA (make bench's -icount).
qemu_argv() {
	local accel=$1 log=$2 kernel=$3 append=$4 channel; shift 4
	# shellcheck disable=SC2206 # machine options: words by design
	QEMU_ARGV=("$ARCH_QEMU" $ARCH_MACHINE -accel "$accel" -m "${GUEST_MEM:-2048}" -smp "${GUEST_SMP:-1}"
		-nodefaults -display none -no-reboot -serial "file:$log")
	read -ra channel <<<"$(ktap_channel "${log%.log}.ktap")"
	QEMU_ARGV+=("${channel[@]}" "$@" -kernel "$kernel" -append "$append")
	[ "$accel" = kvm ] && QEMU_ARGV+=(-cpu host)
	# shellcheck disable=SC2206
	[ -z "${QEMU_EXTRA:-}" ] || QEMU_ARGV+=($QEMU_EXTRA)
}

# qemu_run BOUND LOG KTAP HOOK CMD...: run QEMU (CMD) under timeout(1)
# with BOUND seconds, QEMU's own output in LOG.qemu; every half second
# call HOOK with the seconds elapsed (a function of the caller, or :),
# and every 30 s print how far the suites got (the last KTAP result
# line); CMD is written to LOG.argv.  Sets QEMU_RC and QEMU_DUR
# (seconds, tenths).  An interrupt, or
# the hook exiting, kills QEMU: nothing is left running.
qemu_run() {
	local bound=$1 log=$2 ktap=$3 hook=$4 t0 el last=0
	shift 4
	# The command line beside the log (LOG.argv, one word a line, the
	# project's paths relative): every boot can be rerun by hand.
	printf '%s\n' "$@" | unroot >"$log.argv"
	t0=$(date +%s.%N)
	timeout -k 5 "$bound" "$@" </dev/null >"$log.qemu" 2>&1 &
	QEMU_PID=$!
	trap 'kill -TERM $QEMU_PID 2>/dev/null; wait $QEMU_PID 2>/dev/null' EXIT INT TERM
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		sleep 0.5
		el=$(seconds_since "$t0")
		"$hook" "$el"
		if [ $((${el%.*} - last)) -ge 30 ]; then
			last=${el%.*}
			note "... guest running ${last}s: $(grep -a -E '^ *(ok|not ok) ' "$ktap" | tail -1 | cut -c1-70)"
		fi
	done
	# QEMU_RC, QEMU_DUR: for the caller.
	QEMU_RC=0
	# shellcheck disable=SC2034
	wait "$QEMU_PID" || QEMU_RC=$?
	trap - EXIT INT TERM
	# shellcheck disable=SC2034
	QEMU_DUR=$(seconds_since "$t0")
}

# seconds_since T0: seconds (tenths) since T0, a date +%s.%N value.
seconds_since() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}'
}

# qemu_judge RC DURATION BOUND LOG: why a QEMU run (started under
# timeout(1) with BOUND seconds, console in LOG, QEMU's own output in
# LOG.qemu) that ended with RC after DURATION seconds failed, on stdout;
# nothing when the guest powered off without a panic.
qemu_judge() {
	local rc=$1 dur=${2%.*} bound=$3 log=$4
	# timeout(1) says 124 or 137 when it fired; an outside kill also
	# gives 137, so the elapsed time tells the two apart.
	if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$dur" -ge "$bound" ]; }; then
		echo "guest did not power off within ${bound}s"
	elif [ "$rc" -gt 128 ]; then
		echo "QEMU was killed by signal $((rc - 128)) after ${dur}s"
	elif [ "$rc" != 0 ]; then
		echo "QEMU exited with status $rc ($(head -c 200 "$log.qemu" | tr '\n' ' '))"
	elif grep -a -q 'Kernel panic' "$log"; then
		echo "guest panicked: $(grep -a -m1 'Kernel panic' "$log")"
	fi
	return 0
}

# kernel_image OBJDIR: the bootable image a build in OBJDIR made.
kernel_image() {
	echo "$1/$ARCH_IMAGE"
}

# kbuild_cmd OBJDIR OBJ: the command kbuild compiled OBJ with (from its
# .cmd file), without ccache and the dependency-file option; run it in
# OBJDIR.  Exported: the report scripts call it from xargs.
kbuild_cmd() {
	# 6.1's kbuild names it cmd_ (6.12's: savedcmd_) and appends the
	# objtool step after " ; ": only the compile is kept.
	sed -n -E "s|^(saved)?cmd_$2 := ||p" "$1/$(dirname "$2")/.$(basename "$2").cmd" |
		sed -E 's/^ccache //; s/-Wp,-MMD,[^ ]+ //; s/ +; .*$//'
}
export -f kbuild_cmd

# --- Results of a pipeline (make run, make check) ---------------------
# results_init NAME: start $BUILD/NAME.results and NAME-stages.tsv.
results_init() {
	PIPELINE=$1
	export T_ALL; T_ALL=$(date +%s)
	mkdir -p "$BUILD/logs"
	export RESULTS=$BUILD/$1.results STAGE_LOG=$BUILD/$1-stages.tsv
	: >"$RESULTS"; : >"$STAGE_LOG"
}

# finish: stage durations, the failures, the closing count line; exits
# 0 only when nothing failed.
# results_ktap RESULTS: the pipeline's results as a KTAP document, one
# test point per result in the order they came ("# SKIP reason" for a
# skip, the detail as a diagnostic): build/<pipeline>.ktap, the record
# ktapdiff --check [--json] reads like any guest log.
results_ktap() {
	awk -F'\t' '
		{ r[NR] = $1; n[NR] = $2; d[NR] = $3 }
		END {
			print "KTAP version 1"
			print "1.." NR
			for (i = 1; i <= NR; i++) {
				gsub(/#/, "%23", n[i]); gsub(/ /, "_", n[i])
				if (r[i] == "skip") { print "ok " i " " n[i] " # SKIP " d[i]; continue }
				if (d[i] != "") print "# " n[i] ": " d[i]
				print (r[i] == "fail" ? "not ok " : "ok ") i " " n[i]
			}
		}' "$1"
}

finish() {
	results_ktap "$RESULTS" >"${RESULTS%.results}.ktap"
	echo
	# In the order the stages started, each with its start (min:s into
	# the run); "(beside)": a stage that overlapped others, so the
	# durations add up to more than the total.
	echo "==== stage durations ===="
	echo "     took  start  stage"
	sort -t $'\t' -s -n -k3,3 "$STAGE_LOG" | awk -F'\t' '{
		printf "  %6ss  %2d:%02d  %s%s\n", $2, $3 / 60, $3 % 60, $1, ($4 == "beside" ? " (beside)" : "") }'
	printf '  %6ss         total\n' $(( $(date +%s) - T_ALL ))
	grep -P '^fail\t' "$RESULTS" | cut -f2,3 | sort | uniq -c | sed 's/^/  failed: /' | head -40
	local p f s
	p=$(grep -c -P '^pass\t' "$RESULTS"); f=$(grep -c -P '^fail\t' "$RESULTS"); s=$(grep -c -P '^skip\t' "$RESULTS")
	echo "$p passed, $f failed, $s skipped${PARTIAL_SUITES:+ (partial run: SUITES=$PARTIAL_SUITES)}"
	# A nested pipeline (check-full's nested): every result joins the
	# parent's, named under the name the parent gave it (two trees' runs
	# of one pipeline stay apart), else this pipeline's.
	if [ -n "${PARENT_RESULTS:-}" ]; then
		awk -F'\t' -v OFS='\t' -v n="${NESTED_AS:-$PIPELINE}/" '{ $2 = n $2; print }' "$RESULTS" >>"$PARENT_RESULTS"
	fi
	[ "$f" = 0 ]
	exit $?
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

# check_extra NAME: NAME is one of the arch's make check stages beside
# the comparison (config/arch's check_extras).
# A tree profile's check_extras, where it has one, replaces the arch's.
check_extra() { [[ " ${TREE_CHECK_EXTRAS-${ARCH_CHECK_EXTRAS:-}} " == *" $1 "* ]]; }

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
	elif [ "$rc" != 0 ] && ! tail -n +"$((before + 1))" "$RESULTS" | grep -q -P '^fail\t'; then
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

# The expectations every run of $ARCH_NAME is checked against
# (config/expect/README); EXPECT_FILE= another one (the harness tests).
expect_file() {
	echo "${EXPECT_FILE:-$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}$ARCH_NAME}"
}

# expect_check LOG FILE KERNEL: one kernel's run (FILE, the log LOG:
# ktap or console) against the expectations, one result per check: every
# suite listed and at its floors, every skip an allowed one.
expect_check() {
	local x out rc=0 r name detail
	x=$(expect_file)
	[ -f "$x" ] || { result fail "expect-$ARCH_NAME-$3-$1" "no $(rel "$x")"; return 1; }
	out=$("$BUILD"/host/ktapdiff --expect "$x" --log "$1" --kernel "$3" "$2" 2>&1) || rc=$?
	if [ "$rc" = 2 ]; then
		result fail "expect-$ARCH_NAME-$3-$1" "$(head -1 <<<"$out")"
		return 1
	fi
	while IFS=$'\t' read -r r name detail; do
		result "$r" "expect-$ARCH_NAME-$3-$1: $name" "$detail"
	done <<<"$out"
	return "$rc"
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
	local out line p f s rc=0
	out=$("$BUILD"/host/ktapdiff --check "$1" 2>&1) || rc=$?
	echo "$out" | sed 's/^/  /'
	# ktapdiff's own count of the cases (see host/ktapdiff.c).
	line=$(sed -n 's/^cases: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' <<<"$out")
	if [ -n "$line" ] && [ "$rc" != 2 ]; then
		read -r p f s <<<"$line"
		result_counts "$p" "$f" "$s" "$2"
	else
		result fail "$2" "no complete KTAP in $(rel "$1")"
	fi
}
