#!/bin/bash
# The comparison at the heart of make check, for one architecture
# ($ARCH, config/arch/) and one toolchain: both kernels built, the guest
# programs built and packed, both kernels booted side by side, each
# run's KTAP counted, then baseline vs patched compared case by case.
# Appends to $RESULTS (results_init of the calling pipeline); exits
# non-zero when a kernel or the guest programs did not build.
# Usage: scripts/baseline-vs-patched.sh [build|boot]   (TOOLCHAIN=clang|gcc,
#        ARCH=): build = the kernels and guest programs, boot = the boots
#        and the comparison; both when no phase is named (make check runs
#        its fault tests between the two, beside the boots).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
# Logs are named by toolchain and arch: x86_64's keep their old names.
tag=$tc$ARCH_SUFFIX

# build_kernel VARIANT: one kernel, its result recorded.
build_kernel() {
	if "$ROOT"/scripts/build.sh "$BUILD/src-$1" "$(objdir "$1" "$tc")" "$tc"; then
		result pass "build-$tag-$1"
	else
		result fail "build-$tag-$1" "see $(rel "$(objdir "$1" "$tc")")/build.log"
		return 1
	fi
}

build_phase() {
	local rc=0
	# The guest programs need only the tree, the patched kernel nothing
	# from the baseline: both start beside the baseline's build at the
	# lowest priority, so they take what it leaves idle (about a minute
	# of configuring and preparing at its start, its one-core link at the
	# end) and the patched kernel has both cores once the baseline is
	# built.  Both kernels at one priority was slower when measured cold
	# (2368 s for the pair against 993 + 1011 s in turn).
	bg_start "guest$ARCH_SUFFIX" "$ROOT"/scripts/guest.sh
	bg_start "kernel-patched$ARCH_SUFFIX" build_kernel patched
	if build_kernel baseline; then
		bg_wait "kernel-patched$ARCH_SUFFIX" || rc=1
	else
		rc=1
		bg_stop "kernel-patched$ARCH_SUFFIX"
	fi
	bg_wait "guest$ARCH_SUFFIX" || { result fail "guest$ARCH_SUFFIX" "guest programs did not build"; rc=1; }
	[ "$rc" = 0 ] && new_warnings
	return "$rc"
}

# new_warnings: build.sh's warning records of both kernels compared.
new_warnings() {
	warnings_compare "$(objdir baseline "$tc")/warnings" "$(objdir patched "$tc")/warnings" "warnings-$tag"
}

# boot_one VARIANT LOG: one kernel with every guest suite (the engine's
# BOOT, lib/engine.sh).
boot_one() {
	"$ROOT"/scripts/boot.sh "$(kernel_image "$(objdir "$1" "$tc")")" "$GUEST_OUT/initramfs.cpio" "$2"
}

boot_phase() {
	local prefix=$BUILD/logs/check-$tag
	note "accelerator: $("$ROOT"/scripts/accel.sh "$(kernel_image "$(objdir baseline "$tc")")")"
	pair_boot "boot baseline + patched ($tag)" "$prefix" boot_one
	pair_boot_results "boot-$ARCH_NAME" "$prefix"
	# The guest suites (their channel) and KUnit (the console), each
	# against config/expect/ and then compared with the allow-list.
	pair_judge "$ARCH_NAME" "$prefix" "$(expect_file)" ktap console
}

case "${1:-}" in
build) build_phase ;;
boot) boot_phase ;;
'') build_phase && boot_phase ;;
*) die "unknown phase '$1' (build, boot, or none for both)" ;;
esac
