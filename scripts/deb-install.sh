#!/bin/bash
# Install .deb files into a root file system with Debian's dpkg, as
# `dpkg -i` would on that system (dpkg --root: maintainer scripts run
# chrooted into it).  A package that does not install fails with dpkg's
# own message.
#
# Usage: scripts/deb-install.sh ROOTDIR DEB...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

root=$1; shift
[ -d "$root/var/lib/dpkg" ] || die "install: $(rel "$root") has no dpkg database (var/lib/dpkg)"
[ $# -gt 0 ] || die "install: no .deb given"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for d in "$@"; do
	[ -f "$d" ] || die "install: no such package file: $(rel "$d")"
done
if ! DEBIAN_FRONTEND=noninteractive dpkg --root="$root" --force-unsafe-io -i "$@" >"$log" 2>&1; then
	# dpkg's and dpkg-deb's own lines: what went wrong, in its words.
	grep -a -E '^(dpkg|dpkg-deb|dpkg-split)[^ ]*: ' "$log" | head -10 | unroot >&2
	die "install: dpkg could not install $(for d in "$@"; do basename "$d"; done | tr '\n' ' ')into $(rel "$root")"
fi
for d in "$@"; do
	p=$(dpkg-deb -f "$d" Package)
	v=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Version} ${Status}' "$p")
	note "installed $p $v"
done
