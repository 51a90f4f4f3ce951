#!/bin/bash
# make dkms-check: the out-of-tree modules a Debian user builds, against
# the series.  Every module of the tree's list (config/tree's
# dkms_modules: on 6.12 dkms/modules, Debian 13's *-dkms packages, made
# for 6.12, Debian 12's that call an API the series changes and sid's
# that adapted to it; on 6.1 dkms/modules-6.1, Debian 12's, made for
# 6.1; on 7.3 dkms/modules-7.3, the modules of Debian 13 and sid that
# call an API the series changes; all with the project's version-gate
# example) is built with its release's own dkms against the baseline and
# the patched kernel (a tree without series, 7.3: its one kernel,
# upstream with the series merged), configured with Debian's amd64
# config of the line (config/tree's config: linux-config-6.12,
# linux-config-6.1, linux-config-7.3 from trixie-backports as data) and
# made ready the way a linux-headers package is (modules_prepare, the
# Module.symvers of Debian's headers package of the same version), with
# gcc-12.  A module with a fix in dkms/
# (PACKAGE.*.patch, or PACKAGE-UPSTREAMVERSION.*.patch for one version:
# lib/kbuild.sh's dkms_fixes) is built again, fixed, on both kernels.
#
# Every outcome (builds, fails with its first error, excluded by the
# module's own BUILD_EXCLUSIVE rules) is compared with the tree's
# expectation (config/expect/dkms, config/expect/6.1/dkms), line by line: a changed outcome or first error
# fails, as does a module the series breaks without a fix that builds on
# both kernels and a word in docs/out-of-tree-modules.md (on a tree
# without series: a module that fails without a fix that builds).
# Writes build/dkms/table.md and build/dkms/outcomes.
#
# dkms keeps its state in /var/lib/dkms and its sources in /usr/src: it
# runs in a private mount namespace where both (and trixie's /etc/dkms)
# are folders under build/dkms, so nothing on the host changes.  Debian
# 13's packages come through apt with private state (build/dkms/apt-*),
# as data: nothing of trixie is installed.
# Usage: scripts/dkms-check.sh   (DKMS_ONLY: a space-separated subset,
#        PACKAGE or SUITE/PACKAGE, for a quick look: the check then fails
#        as partial; its outcomes go to build/dkms/outcomes-only-HASH;
#        DKMS_VARIANTS: a subset of the builds of each module, from
#        baseline patched fixed-baseline fixed-patched, partial too)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

W=$BUILD/dkms
tc=gcc
results_init dkms-check
[ -n "$TREE_DKMS_MODULES" ] && [ -n "$TREE_CONFIG" ] && [ -n "$TREE_HEADERS" ] ||
	fatal tree "TREE=$TREE_NAME: config/tree/$TREE_NAME names no dkms_modules, config or headers"
MODULES=$(tree_dkms_modules)
EXPECT=$ROOT/config/expect/${TREE_EXPECT:+$TREE_EXPECT/}dkms
DEBCONFIG=/usr/src/$TREE_CONFIG/config.amd64_none_amd64.xz
# The kernels: baseline and patched; a tree without series (7.3) has
# one, upstream's own, and its modules' fixes are built whatever the
# unfixed source does there (what fails on 7.3 is what the fix is for).
KV=(baseline patched)
[ -n "$SERIES_PATH" ] || KV=(baseline)
mkdir -p "$W/logs"
# A DKMS_ONLY run keeps its namespace and outcomes apart (-only-HASH of
# the selection): it can run beside a full one, or another selection.
PART=
[ -z "${DKMS_ONLY:-}${DKMS_VARIANTS:-}" ] ||
	PART=-only-$(echo "${DKMS_ONLY:-}${DKMS_VARIANTS:+/$DKMS_VARIANTS}" | md5sum | cut -c1-6)

# The modules' own build needs: ipt-netflow's configure (pkg-config,
# libxtables), OpenAFS's (autoconf output: flex, bison are in deps.sh).
# A tree of another suite (7.3): its config package is data from that
# suite, as its source is (scripts/lib/aptdata.sh), never installed.
cfgpkg=$TREE_CONFIG
[ -z "$TREE_SUITE" ] || cfgpkg=
EXTRA_PKGS="dkms $cfgpkg libxtables-dev pkg-config" "$ROOT"/scripts/deps.sh ||
	die "dkms-check needs dkms, $TREE_CONFIG, libxtables-dev (see above)"
if [ -n "$TREE_SUITE" ]; then
	deb=$(apt_data_fetch "$TREE_SUITE" "$TREE_CONFIG" "$TREE_VERSION" "$BUILD/debs" \
		"$BUILD/apt-$TREE_SUITE" "$BUILD" "config/tree/$TREE_NAME") || exit 1
	rm -rf "$W/pkg/$TREE_SUITE/$TREE_CONFIG"; mkdir -p "$W/pkg/$TREE_SUITE/$TREE_CONFIG"
	dpkg-deb -x "$deb" "$W/pkg/$TREE_SUITE/$TREE_CONFIG"
	DEBCONFIG=$W/pkg/$TREE_SUITE/$TREE_CONFIG$DEBCONFIG
fi
[ -r "$DEBCONFIG" ] || die "no $(rel "$DEBCONFIG") in $TREE_CONFIG"
"$ROOT"/scripts/tree.sh >/dev/null || die "tree or series failed (make tree)"

# --- the list: SUITE PACKAGE VERSION SOURCE USES -----------------------
# mods: "SUITE PACKAGE VERSION" of every module to build, in file order.
mods=()
declare -A tool=()
while read -r suite pkg ver _ uses; do
	if [ "$uses" = tool ]; then tool[$suite]=$ver; continue; fi
	if [ -n "${DKMS_ONLY:-}" ] && [[ " $DKMS_ONLY " != *" $pkg "* ]] &&
		[[ " $DKMS_ONLY " != *" $suite/$pkg "* ]]; then continue; fi
	mods+=("$suite $pkg $ver")
done < <(grep -v -E '^(#|$)' "$MODULES")
[ ${#mods[@]} -gt 0 ] || die "no module of $(rel "$MODULES") selected (DKMS_ONLY=${DKMS_ONLY:-})"

# --- kernels: Debian's config, modules_prepare --------------------------
kdir() { echo "$BUILD/src-$1/out-dkms-$tc"; }
toolchain "$tc"
stage "dkms kernels: Debian config ($TREE_CONFIG), modules_prepare (gcc-12)"
kbuild_repro_env
ccache_env
for v in "${KV[@]}"; do
	k=$(kdir "$v")
	want="$(git -C "$BUILD/src-$v" rev-parse HEAD) $(md5sum <"$DEBCONFIG")"
	if [ "$(info_get "$k" dkms)" = "$want" ] && [ -f "$k/include/generated/utsrelease.h" ]; then
		note "$v: up to date"
		continue
	fi
	mkdir -p "$k"
	xz -dc "$DEBCONFIG" >"$k/.config"
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

# --- packages: pinned versions, apt-get download ---------------------------
# fetch SUITE PACKAGE VERSION: unpacked in build/dkms/pkg/SUITE/PACKAGE.
fetch() { "$ROOT"/scripts/dkms-fetch.sh "$@" || exit 1; }

stage "dkms sources: ${#mods[@]} modules (apt-get download, pinned versions)"
# Debian's Module.symvers of the same version and config (from its
# linux-headers package): modpost resolves the modules' symbols as on a
# Debian system, instead of failing on every one of them.
# The headers package of the line (config/tree's headers) whose version
# is the installed source package's: same release, same Debian revision.
# (A tree of another suite: its pinned version, from that suite.)
hs=${TREE_SUITE:-bookworm}
hver=${TREE_VERSION:-$(dpkg-query -W -f '${Version}' "$TREE_PACKAGE")}
apt_data_opts "$hs" "$BUILD/apt-$hs"
hdr=$(apt-cache "${APT_DATA_OPTS[@]}" search --names-only -- "$TREE_HEADERS" | awk '{print $1}' | while read -r h; do
	apt-cache "${APT_DATA_OPTS[@]}" show "$h" | awk -v h="$h" -v w="$hver" '/^Version:/ && $2 == w { print h; exit }'
done | head -1)
[ -n "$hdr" ] || die "no package matching /$TREE_HEADERS/ has version $hver (the tree's $TREE_PACKAGE, $hs)"
fetch "$hs" "$hdr" "$hver"
cp "$(find "$W/pkg/$hs/$hdr/usr/src" -name Module.symvers | head -1)" "$W/Module.symvers" ||
	die "no Module.symvers in $hdr $hver"
for v in "${KV[@]}"; do cp "$W/Module.symvers" "$(kdir "$v")/Module.symvers"; done
note "$hdr $hver: Module.symvers ($(wc -l <"$W/Module.symvers") symbols)"
# trixie's dkms runs from its unpacked package (bookworm's is the host's).
for s in "${!tool[@]}"; do
	[ "$s" = bookworm ] && continue
	fetch "$s" dkms "${tool[$s]}"
	note "$s: dkms ${tool[$s]} (unpacked, not installed)"
done
installed=$(dpkg-query -W -f '${Version}' dkms)
[ "$installed" = "${tool[bookworm]:-}" ] ||
	note "bookworm: the host's dkms is $installed, $(rel "$MODULES") says ${tool[bookworm]:-nothing}"
for m in "${mods[@]}"; do
	read -r s p ver <<<"$m"
	[ "$s" = project ] && continue
	fetch "$s" "$p" "$ver"
done
note "${#mods[@]} module sources unpacked under $(rel "$W")/pkg"
stage_end

# msrc SUITE PACKAGE: the module source (the folder with dkms.conf).
msrc() {
	if [ "$1" = project ]; then echo "$ROOT/dkms/$2"; return; fi
	dirname "$(find "$W/pkg/$1/$2/usr/src" -maxdepth 2 -name dkms.conf | head -1)"
}

# dkms_build SUITE VARIANT SRCDIR LOG: dkms add + build of one module
# source against VARIANT's kernel with SUITE's dkms, in the private
# namespace; the make log goes to LOG, dkms's own output to LOG.dkms.
# Exit status: dkms's (77: the module excludes this kernel).
dkms_build() {
	local s=$1 v=$2 src=$3 log=$4 k name ver kver ns etc=/etc/dkms dkms=dkms
	k=$(kdir "$v")
	kver=$(cat "$k/include/config/kernel.release")
	name=$(dkms_conf "$src" PACKAGE_NAME)
	ver=$(dkms_conf "$src" PACKAGE_VERSION)
	if [ "$s" != bookworm ] && [ "$s" != project ]; then
		etc=$W/pkg/$s/dkms/etc/dkms dkms="bash $W/pkg/$s/dkms/usr/sbin/dkms"
	fi
	# One namespace per build: builds run side by side.
	ns=$W/ns$PART/$(basename "$log")
	rm -rf "$ns"; mkdir -p "$ns/var-lib-dkms" "$ns/usr-src" "$ns/lib-upper" "$ns/lib-work"
	cp -a "$src" "$ns/usr-src/$name-$ver"
	# Many modules' Makefiles use /lib/modules/KVER/build, not the
	# kernel dkms names: it is there as on a Debian system with the
	# headers installed, in an overlay of /usr/lib (/lib on Debian 12)
	# that only this namespace sees.
	# LC_ALL=C: the compiler's quotes in plain ASCII, the same everywhere.
	# PATH: the modules' gcc through ccache (Debian's masquerade links),
	# as the kernels' is: OpenAFS's hundreds of configure probes come
	# from the cache the second time.
	PATH=/usr/lib/ccache:$PATH LC_ALL=C timeout "${DKMS_TIMEOUT:-7200}" unshare -m bash -c '
		set -e
		mount --bind "$1/var-lib-dkms" /var/lib/dkms
		mount --bind "$1/usr-src" /usr/src
		mount --bind "$2" /etc/dkms
		mount -t overlay overlay -o "lowerdir=/usr/lib,upperdir=$1/lib-upper,workdir=$1/lib-work" /usr/lib
		mkdir -p "/usr/lib/modules/$6"
		ln -s "$7" "/usr/lib/modules/$6/build"
		$3 add -m "$4" -v "$5" >/dev/null
		$3 build -m "$4" -v "$5" -k "$6" --kernelsourcedir "$7"
	' _ "$ns" "$etc" "$dkms" "$name" "$ver" "$kver" "$k" >"$log.dkms" 2>&1
	local rc=$?
	cat "$ns/var-lib-dkms/$name/$ver/build/make.log" >"$log" 2>/dev/null || cp "$log.dkms" "$log"
	# A build leaves only its logs: OpenAFS's tree is 100s of MB, and
	# mimic copies the whole kernel tree before it fails (one run's
	# failed builds kept 9.4 GB).  DKMS_KEEP_TREES=1 keeps them to look into.
	[ "${DKMS_KEEP_TREES:-0}" = 1 ] || rm -rf "$ns"
	return $rc
}

# first_error LOG: the error a failed build stopped at, without paths or
# columns (7.3's kbuild names the file without a folder), the same in
# every run (ipt-netflow's log quotes its configure probes' expected
# errors in lines starting with "//": not failures).
first_error() {
	local e norm='s|^([^ :]*/)?([^/ :]+):([0-9]+):[0-9]+:|\2:\3:|; s|/[^ ]*/build/||g'
	# A compiler error at FILE:LINE, the first by file and line: dkms
	# makes with a job per core, and two files failing at once print in
	# either order (west-chamber's xt_CUI.c and xt_ZHANG.c).
	e=$(awk '!/^\/\// && /(error|Error|ERROR):/' "$1" | sed -E "$norm" |
		grep -E '^[^ :]+:[0-9]+: ' | sort -t: -k1,1 -k2,2n | head -1)
	# Else the first error line (objtool's, a linker's).
	[ -n "$e" ] || e=$(awk '!/^\/\// && /(error|Error|ERROR):/ { print; exit }' "$1")
	# No compiler error: the reason the build stopped, a missing command
	# before a missing file before make's own (mimic copies the whole
	# kernel tree first, and what cp misses there depends on what else
	# the tree holds; its build stops at vmlinux-to-btf: not found).
	[ -n "$e" ] || e=$(awk '/not found/ { print; exit }' "$1")
	[ -n "$e" ] || e=$(awk '/No such file/ { print; exit }' "$1")
	[ -n "$e" ] || e=$(awk '/\*\*\* / { print; exit }' "$1")
	echo "$e" | sed -E "$norm" | unroot | cut -c1-160
}

# outcome SUITE VARIANT SRCDIR LOGBASE: one line of build/dkms/outcomes
# for a build: "builds", "excluded", or "fails FIRST-ERROR".
outcome() {
	local rc t0=$SECONDS
	dkms_build "$1" "$2" "$3" "$4"; rc=$?
	case $rc in
	0) echo builds ;;
	77) echo excluded ;;
	124) echo "fails timeout after ${DKMS_TIMEOUT:-7200}s" ;;
	*)
		local e
		e=$(first_error "$4")
		[ -n "$e" ] || e=$(first_error "$4.dkms")
		echo "fails ${e:-no error line (dkms exit $rc)}"
		;;
	esac
	echo "$(( SECONDS - t0 ))" >"$4.secs"
}

# wanted BUILD: is BUILD (baseline, patched, fixed-baseline,
# fixed-patched) one DKMS_VARIANTS asks for (default all)?  A subset
# measures one build of a slow module (OpenAFS: about 30 min each)
# alone; with baseline left out, a fix is built if the expectations or
# the last full run (build/dkms/outcomes) say the unfixed source builds
# on the baseline.
wanted() {
	[ -z "${DKMS_VARIANTS:-}" ] || [[ " $DKMS_VARIANTS " == *" $1 "* ]]
}

# --- builds: every module on both kernels, fixed ones again -------------
# DKMS_JOBS modules at a time (default 3), each module's builds side by
# side: OpenAFS's configure runs its kbuild probes one after another,
# one core each, for 20-30 min per build; one after another its four
# builds alone took two hours.  Each module writes its outcomes to its
# own file, merged in list order; a module's line is printed when it
# ends.
OUT=$W/outcomes$PART
JOBDIR=$W/jobs$PART
rm -rf "$JOBDIR" "$W/fixed$PART"; mkdir -p "$JOBDIR"

# module_job N SUITE PACKAGE VERSION: every build of one module, its
# outcome lines in $JOBDIR/N.
module_job() {
	local n=$1 s=$2 p=$3 ver=$4 src fixed fix v line bl ahead=
	local out=$JOBDIR/$n
	echo "$p ($s)" >"$out.running"
	src=$(msrc "$s" "$p")
	line="[$n/${#mods[@]}] $p $ver ($s):"
	mapfile -t fixes < <(dkms_fixes "$s" "$p")
	# A fix is built only where the source builds on the baseline
	# unfixed (not Debian 12's ipt-netflow and OpenAFS, made for 6.1: it
	# would say nothing about the series).  Where the expectations (or,
	# with baseline left out, the last full run) say it does, the fixed
	# builds start beside the unfixed ones; otherwise after them.
	grep -qs "^$s $p baseline builds" "$EXPECT" "$W/outcomes" && ahead=1
	[ ${#KV[@]} -gt 1 ] || ahead=1
	for v in "${KV[@]}"; do
		wanted "$v" && outcome "$s" "$v" "$src" "$W/logs/$s-$p-$v.log" >"$out.$v" &
	done
	fix_builds() {
		local fix fixed v
		for fix in "${fixes[@]}"; do
			fixed=$W/fixed$PART/$s/$p
			rm -rf "$fixed"; mkdir -p "$(dirname "$fixed")"; cp -a "$src" "$fixed"
			if ! patch -d "$fixed" -p1 -s -F0 <"$fix" >"$W/logs/$s-$p-fix.log" 2>&1; then
				echo "fails $(basename "$fix") does not apply at fuzz 0" >"$out.fix"
				continue
			fi
			for v in "${KV[@]}"; do
				wanted "fixed-$v" && outcome "$s" "$v" "$fixed" "$W/logs/$s-$p-fixed-$v.log" >"$out.fixed-$v" &
			done
		done
		wait
	}
	[ ${#fixes[@]} -gt 0 ] && [ -n "$ahead" ] && fix_builds &
	wait
	for v in "${KV[@]}"; do
		[ -s "$out.$v" ] || continue
		echo "$s $p $v $(cat "$out.$v")" >>"$out"
		line+=" $v $(cut -d' ' -f1 "$out.$v") ($(cat "$W/logs/$s-$p-$v.log.secs")s)"
	done
	if [ ${#fixes[@]} -gt 0 ]; then
		bl=$(cat "$out.baseline" 2>/dev/null)
		if [ ${#KV[@]} -gt 1 ] && [ "${bl%% *}" != builds ] && ! { ! wanted baseline && [ -n "$ahead" ]; }; then
			line+="; $(basename "${fixes[0]}"): not built (the source fails on the baseline unfixed)"
			rm -f "$out".fix*
		else
			[ -n "$ahead" ] || fix_builds
			line+="; + $(basename "${fixes[0]}"):"
			if [ -s "$out.fix" ]; then
				echo "$s $p fix $(cat "$out.fix")" >>"$out"
				line+=" does not apply"
			fi
			for v in "${KV[@]}"; do
				[ -s "$out.fixed-$v" ] || continue
				echo "$s $p fixed-$v $(cat "$out.fixed-$v")" >>"$out"
				line+=" $v $(cut -d' ' -f1 "$out.fixed-$v") ($(cat "$W/logs/$s-$p-fixed-$v.log.secs")s)"
			done
		fi
	fi
	note "$line"
	rm -f "$out.running"
}

# wait_below K: until fewer than K module jobs run; every 5 min, which.
wait_below() {
	local t=$SECONDS
	while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do
		sleep 5
		if [ $((SECONDS - t)) -ge 300 ]; then
			t=$SECONDS
			note "... $(date +%H:%M:%S) still building: $(cat "$JOBDIR"/*.running 2>/dev/null | paste -sd, | sed 's/,/, /g')"
		fi
	done
}

stage "dkms build: ${#mods[@]} modules x {${KV[*]}}, ${DKMS_JOBS:=3} at a time"
i=0
for m in "${mods[@]}"; do
	read -r s p ver <<<"$m"
	i=$((i + 1))
	[ -f "$(msrc "$s" "$p")/dkms.conf" ] || die "$p ($s): no dkms.conf in its package"
	wait_below "$DKMS_JOBS"
	module_job "$i" "$s" "$p" "$ver" &
done
wait_below 1
wait
: >"$OUT"
for n in $(seq 1 ${#mods[@]}); do cat "$JOBDIR/$n" >>"$OUT"; done
stage_end

# --- judge: outcomes against the expectation ----------------------------------
stage "dkms verdict: outcomes against $(rel "$EXPECT")"
"$ROOT"/scripts/dkms-judge.sh "$OUT" "$EXPECT"
[ -z "${DKMS_ONLY:-}" ] || result fail dkms-partial "DKMS_ONLY=$DKMS_ONLY: not every module was built"
[ -z "${DKMS_VARIANTS:-}" ] || result fail dkms-partial-variants "DKMS_VARIANTS=$DKMS_VARIANTS: not every build of a module was made"
stage_end

# --- break once: the verdict on broken copies of this run's outcomes ----
stage "dkms: break once (the verdict on edited copies of this run's outcomes)"
tmp=$(mktemp -d)
# broke NAME WHAT PATTERN OUTCOMES EXPECT: the verdict must fail, saying PATTERN.
broke() {
	local out line
	if out=$(run_results "$ROOT"/scripts/dkms-judge.sh "$4" "$5" 2>&1); then
		result fail "dkms-break-$1" "$2: still passed"
	elif line=$(grep -m1 -E -- "$3" <<<"$out"); then
		result pass "dkms-break-$1" "$2 -> $(tr '\t' ' ' <<<"$line" | cut -c1-140)"
	else
		result fail "dkms-break-$1" "$2: failed without /$3/"
	fi
}
# The first module the series breaks, as measured (if any): its outcome
# changed, then its fix taken away.
read -r bs bp _ < <(awk '$3 == "baseline" && $4 == "builds" { b[$1 " " $2] = 1 }
	$3 == "patched" && $4 != "builds" && b[$1 " " $2] { print $1, $2; exit }' "$OUT")
if [ -n "${bp:-}" ]; then
	awk -v s="$bs" -v p="$bp" '$1 == s && $2 == p && $3 == "patched" { $0 = s " " p " patched builds" } 1' "$OUT" >"$tmp/changed"
	broke changed "$bp ($bs) building on the patched kernel" "dkms-$bs-$bp.outcome differs" "$tmp/changed" "$EXPECT"
	grep -v -E "^$bs $bp fix" "$OUT" >"$tmp/nofix"
	grep -v -E "^$bs $bp fix" "$EXPECT" >"$tmp/nofix-expect"
	broke nofix "$bp ($bs) without its fix, expected so" "dkms-$bs-$bp.broken by the series and no fix" "$tmp/nofix" "$tmp/nofix-expect"
fi
# On a tree without series (7.3): the first module that its fix makes
# build there, its fixed build taken away (in the outcomes and the
# expectations alike).
if [ ${#KV[@]} -eq 1 ]; then
	read -r fs fp _ < <(awk '$3 == "baseline" && $4 == "fails" { f[$1 " " $2] = 1 }
		$3 == "fixed-baseline" && $4 == "builds" && f[$1 " " $2] { print $1, $2; exit }' "$OUT")
	if [ -n "${fp:-}" ]; then
		grep -v -E "^$fs $fp fixed-" "$OUT" >"$tmp/nofix-one"
		grep -v -E "^$fs $fp fixed-" "$EXPECT" >"$tmp/nofix-one-expect"
		broke nofix-one "$fp ($fs) on $TREE_NAME without its fix, expected so" \
			"dkms-$fs-$fp.*no fix in dkms/ clears it" "$tmp/nofix-one" "$tmp/nofix-one-expect"
	fi
fi
# A module the expectation does not know (one line of it gone).
read -r ms mp _ < <(awk 'NR == 1' "$OUT")
grep -v -E "^$ms $mp " "$EXPECT" >"$tmp/lost"
broke unknown "$mp ($ms) not in the expectations" "dkms-$ms-$mp.outcome differs" "$OUT" "$tmp/lost"
rm -rf "$tmp"
stage_end

# --- the table -----------------------------------------------------------
table=$W/table.md
{
	echo "| module | version | suite | changed API used | baseline | patched | first error (patched, else baseline) | fix | fixed: baseline / patched |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for m in "${mods[@]}"; do
		read -r s p ver <<<"$m"
		uses=$(awk -v s="$s" -v p="$p" '$1 == s && $2 == p { print $5 }' "$MODULES")
		get() { awk -v s="$s" -v p="$p" -v v="$1" '$1 == s && $2 == p && $3 == v { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$OUT"; }
		b=$(get baseline) pt=$(get patched) err=-
		[ -n "$pt" ] || pt=-
		if [ "${pt%% *}" = fails ]; then err=${pt#fails }; elif [ "${b%% *}" = fails ]; then err=${b#fails }; fi
		fix=- fixed=-
		if f=$(dkms_fixes "$s" "$p" | head -1) && [ -n "$f" ]; then
			fix=$(basename "$f")
			fixed="$(get fixed-baseline | cut -d' ' -f1) / $(get fixed-patched | cut -d' ' -f1)"
			[ ${#KV[@]} -gt 1 ] || fixed="$(get fixed-baseline | cut -d' ' -f1) / -"
			[ "$fixed" != " / " ] || fixed="not built (fails on the baseline unfixed)"
		fi
		echo "| $p | $ver | $s | ${uses//,/, } | ${b%% *} | ${pt%% *} | \`${err//|/\\|}\` | $fix | $fixed |"
	done
} >"$table"
sed -i 's/| `-` |/| - |/' "$table"
note "table: $(rel "$table")"
nb=$(grep -c ' baseline builds' "$OUT"); np=$(grep -c ' patched builds' "$OUT")
broke=$(awk '$3 == "baseline" && $4 == "builds" { b[$1 " " $2] = 1 } $3 == "patched" && $4 != "builds" && b[$1 " " $2] { n++ } END { print n + 0 }' "$OUT")
note "${#mods[@]} modules: $nb build on the baseline, $np on the patched kernel; the series breaks $broke"

finish
