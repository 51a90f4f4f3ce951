#!/bin/bash
# Build the tree's own BPF selftest runner, test_progs, with only the
# sock_addr test (tools/testing/selftests/bpf/prog_tests/sock_addr.c),
# its BPF programs and bpf_testmod.ko, with the tree's own Makefile:
# the full runner compiles ~825 BPF programs and ~350 tests, which 2
# cores do not need for one test.  The Makefile picks tests and
# programs with $(wildcard) over TRUNNER_TESTS_DIR/TRUNNER_BPF_PROGS_DIR,
# so those point at directories of links to the chosen sources; the
# lists of light and linked skeletons (other tests' programs) are
# emptied.  vmlinux.h comes from the given kernel's BTF, never the
# host's.
#
# Usage: scripts/test-progs-build.sh SRC KOBJ OUT
#   SRC   kernel tree; KOBJ its build dir (CONFIG_DEBUG_INFO_BTF,
#   CONFIG_MODULES); OUT gets test_progs, bpf_testmod.ko, build.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(realpath "$1") kobj=$(realpath "$2") out=$(realpath -m "$3")
bpf=$src/tools/testing/selftests/bpf
[ -f "$kobj/vmlinux" ] || die "no vmlinux in $(rel "$kobj")"
grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$kobj/.config" || die "$(rel "$kobj") has no kernel BTF"
grep -q '^CONFIG_MODULES=y' "$kobj/.config" || die "$(rel "$kobj") has no module support (bpf_testmod)"

# The programs sock_addr.c opens (its skeleton #includes), and
# btf_data, whose BTF resolve_btfids applies to the linked runner.
progs="$(sed -n 's/^#include "\(.*\)\.skel\.h"$/\1/p' "$bpf/prog_tests/sock_addr.c") btf_data"
[ -n "$progs" ] || die "no skeletons named in prog_tests/sock_addr.c"
# The tests directory is named prog_tests: test_progs.c includes
# <prog_tests/tests.h>, which the Makefile generates in it, and -I$out
# (SAN_CFLAGS) makes the include find that one.
mkdir -p "$out/prog_tests" "$out/progs" "$out/out"
rm -f "$out/prog_tests"/* "$out/progs"/*
ln -s "$bpf/prog_tests/sock_addr.c" "$out/prog_tests/"
for p in $progs; do ln -s "$bpf/progs/$p.c" "$out/progs/"; done
ln -s "$bpf"/progs/*.h "$out/progs/"
# Programs include "../bpf_testmod/bpf_testmod_kfunc.h".
ln -sfn "$bpf/bpf_testmod" "$out/bpf_testmod"
relt=$(realpath --relative-to="$bpf" "$out/prog_tests")
relp=$(realpath --relative-to="$bpf" "$out/progs")
args=(OUTPUT="$out/out" VMLINUX_BTF="$kobj/vmlinux" KDIR="$kobj"
	TRUNNER_TESTS_DIR="$relt" TRUNNER_BPF_PROGS_DIR="$relp"
	LSKELS= LSKELS_EXTRA= LINKED_SKELS=
	TRUNNER_EXTRA_FILES="$out/out/bpf_testmod.ko"
	"$relp/bind4_prog.c-CFLAGS=-fno-strict-aliasing"
	"$relp/bind6_prog.c-CFLAGS=-fno-strict-aliasing"
	CLANG=clang-19 LLC=llc-19 LLVM_STRIP=llvm-strip-19 LLVM_OBJCOPY=llvm-objcopy-19
	CC=gcc-12 HOSTCC=gcc-12
	# No LLVM disassembler in the runner (a 100 MB static libLLVM link).
	feature-llvm=0 LLVM_CONFIG=false
	SAN_CFLAGS="-I$out")
note "test_progs (sock_addr only) for $(rel "$kobj")"
if ! with_heartbeat "$out/build.log" make -C "$bpf" -j"${JOBS:-$(nproc)}" "${args[@]}" "$out/out/test_progs"; then
	grep -E 'error|Error [0-9]' "$out/build.log" | head -20 | unroot >&2
	die "test_progs build failed, see $(rel "$out")/build.log"
fi
note "built $(rel "$out")/out/test_progs and bpf_testmod.ko"
