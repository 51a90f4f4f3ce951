#!/bin/bash
# Install what the harness needs from Debian's archive (apt-get only).
# Fast when everything is already installed: dpkg is asked first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Why each package: see README.md "Dependencies".
# shellcheck disable=SC2206,SC2207 # the arch's and the toolchains' packages: lists by design
PKGS=($ARCH_PACKAGES make libc6-dev
	# every toolchain's compiler, linker and tools (config/toolchains)
	$(awk '!/^#/ && NF >= 5 { gsub(/,/, " ", $5); print $5 }' "$ROOT/config/toolchains")
	bc bison flex libelf-dev libssl-dev
	dwarves ccache cpio xz-utils kmod python3 git shellcheck
	# rsync: make headers_install (the peer suites build against the uapi headers)
	rsync
	# quilt: the Debian export is checked the way Debian's build applies it
	quilt
	# ip for the tree's test_progs in make check-btf (netns, veth)
	iproute2
	# libz.a: guest/bpf_sock_addr links the tree's libbpf + libelf statically
	zlib1g-dev)
# The tree's package from the host's apt; a tree of another suite
# (config/tree's suite: 7.3) is never installed: scripts/tree.sh
# downloads it as data.
[ -n "$TREE_SUITE" ] || PKGS=("$TREE_PACKAGE" "${PKGS[@]}")
# EXTRA_PKGS: what one target needs, installed when it runs (coccinelle
# for completeness, dkms & co. for dkms-check, debhelper for make deb,
# mmdebstrap and e2fsprogs for check-debian).
# shellcheck disable=SC2206 # a space-separated list by design
PKGS+=(${EXTRA_PKGS:-})

stage "deps"
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	note "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	log=$BUILD/apt.log
	mkdir -p "$BUILD"
	# Another architecture's libraries (libelf-dev:arm64): Debian multiarch.
	for a in $(printf '%s\n' "${missing[@]}" | sed -n 's/.*:\([a-z0-9]*\)$/\1/p' | sort -u); do
		dpkg --print-foreign-architectures | grep -qx "$a" || dpkg --add-architecture "$a" ||
			die "dpkg --add-architecture $a failed"
	done
	# One apt at a time: stages beside each other (make check's harness
	# tests, export tests) may install at once, and apt's own locks make
	# the second fail rather than wait.
	exec {apt_lock}>/var/lock/sockaddr-unsized-deps.lock
	flock -w "${APT_TIMEOUT:-1200}" "$apt_lock" || die "apt: another install held the lock for ${APT_TIMEOUT:-1200}s"
	# A mirror that fails once (a dropped connection) gets one retry.
	if ! timeout "${APT_TIMEOUT:-1200}" apt-get update -q >"$log" 2>&1 &&
		! { sleep 10; timeout "${APT_TIMEOUT:-1200}" apt-get update -q >"$log" 2>&1; }; then
		tail -5 "$log" >&2
		die "apt-get update failed twice, so ${missing[*]} cannot be installed (see $(rel "$log"))"
	fi
	if ! timeout "${APT_TIMEOUT:-1200}" apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
		grep -E '^E:' "$log" | tail -5 >&2
		die "apt-get could not install: ${missing[*]} (see $(rel "$log"))"
	fi
fi
if [ -n "$TREE_SUITE" ]; then
	note "all ${#PKGS[@]} packages present; $TREE_PACKAGE $TREE_VERSION ($TREE_SUITE) is fetched as data by scripts/tree.sh"
else
	note "all ${#PKGS[@]} packages present; $TREE_PACKAGE $(dpkg-query -W -f '${Version}' "$TREE_PACKAGE")"
fi
stage_end
