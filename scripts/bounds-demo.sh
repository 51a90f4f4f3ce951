#!/bin/bash
# The bounds-checking demonstration: baseline and patched kernels plus
# the tree's demo patch (patches/demo, patches-6.1/demo: a KUnit suite
# that writes past sa_data[14] of a struct sockaddr inside a
# sockaddr_storage), each booted on its own with only that suite.
# Expected, and checked here:
#   patched:  UBSAN array-index-out-of-bounds and FORTIFY field-spanning
#             write, both in sockaddr_bounds_demo.c, and no other report;
#   baseline: a clean console (flexible sa_data hides the overflow).
# Both: the guest ends; KUnit passes on baseline, and on patched fails
# the index case, since UBSAN reports into the running KUnit test.
# Appends to $RESULTS when set; exit 1 if any expectation fails.
#
# Usage: scripts/bounds-demo.sh [trees]   (TOOLCHAIN must be clang: the
#        bound exists only with clang-19's -fstrict-flex-arrays=3)
#        trees: only make the two demo trees (make check does that beside
#        the main kernels' builds, so that the demo itself only builds
#        and boots).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
: "${RESULTS:=$BUILD/bounds-demo.results}"
export RESULTS
# Never dropped unseen: a named skip in the pipeline's closing line.
if [ "$tc" != clang ]; then
	result skip demo-bounds "TOOLCHAIN=$tc: the bound exists only with clang-19's -fstrict-flex-arrays=3 (gcc-12 has none)"
	exit 0
fi
mkdir -p "$BUILD/logs"
bad=0

# demo NAME CONDITION-DESCRIPTION COMMAND...: one check of the verdict.
demo() {
	check "demo-$1" "$2" "${@:3}" || bad=1
}
# shellcheck disable=SC2317 # called through demo()
has() { grep -a -q -E "$2" "$1"; }
# shellcheck disable=SC2317
lacks() { ! grep -a -q -E "$2" "$1"; }
# demo_tree VARIANT: build/src-VARIANT-demo, the main kernel's tree
# (baseline, or baseline + series) plus patches/demo, made here rather
# than by tree.sh, since only this stage needs it.  The main kernels stay
# exactly baseline and baseline + series.
demo_tree() {
	local v=$1 repo=$BUILD/linux D=$BUILD/src-$1-demo want
	want="$(git -C "$repo" rev-parse "$v") $(cat "$SERIES_PATH"/demo/*.patch | sha256sum | cut -c1-16)"
	[ "$(cat "$D.sum" 2>/dev/null)" = "$want" ] && return 0
	if [ ! -d "$D" ]; then
		need_space "$BUILD" 1600 "worktree src-$v-demo"
		# checkout.workers: its 88,000 files written by every core.
		git -C "$repo" -c checkout.workers=0 worktree add -q -f --detach "$D" "$v" || return 1
	fi
	git -C "$D" am --abort >/dev/null 2>&1 || true
	if ! git -C "$D" checkout -q -f -B "$v-demo" "$v" ||
		! git -C "$D" am -q --keep-cr "$SERIES_PATH"/demo/*.patch >"$BUILD/am.log" 2>&1; then
		echo "ERROR: $TREE_SERIES/demo does not apply to $v (see $(rel "$BUILD/am.log"))" >&2
		return 1
	fi
	echo "$want" >"$D.sum"
	note "src-$v-demo: $v + $TREE_SERIES/demo"
}

# A demo tree is its main kernel's tree plus one new file: its object
# folder starts as a copy of the main one (lib.sh seed_objdir).

# Any line of config/kernel-reports but the demo's own fails it.
# shellcheck disable=SC2317
no_other_reports() { [ -z "$(demo_unexpected_reports "$1")" ]; }

case "${1:-}" in '' | trees) ;; *) die "unknown argument '$1' (trees, or none)" ;; esac
for v in "${VARIANTS[@]}"; do
	demo_tree "$v" || { result fail "demo-tree-$v"; exit 1; }
done
[ "${1:-}" = trees ] && exit 0

for v in "${VARIANTS[@]}"; do
	seed_objdir "$(objdir "$v" "$tc")" "$(objdir "$v-demo" "$tc")" "$BUILD/src-$v-demo" "$v"
	"$ROOT"/scripts/build.sh "$BUILD/src-$v-demo" "$(objdir "$v-demo" "$tc")" "$tc" ||
		{ result fail "demo-build-$v"; exit 1; }
done

# demo_boot VARIANT LOG: suites= (empty): no guest suite; only the demo
# KUnit suite runs.  The patched boot ends non-zero (its console has the
# reports the verdict below looks for), so its status is the verdict's.
demo_boot() {
	"$ROOT"/scripts/boot.sh "$(kernel_image "$(objdir "$1-demo" "$tc")")" \
		"$GUEST_OUT/initramfs.cpio" "$2" suites= kunit.filter_glob=sockaddr_bounds_demo
}
pair_boot "bounds demo boots (baseline + patched)" "$BUILD/logs/demo" demo_boot

stage "bounds demo verdict"
ubsan='UBSAN: array-index-out-of-bounds in .*net/core/sockaddr_bounds_demo\.c'
range="index 14 is out of range for type 'char ?\[14\]'"
fortify='memcpy: detected field-spanning write \(size 20\) of single field "sa->sa_data" at .*net/core/sockaddr_bounds_demo\.c:[0-9]+ \(size 14\)'
kunit_ok='^ *ok [0-9]+ sockaddr_bounds_demo'
B=$BUILD/logs/demo-baseline.log P=$BUILD/logs/demo-patched.log

demo baseline-boot-clean "baseline boots with a clean console" [ "${PAIR_RC[baseline]}" = 0 ]
demo baseline-no-ubsan "no UBSAN report on baseline" lacks "$B" 'UBSAN'
demo baseline-no-fortify "no field-spanning warning on baseline" lacks "$B" 'field-spanning'
demo baseline-kunit "KUnit suite ran and passed on baseline (bytes landed, no report)" has "$B" "$kunit_ok"
demo patched-ubsan "UBSAN index report on patched" has "$P" "$ubsan"
demo patched-ubsan-range "it names index 14 of char[14]" has "$P" "$range"
demo patched-fortify "FORTIFY field-spanning warning on patched" has "$P" "$fortify"
demo patched-only-expected "no KASAN/Oops/panic/other report on patched" \
	no_other_reports "$P"
# UBSAN reports into KUnit (lib/ubsan.c, 6.1 and 6.12): the index case fails.
demo patched-kunit-ubsan "KUnit fails the index case through UBSAN's hook" \
	has "$P" '^ *not ok 1 sockaddr_index_past_sa_data'
demo patched-kunit-ubsan-why "the failure names lib/ubsan.c" \
	has "$P" 'sockaddr_index_past_sa_data: lib/ubsan\.c:[0-9]+: array-index-out-of-bounds'
demo patched-kunit-memcpy "the memcpy case passes (FORTIFY only warns)" \
	has "$P" '^ *ok 2 sockaddr_memcpy_past_sa_data'
demo patched-ended "patched guest ran to the end" has "${P%.log}.ktap" '# init: done'
if [ "$bad" = 0 ]; then
	note "patched reports (expected):"
	grep -a -E "$ubsan|$range|$fortify" "$P" | sed 's/^/    /'
fi
stage_end
exit "$bad"
