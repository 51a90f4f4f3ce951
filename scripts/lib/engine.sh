# shellcheck shell=bash
# The one baseline-vs-patched engine: both kernels booted side by side,
# each run counted and checked against what it must hold, the two runs
# compared case by case.  make check (every arch), check-btf,
# check-debian, the bounds demo and make coverage differ only in the
# kernels they built and in the command that boots one.
# Part of scripts/lib.sh, which sources it; never run on its own.

# The variants every pipeline compares, in this order.
VARIANTS=(baseline patched)

# pair_boot TITLE PREFIX BOOT: BOOT VARIANT LOG boots one kernel (its
# console into LOG, the suites' KTAP into LOG's .ktap twin; exit 0 for a
# clean run), for both variants at once: each TCG guest takes one host
# core, and a guest waiting for a timeout leaves the other its core.
# SERIAL_BOOTS=1: one after the other, each boot time its own.  LOG is
# PREFIX-VARIANT.log, BOOT's own output PREFIX-VARIANT.out (shown after,
# marked by variant).  Sets PAIR_RC[VARIANT] to each BOOT's status.
declare -gA PAIR_RC
pair_boot() {
	local title=$1 prefix=$2 boot=$3 v
	local -A pid
	stage "$title$([ "${SERIAL_BOOTS:-0}" = 1 ] && echo ', one at a time' || echo ', in parallel')"
	for v in "${VARIANTS[@]}"; do
		"$boot" "$v" "$prefix-$v.log" >"$prefix-$v.out" 2>&1 &
		pid[$v]=$!
		# "&& ... ||": a failed boot must not end a caller under set -e.
		[ "${SERIAL_BOOTS:-0}" != 1 ] || { wait "${pid[$v]}" && PAIR_RC[$v]=0 || PAIR_RC[$v]=$?; }
	done
	for v in "${VARIANTS[@]}"; do
		[ "${SERIAL_BOOTS:-0}" = 1 ] || { wait "${pid[$v]}" && PAIR_RC[$v]=0 || PAIR_RC[$v]=$?; }
		sed "s/^/  [$v] /" "$prefix-$v.out"
	done
	stage_end
}

# pair_boot_results NAME PREFIX [DETAIL]: one result NAME-VARIANT per
# boot of pair_boot: passed when its BOOT ended 0, the detail then
# DETAIL VARIANT's output (a caller's function); failed with the line
# saying why (the boot's verdict file, lib/qemu.sh boot_verdict) or,
# where the boot said it passed and the command still failed, its exit
# status and where its output is.
pair_boot_results() {
	local name=$1 prefix=$2 detail=${3:-} v why
	for v in "${VARIANTS[@]}"; do
		if [ "${PAIR_RC[$v]}" = 0 ]; then
			result pass "$name-$v" "$([ -z "$detail" ] || "$detail" "$v")"
		else
			why=$(head -1 "$prefix-$v.verdict" 2>/dev/null)
			[ "$why" != pass ] || why=
			result fail "$name-$v" "${why:-exit status ${PAIR_RC[$v]}, see $(rel "$prefix-$v.out")}"
		fi
	done
}

# console_ktap LOG: the KTAP lines of a kernel console (KUnit's, among
# the kernel's own messages; printk times dropped), from its first
# "KTAP version" on.
console_ktap() {
	awk '{ sub(/^\[ *[0-9]+\.[0-9]+\] /, "") }
		/^KTAP version/ { on = 1 }
		on && /^ *(KTAP version |1\.\.|ok |not ok |# )/' "$1"
}

# pair_judge NAME PREFIX EXPECT LOG...: each variant's run of pair_boot
# counted, one result per case (ktap: the suites' channel,
# PREFIX-VARIANT.ktap, as guest-NAME-VARIANT; console: KUnit on
# PREFIX-VARIANT.log, as kunit-NAME-VARIANT), its KTAP nested in the
# pipeline's record, and checked against the expectation file EXPECT
# (config/expect/README: the suites that must run, their floors, the
# skips allowed); then both variants compared case by case per LOG with
# the allow-list, one result compare-NAME-LOG (build/logs/ its .txt).
pair_judge() {
	local name=$1 prefix=$2 expect=$3 log v file counted kt; shift 3
	for v in "${VARIANTS[@]}"; do
		stage "results $v ($name)"
		for log in "$@"; do
			case $log in
			ktap) file=$prefix-$v.ktap counted=guest kt=$file ;;
			console)
				file=$prefix-$v.log counted=kunit kt=$prefix-$v.kunit.ktap
				console_ktap "$file" >"$kt" ;;
			*) die "pair_judge: unknown log '$log' (ktap, console)" ;;
			esac
			ktap_counts "$file" "$counted-$name-$v"
			result_attach "$counted-$name-$v" "$kt"
			EXPECT_FILE=$expect expect_check "$log" "$file" "$v" "$name"
		done
		stage_end
	done
	stage "compare baseline vs patched ($name)"
	for log in "$@"; do
		file=$([ "$log" = ktap ] && echo ktap || echo log)
		compare_runs "compare-$name-$log" "$log" "$prefix-baseline.$file" "$prefix-patched.$file"
	done
	stage_end
}
