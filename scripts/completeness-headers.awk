# Header half of scripts/completeness.sh: spatch does not check
# prototypes, struct members or macro bodies, so scan the text.
# First input: function names (one a line); then the headers.
# Out: LEFT "file:line: name: what" for each declaration still using
# struct sockaddr * where the series wants struct sockaddr_unsized *.
BEGIN { OFS = "\t"; old = "struct sockaddr[ \t]*\\*" }

NR == FNR { name[$1] = 1; next }
FNR == 1 { instruct = ""; decl = ""; inmacro = "" }

# Bodies of the BPF_CGROUP_RUN_* macros.
/^#define[ \t]+BPF_CGROUP_RUN_/ { inmacro = $2; sub(/\(.*/, "", inmacro) }
# 6.12 passes uaddr through uncast; upstream casts it to sockaddr_unsized
# so that callers may hand any sockaddr_in/in6/un pointer.
inmacro != "" {
	if ($0 ~ old) print "LEFT", FILENAME ":" FNR ": " inmacro ": casts to struct sockaddr *"
	if (call) {
		if ($0 ~ /struct sockaddr_unsized/) call = 0
		else if (++call > 2) { print "LEFT", FILENAME ":" cline ": " inmacro ": passes uaddr to __cgroup_bpf_run_filter_sock_addr without a struct sockaddr_unsized cast"; call = 0 }
	}
	if ($0 ~ /__cgroup_bpf_run_filter_sock_addr\(/ && $0 !~ /struct sockaddr_unsized/) { call = 1; cline = FNR }
	if ($0 !~ /\\$/) { inmacro = ""; call = 0 }
	next
}

# Members of the structs the series converts.
/^struct (proto|proto_ops|ipv6_bpf_stub|bpf_sock_addr_kern)[ \t]*\{/ { instruct = $2; next }
instruct != "" && /^\};/ { instruct = ""; next }
instruct != "" {
	stmt = stmt $0 " "
	if (stmt ~ /^[ \t]*$/) stmt = ""
	if ($0 !~ /;/) next
	if (stmt ~ /\(\*[ \t]*(bind|connect|pre_connect|bind_add|inet6_bind)\)/ ||
	    stmt ~ /\*[ \t]*uaddr[ \t]*;/)
		if (stmt ~ old) {
			m = stmt; sub(/^[^(]*\(\*[ \t]*/, "", m); sub(/\).*/, "", m)
			if (stmt ~ /uaddr[ \t]*;/) m = "uaddr"
			print "LEFT", FILENAME ":" FNR ": " instruct "." m ": takes struct sockaddr *"
		}
	stmt = ""
	next
}

# Prototypes of the named functions (definitions are spatch's job).
decl != "" {
	text = text " " $0
	if ($0 ~ /[;{]/) { verdict(); decl = "" }
	next
}
/^[^#\/ \t*].*[A-Za-z0-9_]+[ \t]*\(/ {
	s = $0; sub(/[ \t]*\(.*/, "", s); sub(/.*[ \t*]/, "", s)
	if (s in name) {
		decl = s; text = $0; line = FNR
		if ($0 ~ /[;{]/) { verdict(); decl = "" }
	}
}

function verdict() {
	if (text ~ /\{/) return
	if (text ~ old) print "LEFT", FILENAME ":" line ": " decl ": prototype takes struct sockaddr *"
}
