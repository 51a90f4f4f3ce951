#!/bin/bash
# make check-full: BPF on kernels with BTF (config/btf.config; gcc-12,
# so without make check's clang sanitizers), baseline and patched,
# booted side by side, compared case by case like make check:
#   - the harness's bpf_sock_addr suite: with kernel BTF, unix_kfunc
#     really rewrites a unix path to a longer one with the kfunc
#     bpf_sock_addr_set_sun_path() ("ka.sock" -> "kfunc_target.sock"),
#     which make check's kernels can only record as refused;
#   - the tree's own test_progs -t sock_addr (scripts/test-progs-build.sh),
#     whose kernel_bind/kernel_connect cases go through bpf_testmod.ko,
#     wrapped into KTAP by guest/test_progs_ktap.c.
# Passes when both kernels agree (ktapdiff, make check's allow-list),
# unix_kfunc passed on both and test_progs reported no failure.
#
# Usage: scripts/check-btf.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

logs=$BUILD/logs
mkdir -p "$logs"
for v in baseline patched; do
	k=$(objdir "$v" gcc-btf)
	# modules: Module.symvers, for bpf_testmod's M= build.
	EXTRA_FRAGMENTS=$ROOT/config/btf.config BUILD_TARGETS="$ARCH_TARGET modules" \
		"$ROOT"/scripts/build.sh "$BUILD/src-$v" "$k" gcc
	grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$k/.config" ||
		die "$v: CONFIG_DEBUG_INFO_BTF did not survive olddefconfig"
	stage "test_progs -t sock_addr, $v tree"
	"$ROOT"/scripts/test-progs-build.sh "$BUILD/src-$v" "$k" "$BUILD/tp-$v"
	stage_end
done
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/guest/init" "$BUILD/guest/bpf_sock_addr" \
	"$BUILD/guest/test_progs_sock_addr" "$BUILD/host/ktapdiff"

# cpio_bin GUEST_PATH HOST_PATH: a dynamic binary and its libraries.
cpio_bin() {
	echo "file $1 $(realpath "$2") 0755 0 0"
	ldd "$2" | sed -nE 's/.*=> (\/[^ ]+) .*/\1/p; s/^[[:space:]]*(\/[^ ]+) \(0x.*/\1/p' |
		while read -r lib; do echo "file $lib $(realpath "$lib") 0755 0 0"; done
}
for v in baseline patched; do
	tp=$BUILD/tp-$v/out
	extra=$BUILD/guest/btf-$v.extra
	{
		for d in /tp /bin /sbin /usr /usr/bin /usr/sbin /lib /lib/x86_64-linux-gnu \
			/lib64 /var /mnt /run/netns; do
			echo "dir $d 0755 0 0"
		done
		echo "slink /var/run /run 0777 0 0"
		cpio_bin /tp/test_progs "$tp/test_progs"
		echo "file /tp/bpf_testmod.ko $tp/bpf_testmod.ko 0644 0 0"
		# test_progs runs "ip netns add", "ip link add ... veth" via system().
		cpio_bin /bin/sh "$(command -v dash)"
		cpio_bin /sbin/ip "$(command -v ip)"
	} | sort -u -k2,2 >"$extra"
	INITRAMFS_EXTRA=$extra "$ROOT"/scripts/initramfs.sh "$BUILD/guest/btf-$v.cpio" \
		"$BUILD/guest/init" "$BUILD/guest/bpf_sock_addr" "$BUILD/guest/test_progs_sock_addr"
done

stage "boot baseline + patched (gcc-12 + BTF, in parallel)"
for v in baseline patched; do
	# kunit.enable=0: only the two BPF suites run.
	"$ROOT"/scripts/boot.sh "$(kernel_image "$(objdir "$v" gcc-btf)")" "$BUILD/guest/btf-$v.cpio" \
		"$logs/btf-$v.log" kunit.enable=0 >"$logs/btf-boot-$v.out" 2>&1 &
	eval "pid_$v=$!"
done
fail=0
for v in baseline patched; do
	pid=pid_$v
	wait "${!pid}" || { fail=1; note "$v: boot failed"; }
	sed "s/^/  [$v] /" "$logs/btf-boot-$v.out"
done
stage_end

for v in baseline patched; do
	k=$logs/btf-$v.ktap
	if grep -aEq '^ *ok [0-9]+ global\.unix_kfunc[[:space:]]*$' "$k" && grep -aq 'unix_kfunc.connect_rewrite: ret=0' "$k"; then
		note "$v: unix_kfunc passed: $(grep -a -m1 -o 'unix_kfunc.connect_rewrite_getpeername: .*' "$k")"
	else
		fail=1
		note "$v: unix_kfunc did not pass: $(grep -aE '^ *(not )?ok [0-9]+ global.unix_kfunc' "$k" || echo 'no result line')"
	fi
	note "$v: test_progs: $(grep -a -m1 -o 'Summary: .*' "$k" || echo 'no summary')"
	grep -aEq '^ *ok [0-9]+ test_progs_sock_addr' "$k" || { fail=1; note "$v: test_progs_sock_addr did not pass"; }
	# A case that fails the same way on both kernels compares equal:
	# each run on its own must have no failure.
	"$BUILD"/host/ktapdiff --check "$k" >"$logs/btf-$v.check" 2>&1 ||
		{ fail=1; note "$v: $(grep -c '^failed:' "$logs/btf-$v.check") failed case(s): $(grep -m3 '^failed:' "$logs/btf-$v.check" | tr '\n' ' ')"; }
done
RESULTS=$logs/btf-compare.results compare_runs btf-compare ktap "$logs/btf-baseline.ktap" "$logs/btf-patched.ktap"
grep -q -P '^fail\t' "$logs/btf-compare.results" && fail=1
[ "$fail" = 0 ] || die "check-btf failed (logs under $(rel "$logs"))"
echo "check-btf: ok"
