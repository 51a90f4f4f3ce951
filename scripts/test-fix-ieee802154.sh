#!/bin/bash
# make check-fix: the project's fixes of the pre-existing ieee802154
# NULL dereferences (docs/fuzz-findings.md), on any tree whose profile
# names a fixes folder (config/tree's fixes key: patches-7.3/fixes, the
# submission for mainline; patches/fixes and patches-6.1/fixes, the
# stable backports), tested end to end:
#   - the fixes apply with git am on the tree the fix goes on (the
#     patched branch, baseline + series; for a tree without series,
#     upstream's own baseline) in their own worktree, and pass the
#     tree's checkpatch.pl --strict (less the Signed-off-by the sender
#     adds at export and the commit ids a tarball cannot know);
#   - both kernels are that tree's harness config plus config/fix.config
#     (user and network namespaces, 6LoWPAN), the fixed one seeded from
#     the unfixed one's objects;
#   - the reproducer (guest/ieee802154_master.c, with the standalone
#     programs of repro/ packed as /bin/<name>) on the unfixed kernel,
#     one boot per path, each must end in a KASAN null-ptr-deref report
#     in the expected function (break-once evidence); the first boot
#     also measures what an unprivileged user namespace reaches; on the
#     tree's baseline kernel too when make check has built it;
#   - the reproducer on the fixed kernel: a clean boot, every case
#     passes (bind() ENODEV, sendto() ENXIO, the frames dropped, the
#     standalone reproducers exit 0);
#   - the fuzzer on the unfixed and fixed kernels with the known-bug
#     calls let through (FUZZ_KNOWN=1), FIX_FUZZ_N calls (default
#     200000) of seed 1: the unfixed one stops with the report, the
#     fixed one has none, makes all calls, digest equal to the host's
#     dry run.
# A pipeline of its own (make check-full nests it for each tree): it
# ends with "N passed, N failed, N skipped".
# Env: TOOLCHAIN (clang), FIX_FUZZ_N, FIX_BOOT_TIMEOUT (s, per reproducer
# boot, default 600).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

results_init check-fix
tc=${TOOLCHAIN:-clang}
[ -n "${TREE_FIXES:-}" ] || die "TREE=$TREE_NAME names no fixes folder (config/tree/$TREE_NAME)"
FIXES=$ROOT/$TREE_FIXES
# The tree the fixes go on: the patched branch, or upstream itself.
if [ -n "$SERIES_PATH" ]; then base=patched; else base=baseline; fi
FIX_SRC=$BUILD/src-$base-fix
# Both kernels: the harness config plus namespaces and 6LoWPAN.
export EXTRA_FRAGMENTS=$ROOT/config/fix.config
fuzz_n=${FIX_FUZZ_N:-200000}
suite=ieee802154_master
mkdir -p "$BUILD/logs"

# The reproducer's crash cases: case, then the function (ERE) the KASAN
# report must name.  Static helpers may be inlined into their callers.
CASES="bond_raw_bind ieee802154_get_dev
team_dgram_bind ieee802154_get_dev
tun_user_dgram_bind ieee802154_get_dev
repro_socket_tun ieee802154_get_dev
tun_rx ieee802154_(dgram_deliver|rcv)
lowpan_bond_rx lowpan_rcv
lowpan_userns_tun lowpan_rcv
dgram_send_nowpan (dgram_sendmsg|wpan_dev_hard_header)"

# Stop here, with the count line, when a step that later steps need
# fails.
stop() {
	result fail "$1" "$2"
	finish
}

# --- the fixed tree ----------------------------------------------------
# fix_tree: build/src-$base-fix, the $base branch plus the fixes'
# series, remade only when either changes.
fix_tree() {
	local repo=$BUILD/linux want p
	want="$(git -C "$repo" rev-parse "$base") $(series_patches "$FIXES/series" |
		while read -r p; do cat "$FIXES/$p"; done | sha256sum | cut -c1-16)"
	[ "$(cat "$FIX_SRC.sum" 2>/dev/null)" = "$want" ] && return 0
	if [ ! -d "$FIX_SRC" ]; then
		need_space "$BUILD" 1600 "worktree $(rel "$FIX_SRC")"
		git -C "$repo" -c checkout.workers=0 worktree add -q -f --detach "$FIX_SRC" "$base" || return 1
	fi
	git -C "$FIX_SRC" am --abort >/dev/null 2>&1
	git -C "$FIX_SRC" checkout -q -f -B "$base-fix" "$base" || return 1
	while read -r p; do
		git -C "$FIX_SRC" am -q --keep-cr "$FIXES/$p" >"$BUILD/logs/fix-am.log" 2>&1 || {
			git -C "$FIX_SRC" am --abort >/dev/null 2>&1
			echo "ERROR: $p does not apply to the $base branch (see $(rel "$BUILD/logs/fix-am.log"))" >&2
			return 1
		}
	done < <(series_patches "$FIXES/series")
	echo "$want" >"$FIX_SRC.sum"
}

stage "fix: tree ($base + $TREE_FIXES)"
"$ROOT"/scripts/tree.sh "$base" >/dev/null || stop fix-tree "scripts/tree.sh failed"
fix_tree || stop fix-tree "$TREE_FIXES does not apply to the $base branch"
result pass fix-tree "$(git -C "$FIX_SRC" log --format=%s "$base"..HEAD | paste -sd ';' -)"
# checkpatch as scripts/export-fixes.sh runs it on the mails, less two
# types: UNKNOWN_COMMIT_ID (a tarball has no history for the Fixes: id)
# and MISSING_SIGN_OFF (the sender's, added at export).
bad=()
while read -r p; do
	out=$(cd "$FIX_SRC" && ./scripts/checkpatch.pl --strict \
		--ignore UNKNOWN_COMMIT_ID,MISSING_SIGN_OFF "$FIXES/$p" 2>&1)
	total=$(grep '^total:' <<<"$out")
	case "$total" in
	"total: 0 errors, 0 warnings, 0 checks"*) ;;
	*) bad+=("$p: $total"); grep -E '^(ERROR|WARNING|CHECK):' <<<"$out" | sed 's/^/    /' ;;
	esac
	note "checkpatch --strict $p: $total"
done < <(series_patches "$FIXES/series")
if [ "${#bad[@]}" = 0 ]; then
	result pass fix-checkpatch "0 errors, 0 warnings, 0 checks (less UNKNOWN_COMMIT_ID and MISSING_SIGN_OFF)"
else
	printf '    %s\n' "${bad[@]}"
	result fail fix-checkpatch "${#bad[@]} problems"
fi
# The mails make export-fixes writes from them: one per fix, checkpatch
# --strict clean as sent (export-fixes.sh checks it), signed as git's
# test identity into a temporary folder (EXPORT_FIXES_CHECK=1).
mails=$(mktemp -d)
if out=$(EXPORT_FIXES_CHECK=1 SIGNER='A U Thor <author@example.com>' \
	BASE=$(git -C "$BUILD/linux" rev-parse pristine) UPSTREAM="$(printf '%040d ' 0 0 0 0)" \
	"$ROOT"/scripts/export-fixes.sh mail "$mails/fixes" 2>&1); then
	result pass fix-mails "$(grep -c . <<<"$(ls "$mails/fixes")") mail(s), each checkpatch --strict clean as sent"
else
	result fail fix-mails "$(tail -1 <<<"$out")"
fi
rm -rf "$mails"
stage_end

# --- kernels and the reproducer's initramfs -----------------------------
unfixed_dir=$(objdir "$base" "$tc")-fix
fixed_dir=$(objdir "$base-fix" "$tc")-fix
"$ROOT"/scripts/build.sh "$BUILD/src-$base" "$unfixed_dir" "$tc" ||
	stop fix-build-unfixed "see $(rel "$unfixed_dir")/build.log"
unfixed=$(kernel_image "$unfixed_dir")
# The fixed tree differs from the unfixed one in the fixes' files: its
# object folder starts as a copy (lib.sh seed_objdir).
seed_objdir "$unfixed_dir" "$fixed_dir" "$FIX_SRC" "$base" || stop fix-build "seeding $(rel "$fixed_dir") failed"
# The fixed kernel builds beside the unfixed kernel's boots.
bg_start fix-kernel "$ROOT"/scripts/build.sh "$FIX_SRC" "$fixed_dir" "$tc"

stage "fix: reproducer initramfs"
repros=$(awk '$1 == "IEEE802154_REPROS" { $1 = $2 = ""; print }' "$ROOT/guest/ieee802154_master.mk")
make -s -C "$ROOT" BUILD="$BUILD" guest-bins SUITES="$suite $repros" || stop fix-guest "guest programs did not build"
cpio=$GUEST_OUT/$suite.cpio
initramfs_extra=$BUILD/logs/fix-initramfs.list
{ echo "dir /bin 0755 0 0"
  for r in $repros; do echo "file /bin/$r $GUEST_OUT/$r 0755 0 0"; done; } >"$initramfs_extra"
INITRAMFS_EXTRA=$initramfs_extra "$ROOT"/scripts/initramfs.sh "$cpio" "$GUEST_OUT/init" "$GUEST_OUT/$suite"
stage_end

export BOOT_TIMEOUT=${FIX_BOOT_TIMEOUT:-600} SUITE_TIMEOUT=300

# repro_boot KERNEL LOG CASES: the reproducer alone, cases CASES.
repro_boot() {
	"$ROOT"/scripts/boot.sh "$1" "$cpio" "$2" "suites=$suite" "i154.cases=$3" \
		</dev/null >"${2%.log}.out" 2>&1
}

# kasan_in LOG FUNC: the KASAN report line naming FUNC (ERE), if any.
kasan_in() {
	grep -a -m1 -E "KASAN: null-ptr-deref in ($2)\+|RIP: [0-9a-f]{4}:($2)\+" "$1" | tr -d '\r'
}

# userns_result NAME KTAP: the userns case's verdict and summary line.
userns_result() {
	local txt sum
	txt=$(tr -d '\r' <"$2")
	sum=$(grep -a -m1 '# userns: ' <<<"$txt" | sed 's/.*# userns: //')
	if grep -a -q -E '^ *ok [0-9]+ global\.userns # SKIP' <<<"$txt"; then
		result skip "$1" "$sum"
	elif grep -a -q -E '^ *ok [0-9]+ global\.userns$' <<<"$txt"; then
		result pass "$1" "unprivileged unshare -Urn: $sum"
	else
		result fail "$1" "${sum:-no summary line}"
	fi
}
# --- break once: the unfixed kernels ------------------------------------
stage "fix: reproducer on the unfixed kernel ($base), one boot per path"
first=1
while read -r c fn; do
	log=$BUILD/logs/fix-unfixed-$c.log
	cases=$c
	# The namespace measurements ride along in the first boot.
	[ "$first" = 1 ] && cases=userns,$c
	first=0
	t0=$(date +%s)
	repro_boot "$unfixed" "$log" "$cases"; rc=$?
	dt=$(( $(date +%s) - t0 ))
	hit=$(kasan_in "$log" "$fn")
	if [ "$rc" != 0 ] && [ -n "$hit" ] && grep -a -q 'KASAN: null-ptr-deref' "$log"; then
		result pass "fix-unfixed-$c" "${dt}s: ${hit#*] }"
	else
		sed 's/^/  | /' "${log%.log}.out" | tail -3
		result fail "fix-unfixed-$c" "boot rc=$rc, no KASAN null-ptr-deref in $fn (console: $(rel "$log"))"
	fi
	grep -a -h -E "^ *# obs i154\.$c\." "${log%.log}.ktap" | tr -d '\r' | sed 's/^ */    /' | tail -3
	[ "$cases" = "$c" ] || userns_result fix-userns-unfixed "${log%.log}.ktap"
done <<<"$CASES"
# The tree without the series, when make check has built it: the bug
# is pre-existing (for a tree without series the unfixed kernel is it).
base_image=$(kernel_image "$(objdir baseline "$tc")")
if [ "$base" = baseline ]; then
	:
elif [ -f "$base_image" ]; then
	log=$BUILD/logs/fix-baseline-bond_raw_bind.log
	repro_boot "$base_image" "$log" bond_raw_bind; rc=$?
	hit=$(kasan_in "$log" ieee802154_get_dev)
	if [ "$rc" != 0 ] && [ -n "$hit" ]; then
		result pass fix-baseline-bond_raw_bind "$(cat "$BUILD/kernelversion" 2>/dev/null || echo baseline) alone: ${hit#*] }"
	else
		result fail fix-baseline-bond_raw_bind "boot rc=$rc, no KASAN report (console: $(rel "$log"))"
	fi
else
	result skip fix-baseline-bond_raw_bind "no baseline kernel (make check builds it)"
fi
stage_end

bg_wait fix-kernel || stop fix-build "see $(rel "$fixed_dir")/build.log"
result pass fix-build "$(rel "$(kernel_image "$fixed_dir")")"
fixed=$(kernel_image "$fixed_dir")

# --- the fixed kernel -----------------------------------------------------
stage "fix: reproducer on the fixed kernel, every case in one boot"
log=$BUILD/logs/fix-fixed.log
ktap=${log%.log}.ktap
t0=$(date +%s)
repro_boot "$fixed" "$log" all; rc=$?
dt=$(( $(date +%s) - t0 ))
if [ "$rc" = 0 ]; then
	result pass fix-fixed-boot "${dt}s, clean console, KTAP complete"
else
	sed 's/^/  | /' "${log%.log}.out" | tail -3
	result fail fix-fixed-boot "boot rc=$rc (console: $(rel "$log"))"
fi
# The serial port ends lines with CR LF.
ktap_txt=$(tr -d '\r' <"$ktap")
# obs C STEP: that step's "ret=.. errno=.." on the fixed kernel.
obs() {
	grep -a -m1 -E "^ *# obs i154\.$1\.$2: " <<<"$ktap_txt" | sed 's/.*: //'
}
# case_ok C STEP WANT: the case passed (KTAP) and its step says WANT.
case_ok() {
	local c=$1 step=$2 want=$3 got
	got=$(obs "$c" "$step")
	if grep -a -q -E "^ *ok [0-9]+ global\.$c\$" <<<"$ktap_txt" && [ "$got" = "$want" ]; then
		result pass "fix-fixed-$c" "$step: $got"
	else
		result fail "fix-fixed-$c" "$step: ${got:-no obs line}, want $want"
	fi
}
case_ok bond_raw_bind bind_short "ret=-1 errno=ENODEV"
case_ok team_dgram_bind bind_short "ret=-1 errno=ENODEV"
case_ok tun_user_dgram_bind bind_short "ret=-1 errno=ENODEV"
case_ok tun_rx write_frame "ret=15 errno=0"
case_ok repro_socket_tun repro_exit "ret=0 errno=0"
case_ok lowpan_bond_rx send_wpan1 "ret=14 errno=0"
case_ok lowpan_userns_tun repro_exit "ret=0 errno=0"
case_ok dgram_send_nowpan sendto_unbound "ret=-1 errno=ENXIO"
userns_result fix-userns "$ktap"
stage_end

# Break once: the same fuzz run on the unfixed kernel must still stop
# with the report (the known-bug calls reach the bug at call #30754 of
# seed 1), or the clean run above would prove nothing.
stage "fix: fuzzer on the unfixed kernel, FUZZ_KNOWN=1, seed 1 (must stop with the report)"
out=$BUILD/logs/fix-fuzz-unfixed.out
if KERNEL=$unfixed FUZZ_KNOWN=1 FUZZ_LOG=$BUILD/logs/fix-fuzz-unfixed.log \
	"$ROOT"/scripts/fuzz.sh "$fuzz_n" 1 >"$out" 2>&1; then
	result fail fix-fuzz-known-unfixed "the unfixed kernel ran $fuzz_n known-bug calls without a report"
elif line=$(grep -a -m1 -E 'kernel report after call #[0-9]+' "$out") &&
	grep -a -q -E 'KASAN: null-ptr-deref in (ieee802154_|raw_bind|dgram_)' "$BUILD/logs/fix-fuzz-unfixed.log"; then
	result pass fix-fuzz-known-unfixed "$(sed 's/^ *//' <<<"$line" | cut -c1-140)"
else
	sed -n '/^fuzz: FAIL/,$p' "$out" | head -8 | sed 's/^/  | /'
	result fail fix-fuzz-known-unfixed "stopped without the ieee802154 report: see $(rel "$out")"
fi
stage_end

# The fix compiled on its own by the other compiler too: gcc-12, W=1,
# the harness config, only the file it changes (as check-bisect does
# per patch); and no warning of the fixed clang-19 kernel that the
# unfixed one has not.
stage "fix: the fixed objects by gcc-12 with W=1; clang-19 warnings"
gdir=$FIX_SRC/out-gcc-socket
mapfile -t fixed_files < <(git -C "$FIX_SRC" diff --name-only "$base" HEAD -- '*.c')
mapfile -t fixed_objs < <(printf '%s\n' "${fixed_files[@]}" | sed 's/\.c$/.o/')
if "$ROOT"/scripts/config.sh "$FIX_SRC" "$gdir" gcc >/dev/null &&
	(toolchain gcc; ccache_env; kbuild_repro_env
	 make -C "$FIX_SRC" O="$gdir" -j"${JOBS:-$(nproc)}" "${KBUILD_CC[@]}" W=1 \
		"${fixed_objs[@]}" >"$gdir/socket.log" 2>&1); then
	w=$(normalise_warnings <"$gdir/socket.log" | grep -c -F -f <(printf '%s\n' "${fixed_files[@]}") || true)
	check fix-gcc-w1 "${fixed_objs[*]} built, $w W=1 warnings in them" test "$w" = 0
else
	tail -5 "$gdir/socket.log" 2>/dev/null | unroot | sed 's/^/  | /'
	result fail fix-gcc-w1 "gcc-12 did not build ${fixed_objs[*]} (see $(rel "$gdir")/socket.log)"
fi
warnings_compare "$unfixed_dir/warnings" "$fixed_dir/warnings" fix-clang-warnings
stage_end

stage "fix: fuzzer on the fixed kernel, FUZZ_KNOWN=1, $fuzz_n calls, seed 1"
out=$BUILD/logs/fix-fuzz.out
if KERNEL=$fixed FUZZ_KNOWN=1 FUZZ_LOG=$BUILD/logs/fix-fuzz.log \
	"$ROOT"/scripts/fuzz.sh "$fuzz_n" 1 >"$out" 2>&1; then
	result pass fix-fuzz-known "$(sed -n 's/^ *digest: *//p' "$out"); $(sed -n 's/^ *kernel reports: *//p' "$out")"
else
	sed -n '/^fuzz: FAIL/,$p' "$out" | head -12 | sed 's/^/  | /'
	result fail fix-fuzz-known "see $(rel "$out")"
fi
sed -n '/^fuzz summary/,/^ *time:/p' "$out" | sed 's/^/  /'
stage_end

finish
