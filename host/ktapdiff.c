// SPDX-License-Identifier: GPL-2.0
/*
 * ktapdiff: compare the KTAP results of two console logs case by case.
 *
 *   ktapdiff [--allow FILE] BASELINE_LOG PATCHED_LOG
 *   ktapdiff --check [--json] LOG
 *
 * A case is identified by its nested test path "suite/case" and compared
 * by result (ok / not ok / skip, plus directive such as TIMEOUT) and by
 * the list of "# obs " lines printed before its result line.
 *
 * Allow-list FILE: one "<glob> <reason>" per line, '#' starts a comment.
 * The glob (fnmatch(3), '*' also matches '/') is tried against the full
 * path, against the case name alone and, when only obs lines differ,
 * against the label of each differing obs line ("<kind>.<case>.<step>",
 * the text before its ':').  Listed differences are reported as
 * "allowed" and do not fail the comparison.
 *
 * --check prints the failed and incomplete tests, the counts at the top
 * level and below it, and last the line the harness reads:
 *   cases: P passed, F failed, S skipped
 * the nested results, or the top level's where nothing is nested; a
 * suite that failed at the top level without a failing case (a crash, a
 * timeout) counts as one more failure.  --json prints the same counts as
 * one JSON object instead.
 *
 * Exit: 0 no unallowed difference (--check: complete, nothing failed),
 * 1 differences (--check: failures), 2 usage or parse errors.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
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
};

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

static int load_allow(const char *path, struct allow_list *al)
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
		char *g, *r;

		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		g = line + strspn(line, " \t");
		if (!*g || *g == '#')
			continue;
		r = g + strcspn(g, " \t");
		if (*r)
			*r++ = '\0';
		r += strspn(r, " \t");
		if (!*r) {
			fprintf(stderr, "ktapdiff: allow-list %s:%d: \"%s\" "
				"has no reason\n", shown(path), lineno, g);
			free(line);
			fclose(fp);
			return -1;
		}
		al->a = xrealloc(al->a, (al->n + 1) * sizeof(*al->a));
		al->a[al->n++] = (struct allow){ strdup(g), strdup(r), 0 };
	}
	free(line);
	fclose(fp);
	return 0;
}

static struct allow *match(struct allow_list *al, const char *s)
{
	for (int i = 0; i < al->n; i++)
		if (!fnmatch(al->a[i].glob, s, 0)) {
			al->a[i].used = 1;
			return &al->a[i];
		}
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
 * A difference is allowed if the test path or name matches, or if only
 * obs lines differ and each differing line's label matches.
 */
static struct allow *allowed(struct allow_list *al, const struct entry *e,
			     const struct entry *other)
{
	const char *base = strrchr(e->key, '/');
	const struct ktap_test *a, *b;
	struct allow *hit = NULL;

	base = base ? base + 1 : e->key;
	if ((hit = match(al, e->key)) || (hit = match(al, base)) || !other)
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

static int diff_main(const char *allow_path, const char *pa, const char *pb)
{
	struct allow_list al = { NULL, 0 };
	struct ktap_log la, lb;
	struct flat fa, fb;
	int bad, ret = 2;

	if (allow_path && load_allow(allow_path, &al))
		goto out_allow;
	if (load(pa, "baseline", &la, &fa))
		goto out_a;
	if (load(pb, "patched", &lb, &fb))
		goto out_b;

	printf("baseline: %s\npatched:  %s\n\n", shown(pa), shown(pb));
	bad = compare(&fa, &fb, &al);
	for (int i = 0; i < al.n; i++)
		if (!al.a[i].used)
			printf("note: allow-list entry \"%s\" matched nothing\n",
			       al.a[i].glob);
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

static int usage(void)
{
	fprintf(stderr, "usage: ktapdiff [--allow FILE] BASELINE_LOG PATCHED_LOG\n"
		"       ktapdiff --check [--json] LOG\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check_main(argv[2], 0);
	if (argc == 4 && !strcmp(argv[1], "--check") &&
	    !strcmp(argv[2], "--json"))
		return check_main(argv[3], 1);
	if (argc == 5 && !strcmp(argv[1], "--allow"))
		return diff_main(argv[2], argv[3], argv[4]);
	if (argc == 3 && argv[1][0] != '-')
		return diff_main(NULL, argv[1], argv[2]);
	return usage();
}
