#!/bin/bash
# Host-side tests of make deb / make check-debian's steps, fast enough
# for make check (no kernel build, no boot): the install step with real
# dpkg (a kernel-like package installs and its /boot/vmlinuz-* is there;
# a broken .deb fails with dpkg's message), the tree's own packaging
# scripts accepting make deb's names and versions, the rootfs cache key,
# an unreachable mirror, and a guest that never reaches multi-user.target.
# Appends to $RESULTS, ending with test-debian-complete when it got to its
# end (test-host.sh judges it with runner_judge).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
RESULTS=${RESULTS:-$BUILD/test-debian.results}
# Under build/, so that the messages tested name build/..., not a
# host path.
mkdir -p "$BUILD"
tmp=$(mktemp -d "$BUILD/test-debian.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- install (scripts/deb-install.sh) with Debian's dpkg ----------------
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$tmp/pkg/DEBIAN" "$tmp/pkg/boot"
: >"$root/var/lib/dpkg/status"
printf 'Package: linux-image-6.12.0+test\nVersion: 6.12.0+test-1\nArchitecture: all\nMaintainer: %s\nDescription: test kernel\n' \
	"$(project_identity)" >"$tmp/pkg/DEBIAN/control"
echo kernel >"$tmp/pkg/boot/vmlinuz-6.12.0+test"
dpkg-deb --root-owner-group --build "$tmp/pkg" "$tmp/good.deb" >/dev/null
if "$ROOT"/scripts/deb-install.sh "$root" "$tmp/good.deb" >"$tmp/out" 2>&1 &&
	[ -f "$root/boot/vmlinuz-6.12.0+test" ] && grep -q 'installed linux-image-6.12.0+test 6.12.0+test-1 install ok installed' "$tmp/out"; then
	result pass deb-install-kernel-package "dpkg installed it, /boot/vmlinuz-6.12.0+test present"
else
	sed 's/^/  | /' "$tmp/out"
	result fail deb-install-kernel-package
fi
# A truncated .deb: the install step fails, quoting dpkg-deb.
head -c 600 "$tmp/good.deb" >"$tmp/broken.deb"
expect_failure deb-install-broken-deb-fails-with-dpkg-message 'dpkg-deb.*error' 20 "$tmp/root" \
	"$ROOT"/scripts/deb-install.sh "$root" "$tmp/broken.deb"

# --- the tree's packaging (scripts/package/mkdebian) takes make deb's
# release and version: the control file names the image and headers
# packages, and dpkg parses the changelog's version.
if [ -x "$BUILD/src-patched/scripts/package/mkdebian" ]; then
	k=$tmp/kbuild
	mkdir -p "$k/include/config"
	printf 'CONFIG_64BIT=y\nCONFIG_MODULES=y\n' >"$k/.config"
	cp "$k/.config" "$k/include/config/auto.conf"
	rel=6.12.0$(deb_localversion patched)
	if (cd "$k" && KERNELRELEASE=$rel KDEB_PKGVERSION=$rel-1 KDEB_SOURCENAME=linux-sockaddr \
		KDEB_CHANGELOG_DIST=bookworm DEBFULLNAME=$(project_name) DEBEMAIL=$(project_email) \
		srctree=$BUILD/src-patched ARCH=x86 SRCARCH=x86 UTS_MACHINE=x86_64 KCONFIG_CONFIG=.config \
		"$BUILD/src-patched/scripts/package/mkdebian") >"$tmp/mkdebian.out" 2>&1 &&
		[ "$(cd "$k" && dpkg-parsechangelog -S Version 2>/dev/null)" = "$rel-1" ] &&
		grep -qx "Package: linux-image-$rel" "$k/debian/control" &&
		grep -qx "Package: linux-headers-$rel" "$k/debian/control"; then
		result pass deb-tree-packaging-names "linux-image-$rel, linux-headers-$rel, version $rel-1"
	else
		sed 's/^/  | /' "$tmp/mkdebian.out"
		result fail deb-tree-packaging-names "mkdebian with make deb's variables"
	fi
else
	result skip deb-tree-packaging-names "no tree (make tree)"
fi

# --- rootfs cache (scripts/rootfs.sh): a stand-in mmdebstrap records
# each build; the same package set is reused, another one rebuilt and
# said so.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho build >>"%s/builds"\nfor a; do t=$p; p=$a; done\nfor a; do case $a in *.tmp) : >"$a"; echo x >"$a";; esac; done\n' \
	"$tmp" >"$tmp/bin/mmdebstrap"
chmod +x "$tmp/bin/mmdebstrap"
printf 'suite bookworm\nprocps\n' >"$tmp/list-a"
printf 'suite bookworm\nprocps\nkmod\n' >"$tmp/list-b"
echo 'deb http://127.0.0.1:9/debian bookworm main' >"$tmp/offline.list"
rfs() { PATH="$tmp/bin:$PATH" ROOTFS_DIR=$tmp/rootfs ROOTFS_SOURCES=$tmp/offline.list ROOTFS_LIST=$1 "$ROOT"/scripts/rootfs.sh 2>&1; }
o1=$(rfs "$tmp/list-a") o2=$(rfs "$tmp/list-a") o3=$(rfs "$tmp/list-b")
if [ "$(wc -l <"$tmp/builds")" = 2 ] && grep -q 'reusing' <<<"$o2" &&
	grep -q 'bookworm: procps), wanted .* (bookworm: kmod procps): rebuilding' <<<"$o3"; then
	result pass rootfs-cache-keyed-by-package-set "reused for the same set, rebuilt and named for another"
else
	printf '%s\n' "$o1" "$o2" "$o3" | sed 's/^/  | /'
	result fail rootfs-cache-keyed-by-package-set "builds: $(wc -l <"$tmp/builds" 2>/dev/null)"
fi
# No network: Debian's mmdebstrap against a mirror that refuses
# connections fails naming the mirror (loopback only, port 9).
STAGE_LOG='' EXTRA_PKGS=mmdebstrap "$ROOT"/scripts/deps.sh >/dev/null 2>&1 || true
if command -v mmdebstrap >/dev/null; then
	expect_failure rootfs-mirror-unreachable-named 'cannot reach the mirror (http://127.0.0.1:9/debian)' 120 "$tmp/rootfs2" \
		env ROOTFS_DIR="$tmp/rootfs2" ROOTFS_SOURCES="$tmp/offline.list" ROOTFS_LIST="$tmp/list-a" "$ROOT"/scripts/rootfs.sh
else
	result skip rootfs-mirror-unreachable-named "no mmdebstrap (make check-debian installs it)"
fi

# --- boot (scripts/debian-boot.sh): a guest that never reaches
# multi-user.target fails within MULTIUSER_TIMEOUT, naming the log.
printf '#!/bin/sh\nexec sleep 300\n' >"$tmp/bin/$ARCH_QEMU"
chmod +x "$tmp/bin/$ARCH_QEMU"
: >"$tmp/vmlinuz"; : >"$tmp/disk"
expect_failure debian-boot-no-multi-user-bounded 'did not reach multi-user.target within 5s.*console log: .*debian-hang.log' 20 "$tmp/bin/qemu" \
	env PATH="$tmp/bin:$PATH" ACCEL=tcg MULTIUSER_TIMEOUT=5 "$ROOT"/scripts/debian-boot.sh "$tmp/vmlinuz" "$tmp/disk" "$tmp/logs/debian-hang.log"
# A guest that reaches multi-user.target, runs every check and powers
# off, but where a unit failed to start: the boot did not do its work.
# The stand-in QEMU writes that console and a finished KTAP run to the
# files of its two -serial options (console first, as lib/qemu.sh orders).
cat >"$tmp/bin/$ARCH_QEMU" <<'QEMU'
#!/bin/sh
n=0
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && { n=$((n + 1)); eval "f$n=\${2#file:}"; }
	shift
done
printf '[  OK  ] Reached target Multi-User System.\n[FAILED] Failed to start broken.service - broken on purpose.\n' >"$f1"
printf 'KTAP version 1\n1..1\nok 1 debian_daemons\n# init: done\n' >"$f2"
sleep 2	# the boot's watcher looks every half second
QEMU
expect_failure debian-boot-failed-unit '1 unit(s) failed to start: broken.service - broken on purpose' 20 "$tmp/bin/qemu" \
	env PATH="$tmp/bin:$PATH" ACCEL=tcg "$ROOT"/scripts/debian-boot.sh "$tmp/vmlinuz" "$tmp/disk" "$tmp/logs/debian-unit.log"
runner_complete test-debian
