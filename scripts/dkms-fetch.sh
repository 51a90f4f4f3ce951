#!/bin/bash
# One Debian binary package of a pinned version, downloaded with apt and
# unpacked (dpkg-deb -x) as data: make dkms-check's module sources and
# trixie's dkms, make check-debian's out-of-tree modules.  bookworm
# comes from the host's own apt sources; any other suite (trixie) from
# private apt state under build/dkms/apt-SUITE: its lists, its cache, a
# sources.list with the host's Debian mirror, an apt.conf without the
# host's update hooks and no dpkg status, so nothing of it is installed
# and the host's apt is left as it was.
#
# Usage: scripts/dkms-fetch.sh SUITE PACKAGE [VERSION]
#        VERSION defaults to dkms/modules' pin for SUITE PACKAGE.
#        -> build/dkms/pkg/SUITE/PACKAGE/ (the package's files), and its
#           .deb in build/dkms/debs/SUITE/ (kept: a rerun downloads nothing)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: scripts/dkms-fetch.sh SUITE PACKAGE [VERSION]"
s=$1 p=$2
ver=${3:-$(awk -v s="$s" -v p="$p" '$1 == s && $2 == p { print $3; exit }' "$ROOT/dkms/modules")}
[ -n "$ver" ] || die "dkms-fetch: no version of $p ($s) given, and none pinned in dkms/modules"
W=$BUILD/dkms
d=$W/debs/$s
a=$W/apt-$s
mkdir -p "$d"

# apt's options for the suite (none: the host's own, for bookworm).
opts=()
if [ "$s" != bookworm ]; then
	if [ ! -f "$a/sources.list" ]; then
		mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/preferences.d"
		mirror=$(apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 'Identifier: Packages' |
			awk '$1 == "bookworm" { print $2; exit }')
		[ -n "$mirror" ] || die "dkms-fetch: no bookworm mirror in the host's apt sources to read $s from"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $s main" >"$a/sources.list"
		printf '#clear %s;\n' APT::Update::Post-Invoke-Success APT::Update::Post-Invoke \
			DPkg::Post-Invoke DPkg::Pre-Invoke >"$a/apt.conf"
	fi
	opts=(-c "$a/apt.conf" -o "Dir::Etc::sourcelist=$a/sources.list"
		-o "Dir::Etc::sourceparts=$a/sources.list.d" -o "Dir::Etc::preferencesparts=$a/preferences.d"
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache" -o "Dir::State::status=/dev/null")
fi

download() { (cd "$d" && timeout 600 apt-get "${opts[@]}" download -q "$p=$ver") >"$W/apt-download.log" 2>&1; }

deb=$(find "$d" -maxdepth 1 -name "${p}_*.deb" | head -1)
if [ -z "$deb" ] || [ "$(dpkg-deb -f "$deb" Version)" != "$ver" ]; then
	rm -f "$d/${p}_"*.deb
	# The suite's lists are fetched when the version is not in them yet.
	if ! download; then
		if [ "$s" != bookworm ]; then
			timeout 600 apt-get "${opts[@]}" update -q >"$W/apt-$s.log" 2>&1 ||
				die "dkms-fetch: apt-get update for $s failed (see $(rel "$W")/apt-$s.log)"
		fi
		download || die "dkms-fetch: apt-get download $p=$ver ($s) failed: is that version still in Debian? (pinned in dkms/modules; see $(rel "$W")/apt-download.log)"
	fi
	deb=$(find "$d" -maxdepth 1 -name "${p}_*.deb" | head -1)
fi
rm -rf "$W/pkg/$s/$p"; mkdir -p "$W/pkg/$s/$p"
dpkg-deb -x "$deb" "$W/pkg/$s/$p"
