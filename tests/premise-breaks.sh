#!/bin/bash
# make premise-breaks: every premise the guest suites assert must fail
# when what it guards is broken, on both kernels.  Two sets, each a
# patch to a copy of guest/ and the cases it breaks
# (tests/premise-breaks/SET.patch, SET.cases):
#   setup     each case's setup broken (no such protocol, device or
#             port, a hook not attached, an address nobody refuses)
#   readback  the setup left whole, only the read-back of its effect
#             pointed elsewhere (another port, another device): the
#             case must fail at the read-back line (the cases' third
#             column: text that line holds), so the read-back can fail
#   sockusers-setup, sockusers-readback  the same for the in-kernel
#             socket users (nfsd, IPVS), on kernels that build them in
# The sets and the kernel options each needs: tests/premise-breaks/sets.
# The suites a set touches are built from its copy, booted on make
# check's baseline and patched kernels, and every case it lists must
# fail on each, naming the premise's line; a case not listed must
# still pass.  Needs make check's kernels (of $ARCH: make premise-breaks
# ARCH=arm64 breaks arm64's); its own record in ledger/.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../scripts/lib.sh"
tc=${TOOLCHAIN:-clang}
results_init premise-breaks$ARCH_SUFFIX
dir=$ROOT/tests/premise-breaks

# break_set SET: SET.patch's copy of the suites built and booted on
# both kernels, SET.cases judged.
break_set() {
	local set=$1 work cases suites bins s k kernel log ktap reports n suite name want block line others
	work=$BUILD/premise-breaks$ARCH_SUFFIX/$set
	cases=$(grep -v -E '^(#|$)' "$dir/$set.cases")
	suites=$(awk '{print $1}' <<<"$cases" | sort -u | xargs)

	stage "$set: broken copy of guest/ and its suites"
	rm -rf "$work" && mkdir -p "$work/guest" "$work/out" "$work/logs"
	cp -a "$ROOT/guest/." "$work/guest/"
	patch -s -d "$work" -p1 <"$dir/$set.patch" ||
		fatal "premise-breaks-$set-patch" "$(rel "$dir")/$set.patch does not apply to guest/"
	bins=()
	for s in $suites; do bins+=("$work/out/$s"); done
	# The suites from the broken copy (GUEST_DIR), into their own folders;
	# init is make run's.
	make -s -C "$ROOT" BUILD="$BUILD" GUEST_DIR="$work/guest" GUEST_OUT="$work/out" \
		BPF_OUT="$work/bpf" "${bins[@]}" >"$work/build.log" 2>&1 ||
		fatal "premise-breaks-$set-build" "see $(rel "$work")/build.log"
	make -s -C "$ROOT" BUILD="$BUILD" "$GUEST_OUT/init" >>"$work/build.log" 2>&1 ||
		fatal "premise-breaks-$set-build" "init: see $(rel "$work")/build.log"
	"$ROOT"/scripts/initramfs.sh "$work/initramfs.cpio" "$GUEST_OUT/init" "${bins[@]}"
	stage_end

	for k in baseline patched; do
		stage "$set: boot $k with the broken suites"
		kernel=$(kernel_image "$(objdir "$k" "$tc")")
		[ -f "$kernel" ] || fatal "premise-breaks-$k" "no $(rel "$kernel"): run make check first"
		log=$work/logs/$k.log
		# The broken cases fail, so boot.sh's own verdict is not asked for:
		# the KTAP must be whole (its last suite's result line present).
		"$ROOT"/scripts/boot.sh "$kernel" "$work/initramfs.cpio" "$log" >/dev/null 2>&1 || true
		ktap=$work/logs/$k.ktap
		tr -d '\r' <"${log%.log}.ktap" >"$ktap.tmp" && mv "$ktap.tmp" "$ktap"
		reports=$(report_lines "$log")
		check "premise-breaks-$set-$k-console" "no kernel report on the console${reports:+: $(head -1 <<<"$reports")}" \
			test -z "$reports"
		n=0
		while read -r suite name want; do
			# The suite's cases, nested four spaces: its block ends at its
			# own result line.
			block=$(awk -v s="$suite" '$0 ~ "^(not )?ok [0-9]+ " s "( |$)" {exit} {print}' "$ktap" |
				awk -v c="$name" '/^ *#  RUN / {buf = ""} {buf = buf $0 "\n"} $0 ~ "^ *(not )?ok [0-9]+ " c "$" {printf "%s", buf; exit}')
			line=$(grep -m1 -o -E 'guest/[a-z_]+\.c:[0-9]+:.*' <<<"$block")
			if grep -q -E "^ *not ok [0-9]+ $name\$" <<<"$block" && [ -n "$line" ] &&
				{ [ -z "$want" ] || grep -q -F -- "$want" <<<"$line"; }; then
				result pass "premise-break-$set-$k-$suite-${name#global.}" "$line"
				n=$((n + 1))
			else
				result fail "premise-break-$set-$k-$suite-${name#global.}" "still passed, gave no premise line${want:+ or failed before its read-back (wanted a line with '$want')} (see $(rel "$ktap"))"
			fi
		done <<<"$cases"
		# Every case the patch does not break still passes.
		others=$(grep -E '^ *not ok [0-9]+ global\.' "$ktap" | awk '{print $4}' |
			grep -v -x -F -f <(awk '{print $2}' <<<"$cases") || true)
		check "premise-breaks-$set-$k-others-pass" "cases the patch does not break pass${others:+ (failed: $(xargs <<<"$others"))}" \
			test -z "$others"
		check "premise-breaks-$set-$k-all-ran" "$n of $(wc -l <<<"$cases") listed breaks failed as they should" \
			test "$n" = "$(wc -l <<<"$cases")"
		stage_end
	done
}

# missing_options OPTION...: those not built in (=y) by both kernels.
missing_options() {
	local o k
	for o in "$@"; do
		for k in baseline patched; do
			grep -q -x "$o=y" "$(objdir "$k" "$tc")/.config" 2>/dev/null || { echo "$o"; break; }
		done
	done
}

for k in baseline patched; do
	[ -f "$(kernel_image "$(objdir "$k" "$tc")")" ] ||
		fatal "premise-breaks-$k" "no $k kernel of make check${ARCH_SUFFIX:+ ARCH=$ARCH_NAME}: run it first"
done
while read -r set needs; do
	[ -f "$dir/$set.patch" ] && [ -f "$dir/$set.cases" ] ||
		fatal "premise-breaks-$set" "tests/premise-breaks/sets lists $set, which has no $set.patch and $set.cases"
	# shellcheck disable=SC2086 # a list of options
	missing=$([ "$needs" = - ] || missing_options $needs | xargs)
	if [ -n "$missing" ]; then
		result skip "premise-breaks-$set" "make check's $ARCH_NAME kernels do not build in $missing"
		continue
	fi
	break_set "$set"
done < <(grep -v -E '^(#|$)' "$dir/sets")
finish
