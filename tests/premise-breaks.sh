#!/bin/bash
# make premise-breaks: every premise the guest suites assert must fail
# when its setup is broken, on both kernels.  tests/premise-breaks/
# breaks.patch breaks each case's setup (no such protocol, device or
# port, a hook not attached, an address nobody refuses) in a copy of
# guest/; the suites it touches are built from that copy, booted on
# make check's baseline and patched kernels, and every case
# tests/premise-breaks/cases lists must fail on each, naming the
# premise's line.  A case not listed must still pass.  Needs make
# check's kernels; its own record in ledger/.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../scripts/lib.sh"
tc=${TOOLCHAIN:-clang}
results_init premise-breaks
dir=$ROOT/tests/premise-breaks
work=$BUILD/premise-breaks
cases=$(grep -v -E '^(#|$)' "$dir/cases")
suites=$(awk '{print $1}' <<<"$cases" | sort -u | xargs)

stage "broken copy of guest/ and its suites"
rm -rf "$work" && mkdir -p "$work/guest" "$work/out" "$work/logs"
cp -a "$ROOT/guest/." "$work/guest/"
patch -s -d "$work" -p1 <"$dir/breaks.patch" ||
	fatal premise-breaks-patch "$(rel "$dir")/breaks.patch does not apply to guest/"
bins=()
for s in $suites; do bins+=("$work/out/$s"); done
# The suites from the broken copy (GUEST_DIR), into their own folders;
# init is make run's.
make -s -C "$ROOT" BUILD="$BUILD" GUEST_DIR="$work/guest" GUEST_OUT="$work/out" \
	BPF_OUT="$work/bpf" "${bins[@]}" >"$work/build.log" 2>&1 ||
	fatal premise-breaks-build "see $(rel "$work")/build.log"
make -s -C "$ROOT" BUILD="$BUILD" "$GUEST_OUT/init" >>"$work/build.log" 2>&1 ||
	fatal premise-breaks-build "init: see $(rel "$work")/build.log"
"$ROOT"/scripts/initramfs.sh "$work/initramfs.cpio" "$GUEST_OUT/init" "${bins[@]}"
stage_end

for k in baseline patched; do
	stage "boot $k with the broken suites"
	kernel=$(kernel_image "$(objdir "$k" "$tc")")
	[ -f "$kernel" ] || fatal "premise-breaks-$k" "no $(rel "$kernel"): run make check first"
	log=$work/logs/$k.log
	# The broken cases fail, so boot.sh's own verdict is not asked for:
	# the KTAP must be whole (its last suite's result line present).
	"$ROOT"/scripts/boot.sh "$kernel" "$work/initramfs.cpio" "$log" >/dev/null 2>&1 || true
	ktap=$work/logs/$k.ktap
	tr -d '\r' <"${log%.log}.ktap" >"$ktap.tmp" && mv "$ktap.tmp" "$ktap"
	reports=$(report_lines "$log")
	check "premise-breaks-$k-console" "no kernel report on the console${reports:+: $(head -1 <<<"$reports")}" \
		test -z "$reports"
	n=0
	while read -r suite name; do
		# The suite's cases, nested four spaces: its block ends at its
		# own result line.
		block=$(awk -v s="$suite" '$0 ~ "^(not )?ok [0-9]+ " s "( |$)" {exit} {print}' "$ktap" |
			awk -v c="$name" '/^ *#  RUN / {buf = ""} {buf = buf $0 "\n"} $0 ~ "^ *(not )?ok [0-9]+ " c "$" {printf "%s", buf; exit}')
		line=$(grep -m1 -o -E 'guest/[a-z_]+\.c:[0-9]+:.*' <<<"$block")
		if grep -q -E "^ *not ok [0-9]+ $name\$" <<<"$block" && [ -n "$line" ]; then
			result pass "premise-break-$k-$suite-${name#global.}" "$line"
			n=$((n + 1))
		else
			result fail "premise-break-$k-$suite-${name#global.}" "still passed or gave no premise line (see $(rel "$ktap"))"
		fi
	done <<<"$cases"
	# Every case the patch does not break still passes.
	others=$(grep -E '^ *not ok [0-9]+ global\.' "$ktap" | awk '{print $4}' |
		grep -v -x -F -f <(awk '{print $2}' <<<"$cases") || true)
	check "premise-breaks-$k-others-pass" "cases the patch does not break pass${others:+ (failed: $(xargs <<<"$others"))}" \
		test -z "$others"
	check "premise-breaks-$k-all-ran" "$n of $(wc -l <<<"$cases") listed breaks failed as they should" \
		test "$n" = "$(wc -l <<<"$cases")"
	stage_end
done
finish
