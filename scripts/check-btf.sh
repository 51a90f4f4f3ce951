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
# The engine (lib/engine.sh) as make check uses it: both kernels'
# runs counted case by case (a case that fails on both kernels fails
# here too), checked against config/expect/btf (bpf_sock_addr with
# unix_kfunc passing, test_progs_sock_addr) and compared with the
# allow-list.  A pipeline of its own: "N passed, N failed, N skipped".
#
# Usage: scripts/check-btf.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
results_init check-btf

logs=$BUILD/logs
for v in "${VARIANTS[@]}"; do
	k=$(objdir "$v" gcc-btf)
	# modules: Module.symvers, for bpf_testmod's M= build.
	EXTRA_FRAGMENTS=$ROOT/config/btf.config BUILD_TARGETS="$ARCH_TARGET modules" \
		"$ROOT"/scripts/build.sh "$BUILD/src-$v" "$k" gcc ||
		fatal "build-btf-$v" "see $(rel "$k")/build.log"
	grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$k/.config" ||
		fatal "build-btf-$v" "CONFIG_DEBUG_INFO_BTF did not survive olddefconfig"
	result pass "build-btf-$v" "gcc-12, config/btf.config"
	stage "test_progs -t sock_addr, $v tree"
	"$ROOT"/scripts/test-progs-build.sh "$BUILD/src-$v" "$k" "$BUILD/tp-$v" ||
		fatal "test-progs-build-$v" "see $(rel "$BUILD/tp-$v")/build.log"
	result pass "test-progs-build-$v"
	stage_end
done
make -s -C "$ROOT" BUILD="$BUILD" "$BUILD/guest/init" "$BUILD/guest/bpf_sock_addr" \
	"$BUILD/guest/test_progs_sock_addr" "$BUILD/host/ktapdiff" ||
	fatal guest "guest programs or ktapdiff did not build"

# cpio_bin GUEST_PATH HOST_PATH: a dynamic binary and its libraries.
cpio_bin() {
	echo "file $1 $(realpath "$2") 0755 0 0"
	ldd "$2" | sed -nE 's/.*=> (\/[^ ]+) .*/\1/p; s/^[[:space:]]*(\/[^ ]+) \(0x.*/\1/p' |
		while read -r lib; do echo "file $lib $(realpath "$lib") 0755 0 0"; done
}
for v in "${VARIANTS[@]}"; do
	tp=$BUILD/tp-$v/out
	extra=$BUILD/guest/btf-$v.extra
	{
		# The host's multiarch folder: test_progs and ip are the host's.
		for d in /tp /bin /sbin /usr /usr/bin /usr/sbin /lib "/lib/$(gcc -print-multiarch)" \
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
		"$BUILD/guest/init" "$BUILD/guest/bpf_sock_addr" "$BUILD/guest/test_progs_sock_addr" ||
		fatal "initramfs-$v" "the $v initramfs was not made"
done

# boot_one VARIANT LOG: kunit.enable=0: only the two BPF suites run.
boot_one() {
	"$ROOT"/scripts/boot.sh "$(kernel_image "$(objdir "$1" gcc-btf)")" "$BUILD/guest/btf-$1.cpio" "$2" kunit.enable=0
}
pair_boot "boot baseline + patched (gcc-12 + BTF)" "$logs/btf" boot_one
pair_boot_results boot-btf "$logs/btf"
# The path really rewritten to a longer one, on each kernel (the case
# passing is config/expect/btf's: unix_kfunc may not skip here).
for v in "${VARIANTS[@]}"; do
	check "unix-kfunc-rewrite-$v" "$(grep -a -m1 -o 'unix_kfunc.connect_rewrite_getpeername: .*' "$logs/btf-$v.ktap")" \
		grep -a -q 'unix_kfunc.connect_rewrite: ret=0' "$logs/btf-$v.ktap"
	note "$v: test_progs: $(grep -a -m1 -o 'Summary: .*' "$logs/btf-$v.ktap" || echo 'no summary')"
done
pair_judge btf "$logs/btf" "$ROOT/config/expect/btf" ktap
finish
