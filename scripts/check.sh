#!/bin/bash
# make check: the baseline and the patched kernel, same toolchain and
# config (clang-19 hardened), booted side by side; the same guest suites
# compared case by case; plus the harness's own tests.
# Ends with "N passed, N failed, N skipped"; exit 0 only if none failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
t_all=$(date +%s)
mkdir -p "$BUILD/logs"
export RESULTS=$BUILD/check.results STAGE_LOG=$BUILD/check-stages.tsv
: >"$RESULTS"; : >"$STAGE_LOG"

finish() {
	echo
	echo "==== stage durations ===="
	awk -F'\t' '{printf "  %-40s %6ss\n", $1, $2}' "$STAGE_LOG"
	echo "  total                                    $(( $(date +%s) - t_all ))s"
	grep -P '^fail\t' "$RESULTS" | cut -f2,3 | sort | uniq -c | sed 's/^/  failed: /' | head -40
	local p f s
	p=$(grep -c -P '^pass\t' "$RESULTS"); f=$(grep -c -P '^fail\t' "$RESULTS"); s=$(grep -c -P '^skip\t' "$RESULTS")
	echo "$p passed, $f failed, $s skipped"
	[ "$f" = 0 ]
	exit $?
}
# A stage that cannot produce what later stages need ends the run.
fatal() {
	result fail "$1" "$2"
	finish
}

scripts/deps.sh || fatal deps "package installation failed"
scripts/tree.sh || fatal tree "tree or series failed"

stage "host tools + harness tests"
make -s host-bins || fatal host-build "host tools did not build"
scripts/test-host.sh
stage_end

for v in baseline patched; do
	scripts/build.sh "$BUILD/src-$v" "$BUILD/out/$tc/$v" "$tc" && result pass "build-$tc-$v" ||
		fatal "build-$tc-$v" "see $BUILD/out/$tc/$v/build.log"
done
scripts/guest.sh || fatal guest "guest programs did not build"

for v in baseline patched; do
	stage "boot $v ($tc)"
	log=$BUILD/logs/check-$tc-$v.log
	if scripts/boot.sh "$BUILD/out/$tc/$v/arch/x86/boot/bzImage" "$BUILD/guest/initramfs.cpio" "$log"; then
		result pass "boot-$v"
	else
		result fail "boot-$v"
	fi
	# Guest cases of this kernel: ktapdiff --check prints the counts.
	out=$("$BUILD"/host/ktapdiff --check "$log" 2>&1)
	echo "$out" | sed 's/^/  /'
	line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1)
	if [ -n "$line" ]; then
		read -r p f s < <(echo "$line" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
		result_counts "$p" "$f" "${s:-0}" "guest-$v"
	else
		result fail "guest-$v" "no complete KTAP in $(rel "$log")"
	fi
	stage_end
done

stage "compare baseline vs patched"
if "$BUILD"/host/ktapdiff --allow "$ROOT"/config/allowed-differences \
	"$BUILD/logs/check-$tc-baseline.log" "$BUILD/logs/check-$tc-patched.log" >"$BUILD/logs/compare.txt" 2>&1; then
	result pass compare-baseline-patched
else
	result fail compare-baseline-patched "see $(rel "$BUILD/logs/compare.txt")"
fi
cat "$BUILD/logs/compare.txt"
stage_end

if [ -n "${CHECK_FULL:-}" ]; then
	scripts/check-full.sh || result fail check-full
fi
finish
