# shellcheck shell=bash
# The one QEMU launcher of every boot (the KVM probe too): its command line, its run
# under a bound, and the verdict on how it ended.
# Part of scripts/lib.sh, which sources it; never run on its own.

# tcg_append ACCEL: more kernel arguments for a boot under ACCEL, with a
# space before them.  Under TCG: RCU's CPU stall timeout at its maximum,
# 300 s (the default 21 s is wall time an emulated CPU on a loaded host
# can spend in one long kernel path; syzkaller's emulated-VM configs use
# 300 for the same reason), so "detected stalls" in config/kernel-reports
# still catches a real stall and no longer the host's load; plus
# config/arch's tcg_append without -icount in QEMU_EXTRA (the guest's
# clocks then follow the host's load).  Nothing under KVM.
tcg_append() {
	[ "$1" = tcg ] || return 0
	printf ' rcupdate.rcu_cpu_stall_timeout=300'
	if [[ " ${QEMU_EXTRA:-} " != *" -icount "* ]] && [ -n "${ARCH_TCG_APPEND:-}" ]; then
		printf ' %s' "$ARCH_TCG_APPEND"
	fi
	echo
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
	local bound=$1 log=$2 ktap=$3 hook=$4 t0 el last=0 qerr
	shift 4
	# The command line beside the log (LOG.argv, one word a line, the
	# project's paths relative): every boot can be rerun by hand.
	printf '%s\n' "$@" | unroot >"$log.argv"
	t0=$(date +%s.%N)
	timeout -k 5 "$bound" "$@" </dev/null >"$log.qemu" 2>&1 &
	QEMU_PID=$!
	trap 'kill -TERM $QEMU_PID 2>/dev/null; wait $QEMU_PID 2>/dev/null' EXIT INT TERM
	# The loop's stderr aside, the hook's kept (fd qerr): bash's own
	# notice of a QEMU killed by a signal ("line N: PID Aborted ..."),
	# printed between two commands, names this file's path on the
	# machine; qemu_judge says it in the project's words.
	exec {qerr}>&2
	{
		while kill -0 "$QEMU_PID" 2>/dev/null; do
			sleep 0.5
			el=$(seconds_since "$t0")
			"$hook" "$el" 2>&"$qerr"
			if [ $((${el%.*} - last)) -ge 30 ]; then
				last=${el%.*}
				note "... guest running ${last}s: $(grep -a -E '^ *(ok|not ok) ' "$ktap" | tail -1 | cut -c1-70)"
			fi
		done
		# QEMU_RC, QEMU_DUR: for the caller.
		QEMU_RC=0
		# shellcheck disable=SC2034
		wait "$QEMU_PID" || QEMU_RC=$?
	} 2>/dev/null
	exec {qerr}>&-
	trap - EXIT INT TERM
	# shellcheck disable=SC2034
	QEMU_DUR=$(seconds_since "$t0")
}

# boot_verdict LOG [WHY]: a boot's verdict, read by the engine
# (pair_boot_results) instead of its text output: LOG's .verdict twin
# holds "pass", or the line saying why it failed.  Written first as
# "did not end" so a boot killed half-way says so.
boot_verdict() {
	echo "${2:-pass}" >"${1%.log}.verdict"
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

# boot_suites KERNEL LOG NAME: the guest suites (print-suites) booted on
# KERNEL, judged as any boot (console and KTAP beside LOG), results
# boot-NAME[-guestN].  One TCG guest keeps one core, and its suites spend
# most of their time waiting on sockets: with a second core, the 32-bit
# suites (_m32) run in a second guest beside the first (RUN_GUESTS=1:
# one guest).  The second first runs netdevs (when the list has it), so
# that they find the devices it makes, as they do after it in one guest;
# that run is judged here and not counted twice.  LOG's .ktap joins
# their KTAP in run order and LOG their consoles; KUnit runs in the
# first guest only.
boot_suites() {
	local kernel=$1 log=$2 name=$3 suites setup groups runs extra pids i glog
	read -ra suites <<<"$(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites)"
	suites=("${suites[@]##*/}") setup=netdevs
	groups=("$(printf '%s\n' "${suites[@]}" | grep -v '_m32$' | paste -sd,)"
		"$(printf '%s\n' "${suites[@]}" | grep '_m32$' | paste -sd,)")
	[[ ",${groups[0]}," == *",$setup,"* ]] || setup=
	# The accelerator probed once, not by both guests at once.
	"$ROOT"/scripts/accel.sh "$kernel" >/dev/null
	if [ "${RUN_GUESTS:-$(($(nproc) > 1 ? 2 : 1))}" = 1 ] || [ -z "${groups[0]}" ] || [ -z "${groups[1]}" ]; then
		if "$ROOT"/scripts/boot.sh "$kernel" "$GUEST_OUT/initramfs.cpio" "$log"; then
			result pass "boot-$name"
		else
			result fail "boot-$name" "console log: $(rel "$log")"
		fi
		return
	fi
	# What each guest runs, and the arguments that differ.
	runs=("${groups[0]}" "${setup:+$setup,}${groups[1]}") extra=("" kunit.enable=0) pids=()
	for i in 0 1; do
		# shellcheck disable=SC2086 # extra: no word, or one
		"$ROOT"/scripts/boot.sh "$kernel" "$GUEST_OUT/initramfs.cpio" "${log%.log}.guest$i.log" \
			"suites=${runs[i]}" ${extra[i]} > >(sed -u "s/^/  [guest$i] /") 2>&1 &
		pids+=($!)
	done
	for i in 0 1; do
		glog=${log%.log}.guest$i.log
		if ! wait "${pids[i]}"; then
			result fail "boot-$name-guest$i" "console log: $(rel "$glog")"
		elif [ "$i" = 1 ] && [ -n "$setup" ] && ! grep -a -q -E "^ok 1 $setup"$'\r?$' "${glog%.log}.ktap"; then
			result fail "boot-$name-guest$i" "its first run of $setup did not pass, see $(rel "${glog%.log}.ktap")"
		else
			result pass "boot-$name-guest$i" "${runs[i]//,/ }"
		fi
	done
	cat "${log%.log}".guest{0,1}.log >"$log"
	ktap_join "${log%.log}.ktap" "${log%.log}".guest{0,1}.ktap
}
