#!/bin/bash
# make dkms-check: what the series breaks for out-of-tree modules.  The
# Debian 12 *-dkms packages of dkms/modules are built with Debian's own
# dkms, against the baseline and the patched tree, both configured with
# Debian's amd64 kernel config (linux-config-6.12) and gcc-12, as a
# Debian user's linux-headers would have them.  Then the module patch
# in dkms/ is built on both.  Writes build/dkms/table.md.
#
# dkms keeps its state in /var/lib/dkms and its sources in /usr/src:
# it runs in a private mount namespace where both are folders under
# build/dkms, so nothing on the host changes.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

W=$BUILD/dkms
tc=gcc
mkdir -p "$W"
EXTRA_PKGS="dkms linux-config-6.12 libxtables-dev pkg-config" "$ROOT"/scripts/deps.sh ||
	die "dkms-check needs dkms, linux-config-6.12, libxtables-dev (see above)"
"$ROOT"/scripts/tree.sh >/dev/null || die "tree or series failed (make tree)"
mapfile -t pkgs < <(grep -v -E '^(#|$)' "$ROOT/dkms/modules" | cut -f1)

# --- kernels: Debian's config, modules_prepare --------------------------
kdir() { echo "$BUILD/src-$1/out-dkms-$tc"; }
toolchain "$tc"
stage "dkms kernels: Debian config, modules_prepare (gcc-12)"
kbuild_repro_env
ccache_env
for v in baseline patched; do
	k=$(kdir "$v")
	want="$(git -C "$BUILD/src-$v" rev-parse HEAD) $(md5sum </usr/src/linux-config-6.12/config.amd64_none_amd64.xz)"
	if [ "$(info_get "$k" dkms)" = "$want" ] && [ -f "$k/include/generated/utsrelease.h" ]; then
		note "$v: up to date"
		continue
	fi
	mkdir -p "$k"
	xz -dc /usr/src/linux-config-6.12/config.amd64_none_amd64.xz >"$k/.config"
	# Debian's signing keys are not in linux-source: build without them.
	"$BUILD/src-$v"/scripts/config --file "$k/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem" \
		--set-str LOCALVERSION "-sockaddr-$v"
	if ! with_heartbeat "$k/prepare.log" make -C "$BUILD/src-$v" O="$k" -j"${JOBS:-$(nproc)}" \
		"${KBUILD_CC[@]}" olddefconfig modules_prepare; then
		tail -5 "$k/prepare.log"
		die "modules_prepare failed on $v (see $(rel "$k")/prepare.log)"
	fi
	info_set "$k" dkms "$want"
	note "$v: $(cat "$k/include/config/kernel.release")"
done
stage_end

# --- module sources: Debian's packages -------------------------------------
stage "dkms sources (apt-get download)"
mkdir -p "$W/debs" "$W/usr-src"
# Debian's Module.symvers of the same version and config (from its
# linux-headers package): modpost resolves the modules' symbols as on a
# Debian system, instead of failing on every one of them.
hdr=linux-headers-$(dpkg-query -W -f '${Version}' linux-source-6.12 | sed 's/-.*//')+deb12-amd64
deb=$(ls "$W/debs/${hdr}_"*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	(cd "$W/debs" && apt-get download -q "$hdr" >/dev/null 2>&1) || die "apt-get download $hdr failed"
	deb=$(ls "$W/debs/${hdr}_"*.deb | head -1)
fi
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$hdr/Module.symvers" >"$W/Module.symvers" ||
	die "no Module.symvers in $(basename "$deb")"
for v in baseline patched; do cp "$W/Module.symvers" "$(kdir "$v")/Module.symvers"; done
note "$(basename "$deb"): Module.symvers ($(wc -l <"$W/Module.symvers") symbols)"
for p in "${pkgs[@]}"; do
	deb=$(ls "$W/debs/${p}_"*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		(cd "$W/debs" && apt-get download -q "$p" >/dev/null 2>&1) ||
			die "apt-get download $p failed: is the package still in Debian 12?"
		deb=$(ls "$W/debs/${p}_"*.deb | head -1)
	fi
	rm -rf "$W/pkg/$p"; mkdir -p "$W/pkg/$p"
	dpkg-deb -x "$deb" "$W/pkg/$p"
	note "$(basename "$deb")"
done
stage_end

# dkms_build VARIANT SRCDIR LOG: dkms add + build of one module source
# (a folder with a dkms.conf) against VARIANT's kernel, in the private
# namespace; the make log is copied to LOG.  Exit status: dkms's.
dkms_build() {
	local v=$1 src=$2 log=$3 k name ver kver ns
	k=$(kdir "$v")
	kver=$(cat "$k/include/config/kernel.release")
	name=$(bash -c ". '$src/dkms.conf' >/dev/null 2>&1; echo \"\$PACKAGE_NAME\"")
	ver=$(bash -c "cd '$src' && . ./dkms.conf >/dev/null 2>&1; echo \"\$PACKAGE_VERSION\"")
	ns=$W/ns-$v
	rm -rf "$ns"; mkdir -p "$ns/var-lib-dkms" "$ns/usr-src"
	cp -a "$src" "$ns/usr-src/$name-$ver"
	unshare -m bash -c '
		set -e
		mount --bind "$1/var-lib-dkms" /var/lib/dkms
		mount --bind "$1/usr-src" /usr/src
		dkms add -m "$2" -v "$3" >/dev/null
		dkms build -m "$2" -v "$3" -k "$4" --kernelsourcedir "$5"
	' _ "$ns" "$name" "$ver" "$kver" "$k" >"$log.dkms" 2>&1
	local rc=$?
	cat "$ns/var-lib-dkms/$name/$ver/build/make.log" >"$log" 2>/dev/null || cp "$log.dkms" "$log"
	return $rc
}

# first_error LOG: the compiler's first error, without the build path
# (ipt-netflow's log quotes its configure probes' expected errors in
# lines starting with "//": not failures).
first_error() {
	grep -a -v '^//' "$1" | grep -a -m1 -E '(error|Error):' | sed -E "s|$W/ns-[a-z]+/var-lib-dkms/[^/]+/[^/]+/build/||; s|/var/lib/dkms/[^/]+/[^/]+/build/||" | unroot | cut -c1-200
}

stage "dkms build: ${#pkgs[@]} modules x {baseline, patched}"
table=$W/table.md
{
	echo "| module (package) | baseline | patched | first error | line to change |"
	echo "|---|---|---|---|---|"
} >"$table"
broke=0
for p in "${pkgs[@]}"; do
	src=$(dirname "$(ls "$W/pkg/$p"/usr/src/*/dkms.conf | head -1)")
	row=()
	for v in baseline patched; do
		log=$W/logs/$p-$v.log
		mkdir -p "$W/logs"
		t0=$(date +%s)
		# DKMS_REUSE=1: keep the results of an earlier run (report only).
		if [ -n "${DKMS_REUSE:-}" ] && [ -f "$log.rc" ]; then
			rc=$(cat "$log.rc")
		else
			dkms_build "$v" "$src" "$log"; rc=$?
			echo "$rc" >"$log.rc"
		fi
		if [ "$rc" = 0 ]; then r=builds; else r=FAILS; fi
		note "$p on $v: $r ($(( $(date +%s) - t0 ))s, $(rel "$log"))"
		row+=("$r")
	done
	err=- line=-
	if [ "${row[0]}" = FAILS ]; then
		# Not the series' doing: this version does not build on 6.12.
		err=$(first_error "$W/logs/$p-baseline.log")
		err="6.12 itself (baseline): \`${err//|/\\|}\`"
	elif [ "${row[1]}" = FAILS ]; then
		err=$(first_error "$W/logs/$p-patched.log")
		# file:line of the error, and that line of the module's source
		loc=$(sed -nE 's/^([^ :]+\.[ch]):([0-9]+):[0-9]+: error:.*/\1 \2/p' <<<"$err" | head -1)
		if [ -n "$loc" ]; then
			read -r f l <<<"$loc"
			line="\`$(basename "$f"):$l: $(sed -n "${l}p" "$src/$f" 2>/dev/null | sed 's/^[[:space:]]*//')\`"
		fi
		err="\`${err//|/\\|}\`"
	fi
	[ "${row[0]}" = builds ] && [ "${row[1]}" = FAILS ] && broke=$((broke + 1))
	echo "| $p | ${row[0]} | ${row[1]} | $err | $line |" >>"$table"
done
stage_end

# --- the module patch of dkms/: builds on both ----------------------------
stage "dkms: patched module source builds on both kernels"
patch_ok=1
for mp in "$ROOT"/dkms/*.patch; do
	[ -e "$mp" ] || continue
	p=$(basename "$mp" .patch); p=${p%%.*}
	src=$(dirname "$(ls "$W/pkg/$p"/usr/src/*/dkms.conf | head -1)")
	fixed=$W/fixed/$p
	rm -rf "$fixed"; mkdir -p "$(dirname "$fixed")"; cp -a "$src" "$fixed"
	if ! patch -d "$fixed" -p1 -s -F0 <"$mp"; then
		note "$(basename "$mp") does not apply to $p"; patch_ok=0; continue
	fi
	for v in baseline patched; do
		if dkms_build "$v" "$fixed" "$W/logs/$p-fixed-$v.log"; then
			note "$p + $(basename "$mp") on $v: builds"
		else
			note "$p + $(basename "$mp") on $v: FAILS: $(first_error "$W/logs/$p-fixed-$v.log")"
			patch_ok=0
		fi
	done
done
stage_end

echo
cat "$table"
echo
echo "dkms-check: ${#pkgs[@]} modules; $broke build on the baseline and fail on the patched kernel; table in $(rel "$table")"
[ "$patch_ok" = 1 ] || { echo "dkms-check: a module patch of dkms/ did not build on both kernels"; exit 1; }
