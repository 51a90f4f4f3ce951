// Report-only semantic patch for scripts/completeness.sh.
// It prints tab-separated facts per file; the shell joins them across
// files, because an ops table and the function it names are often in
// different files (inet_stream_connect is defined in af_inet.c and used
// in af_inet6.c).
//
//   INIT   file line table-type table field function  (-D tables)
//   CALL   file line callee argument                  (-D tables)
//   DEF    file line function old|new                 (-D defs)
//   STATIC file line function        (-D defs, old static definitions)
//   DEF    file line function storage  (-D storage: make upstream-oracle's
//                                       set-address paths)
// Two passes keep it fast: -D tables over files naming the tables or
// callees, then -D defs only over files naming an assigned function.
// scripts/upstream-oracle.sh runs -D defs -D storage over the files of
// each tree that have sockaddr_unsized or a set-address path.
virtual tables
virtual defs
virtual storage

// Callbacks assigned in ops-table initialisers.
@ops depends on tables@
identifier I, fn;
identifier fld =~ "^(bind|connect)$";
position p;
@@
struct proto_ops I = { ..., .fld = fn@p, ... };

@script:python@
I << ops.I; fn << ops.fn; fld << ops.fld; p << ops.p;
@@
print("INIT\t%s\t%s\tproto_ops\t%s\t%s\t%s" % (p[0].file, p[0].line, I, fld, fn))

@prot depends on tables@
identifier I, fn;
identifier fld =~ "^(bind|connect|pre_connect|bind_add)$";
position p;
@@
struct proto I = { ..., .fld = fn@p, ... };

@script:python@
I << prot.I; fn << prot.fn; fld << prot.fld; p << prot.p;
@@
print("INIT\t%s\t%s\tproto\t%s\t%s\t%s" % (p[0].file, p[0].line, I, fld, fn))

@stub@
identifier I, fn;
identifier fld =~ "^inet6_bind$";
position p;
@@
struct ipv6_bpf_stub I = { ..., .fld = fn@p, ... };

@script:python@
I << stub.I; fn << stub.fn; fld << stub.fld; p << stub.p;
@@
print("INIT\t%s\t%s\tipv6_bpf_stub\t%s\t%s\t%s" % (p[0].file, p[0].line, I, fld, fn))

// Every definition taking an address: the shell keeps the ones whose
// name was assigned above.  Static ones only match tables in their file.
@olddef depends on defs@
identifier fn, a;
type T;
position p;
@@
T fn@p(..., struct sockaddr *a, ...) { ... }

@script:python@
fn << olddef.fn; p << olddef.p;
@@
print("DEF\t%s\t%s\t%s\told" % (p[0].file, p[0].line, fn))

@newdef depends on defs@
identifier fn, a;
type T;
position p;
@@
T fn@p(..., struct sockaddr_unsized *a, ...) { ... }

@script:python@
fn << newdef.fn; p << newdef.p;
@@
print("DEF\t%s\t%s\t%s\tnew" % (p[0].file, p[0].line, fn))

// Definitions taking a struct sockaddr_storage * (the set-address
// paths: dev_set_mac_address() and the functions that pass the address
// to it), for make upstream-oracle only.
@stordef depends on storage@
identifier fn, a;
type T;
position p;
@@
T fn@p(..., struct sockaddr_storage *a, ...) { ... }

@script:python@
fn << stordef.fn; p << stordef.p;
@@
print("DEF\t%s\t%s\t%s\tstorage" % (p[0].file, p[0].line, fn))

// Static old definitions: a static callback only serves tables in its
// own file (raw_bind exists in net/ipv4 and net/can).
@stdef depends on defs@
identifier fn, a;
type T;
position p;
@@
static T fn@p(..., struct sockaddr *a, ...) { ... }

@script:python@
fn << stdef.fn; p << stdef.p;
@@
print("STATIC\t%s\t%s\t%s" % (p[0].file, p[0].line, fn))

// Callers that still hand a struct sockaddr * (cast, local or
// parameter) to a converted callee.  BPF_CGROUP_RUN_* callers are not
// checked: the macros cast uaddr themselves (checked in the headers).
@callk depends on tables@
struct sockaddr *A;
expression S;
identifier k =~ "^(kernel_bind|kernel_connect|sock_bind_add|__cgroup_bpf_run_filter_sock_addr)$";
position p;
@@
 k@p(S, A, ...)

@script:python@
p << callk.p; A << callk.A; k << callk.k;
@@
print("CALL\t%s\t%s\t%s\t%s" % (p[0].file, p[0].line, k, " ".join(A.split())))

@callf depends on tables@
struct sockaddr *A;
expression S, E;
identifier f =~ "^(bind|connect|pre_connect|bind_add)$";
position p;
@@
 E->f@p(S, A, ...)

@script:python@
p << callf.p; A << callf.A; f << callf.f; E << callf.E;
@@
print("CALL\t%s\t%s\t%s\t%s" % (p[0].file, p[0].line, "".join(E.split()) + "->" + f, " ".join(A.split())))
