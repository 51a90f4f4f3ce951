#!/bin/bash
# make deb: a kernel as Debian binary packages, built by the tree's own
# `make bindeb-pkg` (linux-image, linux-headers; linux-libc-dev comes
# with them), with the harness config plus config/debian-boot.config
# (what a Debian 12 userland needs to boot it under QEMU).  The release
# carries +sockaddr (patched) or +baseline, the package version the same
# and "-1", so neither is ever taken for Debian's own 6.12.N+deb12.
#
# Usage: scripts/deb.sh [baseline|patched]...   (default: patched)
# Env:   TOOLCHAIN (gcc, default: gcc-12, Debian's compiler; clang: the
#        hardened clang-19 build), JOBS.
# Output: build/deb/*.deb (and the .buildinfo/.changes dpkg writes).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$ROOT"
tc=${TOOLCHAIN:-gcc}
out=$BUILD/deb
[ $# -gt 0 ] || set -- patched
mkdir -p "$out"

for v in "$@"; do
	lv=$(deb_localversion "$v")
	src=$(realpath "$BUILD/src-$v")
	# Inside the worktree, as for every kernel of the harness: kbuild
	# uses srctree=.. and both variants share ccache entries.
	obj=$src/out-deb-$tc
	stage "deb $v ($tc)"
	# Debian's own kernel ships the in-kernel socket users (NFS, SMB,
	# Ceph, 9p, kAFS, IPVS, mISDN) that make check's kernels leave out.
	EXTRA_FRAGMENTS="$ROOT/config/debian-boot.config $ROOT/config/kernel-socket-users.config" "$ROOT"/scripts/config.sh "$src" "$obj" "$tc"
	kver=$(make -s -C "$src" kernelversion)
	rel=$kver$lv
	pkgver=$rel-1
	arch=$(dpkg --print-architecture)
	debs=("$out/linux-image-${rel}_${pkgver}_$arch.deb" "$out/linux-headers-${rel}_${pkgver}_$arch.deb")
	key="$tc $lv $(git -C "$src" rev-parse HEAD) $(git -C "$src" status --porcelain -- . ':!out-*' | sha256sum | cut -c1-16) $(info_get "$obj" config)"
	if [ -f "${debs[0]}" ] && [ -f "${debs[1]}" ] && [ "$(info_get "$obj" deb)" = "$key" ]; then
		note "packages up to date"
	else
		info_del "$obj" deb; rm -f "${debs[@]}"
		if [ -f "$obj/vmlinux" ]; then need_space "$obj" 600 "an incremental kernel package build"
		else need_space "$obj" 2000 "a kernel package build"; fi
		kbuild_repro_env
		ccache_env
		toolchain "$tc"
		# The maintainer field is the project's identity, never this host;
		# dpkg stamps files with the same fixed date as KBUILD_BUILD_TIMESTAMP.
		export DEBFULLNAME DEBEMAIL SOURCE_DATE_EPOCH=315532800
		DEBFULLNAME=$(project_name) DEBEMAIL=$(project_email)
		# dpkg-buildpackage writes the .debs next to the object dir, that
		# is into the worktree: moved out below, also when it fails.
		trap 'rm -f "$src"/linux-*_"$pkgver"_* "$src"/linux-sockaddr_"$pkgver"_*' EXIT
		log=$obj/deb.log
		if ! with_heartbeat "$log" make -C "$src" O="$obj" -j"${JOBS:-$(nproc)}" "${KBUILD_CC[@]}" \
			LOCALVERSION="$lv" KDEB_PKGVERSION="$pkgver" KDEB_SOURCENAME=linux-sockaddr \
			KDEB_CHANGELOG_DIST=bookworm KBUILD_VERBOSE=0 bindeb-pkg; then
			grep -E 'error:|Error [0-9]|^dpkg[-a-z]*: error' "$log" | head -20 | unroot >&2
			disk_full_hint "$obj" "$log"
			die "make bindeb-pkg failed ($v, $tc), full log: $(rel "$log")"
		fi
		mv -f "$src"/linux-*_"$pkgver"_"$arch".deb "$src"/linux-sockaddr_"$pkgver"_* "$out"/
		trap - EXIT
		info_set "$obj" deb "$key"
	fi
	for d in "$out"/linux-*_"$pkgver"_"$arch".deb; do
		note "$(rel "$d"): $(( $(stat -c %s "$d") / 1024 )) KiB"
	done
	release=$(dpkg-deb -f "${debs[0]}" Package | sed 's/^linux-image-//')
	[ "$release" = "$rel" ] || die "deb: the image package is for '$release', expected '$rel'"
	stage_end
done
