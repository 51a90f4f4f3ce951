#!/bin/bash
# make check-debian: the out-of-tree modules of the userland's dkms list,
# or the tree's (config/userland, config/tree: config/debian-dkms) built
# the way a Debian user builds them, inside the Debian rootfs: the fixed
# module source in /usr/src/NAME-VERSION, then `dkms add`, `dkms build`
# and `dkms install` for the kernel whose linux-image and linux-headers
# packages dpkg just installed there (scripts/deb-install.sh).  Debian's
# dkms and gcc-12 of the rootfs, chrooted, in a mount namespace of its
# own (/proc, /sys, /dev bound in): nothing on the host changes.  The
# dkms and compiler are the rootfs's own: Debian 13's in a trixie one.
#
# Usage: scripts/debian-dkms.sh ROOTDIR LOGDIR
#        -> LOGDIR/dkms-NAME.log (dkms's output and make.log), and
#           LOGDIR/dkms.tsv: NAME VERSION KERNEL built|failed FIRST-ERROR
# Exit 0 when every module was installed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

root=$1 logs=$2
mapfile -t kvers < <(ls "$root/lib/modules" 2>/dev/null)
[ "${#kvers[@]}" = 1 ] || die "debian-dkms: expected one kernel in $(rel "$root")/lib/modules, found ${#kvers[@]}"
kver=${kvers[0]}
# build is a symlink to /usr/src/linux-headers-KVER: inside the rootfs.
hdrs=$(readlink "$root/lib/modules/$kver/build" || true)
[ -n "$hdrs" ] && [ -e "$root/${hdrs#/}/Makefile" ] ||
	die "debian-dkms: no headers for $kver in the rootfs (/lib/modules/$kver/build): is linux-headers installed?"
list=${USERLAND_DKMS:-$TREE_DEBIAN_DKMS}
[ -n "$list" ] || die "debian-dkms: neither USERLAND=$USERLAND nor TREE=$TREE_NAME names a dkms list (config/userland, config/tree debian_dkms)"
mkdir -p "$logs"
: >"$logs/dkms.tsv"
rc=0
while read -r suite pkg files; do
	"$ROOT"/scripts/dkms-fetch.sh "$suite" "$pkg"
	conf=$(find "$BUILD/dkms/pkg/$suite/$pkg/usr/src" -maxdepth 2 -name dkms.conf | head -1)
	[ -n "$conf" ] || die "debian-dkms: no dkms.conf in $pkg ($suite)"
	src=$(dirname "$conf")
	name=$(dkms_conf "$src" PACKAGE_NAME)
	ver=$(dkms_conf "$src" PACKAGE_VERSION)
	dest=$root/usr/src/$name-$ver
	rm -rf "$dest"; cp -a "$src" "$dest"
	mapfile -t fixes < <(dkms_fixes "$suite" "$pkg")
	unapplied=
	for fix in "${fixes[@]}"; do
		if patch -d "$dest" -p1 -s -F0 <"$fix" >"$logs/dkms-$name.patch.log" 2>&1; then
			note "$name $ver: $(basename "$fix") applied"
		else
			unapplied=$(basename "$fix")
			break
		fi
	done
	# A fix that does not apply is this module's failure, counted like a
	# build that failed: the other modules still build.
	if [ -n "$unapplied" ]; then
		note "dkms: $name $ver: FAILED: $unapplied does not apply at fuzz 0"
		printf '%s\t%s\t%s\tfailed\t%s\n' "$name" "$ver" "$kver" "$unapplied does not apply to $pkg ($suite) at fuzz 0" >>"$logs/dkms.tsv"
		rc=1
		continue
	fi
	if [ -n "$files" ]; then
		"$ROOT"/scripts/dkms-fetch.sh "${files%%:*}" "$pkg"
		cp -a "$BUILD/dkms/pkg/${files%%:*}/$pkg/${files#*:}/." "$root/${files#*:}/"
		note "$name: /${files#*:} from $pkg (${files%%:*})"
	fi
	log=$logs/dkms-$name.log
	if unshare -m --propagation private bash -c '
		set -e
		for d in proc sys dev; do mount --rbind "/$d" "$1/$d"; done
		chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C bash -c "
			set -e
			dkms add -m $2 -v $3
			dkms build -m $2 -v $3 -k $4
			dkms install -m $2 -v $3 -k $4
			dkms status -m $2 -v $3 -k $4"
	' _ "$root" "$name" "$ver" "$kver" >"$log" 2>&1; then
		st=$(grep -a -F "$name/$ver, $kver, " "$log" | grep -F ': installed' | tail -1 || true)
		note "dkms: $name $ver for $kver: ${st:-built (no status line)}"
		printf '%s\t%s\t%s\tbuilt\t-\n' "$name" "$ver" "$kver" >>"$logs/dkms.tsv"
	else
		cat "$root/var/lib/dkms/$name/$ver/build/make.log" >>"$log" 2>/dev/null || true
		err=$(grep -a -m1 -E '(error|Error|ERROR):' "$log" | sed -E 's|^[^ :]*/([^/ :]+):([0-9]+):[0-9]+:|\1:\2:|' | cut -c1-160)
		note "dkms: $name $ver for $kver: FAILED: ${err:-see $(rel "$log")}"
		printf '%s\t%s\t%s\tfailed\t%s\n' "$name" "$ver" "$kver" "${err:-see $(rel "$log")}" >>"$logs/dkms.tsv"
		rc=1
	fi
done < <(grep -v -E '^(#|$)' "$ROOT/$list")
exit "$rc"
