# Verification targets, included by the main Makefile.
#   make completeness [TREE=build/src-patched]   is the conversion complete?
#   make check-bisect [PATCHES=N COMPILERS=gcc CONFIGS=harness]
#                     every patch compiles, no new W=1 warnings
.PHONY: completeness check-bisect

completeness:
	@EXTRA_PKGS=coccinelle scripts/deps.sh && scripts/completeness.sh $(TREE)

check-bisect:
	@scripts/check-bisect.sh
