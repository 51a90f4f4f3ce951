#!/bin/bash
# make run, the main job: the patched kernel built, booted in QEMU, the
# guest suites run.  Ends like make check, with "N passed, N failed,
# N skipped", and exits 0 only when everything it ran passed; a failed
# stage is named with its log.  Usage: scripts/run.sh (TOOLCHAIN=clang|gcc)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tc=${TOOLCHAIN:-clang}
results_init run
tree_skips

"$ROOT"/scripts/deps.sh || fatal deps "package installation failed (see $(rel "$BUILD")/apt.log)"
"$ROOT"/scripts/tree.sh patched || fatal tree "tree or series failed (see the messages above)"
kdir=$(objdir patched "$tc")
# The guest programs need only the tree: built beside the kernel.
bg_start guest "$ROOT"/scripts/guest.sh
if "$ROOT"/scripts/build.sh "$BUILD/src-patched" "$kdir" "$tc"; then
	result pass "build-$tc-patched"
else
	bg_wait guest
	fatal "build-$tc-patched" "see $(rel "$kdir")/build.log"
fi
bg_wait guest || fatal guest "guest programs did not build (see the messages above)"

stage "boot patched ($tc)"
log=$BUILD/logs/run-$tc$ARCH_SUFFIX-patched.log
kernel=$(kernel_image "$kdir")
# One TCG guest keeps one core, and its suites spend most of their time
# waiting on sockets: with a second core, the 32-bit suites (_m32) run in
# a second guest beside the first (RUN_GUESTS=1: one guest).  The second
# first runs netdevs (when the list has it), so that they find the
# devices it makes, as they do after it in one guest; that run is judged
# here and not counted twice.  Each guest is judged as any boot (console
# and KTAP in LOG.guestN); LOG's .ktap joins their KTAP in run order and
# LOG their consoles; KUnit runs in the first guest only.
read -ra suites <<<"$(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites)"
suites=("${suites[@]##*/}") setup=netdevs
groups=("$(printf '%s\n' "${suites[@]}" | grep -v '_m32$' | paste -sd,)"
	"$(printf '%s\n' "${suites[@]}" | grep '_m32$' | paste -sd,)")
[[ ",${groups[0]}," == *",$setup,"* ]] || setup=
# The accelerator probed once, not by both guests at once.
"$ROOT"/scripts/accel.sh "$kernel" >/dev/null
if [ "${RUN_GUESTS:-$(($(nproc) > 1 ? 2 : 1))}" = 1 ] || [ -z "${groups[0]}" ] || [ -z "${groups[1]}" ]; then
	if "$ROOT"/scripts/boot.sh "$kernel" "$GUEST_OUT/initramfs.cpio" "$log"; then
		result pass boot-patched
	else
		result fail boot-patched "console log: $(rel "$log")"
	fi
else
	# What each guest runs, and the arguments that differ.
	runs=("${groups[0]}" "${setup:+$setup,}${groups[1]}") extra=("" kunit.enable=0) pids=()
	for i in 0 1; do
		# shellcheck disable=SC2086 # extra: no word, or one
		"$ROOT"/scripts/boot.sh "$kernel" "$GUEST_OUT/initramfs.cpio" "${log%.log}.guest$i.log" \
			"suites=${runs[i]}" ${extra[i]} > >(sed -u "s/^/  [guest$i] /") 2>&1 &
		pids+=($!)
	done
	for i in 0 1; do
		glog=${log%.log}.guest$i.log
		if ! wait "${pids[i]}"; then
			result fail "boot-patched-guest$i" "console log: $(rel "$glog")"
		elif [ "$i" = 1 ] && [ -n "$setup" ] && ! grep -a -q -E "^ok 1 $setup"$'\r?$' "${glog%.log}.ktap"; then
			result fail "boot-patched-guest$i" "its first run of $setup did not pass, see $(rel "${glog%.log}.ktap")"
		else
			result pass "boot-patched-guest$i" "${runs[i]//,/ }"
		fi
	done
	cat "${log%.log}".guest{0,1}.log >"$log"
	ktap_join "${log%.log}.ktap" "${log%.log}".guest{0,1}.ktap
fi
stage_end

echo
echo "==== summary ===="
echo "tree:        Linux $(cat "$BUILD/kernelversion") ($TREE_PACKAGE $(cat "$BUILD/linux/.pkgver")), $(git -C "$BUILD/src-patched" rev-list --count baseline..HEAD) patches applied"
toolchain "$tc"
echo "toolchain:   $("$TC_CC" --version | head -1) (${TC_VARS[*]}${TC_FRAGMENT:+, config/$TC_FRAGMENT})"
echo "accelerator: $("$ROOT"/scripts/accel.sh "$kernel")"
echo "console:     $(rel "$log")"
exec "$ROOT"/scripts/run-summary.sh "$log"
