# Verification targets, included by the main Makefile.
#   make completeness [SRC=build/src-patched]    is the conversion complete?
#   make upstream-oracle  upstream 7.3's conversions looked up in patched 6.12 and 6.1
#   make check-bisect [PATCHES=N COMPILERS=gcc CONFIGS=harness]
#                     every patch compiles, no new W=1 warnings
#   make check-claims the series' claims judged: patches 1-7 change no code
#                     (check-bisect's objects), report's site and size deltas
#   make check-cross  s390-only files of the series (net/iucv), cross-compiled per patch
#   make check-btf    the BPF suite on gcc-12 kernels with BTF (kfunc unix path rewrite)
#   make check-fix    the tree's ieee802154 fixes (config/tree fixes): unfixed kernel broken once, fixed kernel tested and fuzzed
.PHONY: completeness upstream-oracle check-bisect check-claims check-cross checkpatch check-testmod check-btf dkms-check check-distcc check-fix

# Without SRC= (a tree folder) it reads the tree's patched tree
# (build/src-patched), which the tree stage makes.  TREE= names the
# kernel tree (config/tree), as everywhere.
completeness:
	@EXTRA_PKGS=coccinelle scripts/deps.sh && { [ -n "$(SRC)" ] || scripts/tree.sh >/dev/null; } && \
		scripts/completeness.sh $(SRC)

# Its three trees (7.3 fetched as data, 6.12 and 6.1 patched) are
# prepared by the script itself, each in its own build folder.
upstream-oracle:
	@EXTRA_PKGS=coccinelle scripts/deps.sh && scripts/upstream-oracle.sh

check-bisect:
	@scripts/tree.sh >/dev/null && scripts/check-bisect.sh

# After make check-bisect (its per-patch objects); builds make check's
# kernels when they are not built.
check-claims:
	@scripts/tree.sh >/dev/null && scripts/check-claims.sh

check-cross:
	@scripts/tree.sh >/dev/null && scripts/check-cross.sh

checkpatch:
	@scripts/tree.sh >/dev/null && scripts/checkpatch.sh

check-testmod:
	@scripts/check-testmod.sh

check-btf:
	@scripts/tree.sh >/dev/null && scripts/check-btf.sh

# Debian 12 *-dkms modules built with dkms against baseline and patched
dkms-check:
	@scripts/dkms-check.sh

# Kernel objects through distcc (CCACHE_PREFIX) against a local distccd
check-distcc:
	@scripts/check-distcc.sh

# The ieee802154 fix of docs/fuzz-findings.md (patches/fixes) on the
# patched kernel: reproducer, fixed kernel, fuzzer with FUZZ_KNOWN=1
check-fix:
	@scripts/test-fix-ieee802154.sh
