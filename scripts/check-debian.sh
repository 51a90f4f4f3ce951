#!/bin/bash
# make check-debian: the kernel as a Debian user gets it.  Baseline and
# patched built as Debian packages (make deb), installed by dpkg into a
# Debian root file system (mmdebstrap, cached; config/userland: Debian 12,
# or Debian 13 with USERLAND=trixie, each with its own dkms), booted in QEMU with
# systemd as PID 1; then, from a systemd unit, real daemons bind and
# connect (networkd, sshd, dnsmasq), the out-of-tree modules dkms built
# in the rootfs (the userland's or the tree's list) are loaded and used (LiME's
# kernel_bind(), ipt-netflow's ->bind()/->connect()), and the harness's
# guest suites run.
# Both kernels' KTAP compared case by case as in make check.
# Ends with "N passed, N failed, N skipped"; exit 0 only if none failed.
#
# Env: USERLAND (config/userland, default bookworm),
#      TOOLCHAIN (gcc, default; clang: hardened), MULTIUSER_TIMEOUT,
#      BOOT_TIMEOUT (scripts/debian-boot.sh), JOBS.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
export TOOLCHAIN=${TOOLCHAIN:-gcc}
# Each Debian release runs its own kernel line (config/userland trees).
case " $USERLAND_TREES " in
*" $TREE_NAME "*) ;;
*) echo "ERROR: USERLAND=$USERLAND ($USERLAND_RELEASE) runs the kernel trees $USERLAND_TREES, not TREE=$TREE_NAME (config/userland/$USERLAND)" >&2; exit 2 ;;
esac
results_init "check-$USERLAND_NAME"
logs=$BUILD/logs
# This userland's images and logs: build/NAME/VARIANT, logs/NAME-VARIANT.*
ul=$USERLAND_NAME

EXTRA_PKGS="mmdebstrap debhelper e2fsprogs" scripts/deps.sh || fatal deps "package installation failed"
scripts/tree.sh || fatal tree "tree or series failed"

for v in "${VARIANTS[@]}"; do
	if scripts/deb.sh "$v"; then result pass "deb-$v" "$TOOLCHAIN"
	else fatal "deb-$v" "make bindeb-pkg failed ($TOOLCHAIN)"; fi
done

stage "guest programs + host tools"
make -s -C "$ROOT" BUILD="$BUILD" guest-bins debian-bins host-bins || fatal guest "guest programs or host tools did not build"
stage_end

stage "rootfs ($USERLAND_RELEASE, mmdebstrap)"
scripts/rootfs.sh && result pass rootfs || fatal rootfs "no Debian root file system"
stage_end

for v in "${VARIANTS[@]}"; do
	stage "install $v: dpkg into a copy of the rootfs, ext4 image"
	scripts/debian-image.sh "$v" && result pass "install-$v" || fatal "install-$v" "see above"
	# dkms build + install of each out-of-tree module, in the rootfs.
	while IFS=$'\t' read -r name ver kver st err; do
		if [ "$st" = built ]; then result pass "dkms-$v-$name" "$ver for $kver"
		else result fail "dkms-$v-$name" "$ver for $kver: $err"; fi
	done <"$BUILD/$ul/$v/dkms.tsv"
	stage_end
done

# The engine (lib/engine.sh) as make check uses it: both kernels booted
# at once (SERIAL_BOOTS=1: one after the other, each boot time its own),
# each run's KTAP counted and checked against config/expect/[TREE/]NAME,
# then
# compared case by case.
boot_one() {
	scripts/debian-boot.sh "$BUILD/$ul/$1/vmlinuz" "$BUILD/$ul/$1/root.ext4" "$2"
}
login_time() { sed -n 's/^ *boot to login prompt: //p' "$logs/$ul-$1.out"; }
pair_boot "boot baseline + patched ($USERLAND_RELEASE, systemd)" "$logs/$ul" boot_one
pair_boot_results "boot-$ul" "$logs/$ul" login_time
# The daemon checks, one line each, before every case is counted.
for v in "${VARIANTS[@]}"; do
	grep -a -E '^ *(not )?ok [0-9]+ (networkd|sshd|dnsmasq)_' "$logs/$ul-$v.ktap" | sed "s/^ */  [$v] /"
done
pair_judge "$ul" "$logs/$ul" "$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}$ul" ktap

stage "kernel reports"
for v in "${VARIANTS[@]}"; do
	check "console-$v" "no kernel report in $(rel "$logs/$ul-$v.log")" scripts/console-check.sh "$logs/$ul-$v.log"
done
stage_end
finish
