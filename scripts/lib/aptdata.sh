# shellcheck shell=bash
# A Debian binary package of a pinned version, downloaded with apt as
# data, never installed: make dkms-check's module sources and trixie's
# dkms (scripts/dkms-fetch.sh), a kernel tree of another suite
# (config/tree's suite key, scripts/tree.sh: linux-source-7.3 from
# trixie-backports).  bookworm comes from the host's own apt sources;
# any other suite from private apt state in a folder of the caller's:
# its lists, its cache, a sources.list with the host's Debian mirror, an
# apt.conf without the host's update hooks and no dpkg status, so
# nothing of it is installed and the host's apt (its sources, lists and
# status) is left as it was.
# Part of scripts/lib.sh, which sources it; never run on its own.

# apt_data_opts SUITE STATE: APT_DATA_OPTS, apt-get's options that read
# SUITE (an array; empty for bookworm, the host's own), its private
# state made in STATE on first use.
apt_data_opts() {
	local s=$1 a=$2 mirror
	APT_DATA_OPTS=()
	[ "$s" != bookworm ] || return 0
	if [ ! -f "$a/sources.list" ]; then
		mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/preferences.d"
		mirror=$(apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 'Identifier: Packages' |
			awk '$1 == "bookworm" { print $2; exit }')
		[ -n "$mirror" ] || die "apt-data: no bookworm mirror in the host's apt sources to read $s from"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $s main" >"$a/sources.list"
		printf '#clear %s;\n' APT::Update::Post-Invoke-Success APT::Update::Post-Invoke \
			DPkg::Post-Invoke DPkg::Pre-Invoke >"$a/apt.conf"
	fi
	APT_DATA_OPTS=(-c "$a/apt.conf" -o "Dir::Etc::sourcelist=$a/sources.list"
		-o "Dir::Etc::sourceparts=$a/sources.list.d" -o "Dir::Etc::preferencesparts=$a/preferences.d"
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache" -o "Dir::State::status=/dev/null")
}

# apt_data_fetch SUITE PACKAGE VERSION DEBS STATE LOGS WHERE: PACKAGE's
# .deb of VERSION in the folder DEBS (kept: a rerun downloads nothing),
# its path printed.  SUITE's lists (private, in STATE) are fetched only
# when the version is not in them yet; apt's logs go to LOGS
# (apt-download.log, apt-SUITE.log).  WHERE names the pin in a failure
# (dkms/modules, config/tree/7.3).
apt_data_fetch() {
	local s=$1 p=$2 ver=$3 d=$4 a=$5 logs=$6 where=$7 deb
	mkdir -p "$d" "$logs"
	apt_data_opts "$s" "$a"
	deb=$(find "$d" -maxdepth 1 -name "${p}_*.deb" | head -1)
	if [ -z "$deb" ] || [ "$(dpkg-deb -f "$deb" Version)" != "$ver" ]; then
		rm -f "$d/${p}_"*.deb
		if ! _apt_data_download "$d" "$p=$ver" "$logs"; then
			if [ "$s" != bookworm ]; then
				timeout 600 apt-get "${APT_DATA_OPTS[@]}" update -q >"$logs/apt-$s.log" 2>&1 ||
					die "apt-data: apt-get update for $s failed (see $(rel "$logs")/apt-$s.log)"
			fi
			_apt_data_download "$d" "$p=$ver" "$logs" ||
				die "apt-data: apt-get download $p=$ver ($s) failed: is that version still in Debian? (pinned in $where; see $(rel "$logs")/apt-download.log)"
		fi
		deb=$(find "$d" -maxdepth 1 -name "${p}_*.deb" | head -1)
	fi
	echo "$deb"
}

_apt_data_download() {
	(cd "$1" && timeout 600 apt-get "${APT_DATA_OPTS[@]}" download -q "$2") >"$3/apt-download.log" 2>&1
}
