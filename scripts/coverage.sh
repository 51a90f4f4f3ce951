#!/bin/bash
# make coverage: which of the lines the series changes the booted kernels
# execute.  Both kernels are built as make check builds them (clang-19
# hardened, x86_64) plus the kernel's own gcov support
# (config/coverage.config), with every object the series changes
# profiled: GCOV_PROFILE_<object>.o := y in its Makefile, the way
# Documentation/dev-tools/gcov.rst says, in a worktree of its own
# (build/src-<variant>-gcov; the sources and their line numbers are
# those of build/src-<variant>).  Each kernel boots twice, as make check
# boots it: every guest suite, then the fuzzer; after the last suite
# guest/init copies the counters out (GCOV_DUMP=1, scripts/boot.sh).
# llvm-cov-19 gcov (the gcov of the compiler that built them) turns them
# into line counts, and scripts/coverage-table.py judges every hunk of
# every patch on both kernels: executed, not executed, no code (only
# declarations), or not built, against config/coverage-unreached (the
# hunks QEMU cannot run, with the reason) and config/expect/coverage
# (the floors).  Table: build/coverage/table.md.
# Usage: scripts/coverage.sh   (FUZZ_N: the fuzzer's calls, default 200000)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

results_init coverage
tc=clang
[ "${TOOLCHAIN:-clang}" = clang ] || die "make coverage measures make check's kernels: TOOLCHAIN=clang"
# The counters leave the guest through the arch profile's gcov channel.
[ -n "${ARCH_GCOV:-}" ] || die "make coverage needs a gcov channel in config/arch/$ARCH_NAME (x86_64 has one)"
OUT=$BUILD/coverage
fuzz_n=${FUZZ_N:-200000}
mkdir -p "$OUT" "$BUILD/logs"

stop() {
	result fail "$1" "$2"
	finish
}

# profile_makefiles TREE: GCOV_PROFILE_<object>.o := y, in the Makefile
# (or Kbuild file) of its folder, for every .c file the series changes
# that TREE has.  A file without a Makefile beside it is #included by a
# file of the folder above (net/mctp/test/route-test.c by route.c): that
# one is profiled, and its counters hold the included lines.
profile_makefiles() {
	local wt=$1 f dir mk inc
	while read -r f; do
		f=${f%.o}.c dir=$(dirname "$f")
		[ -f "$wt/$f" ] || continue
		if [ ! -f "$wt/$dir/Kbuild" ] && [ ! -f "$wt/$dir/Makefile" ]; then
			inc=$(grep -l -F "#include \"$(basename "$dir")/$(basename "$f")\"" "$wt/$(dirname "$dir")"/*.c | head -n 1)
			[ -n "$inc" ] || continue
			f=${inc#"$wt"/} dir=$(dirname "$f")
		fi
		mk=$wt/$dir/Kbuild
		[ -f "$mk" ] || mk=$wt/$dir/Makefile
		grep -q '^# make coverage' "$mk" || printf '\n# make coverage (scripts/coverage.sh)\n' >>"$mk"
		echo "GCOV_PROFILE_$(basename "${f%.c}").o := y" >>"$mk"
	done < <(touched_objects)
}

# gcov_tree VARIANT: build/src-VARIANT-gcov, a worktree at
# build/src-VARIANT's commit with the Makefiles profiling the series'
# objects; its object folder starts as a copy of make check's.
gcov_tree() {
	local v=$1 wt=$BUILD/src-$1-gcov commit
	commit=$(git -C "$BUILD/src-$v" rev-parse HEAD) || return 1
	if [ ! -e "$wt/.git" ]; then
		need_space "$BUILD" 1600 "worktree src-$v-gcov"
		git -C "$BUILD/linux" -c checkout.workers=0 worktree add -q -f --detach "$wt" "$commit" || return 1
	fi
	# Back to the commit, then the Makefile lines again: the same
	# worktree state, so an unchanged kernel is not rebuilt.
	git -C "$wt" checkout -q -f --detach "$commit" || return 1
	profile_makefiles "$wt"
	seed_objdir "$(objdir "$v" "$tc")" "$wt/out-$tc" "$wt" HEAD
}

stage "coverage: kernels with gcov (clang, $ARCH_NAME)"
"$ROOT"/scripts/tree.sh patched >/dev/null || stop coverage-tree "scripts/tree.sh failed"
for v in "${VARIANTS[@]}"; do
	gcov_tree "$v" || stop "coverage-tree-$v" "worktree src-$v-gcov"
	obj=$BUILD/src-$v-gcov/out-$tc
	# The in-kernel socket users make check's kernels leave out, so
	# their changed lines run here (config/kernel-socket-users.config).
	if EXTRA_FRAGMENTS="$ROOT/config/coverage.config $ROOT/config/kernel-socket-users.config" "$ROOT"/scripts/build.sh "$BUILD/src-$v-gcov" "$obj" "$tc"; then
		result pass "coverage-build-$v" "$(find "$obj" -name '*.gcno' | wc -l) objects profiled"
	else
		stop "coverage-build-$v" "see $(rel "$obj")/build.log"
	fi
done
"$ROOT"/scripts/guest.sh || stop coverage-guest "guest programs did not build"
# fuzz.sh's make finds the fuzzer built: the two boots start together.
make -s -C "$ROOT" BUILD="$BUILD" guest-bins SUITES=fuzz || stop coverage-guest "the fuzzer did not build"
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/host/ktapdiff" || stop coverage-guest "ktapdiff did not build"
stage_end

# The engine's boots (lib/engine.sh): both gcov kernels at once, each
# on one core, GCOV_DUMP=1: the counters copied out after the suites
# (LOG's .gcov twin); one result coverage-KIND-VARIANT each.
gcov_kernel() { kernel_image "$BUILD/src-$1-gcov/out-$tc"; }
suites_boot() { GCOV_DUMP=1 "$ROOT"/scripts/boot.sh "$(gcov_kernel "$1")" "$GUEST_OUT/initramfs.cpio" "$2"; }
fuzz_boot() { GCOV_DUMP=1 KERNEL=$(gcov_kernel "$1") FUZZ_LOG=$2 "$ROOT"/scripts/fuzz.sh "$fuzz_n" 1; }
gcov_files() { grep -a -m1 -o 'gcov: [0-9-]* files' "$BUILD/logs/coverage-$kind-$1.ktap"; }

kind=suites
pair_boot "coverage: boot both kernels, every guest suite" "$BUILD/logs/coverage-suites" suites_boot
pair_boot_results coverage-suites "$BUILD/logs/coverage-suites" gcov_files
# The same suites as make check, as many of them, the two gcov kernels
# compared case by case as make check compares its own (lib/engine.sh):
# counting lines must not change what they do.  Their expectations are
# make check's but for the socket-user cases, which run here
# (config/expect/coverage-suites; another tree's in its subfolder).
pair_judge coverage "$BUILD/logs/coverage-suites" \
	"$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}coverage-suites" ktap console

kind=fuzz
pair_boot "coverage: boot both kernels, fuzzer ($fuzz_n calls, seed 1)" "$BUILD/logs/coverage-fuzz" fuzz_boot
pair_boot_results coverage-fuzz "$BUILD/logs/coverage-fuzz" gcov_files
# The same calls on both: per path and per op, the same outcomes.
fuzz_compare "$BUILD/logs/coverage-fuzz-baseline.out" "$BUILD/logs/coverage-fuzz-patched.out"

stage "coverage: line counts and the table"
table_args=()
for v in "${VARIANTS[@]}"; do
	rm -rf "${OUT:?}/$v" && mkdir -p "$OUT/$v"
	table_args+=("--$v" "$BUILD/src-$v-gcov" "$BUILD/src-$v-gcov/out-$tc" "$OUT/$v"
		"$BUILD/logs/coverage-suites-$v.gcov" "$BUILD/logs/coverage-fuzz-$v.gcov")
done
if python3 "$ROOT"/scripts/coverage-table.py "${table_args[@]}" \
	--series "$BUILD/src-patched" --unreached "$ROOT/config/coverage-unreached" \
	--floors "$ROOT/config/expect/coverage" --out "$OUT" >"$OUT/table.out" 2>&1; then
	result pass coverage-table "$(tail -n 1 "$OUT/table.out")"
else
	result fail coverage-table "$(tail -n 1 "$OUT/table.out")"
fi
sed 's/^/  /' "$OUT/table.out"
note "table: $(rel "$OUT")/table.md"
stage_end

finish
