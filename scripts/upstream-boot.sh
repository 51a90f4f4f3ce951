#!/bin/bash
# make upstream-boot: upstream as the run-time oracle.  Linux 7.3
# (config/tree/7.3: Debian's linux-source-7.3, the series merged
# upstream in v6.19) built with the harness config and booted with every
# guest suite the tree can run, its results set case by case beside
# patched 6.12's make run (the same suites, the same harness), and every
# difference classified in config/upstream-boot: the same, or different
# for a named upstream change that is not part of the series.  A
# difference no rule classifies fails, and so does a rule that
# classified nothing (scripts/upstream-boot-classify.awk); so does the
# judge itself if it passes the same differences with no rules.  Patched
# 6.12's side is made first in the same run (make run, nested): a KTAP
# left by an earlier make run may be of other guest programs or another
# series.
# Usage: scripts/upstream-boot.sh   (TOOLCHAIN=clang; run with TREE=7.3,
# as make upstream-boot does)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
[ -z "$SERIES_PATH" ] || die "make upstream-boot boots a tree without series (TREE=7.3), not TREE=$TREE_NAME"
results_init upstream-boot
tree_skips
# Patched 6.12's make run, the other side (its own build folder).
ref_build=$ROOT/build
ref=$ref_build/logs/run-$tc$ARCH_SUFFIX-patched.ktap
rm -f "$ref"
nested run-6.12 "make run (patched 6.12, the other side)" \
	env -u BUILD -u SUITES TREE=6.12 "$ROOT"/scripts/run.sh
[ -s "$ref" ] || fatal reference "no KTAP of patched 6.12's make run at $(rel "$ref")"
result pass reference "patched 6.12: $(rel "$ref")"

"$ROOT"/scripts/tree.sh baseline || fatal tree "scripts/tree.sh failed"
kdir=$(objdir baseline "$tc")
build_beside_guests "$BUILD/src-baseline" "$kdir" "$TREE_NAME"

stage "boot $TREE_NAME ($tc)"
log=$BUILD/logs/upstream-boot-$tc$ARCH_SUFFIX.log
boot_suites "$(kernel_image "$kdir")" "$log" "$TREE_NAME"
stage_end

stage "$TREE_NAME beside patched 6.12, case by case (config/upstream-boot)"
ktap=${log%.log}.ktap
make -s -C "$ROOT" BUILD="$BUILD" host-bins || fatal host-bins "ktapdiff did not build"
"$BUILD/host/ktapdiff" --check "$ktap" >"$BUILD/logs/upstream-boot.check" 2>&1
counts=$(tail -1 "$BUILD/logs/upstream-boot.check")
note "$TREE_NAME alone: $counts"
out=$BUILD/logs/upstream-boot.diff
# ktapdiff's plain comparison (patched 6.12 as "baseline", 7.3 as
# "patched"), then each difference classified by config/upstream-boot.
"$BUILD/host/ktapdiff" "$ref" "$ktap" >"$out" 2>&1
classify() { awk -f "$ROOT/scripts/upstream-boot-classify.awk" "$1" "$out"; }
cls=$BUILD/logs/upstream-boot.classes
if classify "$ROOT/config/upstream-boot" >"$cls"; then
	result pass upstream-boot-compare "$(tail -1 "$cls")"
else
	grep -E '^  (UNCLASSIFIED|STALE)' "$cls" | head -20
	result fail upstream-boot-compare "$(tail -1 "$cls") (see $(rel "$cls"))"
fi
sed 's/^/  /' "$cls" | grep -v -E '^  +(UNCLASSIFIED|STALE)' | head -40
# Break once: with no rules, the same differences must fail.
if [ "$(grep -c -E '^(DIFFERENT|ONLY-IN-)' "$out")" -gt 0 ]; then
	check upstream-boot-judge-breaks "no rules: $(classify /dev/null | tail -1)" eval '! classify /dev/null >/dev/null'
fi
stage_end
finish
