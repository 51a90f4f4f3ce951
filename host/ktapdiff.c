// SPDX-License-Identifier: GPL-2.0
/*
 * ktapdiff: compare the KTAP results of two console logs case by case.
 *
 *   ktapdiff [--allow FILE --log NAME] BASELINE_LOG PATCHED_LOG
 *   ktapdiff --check [--json] LOG
 *   ktapdiff --expect FILE --log NAME --kernel KERNEL LOG
 *   ktapdiff --suites LOG
 *   ktapdiff --obs LOG
 *
 * A case is identified by its nested test path "suite/case" and compared
 * by result (ok / not ok / skip, plus directive such as TIMEOUT) and by
 * the list of "# obs " lines printed before its result line.
 *
 * Allow-list FILE: one "<log> <glob> <reason>" per line, '#' starts a
 * comment; only the entries whose <log> is the NAME of --log apply (the
 * harness's logs: "ktap", the guest suites' channel, and "console",
 * KUnit on the kernel console).  The glob (fnmatch(3) with FNM_PATHNAME:
 * '*' stops at '/') is tried against the full path "suite/case" and the
 * paths above it, so an entry names one case or one suite with all its
 * cases, and, when only obs lines differ, against the label of each
 * differing obs line ("<kind>.<case>.<step>", the text before its ':').
 * Listed differences are reported as "allowed" and do not fail the
 * comparison; an entry of the log that matched nothing, or two different
 * paths (or labels), does.
 *
 * --check prints the failed and incomplete tests, the counts at the top
 * level and below it, and last the line the harness reads:
 *   cases: P passed, F failed, S skipped
 * the nested results, or the top level's where nothing is nested; a
 * suite that failed at the top level without a failing case (a crash, a
 * timeout) counts as one more failure.  --json prints the same counts as
 * one JSON object instead.
 *
 * --expect checks one kernel's log against the expectations FILE
 * (config/expect/<arch>; config/expect/README describes the "suite",
 * "skip", "xfail", "todo" and "xpass" lines): every suite of the log is listed,
 * each listed suite passed with at least its floor of passed cases and
 * obs lines (a suite listed for the other kernel only must be absent),
 * and every skipped case is an allowed skip.  A case that says "# XFAIL",
 * "# TODO" or "# XPASS" (an expected failure that passed: the test's own
 * expectation is wrong) is counted apart, never as a passed case, and
 * must be listed the same way.  An entry that allowed nothing fails, as a stale
 * allow-list entry does (unless its suite runs on the other kernel only).
 * Each "obs" line names an obs label of one suite and the value it must
 * report there: every line of that label below that suite (and only
 * there) starts with the value, and there is at least one.  It prints
 * one result per check (the obs lines: one per suite that held, one per
 * label that did not), the harness's result line
 * "pass|fail<TAB>NAME<TAB>DETAIL", and nothing else on stdout.
 *
 * --suites prints "suite NAME PASSED OBS" per top-level test, then
 * "skip PATH", "xfail PATH", "todo PATH" or "xpass PATH" per such case: the counts
 * --expect compares with its floors.
 *
 * --obs prints every obs line of the log as "SUITE<TAB>LABEL<TAB>VALUE"
 * (SUITE the top-level test it is below, LABEL the text before its ':',
 * VALUE the text after ": "), in the log's order: what
 * scripts/expect-obs.sh selects "obs" lines from.
 *
 * Exit: 0 no unallowed difference (--check: complete, nothing failed;
 * --expect: every expectation held), 1 differences (--check: failures;
 * --expect: an expectation failed), 2 usage or parse errors.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"

struct entry {
	char *key;		/* "suite/case" */
	const char *suite;	/* top-level test name */
	char *kind;		/* case name up to the first '.' */
	struct ktap_test *t;
};

struct flat {
	struct entry *e;
	int n;
};

struct allow {
	char *glob;
	char *reason;
	int used;
	char *anchor;	/* the first path (or obs label) it matched */
	char *other;	/* another one: the entry is too broad */
};

/* The words of one data line: up to @max, the last takes the rest. */
static int split_words(char *line, char **w, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	line += strspn(line, " \t");
	if (*line == '#')
		return 0;
	while (*line && n < max) {
		w[n++] = line;
		if (n == max)
			break;
		line += strcspn(line, " \t");
		if (*line)
			*line++ = '\0';
		line += strspn(line, " \t");
	}
	return n;
}

struct allow_list {
	struct allow *a;
	int n;
};

enum verdict { SAME, DIFFERENT, ALLOWED, ONLY_A, ONLY_B };

struct row {
	const char *suite, *kind;
	int cases, equal, different, allowed, only, skipped;
	int obs, obs_differ;	/* obs lines of compared cases */
};


/* Absolute paths would differ between hosts: show the file name only. */
static const char *shown(const char *path)
{
	const char *slash = strrchr(path, '/');

	return path[0] == '/' && slash ? slash + 1 : path;
}

/*
 * kselftest_harness names tests FIXTURE.TEST or FIXTURE.VARIANT.TEST:
 * the socket kind is the variant when there is one, else the fixture.
 */
static char *kind_of(const char *name, int depth)
{
	const char *dot, *dot2;

	if (depth == 0)
		return strdup("(suite)");
	dot = strchr(name, '.');
	dot2 = dot ? strchr(dot + 1, '.') : NULL;
	if (dot2 && !strchr(dot2 + 1, ' '))
		return strndup(dot + 1, dot2 - dot - 1);
	return strndup(name, strcspn(name, "."));
}

static void flatten(struct flat *f, struct ktap_test *t, const char *prefix,
		    const char *suite, int depth)
{
	for (int i = 0; i < t->nsub; i++) {
		struct ktap_test *s = t->sub[i];
		struct entry *e;
		int dup = 0;

		for (int j = 0; j < i; j++)
			dup |= !strcmp(t->sub[j]->name, s->name);
		f->e = xrealloc(f->e, (f->n + 1) * sizeof(*f->e));
		e = &f->e[f->n++];
		if (asprintf(&e->key, "%s%s%s%s%.0d%s", prefix,
			     *prefix ? "/" : "", s->name, dup ? "[" : "",
			     dup ? s->number : 0, dup ? "]" : "") < 0)
			exit(2);
		e->suite = depth ? suite : s->name;
		e->kind = kind_of(s->name, depth);
		e->t = s;
		flatten(f, s, e->key, e->suite, depth + 1);
	}
}

static void free_flat(struct flat *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->e[i].key);
		free(f->e[i].kind);
	}
	free(f->e);
}

static int load(const char *path, const char *role, struct ktap_log *log,
		struct flat *f)
{
	if (ktap_parse_file(path, log)) {
		fprintf(stderr, "ktapdiff: %s log %s: %s\n", role, shown(path),
			log->error);
		return -1;
	}
	memset(f, 0, sizeof(*f));
	flatten(f, &log->root, "", "", 0);
	return 0;
}

static int load_allow(const char *path, const char *log,
		      struct allow_list *al)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	if (!fp) {
		fprintf(stderr, "ktapdiff: allow-list %s: %m\n", shown(path));
		return -1;
	}
	while (getline(&line, &cap, fp) >= 0) {
		char *w[3];
		int n = split_words(line, w, 3);

		lineno++;
		if (!n)
			continue;
		if (n < 3) {
			fprintf(stderr, "ktapdiff: allow-list %s:%d: \"%s\" "
				"needs a log, a case and a reason\n",
				shown(path), lineno, w[n - 1]);
			free(line);
			fclose(fp);
			return -1;
		}
		if (strcmp(w[0], log))
			continue;
		al->a = xrealloc(al->a, (al->n + 1) * sizeof(*al->a));
		al->a[al->n++] = (struct allow){ strdup(w[1]), strdup(w[2]), 0,
						 NULL, NULL };
	}
	free(line);
	fclose(fp);
	return 0;
}

/* The entry whose glob matches @s or a path above it ("a/b" for "a/b/c"). */
static struct allow *match(struct allow_list *al, const char *s)
{
	char *p = strdup(s), *slash;

	for (;;) {
		for (int i = 0; i < al->n; i++) {
			struct allow *a = &al->a[i];

			if (fnmatch(a->glob, p, FNM_PATHNAME))
				continue;
			a->used = 1;
			if (!a->anchor)
				a->anchor = strdup(p);
			else if (strcmp(a->anchor, p) && !a->other)
				a->other = strdup(p);
			free(p);
			return a;
		}
		slash = strrchr(p, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(p);
	return NULL;
}

/* The obs label: "<kind>.<case>.<step>" up to the ':'. */
static struct allow *match_obs(struct allow_list *al, const char *obs)
{
	char *label = strndup(obs, strcspn(obs, ":"));
	struct allow *hit = match(al, label);

	free(label);
	return hit;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_test(const struct ktap_test *a, const struct ktap_test *b)
{
	if (a->result != b->result || !same_str(a->directive, b->directive) ||
	    a->incomplete != b->incomplete || a->nobs != b->nobs)
		return 0;
	for (int i = 0; i < a->nobs; i++)
		if (strcmp(a->obs[i], b->obs[i]))
			return 0;
	return 1;
}

/*
 * A difference is allowed if the test path (or a path above it) matches,
 * or if only obs lines differ and each differing line's label matches.
 */
static struct allow *allowed(struct allow_list *al, const struct entry *e,
			     const struct entry *other)
{
	const struct ktap_test *a, *b;
	struct allow *hit = NULL;

	if ((hit = match(al, e->key)) || !other)
		return hit;
	a = e->t;
	b = other->t;
	if (a->result != b->result || !same_str(a->directive, b->directive) ||
	    a->incomplete != b->incomplete || a->nobs != b->nobs)
		return NULL;
	for (int i = 0; i < a->nobs; i++) {
		struct allow *h;

		if (!strcmp(a->obs[i], b->obs[i]))
			continue;
		h = match_obs(al, a->obs[i]);
		if (!h)
			h = match_obs(al, b->obs[i]);
		if (!h)
			return NULL;
		hit = hit ? hit : h;
	}
	return hit;
}

static const struct entry *find(const struct flat *f, const char *key)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->e[i].key, key))
			return &f->e[i];
	return NULL;
}

static void print_result(const char *side, const struct ktap_test *t)
{
	printf("    %s: %s%s%s%s\n", side, ktap_result_name(t->result),
	       t->directive ? " # " : "", t->directive ? t->directive : "",
	       t->incomplete ? " (nested results incomplete)" : "");
}

static void print_diff(const struct ktap_test *a, const struct ktap_test *b)
{
	int n = a->nobs > b->nobs ? a->nobs : b->nobs;

	if (a->result != b->result || !same_str(a->directive, b->directive) ||
	    a->incomplete != b->incomplete) {
		print_result("baseline", a);
		print_result("patched ", b);
	}
	for (int i = 0; i < n; i++) {
		const char *oa = i < a->nobs ? a->obs[i] : "(none)";
		const char *ob = i < b->nobs ? b->obs[i] : "(none)";

		if (strcmp(oa, ob))
			printf("    baseline obs: %s\n    patched  obs: %s\n",
			       oa, ob);
	}
}

static struct row *row_for(struct row **rows, int *nrows, const char *suite,
			   const char *kind)
{
	for (int i = 0; i < *nrows; i++)
		if (!strcmp((*rows)[i].suite, suite) &&
		    !strcmp((*rows)[i].kind, kind))
			return &(*rows)[i];
	*rows = xrealloc(*rows, (*nrows + 1) * sizeof(**rows));
	memset(&(*rows)[*nrows], 0, sizeof(**rows));
	(*rows)[*nrows].suite = suite;
	(*rows)[*nrows].kind = kind;
	return &(*rows)[(*nrows)++];
}

static void count(struct row *r, enum verdict v, const struct entry *a,
		  const struct entry *b)
{
	r->cases++;
	r->equal += v == SAME;
	r->different += v == DIFFERENT;
	r->allowed += v == ALLOWED;
	r->only += v == ONLY_A || v == ONLY_B;
	r->skipped += (a && a->t->result == KTAP_SKIP) ||
		      (b && b->t->result == KTAP_SKIP);
	if (!a || !b)
		return;
	for (int i = 0; i < a->t->nobs || i < b->t->nobs; i++) {
		r->obs++;
		r->obs_differ += i >= a->t->nobs || i >= b->t->nobs ||
				 strcmp(a->t->obs[i], b->t->obs[i]);
	}
}

static void print_table(const struct row *rows, int nrows)
{
	const char *suite = NULL;

	for (int i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];

		if (!suite || strcmp(suite, r->suite)) {
			suite = r->suite;
			printf("suite %s\n  %-22s %6s %6s %6s %7s %8s %7s"
			       " %5s %9s\n", suite, "kind", "cases", "equal",
			       "differ", "allowed", "only-one", "skipped",
			       "obs", "obs-diff");
		}
		printf("  %-22s %6d %6d %6d %7d %8d %7d %5d %9d\n", r->kind,
		       r->cases, r->equal, r->different, r->allowed, r->only,
		       r->skipped, r->obs, r->obs_differ);
	}
}

/* One line per non-equal case, then the details. Returns unallowed count. */
static int compare(const struct flat *fa, const struct flat *fb,
		   struct allow_list *al)
{
	struct row *rows = NULL;
	int nrows = 0, bad = 0, pass;

	/* Two passes: first the table, then the differences. */
	for (pass = 0; pass < 2; pass++) {
		for (int i = 0; i < fa->n + fb->n; i++) {
			const struct entry *a, *b, *e;
			struct allow *al_hit = NULL;
			enum verdict v;

			if (i < fa->n) {
				a = &fa->e[i];
				b = find(fb, a->key);
			} else {
				b = &fb->e[i - fa->n];
				a = NULL;
				if (find(fa, b->key))
					continue;
			}
			e = a ? a : b;
			if (!a || !b)
				v = a ? ONLY_A : ONLY_B;
			else
				v = same_test(a->t, b->t) ? SAME : DIFFERENT;
			if (v != SAME && (al_hit = allowed(al, e, a && b ? b : NULL)) &&
			    v == DIFFERENT)
				v = ALLOWED;
			if (pass == 0) {
				count(row_for(&rows, &nrows, e->suite, e->kind),
				      v, a, b);
				bad += v != SAME && !al_hit;
				continue;
			}
			if (v == SAME)
				continue;
			printf("%s %s%s%s\n",
			       v == ONLY_A ? "ONLY-IN-BASELINE" :
			       v == ONLY_B ? "ONLY-IN-PATCHED" :
			       v == ALLOWED ? "ALLOWED" : "DIFFERENT", e->key,
			       al_hit ? ": " : "",
			       al_hit ? al_hit->reason : "");
			if (a && b)
				print_diff(a->t, b->t);
		}
		if (pass == 0) {
			print_table(rows, nrows);
			if (bad || nrows)
				printf("\n");
		}
	}
	free(rows);
	return bad;
}

static int diff_main(const char *allow_path, const char *log,
		     const char *pa, const char *pb)
{
	struct allow_list al = { NULL, 0 };
	struct ktap_log la, lb;
	struct flat fa, fb;
	int bad, ret = 2;

	if (allow_path && load_allow(allow_path, log, &al))
		goto out_allow;
	if (load(pa, "baseline", &la, &fa))
		goto out_a;
	if (load(pb, "patched", &lb, &fb))
		goto out_b;

	printf("baseline: %s\npatched:  %s\n\n", shown(pa), shown(pb));
	bad = compare(&fa, &fb, &al);
	/* A stale entry would allow a future difference unseen; a broad
	 * one (two cases, two suites) would allow differences it was never
	 * meant for: its glob may name one path of the two logs. */
	for (int i = 0; i < al.n; i++)
		for (int j = 0; j < fa.n + fb.n && !al.a[i].other; j++) {
			const char *k = j < fa.n ? fa.e[j].key : fb.e[j - fa.n].key;

			if (fnmatch(al.a[i].glob, k, FNM_PATHNAME))
				continue;
			if (!al.a[i].anchor)
				al.a[i].anchor = strdup(k);
			else if (strcmp(al.a[i].anchor, k))
				al.a[i].other = strdup(k);
		}
	for (int i = 0; i < al.n; i++) {
		if (!al.a[i].used) {
			printf("STALE allow-list entry \"%s %s\": matched nothing\n",
			       log, al.a[i].glob);
			bad++;
		}
		if (al.a[i].other) {
			printf("BROAD allow-list entry \"%s %s\": matched %s and %s, "
			       "name one case or suite\n", log, al.a[i].glob,
			       al.a[i].anchor, al.a[i].other);
			bad++;
		}
	}
	printf("%d unallowed difference%s\n", bad, bad == 1 ? "" : "s");
	ret = bad ? 1 : 0;

	free_flat(&fb);
out_b:
	ktap_free(&lb);
	free_flat(&fa);
out_a:
	ktap_free(&la);
out_allow:
	for (int i = 0; i < al.n; i++) {
		free(al.a[i].glob);
		free(al.a[i].reason);
		free(al.a[i].anchor);
		free(al.a[i].other);
	}
	free(al.a);
	return ret;
}

struct counts {
	int passed, failed, skipped;
};

/* --json: tally() counts without naming the failures. */
static int tally_quiet;

static void tally(const struct ktap_test *t, int depth, struct counts *top,
		  struct counts *nested, const char *path)
{
	for (int i = 0; i < t->nsub; i++) {
		const struct ktap_test *s = t->sub[i];
		struct counts *c = depth ? nested : top;
		char sub_path[1024];

		snprintf(sub_path, sizeof(sub_path), "%s%s%s", path,
			 depth ? "/" : "", s->name);
		c->passed += s->result == KTAP_PASS;
		c->skipped += s->result == KTAP_SKIP;
		if (s->result == KTAP_FAIL || s->result == KTAP_NONE) {
			c->failed++;
			if (!tally_quiet)
				printf("failed: %s%s%s\n", sub_path,
				       s->directive ? " # " : "",
				       s->directive ? s->directive : "");
		}
		/* A suite that says ok but lost results still failed. */
		if (s->incomplete) {
			if (!tally_quiet)
				printf("incomplete: %s (%d of %d nested results)\n",
				       sub_path, s->nsub, s->plan);
			c->failed += s->result != KTAP_FAIL &&
				     s->result != KTAP_NONE;
		}
		tally(s, depth + 1, top, nested, sub_path);
	}
}

/* The cases: what a harness counts (see the head of this file). */
static struct counts cases_of(struct counts top, struct counts nested)
{
	struct counts c = nested;

	if (!nested.passed && !nested.failed && !nested.skipped)
		return top;
	if (top.failed > c.failed)
		c.failed = top.failed;
	return c;
}

static void print_json(const char *name, struct counts c, const char *sep)
{
	printf("\"%s\": {\"passed\": %d, \"failed\": %d, \"skipped\": %d}%s",
	       name, c.passed, c.failed, c.skipped, sep);
}

static int check_main(const char *path, int json)
{
	struct counts top = { 0, 0, 0 }, nested = { 0, 0, 0 }, cases;
	struct ktap_log log;

	if (ktap_parse_file(path, &log)) {
		fprintf(stderr, "ktapdiff: %s: %s\n", shown(path), log.error);
		ktap_free(&log);
		return 2;
	}
	tally_quiet = json;
	tally(&log.root, 0, &top, &nested, "");
	cases = cases_of(top, nested);
	if (json) {
		printf("{");
		print_json("top", top, ", ");
		print_json("nested", nested, ", ");
		print_json("cases", cases, "}\n");
	} else {
		printf("top level: %d passed, %d failed, %d skipped\n",
		       top.passed, top.failed, top.skipped);
		printf("nested:    %d passed, %d failed, %d skipped\n",
		       nested.passed, nested.failed, nested.skipped);
		printf("cases: %d passed, %d failed, %d skipped\n",
		       cases.passed, cases.failed, cases.skipped);
	}
	ktap_free(&log);
	return top.failed || nested.failed ? 1 : 0;
}

/* --- --expect: one kernel's log against the expectations ------------ */

struct expect_suite {
	char *name, *kernel;	/* kernel: NULL for both */
	int min_passed, min_obs, line;
};

/* "skip", "xfail", "todo" and "xpass" lines: a case that may say so. */
struct expect_skip {
	const char *kind;
	char *glob, *reason;
	int used;
};

static const char *const allowed_kinds[] = { "skip", "xfail", "todo", "xpass" };

/* The line kind a case must be allowed by: "skip", "xfail", "todo",
 * "xpass", or NULL for a case that ran as it should (passed or failed). */
static const char *case_kind(const struct ktap_test *t)
{
	if (t->result == KTAP_SKIP)
		return "skip";
	if (t->directive && !strcmp(t->directive, "XFAIL"))
		return "xfail";
	if (t->directive && !strcmp(t->directive, "TODO"))
		return "todo";
	if (t->directive && !strcmp(t->directive, "XPASS"))
		return "xpass";
	return NULL;
}

/* The kind of an allowed-case line (its first word), or NULL. */
static const char *allowed_kind(const char *line)
{
	line += strspn(line, " \t");
	for (size_t i = 0; i < sizeof(allowed_kinds) / sizeof(*allowed_kinds); i++) {
		size_t n = strlen(allowed_kinds[i]);

		if (!strncmp(line, allowed_kinds[i], n) &&
		    (line[n] == ' ' || line[n] == '\t'))
			return allowed_kinds[i];
	}
	return NULL;
}

/* "obs" lines: a label of one suite and the value it must start with. */
struct expect_obs {
	char *suite, *label, *value;
	int line;
};

struct expectations {
	struct expect_suite *s;
	int ns;
	struct expect_skip *k;
	int nk;
	struct expect_obs *o;
	int no;
};

/* Whether the first word of @line is @word. */
static int first_word_is(const char *line, const char *word)
{
	size_t n = strlen(word);

	line += strspn(line, " \t");
	return !strncmp(line, word, n) && (line[n] == ' ' || line[n] == '\t');
}

static int load_expect(const char *path, const char *log,
		       struct expectations *x)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, ret = 0;

	if (!fp) {
		fprintf(stderr, "ktapdiff: expectations %s: %m\n", shown(path));
		return -1;
	}
	while (!ret && getline(&line, &cap, fp) >= 0) {
		const char *kind = allowed_kind(line);
		int obs = first_word_is(line, "obs");
		char *w[6], *end1, *end2;
		int n;
		long p, o;

		lineno++;
		/* "skip", "xfail", "todo", "xpass" lines: the fourth word is the
		 * reason, to the end; "obs" lines: the fifth is the value. */
		n = split_words(line, w, kind ? 4 : obs ? 5 : 6);
		if (!n)
			continue;
		if (obs && n == 5) {
			char *v = w[4];
			size_t len = strlen(v);

			while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
				v[--len] = '\0';
			for (int i = 0; i < x->no; i++)
				if (!strcmp(w[1], log) && !strcmp(x->o[i].suite, w[2]) &&
				    !strcmp(x->o[i].label, w[3])) {
					fprintf(stderr, "ktapdiff: expectations %s:%d: "
						"obs %s %s already listed on line %d\n",
						shown(path), lineno, w[2], w[3],
						x->o[i].line);
					ret = -2;
				}
			if (!ret && !strcmp(w[1], log)) {
				x->o = xrealloc(x->o, (x->no + 1) * sizeof(*x->o));
				x->o[x->no++] = (struct expect_obs){
					strdup(w[2]), strdup(w[3]), strdup(v), lineno };
			}
		} else if (!strcmp(w[0], "suite") && (n == 5 || n == 6)) {
			p = strtol(w[3], &end1, 10);
			o = strtol(w[4], &end2, 10);
			if (*end1 || *end2 || p < 0 || o < 0 ||
			    (n == 6 && strcmp(w[5], "baseline") &&
			     strcmp(w[5], "patched")))
				ret = -1;
			else if (!strcmp(w[1], log)) {
				x->s = xrealloc(x->s, (x->ns + 1) * sizeof(*x->s));
				x->s[x->ns++] = (struct expect_suite){
					strdup(w[2]), n == 6 ? strdup(w[5]) : NULL,
					p, o, lineno };
			}
		} else if (kind && !strcmp(w[0], kind) && n == 4) {
			if (!strcmp(w[1], log)) {
				x->k = xrealloc(x->k, (x->nk + 1) * sizeof(*x->k));
				x->k[x->nk++] = (struct expect_skip){
					kind, strdup(w[2]), strdup(w[3]), 0 };
			}
		} else {
			ret = -1;
		}
	}
	if (ret == -1)
		fprintf(stderr, "ktapdiff: expectations %s:%d: not \"suite LOG "
			"NAME PASSED OBS [baseline|patched]\" nor \"skip|xfail|todo|xpass "
			"LOG CASE REASON\" nor \"obs LOG SUITE LABEL VALUE\"\n",
			shown(path), lineno);
	free(line);
	fclose(fp);
	return ret;
}

static void free_expect(struct expectations *x)
{
	for (int i = 0; i < x->ns; i++) {
		free(x->s[i].name);
		free(x->s[i].kernel);
	}
	for (int i = 0; i < x->nk; i++) {
		free(x->k[i].glob);
		free(x->k[i].reason);
	}
	for (int i = 0; i < x->no; i++) {
		free(x->o[i].suite);
		free(x->o[i].label);
		free(x->o[i].value);
	}
	free(x->s);
	free(x->k);
	free(x->o);
}

/* A passed case, for the floors: "ok" without "# XFAIL", "# TODO" or
 * "# XPASS" (an expected failure that says ok is counted apart). */
static int passed_case(const struct ktap_test *t)
{
	return t->result == KTAP_PASS && !case_kind(t);
}

/* An XFAIL, TODO or XPASS case: counted apart. */
static int apart_case(const struct ktap_test *t)
{
	return case_kind(t) && t->result != KTAP_SKIP;
}

/* Passed cases, obs lines and XFAIL/TODO/XPASS cases below a suite, the
 * suite's own obs too; a suite without nested results is its one case. */
static void nested_counts(const struct ktap_test *t, int *passed, int *obs,
			  int *apart)
{
	*obs += t->nobs;
	for (int i = 0; i < t->nsub; i++) {
		*passed += passed_case(t->sub[i]);
		*apart += apart_case(t->sub[i]);
		nested_counts(t->sub[i], passed, obs, apart);
	}
}

static void suite_counts(const struct ktap_test *t, int *passed, int *obs,
			 int *apart)
{
	nested_counts(t, passed, obs, apart);
	if (!t->nsub) {
		*passed += passed_case(t);
		*apart += apart_case(t);
	}
}

/* An entry whose suite is listed for the other kernel only: on this
 * kernel it has nothing to allow. */
static const char *other_kernel_only(const struct expectations *x,
				     const char *glob, const char *kernel)
{
	char *suite = strndup(glob, strcspn(glob, "/"));
	const char *only = NULL;

	for (int i = 0; i < x->ns && !only; i++)
		if (x->s[i].kernel && strcmp(x->s[i].kernel, kernel) &&
		    !fnmatch(suite, x->s[i].name, 0))
			only = x->s[i].kernel;
	free(suite);
	return only;
}

static const struct ktap_test *top_suite(const struct ktap_log *l,
					 const char *name)
{
	for (int i = 0; i < l->root.nsub; i++)
		if (!strcmp(l->root.sub[i]->name, name))
			return l->root.sub[i];
	return NULL;
}

/* One harness result line; returns 1 for a failure. */
static int expect_result(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int expect_result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t%s\t", ok ? "pass" : "fail", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return !ok;
}

/* The value of obs line @obs if its label is @label (the text after
 * "LABEL: "), else NULL. */
static const char *obs_value(const char *obs, const char *label)
{
	size_t n = strlen(label);

	if (strncmp(obs, label, n) || obs[n] != ':')
		return NULL;
	return obs + n + 1 + (obs[n + 1] == ' ');
}

/* Whether @got starts with @want, up to a space or its end. */
static int obs_holds(const char *got, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(got, want, n) && (!got[n] || got[n] == ' ');
}

struct obs_seen {
	int lines, wrong;
	const char *got;	/* the first value that did not hold */
};

/* Every obs line of @label below @t (and @t's own), held against @want. */
static void obs_walk(const struct ktap_test *t, const char *label,
		     const char *want, struct obs_seen *seen)
{
	for (int i = 0; i < t->nobs; i++) {
		const char *got = obs_value(t->obs[i], label);

		if (!got)
			continue;
		seen->lines++;
		if (!obs_holds(got, want)) {
			seen->wrong++;
			if (!seen->got)
				seen->got = got;
		}
	}
	for (int i = 0; i < t->nsub; i++)
		obs_walk(t->sub[i], label, want, seen);
}

/* The "obs" lines, suite by suite in the order listed: one failure per
 * label that is missing or reported another value, one pass per suite
 * whose every label held.  Returns the failures. */
static int expect_obs_check(const struct expectations *x,
			    const struct ktap_log *l, const char *kernel)
{
	int bad = 0;

	for (int i = 0; i < x->no; i++) {
		const char *suite = x->o[i].suite, *only = NULL;
		const struct ktap_test *t = top_suite(l, suite);
		int labels = 0, lines = 0, wrong = 0, first = 1;
		char *name;

		for (int j = 0; j < i && first; j++)
			first = strcmp(x->o[j].suite, suite);
		if (!first)
			continue;
		/* "SUITE obs": apart from the suite's floors' result. */
		if (asprintf(&name, "%s obs", suite) < 0)
			exit(2);
		for (int j = 0; j < x->ns; j++)
			if (!strcmp(x->s[j].name, suite) && x->s[j].kernel &&
			    strcmp(x->s[j].kernel, kernel))
				only = x->s[j].kernel;
		for (int j = i; j < x->no; j++) {
			const struct expect_obs *e = &x->o[j];
			struct obs_seen seen = { 0, 0, NULL };

			if (strcmp(e->suite, suite))
				continue;
			labels++;
			if (!t)
				continue;
			obs_walk(t, e->label, e->value, &seen);
			lines += seen.lines;
			if (!seen.lines) {
				wrong++;
				bad += expect_result(0, name, "%s: wanted \"%s\", "
						     "got no such obs line in %s",
						     e->label, e->value, suite);
			} else if (seen.wrong) {
				wrong++;
				bad += expect_result(0, name, "%s: wanted \"%s\", "
						     "got \"%s\" (%d of %d line%s)",
						     e->label, e->value, seen.got,
						     seen.wrong, seen.lines,
						     seen.lines == 1 ? "" : "s");
			}
		}
		if (!t && only)
			expect_result(1, name, "%d obs label%s unchecked: %s only",
				      labels, labels == 1 ? "" : "s", only);
		else if (!t)
			bad += expect_result(0, name, "%d obs label%s unchecked: "
					     "suite missing", labels,
					     labels == 1 ? "" : "s");
		else if (!wrong)
			expect_result(1, name, "%d obs label%s as listed (%d obs "
				      "line%s)", labels, labels == 1 ? "" : "s",
				      lines, lines == 1 ? "" : "s");
		free(name);
	}
	return bad;
}

static int expect_main(const char *xpath, const char *log, const char *kernel,
		       const char *path)
{
	struct expectations x = { NULL, 0, NULL, 0, NULL, 0 };
	struct ktap_log l;
	struct flat f;
	int bad = 0;

	if (load_expect(xpath, log, &x)) {
		free_expect(&x);
		return 2;
	}
	if (load(path, kernel, &l, &f)) {
		ktap_free(&l);
		free_expect(&x);
		return 2;
	}
	for (int i = 0; i < x.ns; i++) {
		const struct expect_suite *e = &x.s[i];
		const struct ktap_test *t = top_suite(&l, e->name);
		int passed = 0, obs = 0, apart = 0;
		char apart_note[64];

		if (e->kernel && strcmp(e->kernel, kernel)) {
			bad += expect_result(!t, e->name, "%s only: %s here",
					     e->kernel, t ? "present" : "absent");
			continue;
		}
		if (!t) {
			bad += expect_result(0, e->name, "suite missing");
			continue;
		}
		suite_counts(t, &passed, &obs, &apart);
		snprintf(apart_note, sizeof(apart_note),
			 ", %d XFAIL/TODO/XPASS (not passed)", apart);
		bad += expect_result(t->result == KTAP_PASS &&
				     passed >= e->min_passed && obs >= e->min_obs,
				     e->name, "%s%s%s, %d passed (floor %d), %d obs (floor %d)%s",
				     ktap_result_name(t->result),
				     t->directive ? " # " : "",
				     t->directive ? t->directive : "",
				     passed, e->min_passed, obs, e->min_obs,
				     apart ? apart_note : "");
	}
	/* Every suite that ran is listed: a new one gets its floor. */
	for (int i = 0; i < l.root.nsub; i++) {
		const char *name = l.root.sub[i]->name;
		int listed = 0;

		for (int j = 0; j < x.ns; j++)
			listed |= !strcmp(x.s[j].name, name);
		if (!listed)
			bad += expect_result(0, name, "ran, not listed in %s",
					     shown(xpath));
	}
	/* Every skip (XFAIL, TODO, XPASS) is an allowed one, by the first entry of
	 * its kind that matches. */
	for (int i = 0; i < f.n; i++) {
		const char *kind = case_kind(f.e[i].t);
		struct expect_skip *k = NULL;

		if (!kind)
			continue;
		for (int j = 0; j < x.nk && !k; j++)
			if (!strcmp(x.k[j].kind, kind) &&
			    !fnmatch(x.k[j].glob, f.e[i].key, FNM_PATHNAME))
				k = &x.k[j];
		if (k)
			k->used++;
		else if (!strcmp(kind, "skip"))
			bad += expect_result(0, f.e[i].key, "skipped, not an allowed skip%s%s",
					     f.e[i].t->directive ? ": " : "",
					     f.e[i].t->directive ? f.e[i].t->directive : "");
		else
			bad += expect_result(0, f.e[i].key, "%s # %s, not an allowed %s "
					     "(counted apart, not as passed)",
					     ktap_result_name(f.e[i].t->result),
					     f.e[i].t->directive, kind);
	}
	bad += expect_obs_check(&x, &l, kernel);
	/* An entry that allowed nothing would allow a future skip unseen:
	 * it fails, as a stale allow-list entry does. */
	for (int j = 0; j < x.nk; j++) {
		const struct expect_skip *k = &x.k[j];
		const char *only = k->used ? NULL :
			other_kernel_only(&x, k->glob, kernel);

		if (only)
			expect_result(1, k->glob, "0 allowed %ss (%s only): %s",
				      k->kind, only, k->reason);
		else if (k->used)
			expect_result(1, k->glob, "%d allowed %s%s: %s", k->used,
				      k->kind, k->used == 1 ? "" : "s", k->reason);
		else
			bad += expect_result(0, k->glob, "0 allowed %ss: the entry "
					     "matched no %s case: %s", k->kind,
					     !strcmp(k->kind, "skip") ? "skipped" :
					     !strcmp(k->kind, "xfail") ? "XFAIL" :
					     !strcmp(k->kind, "xpass") ? "XPASS" : "TODO",
					     k->reason);
	}
	free_flat(&f);
	ktap_free(&l);
	free_expect(&x);
	return bad ? 1 : 0;
}

/* --suites: per top-level suite its passed cases and obs lines, then
 * every skipped case: what scripts/expect-floors.sh makes floors of. */
static int suites_main(const char *path)
{
	struct ktap_log l;
	struct flat f;

	if (load(path, "", &l, &f)) {
		ktap_free(&l);
		return 2;
	}
	for (int i = 0; i < l.root.nsub; i++) {
		int passed = 0, obs = 0, apart = 0;

		suite_counts(l.root.sub[i], &passed, &obs, &apart);
		printf("suite %s %d %d\n", l.root.sub[i]->name, passed, obs);
	}
	for (int i = 0; i < f.n; i++)
		if (case_kind(f.e[i].t))
			printf("%s %s\n", case_kind(f.e[i].t), f.e[i].key);
	free_flat(&f);
	ktap_free(&l);
	return 0;
}

/* --obs: every obs line as "SUITE<TAB>LABEL<TAB>VALUE", in order. */
static void obs_print(const struct ktap_test *t, const char *suite)
{
	for (int i = 0; i < t->nobs; i++) {
		const char *o = t->obs[i];
		int n = (int)strcspn(o, ":");
		const char *v = o[n] ? o + n + 1 + (o[n + 1] == ' ') : "";

		printf("%s\t%.*s\t%s\n", suite, n, o, v);
	}
	for (int i = 0; i < t->nsub; i++)
		obs_print(t->sub[i], suite);
}

static int obs_main(const char *path)
{
	struct ktap_log l;
	struct flat f;

	if (load(path, "", &l, &f)) {
		ktap_free(&l);
		return 2;
	}
	for (int i = 0; i < l.root.nsub; i++)
		obs_print(l.root.sub[i], l.root.sub[i]->name);
	free_flat(&f);
	ktap_free(&l);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ktapdiff [--allow FILE --log NAME] BASELINE_LOG PATCHED_LOG\n"
		"       ktapdiff --check [--json] LOG\n"
		"       ktapdiff --expect FILE --log NAME --kernel KERNEL LOG\n"
		"       ktapdiff --suites LOG\n"
		"       ktapdiff --obs LOG\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check_main(argv[2], 0);
	if (argc == 4 && !strcmp(argv[1], "--check") &&
	    !strcmp(argv[2], "--json"))
		return check_main(argv[3], 1);
	if (argc == 7 && !strcmp(argv[1], "--allow") && !strcmp(argv[3], "--log"))
		return diff_main(argv[2], argv[4], argv[5], argv[6]);
	if (argc == 3 && argv[1][0] != '-')
		return diff_main(NULL, NULL, argv[1], argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--suites"))
		return suites_main(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--obs"))
		return obs_main(argv[2]);
	if (argc == 8 && !strcmp(argv[1], "--expect") &&
	    !strcmp(argv[3], "--log") && !strcmp(argv[5], "--kernel"))
		return expect_main(argv[2], argv[4], argv[6], argv[7]);
	return usage();
}
