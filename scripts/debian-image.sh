#!/bin/bash
# make check-debian: the bootable disk of one kernel package.  A copy of
# the cached rootfs of the userland (config/userland, scripts/rootfs.sh),
# the make deb packages installed into it by dpkg
# (scripts/deb-install.sh), the harness's guest layer (guest/debian: the
# checks' unit, networkd's devices, dnsmasq's name, the suites in
# /suites) and the out-of-tree modules of the userland's or the tree's
# dkms list (scripts/debian-dkms.sh), made into an ext4 image with
# mke2fs -d.  The kernel to boot is the installed package's own
# /boot/vmlinuz-*, copied out beside the image.
#
# Usage: scripts/debian-image.sh baseline|patched
#        -> build/NAME/VARIANT/root.ext4, build/NAME/VARIANT/vmlinuz
#        (NAME: the userland's, debian for Debian 12)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

v=$1
lv=$(deb_localversion "$v")
tar=$ROOTFS_DIR/rootfs.tar
out=$BUILD/$USERLAND_NAME/$v
dir=$out/root
[ -s "$tar" ] || die "no rootfs: $(rel "$tar") (scripts/rootfs.sh makes it)"
mapfile -t debs < <(ls "$BUILD"/deb/linux-image-*"$lv"_*.deb 2>/dev/null; ls "$BUILD"/deb/linux-headers-*"$lv"_*.deb 2>/dev/null)
[ "${#debs[@]}" = 2 ] || die "no $v kernel packages (linux-image/linux-headers *$lv) in $(rel "$BUILD/deb"): make deb"
# shellcheck disable=SC2046 # one path per word
mapfile -t suites < <(printf '%s\n' $(make -s -C "$ROOT" --no-print-directory BUILD="$BUILD" print-suites))
for s in "$BUILD/guest/init" "$BUILD/guest/oot_modules" "${suites[@]}"; do
	[ -x "$s" ] || die "guest program missing: $(rel "$s") (make guest-bins debian-bins)"
done

rm -rf "$out"
mkdir -p "$dir"
need_space "$out" 2500 "a Debian disk image"
tar -xpf "$tar" --numeric-owner -C "$dir"
"$ROOT"/scripts/deb-install.sh "$dir" "${debs[@]}"
# The out-of-tree modules, built by dkms in the rootfs against the
# headers just installed; check-debian records each from dkms.tsv.
"$ROOT"/scripts/debian-dkms.sh "$dir" "$out" || note "a dkms module did not build: see $(rel "$out")/dkms.tsv"

# The harness layer.
g=$ROOT/guest/debian
install -D -m 644 "$g/sockaddr-check.service" "$dir/etc/systemd/system/sockaddr-check.service"
install -d "$dir/etc/systemd/network" "$dir/etc/dnsmasq.d" "$dir/usr/local/lib/sockaddr" "$dir/suites"
install -m 644 "$g"/*.netdev "$g"/*.network "$dir/etc/systemd/network/"
# No MAC or name policy on new links: udev must not change the address
# of a device a suite just made (both kernels see the same devices).
ln -sf /dev/null "$dir/etc/systemd/network/99-default.link"
install -m 644 "$g/dnsmasq-sockaddr.conf" "$dir/etc/dnsmasq.d/sockaddr.conf"
install -m 755 "$BUILD/guest/init" "$g/run-checks.sh" "$dir/usr/local/lib/sockaddr/"
install -m 755 "$g/daemons.sh" "$dir/suites/debian_daemons"
# Daemons first, while the network is as networkd made it; then the
# out-of-tree modules (Debian only), then the harness's suites in make's
# SUITES order.
install -m 755 "$BUILD/guest/oot_modules" "$dir/suites/"
{
	echo debian_daemons
	echo oot_modules
	for s in "${suites[@]}"; do
		install -m 755 "$(realpath "$s")" "$dir/suites/"
		basename "$s"
	done
} >"$dir/suites/.order"
echo sockaddr-guest >"$dir/etc/hostname"
echo "LABEL=root / ext4 rw,errors=remount-ro 0 1" >"$dir/etc/fstab"
# A machine id: not a first boot, so no systemd-firstboot questions.
echo "sockaddr-$v" | md5sum | cut -c1-32 >"$dir/etc/machine-id"
systemctl --root="$dir" -q enable systemd-networkd.service sockaddr-check.service

mapfile -t kernels < <(ls "$dir"/boot/vmlinuz-* 2>/dev/null)
[ "${#kernels[@]}" = 1 ] || die "expected one /boot/vmlinuz-* after installing, found ${#kernels[@]}"
cp "${kernels[0]}" "$out/vmlinuz"
note "kernel: /boot/$(basename "${kernels[0]}") from $(basename "${debs[0]}")"

mib=$(( $(du -sm "$dir" | cut -f1) + 768 ))
if ! mke2fs -q -F -t ext4 -L root -d "$dir" "$out/root.ext4" "${mib}M" >"$out/mke2fs.log" 2>&1; then
	cat "$out/mke2fs.log" >&2
	die "mke2fs -d failed for $(rel "$out/root.ext4")"
fi
rm -rf "$dir"
note "$(rel "$out/root.ext4"): ${mib} MiB ext4; /suites: debian_daemons + ${#suites[@]} harness suites"
