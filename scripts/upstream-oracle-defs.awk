# The text's view of function definitions, for make upstream-oracle
# (scripts/upstream-oracle.sh): spatch (scripts/cocci/sockaddr-unsized.cocci
# -D defs -D storage) skips a whole function whose body it cannot parse,
# and reports no definition whose address parameter has another type;
# this reads the header of every definition in the files given, as
# completeness.sh's grep does for definitions spatch never saw.
# A header starts at column 0 with an identifier, runs to the ")" that
# closes its first "(", and is a definition when "{" follows (on its
# line or the next non-blank one); a ";" makes it a prototype.
# Out: GDEF file line function type, type being the first address
# parameter found: unsized (struct sockaddr_unsized *), storage (struct
# sockaddr_storage *), sockaddr (struct sockaddr *) or other (none).
BEGIN { OFS = "\t" }
FNR == 1 { hdr = ""; pend = "" }

# A header closed on an earlier line waits for its "{" or ";".
pend != "" {
	if ($0 ~ /^[ \t]*$/) next
	if ($0 ~ /^[ \t]*\{/) print "GDEF", FILENAME, pline, pend, ptype
	pend = ""
}

hdr == "" && /^[A-Za-z_][^;=]*\(/ && !/^(typedef|struct[ \t]+[A-Za-z0-9_]+[ \t]*\{|static_assert|_Static_assert|[A-Z_]+\([^)]*\);)/ {
	hdr = " "; line = FNR
}
hdr != "" {
	hdr = hdr $0 "\n"
	t = hdr; gsub(/\/\*[^*]*\*+([^\/*][^*]*\*+)*\//, "", t)
	# Depth of parentheses from the first "(".
	d = 0; op = 0; cl = 0
	for (i = 1; i <= length(t); i++) {
		c = substr(t, i, 1)
		if (c == "(") { if (!op) op = i; d++ }
		else if (c == ")") { d--; if (op && d == 0) { cl = i; break } }
	}
	if (!cl) { if (FNR - line > 20) hdr = ""; next }
	name = substr(t, 1, op - 1); sub(/[ \t\n]+$/, "", name)
	n = split(name, w, /[ \t\n*]+/); name = w[n]
	params = substr(t, op + 1, cl - op - 1)
	rest = substr(t, cl + 1)
	hdr = ""
	if (name !~ /^[A-Za-z_][A-Za-z0-9_]*$/) next
	type = "other"
	if (params ~ /struct[ \t\n]+sockaddr_unsized[ \t\n]*\*/) type = "unsized"
	else if (params ~ /struct[ \t\n]+sockaddr_storage[ \t\n]*\*/) type = "storage"
	else if (params ~ /struct[ \t\n]+sockaddr[ \t\n]*\*/) type = "sockaddr"
	if (rest ~ /^[^;]*\{/) print "GDEF", FILENAME, line, name, type
	else if (rest !~ /;/) { pend = name; pline = line; ptype = type }
}
