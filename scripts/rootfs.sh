#!/bin/bash
# The Debian root file system make check-debian boots (config/userland:
# Debian 12 by default, Debian 13 with USERLAND=trixie): Debian's
# mmdebstrap, from this machine's own apt sources (the only mirror it can
# reach; another suite through private apt state with the host's
# mirror, scripts/lib/aptdata.sh), with the packages of the userland's
# list (config/debian-rootfs for Debian 12).  Cached as
# ROOTFS_DIR/rootfs.tar, keyed by a hash of the package set, the suite,
# the sources and the mmdebstrap options: a cache made from anything
# else is rebuilt, never reused, and the message says which it was.
#
# Usage: scripts/rootfs.sh            -> ROOTFS_DIR/rootfs.tar
# Env:   ROOTFS_LIST (default the userland's packages), ROOTFS_SOURCES (apt
#        sources files, default the host's, or for another suite the
#        private state's), ROOTFS_DIR (default build/rootfs, for every
#        tree: lib.sh), ROOTFS_TIMEOUT (s, default 1800).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

list=${ROOTFS_LIST:-$ROOT/$USERLAND_PACKAGES}
dir=$ROOTFS_DIR
tar=$dir/rootfs.tar
[ -r "$list" ] || die "rootfs: no package list $(rel "$list")"
suite=$(awk '$1 == "suite" {print $2}' "$list")
[ -n "$suite" ] || die "rootfs: $(rel "$list") names no suite (a line 'suite NAME')"
mapfile -t pkgs < <(grep -v -E '^[[:space:]]*(#|$|suite[[:space:]])' "$list" | awk '{print $1}' | sort -u)
[ "${#pkgs[@]}" -gt 0 ] || die "rootfs: $(rel "$list") lists no packages"

# The host's enabled apt sources, one-line or deb822 (mmdebstrap pastes
# each file given as a mirror into the chroot's sources).
if [ -n "${ROOTFS_SOURCES:-}" ]; then
	read -ra sources <<<"$ROOTFS_SOURCES"
elif [ "$suite" != bookworm ]; then
	# The host is Debian 12: another suite's sources.list is made with
	# the host's mirror in private apt state, the host's left as it was.
	apt_data_opts "$suite" "$dir/apt"
	sources=("$dir/apt/sources.list")
else
	sources=()
	[ -n "$(grep -v -E '^[[:space:]]*(#|$)' /etc/apt/sources.list 2>/dev/null)" ] && sources+=(/etc/apt/sources.list)
	for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && sources+=("$f")
	done
fi
[ "${#sources[@]}" -gt 0 ] || die "rootfs: no apt sources on this machine (/etc/apt/sources.list*)"
mirrors=$(cat "${sources[@]}" | sed -n -E 's/^(URIs:|deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?//p' | awk '{print $1}' | sort -u | tr "\n" " " | sed "s/ $//")

# Fixed options: part of the key.  Snapshot mirrors serve old Release
# files, as the host's own apt config allows; no docs, no recommends.
opts=(--variant=apt --format=tar
	--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"'
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*')
desc="$suite: ${pkgs[*]}"
key=$({ echo "$desc"; printf '%s\n' "${opts[@]}"; cat "${sources[@]}"; } | sha256sum | cut -c1-16)

mkdir -p "$dir"
if [ -s "$tar" ] && [ "$(head -1 "$dir/rootfs.key" 2>/dev/null)" = "$key" ]; then
	note "rootfs: reusing $(rel "$tar") (key $key; $desc)"
	exit 0
fi
if [ -e "$tar" ]; then
	old=$(head -1 "$dir/rootfs.key" 2>/dev/null || echo none)
	note "rootfs: cached $(rel "$tar") has key $old ($(sed -n 2p "$dir/rootfs.key" 2>/dev/null || echo 'no record')), wanted $key ($desc): rebuilding"
else
	note "rootfs: none cached, building key $key ($desc)"
fi
rm -f "$tar" "$dir/rootfs.key"
need_space "$dir" 1500 "the Debian rootfs"

log=$dir/mmdebstrap.log
inc=$(IFS=,; echo "${pkgs[*]}")
if ! with_heartbeat "$log" timeout -k 10 "${ROOTFS_TIMEOUT:-1800}" \
	mmdebstrap "${opts[@]}" --include="$inc" "$suite" "$tar.tmp" "${sources[@]}"; then
	rm -f "$tar.tmp"
	# Say what was missing: a package, or the mirror itself.
	missing=$(sed -n -E "s/.*Unable to locate package ([^ ]+).*/\1/p; s/.*Package '?([^ ']+)'? has no installation candidate.*/\1/p" "$log" | sort -u | tr '\n' ' ' | sed 's/ $//')
	unreach=$(grep -a -o -E "(Failed to fetch|Could not connect to|Could not resolve|Temporary failure resolving|Unable to connect to) [^ ]+" "$log" | head -1 || true)
	grep -a -E '^(E|W): ' "$log" | head -5 | unroot >&2 || true
	[ -n "$missing" ] && die "rootfs: not in the mirror ($mirrors): ${missing% } (mmdebstrap log: $(rel "$log"))"
	[ -n "$unreach" ] && die "rootfs: cannot reach the mirror ($mirrors): $unreach; no network? (mmdebstrap log: $(rel "$log"))"
	die "rootfs: mmdebstrap failed (log: $(rel "$log"))"
fi
mv "$tar.tmp" "$tar"
printf '%s\n%s\n' "$key" "$desc" >"$dir/rootfs.key"
note "rootfs: built $(rel "$tar") ($(( $(stat -c %s "$tar") / 1048576 )) MiB; key $key)"
