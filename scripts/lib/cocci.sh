# shellcheck shell=bash
# Coccinelle over a kernel tree, one file per spatch: make completeness
# (scripts/completeness.sh) and make upstream-oracle
# (scripts/upstream-oracle.sh) share the semantic patch
# scripts/cocci/sockaddr-unsized.cocci and these.  Run from the tree's
# top folder: file names are relative to it.
# Part of scripts/lib.sh, which sources it; never run on its own.

# kfiles GREP-ARGS...: kernel sources matching; tools/ is userspace
# except the BPF selftest module, which calls kernel_bind/connect
# (bpf_testmod/ up to 6.18, test_kmods/ upstream).
kfiles() {
	{
		grep -rl --exclude-dir=.git --exclude-dir=Documentation --exclude-dir=tools \
			--exclude-dir='out-*' "$@" . || true
		grep -rl "$@" tools/testing/selftests/bpf/bpf_testmod tools/testing/selftests/bpf/test_kmods 2>/dev/null || true
	} | sed 's|^\./||' | sort -u
}

# spatch_one MODES COCCI FILE: facts of one file (MODES: the virtual
# rules, comma-separated: tables, defs, storage), plus PARSE lines for
# code spatch could not parse (it skips that code silently).
spatch_one() {
	local out m d=()
	for m in ${1//,/ }; do d+=(-D "$m"); done
	out=$(nice -n 15 spatch --verbose-parsing --timeout 120 "${d[@]}" --sp-file "$2" "$3" 2>&1) || true
	grep -E $'^(INIT|DEF|STATIC|CALL)\t' <<<"$out" || true
	awk -v f="$3" -v OFS='\t' '
		index($0, " = File \"" f "\", line ") == 1 { l = $5; sub(/,/, "", l); print "PARSE", f, l }
		/timeout \(we abort\)/ { print "PARSE", f, "timeout" }' <<<"$out" | sort -u
}

# run_spatch MODES LIST COCCI: one spatch per file of LIST, since a
# multi-file run is one group matched across files (minutes, then a
# timeout); JOBS of them at once.
run_spatch() {
	export -f spatch_one
	# shellcheck disable=SC2016 # expanded by the inner bash
	xargs -a "$2" -r -n 1 -P "${JOBS:-2}" bash -c 'spatch_one "$@"' _ "$1" "$3"
}
