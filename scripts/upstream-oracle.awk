# make upstream-oracle's two steps (scripts/upstream-oracle.sh).
#
# -v mode=merge: one tree's definitions from spatch's facts
#   (scripts/cocci/sockaddr-unsized.cocci -D defs -D storage: DEF file
#   line function new|old|storage, PARSE) and the text's
#   (upstream-oracle-defs.awk: GDEF file line function type), after a
#   first input of the set-address files (SCOPE file).  Out, one per
#   function and file: D function file line type scope src, type the
#   strongest seen (unsized > storage > sockaddr > other), scope 1 for a
#   set-address file, src spatch or grep (only the text saw that type:
#   spatch skipped the function).
#
# -v mode=compare -v tree=T: the anchor's definitions (first input, D
#   lines), the tree's (second), config/upstream-oracle's entries of T
#   (third: E function file class reason).  A function is converted
#   when its address parameter is struct sockaddr_unsized *, or struct
#   sockaddr_storage * in a set-address file.  Every function converted
#   upstream is looked up in T by function and file, else by name in
#   another file (moved); every function converted in T and not paired
#   with one converted upstream is a difference too.  Out:
#     ROW kind function upstream-file tree-file class detail verdict reason
#   class: converted, moved (converted, another file), absent (no such
#   function in T: automatic), not-converted (upstream converted it, T
#   has it with another type), backport-only (T converted it, upstream
#   did not or has no such function); verdict: ok, auto, listed,
#   UNLISTED; and STALE function file class for an entry that matched
#   no difference.
BEGIN { FS = OFS = "\t"; rank["unsized"] = 4; rank["storage"] = 3; rank["sockaddr"] = 2; rank["other"] = 1 }

# ---- merge
mode == "merge" && $1 == "SCOPE" { scope[$2] = 1; next }
mode == "merge" && ($1 == "DEF" || $1 == "GDEF") {
	t = $5
	if (t == "new") t = "unsized"; else if (t == "old") t = "sockaddr"
	k = $4 SUBSEP $2
	if (!(k in type)) { type[k] = t; line[k] = $3; order[++n] = k; src[k] = ($1 == "DEF" ? "spatch" : "grep") }
	else if (rank[t] > rank[type[k]]) { type[k] = t; src[k] = ($1 == "DEF" ? "spatch" : "grep") }
	else if (rank[t] == rank[type[k]] && $1 == "DEF") src[k] = "spatch"
	next
}

# ---- compare: D function file line type scope src
mode == "compare" && FILENAME == ARGV[1] && $1 == "D" { uk = $2 SUBSEP $3; utype[uk] = $5; uscope[uk] = $6; ufiles[$2] = ufiles[$2] " " $3; next }
mode == "compare" && FILENAME == ARGV[2] && $1 == "D" { tk = $2 SUBSEP $3; ttype[tk] = $5; tscope[tk] = $6; tfiles[$2] = tfiles[$2] " " $3; next }
mode == "compare" && FILENAME == ARGV[3] && $1 == "E" { ek = $2 SUBSEP $3 SUBSEP $4; entry[ek] = $5; next }

function conv(t, s) { return t == "unsized" || (t == "storage" && s == 1) }
function kindof(t) { return t == "storage" ? "storage" : "unsized" }

# verdict CLASS FN TREEFILE: listed (and the entry used), auto or UNLISTED.
function verdict(class, fn, f,   ek) {
	if (class == "converted" || class == "moved") return "ok"
	if (class == "absent") return "auto"
	ek = fn SUBSEP f SUBSEP class
	if (ek in entry) { used[ek] = 1; why = entry[ek]; return "listed" }
	return "UNLISTED"
}
function row(kind, fn, uf, tf, class, detail,   v) {
	why = ""
	v = verdict(class, fn, tf)
	print "ROW", kind, fn, uf, tf, class, detail, v, why
}

END {
	if (mode != "compare") {
		for (i = 1; i <= n; i++) {
			k = order[i]; split(k, a, SUBSEP)
			print "D", a[1], a[2], line[k], type[k], (a[2] in scope ? 1 : 0), src[k]
		}
		exit
	}
	# Every function converted upstream, in T.
	for (uk in utype) {
		if (!conv(utype[uk], uscope[uk])) continue
		split(uk, a, SUBSEP); fn = a[1]; uf = a[2]; kind = kindof(utype[uk])
		if (uk in ttype) {
			paired[uk] = 1
			if (conv(ttype[uk], tscope[uk]) && kindof(ttype[uk]) == kind) row(kind, fn, uf, uf, "converted", "")
			else row(kind, fn, uf, uf, "not-converted", "takes " ttype[uk] " in " tree)
			continue
		}
		# Moved: the one definition of that name in a file where upstream
		# has none (a converted one first, when there are several).
		nc = split(tfiles[fn], c, " "); pick = ""; npick = 0; ncv = 0; cvpick = ""
		for (j = 1; j <= nc; j++) {
			if (c[j] == "" || index(" " ufiles[fn] " ", " " c[j] " ")) continue
			npick++; pick = c[j]
			if (conv(ttype[fn SUBSEP c[j]], tscope[fn SUBSEP c[j]])) { ncv++; cvpick = c[j] }
		}
		if (npick > 1 && ncv == 1) { pick = cvpick; npick = 1 }
		if (npick == 0) { row(kind, fn, uf, "-", "absent", "no definition of " fn " in " tree); continue }
		if (npick > 1) { row(kind, fn, uf, "-", "not-converted", "several definitions in " tree ":" tfiles[fn]); continue }
		tk = fn SUBSEP pick; paired[tk] = 1
		if (conv(ttype[tk], tscope[tk]) && kindof(ttype[tk]) == kind) row(kind, fn, uf, pick, "moved", "defined in " pick " in " tree)
		else row(kind, fn, uf, pick, "not-converted", "takes " ttype[tk] " in " pick " in " tree)
	}
	# Every function converted in T that no upstream one paired with.
	for (tk in ttype) {
		if (tk in paired || !conv(ttype[tk], tscope[tk])) continue
		split(tk, a, SUBSEP); fn = a[1]; tf = a[2]
		if (tk in utype) d = "takes " utype[tk] " upstream" (utype[tk] == "storage" ? " (not a set-address file there)" : "")
		else if (ufiles[fn] != "") d = "upstream only in" ufiles[fn]
		else d = "no definition of " fn " upstream"
		row(kindof(ttype[tk]), fn, "-", tf, "backport-only", d)
	}
	for (ek in entry)
		if (!(ek in used)) { split(ek, a, SUBSEP); print "STALE", a[1], a[2], a[3], entry[ek] }
}
