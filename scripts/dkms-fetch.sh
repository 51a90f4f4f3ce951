#!/bin/bash
# One Debian binary package of a pinned version, downloaded with apt and
# unpacked (dpkg-deb -x) as data: make dkms-check's module sources and
# trixie's dkms, make check-debian's out-of-tree modules.  bookworm
# comes from the host's own apt sources; any other suite (trixie, sid) from
# private apt state under build/dkms/apt-SUITE (scripts/lib/aptdata.sh,
# which scripts/tree.sh shares for a tree of another suite): nothing of
# it is installed and the host's apt is left as it was.
#
# Usage: scripts/dkms-fetch.sh SUITE PACKAGE [VERSION]
#        VERSION defaults to the tree's dkms_modules pin for SUITE PACKAGE.
#        -> build/dkms/pkg/SUITE/PACKAGE/ (the package's files), and its
#           .deb in build/dkms/debs/SUITE/ (kept: a rerun downloads nothing)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: scripts/dkms-fetch.sh SUITE PACKAGE [VERSION]"
s=$1 p=$2
ver=${3:-}
list=$(tree_dkms_modules) || exit 1
if [ -z "$ver" ]; then
	ver=$(awk -v s="$s" -v p="$p" '$1 == s && $2 == p { print $3; exit }' "$list")
	[ -n "$ver" ] || die "dkms-fetch: no version of $p ($s) given, and none pinned in $(rel "$list")"
fi
W=$BUILD/dkms
# The .deb (scripts/lib/aptdata.sh): bookworm from the host's own apt,
# another suite from private apt state in build/dkms/apt-SUITE.
deb=$(apt_data_fetch "$s" "$p" "$ver" "$W/debs/$s" "$W/apt-$s" "$W" "$list")
rm -rf "$W/pkg/$s/$p"; mkdir -p "$W/pkg/$s/$p"
dpkg-deb -x "$deb" "$W/pkg/$s/$p"
