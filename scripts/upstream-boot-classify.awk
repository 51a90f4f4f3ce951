# make upstream-boot's judge: every difference ktapdiff found between
# patched 6.12 and upstream 7.3 (its plain output, no allow-list) must
# be classified by a rule of config/upstream-boot, and every rule must
# classify something.
#
# Usage: awk -f upstream-boot-classify.awk config/upstream-boot DIFF
# Rules, tab-separated:
#   case <TAB> PATH-ERE <TAB> REASON
#       a case (its "suite/case" path, anchored) whose result or obs
#       lines differ, for any reason: a removed protocol, a test only
#       one tree has
#   obs <TAB> LABEL-ERE <TAB> VALUES-ERE <TAB> REASON
#       one differing obs line of a case whose result is the same:
#       LABEL-ERE against its label less the kind ("getsockname_null.
#       getsockname"), VALUES-ERE against "6.12-VALUE => 7.3-VALUE"
#       (both anchored)
# Prints one line per rule ("N  REASON"), each unclassified difference,
# and "classified: N differing cases, M obs lines; U unclassified, S
# rules matched nothing"; exits 1 if U or S is not 0.
BEGIN { FS = "\t" }
FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || $0 ~ /^[[:space:]]*$/) next
	n++
	kind[n] = $1
	if ($1 == "case") { pre[n] = $2; why[n] = $3 }
	else if ($1 == "obs") { pre[n] = $2; vre[n] = $3; why[n] = $4 }
	else { printf "config/upstream-boot:%d: unknown rule kind '%s'\n", FNR, $1; bad_rules++ }
	next
}
# ktapdiff's plain output: "DIFFERENT|ONLY-IN-X PATH", then indented
# "baseline: R" / "patched : R" (the result differs) and
# "baseline obs: LABEL: V" / "patched  obs: LABEL: V" pairs.
/^(DIFFERENT|ONLY-IN-[A-Z]+) / { flush(); path = $0; sub(/^[^ ]+ /, "", path); resdiff = ($0 ~ /^ONLY/); nobs = 0; next }
path != "" && /^    (baseline|patched) *: / { resdiff = 1; next }
path != "" && /^    baseline +obs: / { l = $0; sub(/^    baseline +obs: /, "", l); split_obs(l); blab = olab; bval = oval; next }
path != "" && /^    patched +obs: / { l = $0; sub(/^    patched +obs: /, "", l); split_obs(l)
	nobs++; lab[nobs] = blab != "" ? blab : olab; val[nobs] = bval " => " oval; next }
END {
	flush()
	for (i = 1; i <= n; i++) {
		printf "%6d  %s\n", hits[i], why[i]
		if (!hits[i]) { stale++; printf "  STALE rule %d (%s %s): matched nothing\n", i, kind[i], pre[i] }
	}
	printf "classified: %d differing cases, %d obs lines; %d unclassified, %d rules matched nothing\n",
		cases, obslines, unclassified, stale
	exit (unclassified || stale || bad_rules) ? 1 : 0
}

# split_obs "LABEL: VALUE": olab (less its first dot-part, the kind or
# suite), oval; "(none)": no label, the value "(none)".
function split_obs(s,   i) {
	if (s == "(none)") { olab = ""; oval = "(none)"; return }
	i = index(s, ": ")
	olab = i ? substr(s, 1, i - 1) : s
	oval = i ? substr(s, i + 2) : ""
	sub(/^[^.]*\./, "", olab)
}

function flush(   i, j, done) {
	if (path == "") return
	cases++
	for (i = 1; i <= n; i++)
		if (kind[i] == "case" && path ~ ("^(" pre[i] ")$")) { hits[i]++; path = ""; return }
	if (resdiff || !nobs) {
		unclassified++
		printf "  UNCLASSIFIED %s: %s\n", path, resdiff ? "its result differs (only a case rule classifies it)" : "no obs line"
		path = ""; return
	}
	for (j = 1; j <= nobs; j++) {
		done = 0
		for (i = 1; i <= n && !done; i++)
			if (kind[i] == "obs" && lab[j] ~ ("^(" pre[i] ")$") && val[j] ~ ("^(" vre[i] ")$")) { hits[i]++; done = 1 }
		obslines++
		if (!done) { unclassified++; printf "  UNCLASSIFIED %s: %s: %s\n", path, lab[j], val[j] }
	}
	path = ""
}
