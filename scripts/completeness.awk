# Join the per-file facts of scripts/completeness.sh (tab-separated, see
# scripts/cocci/sockaddr-unsized.cocci) into verdicts.  Tables and the
# functions they name live in different files, so this runs over all.
#
# Out:  LEFT   "file:line: function: what"
#       NODEF  function  table-site       (no definition seen; the shell greps)
#       MISSED file                       (grep saw a table entry spatch did not)
BEGIN { FS = OFS = "\t" }

# Which fields each table type converts.
function wanted(kind, field) {
	if (kind == "proto_ops") return field == "bind" || field == "connect"
	if (kind == "proto") return field ~ /^(bind|connect|pre_connect|bind_add)$/
	if (kind == "ipv6_bpf_stub") return field == "inet6_bind"
	return kind == "helper"
}

$1 == "INIT" || $1 == "GINIT" {
	k = $2 ":" $3
	if ($1 == "GINIT" && !(k in site)) missed[$2] = 1
	if (k in site || !wanted($4, $6) || $7 == "NULL") next
	site[k] = $4 " " $5 "." $6; fnof[k] = $7; fileof[k] = $2
	next
}
$1 == "DEF" { n = ++ndef[$4]; dfile[$4, n] = $2; dline[$4, n] = $3; dstate[$4, n] = $5; next }
$1 == "STATIC" { static[$2 ":" $3] = 1; next }
$1 == "CALL" {
	k = $2 ":" $3
	if (!(k in called)) print "LEFT", k ": " $4 ": passes struct sockaddr * (" $5 ")"
	called[k] = 1
	next
}
$1 == "GCALL" { k = $2 ":" $3; if (!(k in called)) print "LEFT", k ": " $4 ": passes struct sockaddr * (grep)"; called[k] = 1 }

END {
	for (k in site) {
		fn = fnof[k]; same = 0
		for (i = 1; i <= ndef[fn]; i++) if (dfile[fn, i] == fileof[k]) same = 1
		found = 0
		for (i = 1; i <= ndef[fn]; i++) {
			d = dfile[fn, i] ":" dline[fn, i]
			# A definition in the table's file wins; elsewhere only
			# non-static ones can be the one the table names.
			if (same && dfile[fn, i] != fileof[k]) continue
			if (!same && static[d]) continue
			found = 1
			if (dstate[fn, i] == "old" && !(d in told)) {
				told[d] = 1
				print "LEFT", d ": " fn ": takes struct sockaddr * (" \
					(site[k] ~ /^helper/ ? "helper on the call path" : site[k] " at " k) ")"
			}
		}
		if (!found) print "NODEF", fn, k
	}
	for (f in missed) print "MISSED", f
}
