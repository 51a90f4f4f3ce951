// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP parser.  The first "KTAP version"/"TAP version" line not preceded
 * by a printk timestamp starts the top-level document; whatever text is
 * before it on that line is taken as a console prefix that every later
 * KTAP line must carry too.  Lines that do not parse are "unknown lines"
 * (kernel messages) and are ignored, as the spec allows.  Parsing stops
 * once the top-level plan is fulfilled, so shutdown messages don't count.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"

#define MAX_DEPTH 16

struct frame {
	struct ktap_test *doc;	/* collects the results at this depth */
	char **obs;		/* obs lines waiting for their result line */
	int nobs;
	size_t indent;		/* spaces before this document's lines */
	char *run;		/* kselftest_harness's last "#  RUN NAME ..." */
};

struct parser {
	struct ktap_log *log;
	struct frame frames[MAX_DEPTH];
	int top;		/* deepest open document, -1 before start */
	char *prefix;
	int lineno;
	int done;
};

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

static struct ktap_test *new_test(void)
{
	struct ktap_test *t = xrealloc(NULL, sizeof(*t));

	memset(t, 0, sizeof(*t));
	t->plan = -1;
	return t;
}

static void add_sub(struct ktap_test *parent, struct ktap_test *t)
{
	parent->sub = xrealloc(parent->sub,
			       (parent->nsub + 1) * sizeof(*parent->sub));
	parent->sub[parent->nsub++] = t;
}

static void free_test(struct ktap_test *t)
{
	int i;

	for (i = 0; i < t->nobs; i++)
		free(t->obs[i]);
	for (i = 0; i < t->nsub; i++) {
		free_test(t->sub[i]);
		free(t->sub[i]);
	}
	free(t->obs);
	free(t->sub);
	free(t->name);
	free(t->directive);
}

void ktap_free(struct ktap_log *log)
{
	free_test(&log->root);
	memset(&log->root, 0, sizeof(log->root));
}

const char *ktap_result_name(enum ktap_result r)
{
	switch (r) {
	case KTAP_PASS: return "ok";
	case KTAP_FAIL: return "not ok";
	case KTAP_SKIP: return "skip";
	default: return "no result";
	}
}

static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->log->error, sizeof(p->log->error), "line %d: ",
			 p->lineno);

	va_start(ap, fmt);
	vsnprintf(p->log->error + n, sizeof(p->log->error) - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_version(const char *s)
{
	return !strncmp(s, "KTAP version ", 13) || !strncmp(s, "TAP version ", 12);
}

/* "1..N" exactly; returns N or -1. */
static int parse_plan(const char *s)
{
	char *end;
	long n;

	if (strncmp(s, "1..", 3) || !isdigit((unsigned char)s[3]))
		return -1;
	n = strtol(s + 3, &end, 10);
	while (*end == ' ')
		end++;
	return *end || n > 1000000 ? -1 : (int)n;
}

static char *trimmed_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, len);
}

static const char *const directives[] = {
	"SKIP", "TODO", "XFAIL", "XPASS", "TIMEOUT", "ERROR",
};

/* "[not ]ok N [- ]description[ # [DIRECTIVE] diagnostic]" into t. */
static int parse_result(const char *s, struct ktap_test *t)
{
	const char *hash, *d;
	int ok = 1;
	char *end;
	size_t i;

	if (!strncmp(s, "not ok ", 7)) {
		ok = 0;
		s += 7;
	} else if (!strncmp(s, "ok ", 3)) {
		s += 3;
	} else {
		return -1;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	t->number = strtol(s, &end, 10);
	s = end;
	if (*s && *s != ' ')
		return -1;
	while (*s == ' ')
		s++;
	if (s[0] == '-' && s[1] == ' ')
		s += 2;		/* TAP style "ok 1 - name" */
	hash = strchr(s, '#');
	t->name = trimmed_dup(s, hash ? (size_t)(hash - s) : strlen(s));
	if (!*t->name) {
		free(t->name);
		if (asprintf(&t->name, "#%d", t->number) < 0)
			exit(2);
	}
	t->result = ok ? KTAP_PASS : KTAP_FAIL;
	if (!hash)
		return 0;
	for (d = hash + 1; *d == ' '; d++)
		;
	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++) {
		size_t n = strlen(directives[i]);

		if (!strncasecmp(d, directives[i], n) &&
		    (!d[n] || isspace((unsigned char)d[n]))) {
			t->directive = xstrdup(directives[i]);
			if (i == 0)
				t->result = KTAP_SKIP;
		}
	}
	return 0;
}

static void clear_obs(struct frame *f)
{
	for (int i = 0; i < f->nobs; i++)
		free(f->obs[i]);
	free(f->obs);
	f->obs = NULL;
	f->nobs = 0;
}

/* A nested document whose parent result line never came. */
static void abandon_top(struct parser *p)
{
	struct frame *f = &p->frames[p->top];
	struct frame *up = &p->frames[p->top - 1];

	f->doc->name = xstrdup("(missing result line)");
	f->doc->incomplete = 1;
	add_sub(up->doc, f->doc);
	up->doc->incomplete = 1;
	clear_obs(f);
	p->top--;
}

static int on_result(struct parser *p, int depth, const char *body)
{
	struct frame *f = &p->frames[depth];
	struct ktap_test parsed = { .plan = -1 }, *t;

	if (parse_result(body, &parsed))
		return 0;	/* looked like a result but is not: unknown */
	while (p->top > depth + 1)
		abandon_top(p);
	if (p->top == depth + 1) {
		/* The nested document just closed belongs to this result. */
		t = p->frames[p->top].doc;
		clear_obs(&p->frames[p->top]);
		p->top--;
		if (t->plan >= 0 && t->nsub != t->plan)
			t->incomplete = 1;
	} else {
		t = new_test();
	}
	/*
	 * Older kselftest_harness.h (6.1's) prints a skipped test as
	 * "ok N # SKIP reason", without its name: take the name from the
	 * "#  RUN NAME ..." line it printed before, as newer harnesses do.
	 */
	if (parsed.name[0] == '#' && f->run) {
		free(parsed.name);
		parsed.name = f->run;
		f->run = NULL;
	}
	free(f->run);
	f->run = NULL;
	t->name = parsed.name;
	t->number = parsed.number;
	t->result = parsed.result;
	t->directive = parsed.directive;
	t->line = p->lineno;
	t->obs = f->obs;
	t->nobs = f->nobs;
	f->obs = NULL;
	f->nobs = 0;
	add_sub(f->doc, t);
	if (t->number != f->doc->nsub)
		return fail(p, "test \"%s\" has number %d, expected %d",
			    t->name, t->number, f->doc->nsub);
	if (depth == 0 && f->doc->plan >= 0 && f->doc->nsub == f->doc->plan)
		p->done = 1;
	return 0;
}

static int on_version(struct parser *p, int depth, size_t indent)
{
	if (depth == p->top + 1 && depth < MAX_DEPTH) {
		p->frames[depth].doc = new_test();
		p->frames[depth].indent = indent;
		free(p->frames[depth].run);
		p->frames[depth].run = NULL;
		p->top = depth;
		return 0;
	}
	if (depth == 0)
		return fail(p, "new top-level KTAP document before the first "
			    "one finished (reboot or crash?)");
	if (depth <= p->top)
		return fail(p, "KTAP version line at depth %d while a test at "
			    "that depth has no result line yet", depth);
	return 0;	/* deeper than any open document: unknown line */
}

static void on_obs(struct parser *p, int depth, const char *text)
{
	struct frame *f = &p->frames[depth];

	f->obs = xrealloc(f->obs, (f->nobs + 1) * sizeof(*f->obs));
	f->obs[f->nobs++] = trimmed_dup(text, strlen(text));
}

/* Text before the first version line, unless it is a printk timestamp. */
static int start_document(struct parser *p, const char *line)
{
	const char *v = strstr(line, "KTAP version ");
	size_t plen;

	if (!v)
		v = strstr(line, "TAP version ");
	if (!v)
		return 0;
	plen = v - line;
	/* printk timestamp, or indented: a nested document we missed */
	if (plen && (line[0] == '[' || strspn(line, " ") == plen))
		return 0;
	p->prefix = strndup(line, plen);
	p->frames[0].doc = &p->log->root;
	p->log->root.plan = -1;
	p->top = 0;
	return 1;
}

static int on_line(struct parser *p, char *line)
{
	size_t plen, sp;
	const char *body;
	int depth, plan;

	line[strcspn(line, "\r\n")] = '\0';
	if (p->top < 0)
		return start_document(p, line), 0;
	plen = strlen(p->prefix);
	if (strncmp(line, p->prefix, plen))
		return 0;
	line += plen;
	sp = strspn(line, " ");
	body = line + sp;
	/*
	 * A level is whatever indentation its version line had: the spec
	 * says two spaces, KUnit prints four.
	 */
	if (is_version(body) && sp > p->frames[p->top].indent)
		return on_version(p, p->top + 1, sp);
	for (depth = p->top; depth >= 0; depth--)
		if (p->frames[depth].indent == sp)
			break;
	if (depth < 0)
		return 0;
	if (is_version(body))
		return on_version(p, depth, sp);
	plan = parse_plan(body);
	if (plan >= 0) {
		struct ktap_test *doc = p->frames[depth].doc;

		if (depth == p->top && doc->plan < 0 && !doc->nsub)
			doc->plan = plan;
		return 0;
	}
	if (!strncmp(body, "# obs ", 6)) {
		on_obs(p, depth, body + 6);
		return 0;
	}
	if (!strncmp(body, "#  RUN ", 7)) {
		const char *n = body + 7 + strspn(body + 7, " ");
		const char *e = strstr(n, " ...");

		free(p->frames[depth].run);
		p->frames[depth].run = trimmed_dup(n, e ? (size_t)(e - n) : strlen(n));
		return 0;
	}
	if (!strncmp(body, "ok ", 3) || !strncmp(body, "not ok ", 7))
		return on_result(p, depth, body);
	return 0;
}

static int finish(struct parser *p)
{
	struct ktap_test *root = &p->log->root;

	if (p->top < 0)
		return fail(p, "no KTAP version line found");
	if (root->plan < 0)
		return fail(p, "top-level KTAP document has no plan line");
	if (root->nsub < root->plan)
		return fail(p, "log ends after %d of %d planned top-level "
			    "results (truncated run?)", root->nsub, root->plan);
	return 0;
}

int ktap_parse_stream(FILE *f, struct ktap_log *log)
{
	struct parser p = { .log = log, .top = -1 };
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	memset(log, 0, sizeof(*log));
	log->root.plan = -1;
	while (!ret && !p.done && getline(&line, &cap, f) >= 0) {
		/* Serial ports turn "\n" into "\r\n": drop every '\r'. */
		char *w = line;

		for (char *r = line; *r; r++)
			if (*r != '\r')
				*w++ = *r;
		*w = '\0';
		p.lineno++;
		ret = on_line(&p, line);
	}
	if (!ret)
		ret = finish(&p);
	for (int d = 1; d <= p.top; d++) {
		/* Never attached: only happens on errors or truncation. */
		free_test(p.frames[d].doc);
		free(p.frames[d].doc);
	}
	for (int d = 0; d < MAX_DEPTH; d++)
		free(p.frames[d].run);
	for (int d = 0; d <= p.top && d < MAX_DEPTH; d++)
		clear_obs(&p.frames[d]);
	free(p.prefix);
	free(line);
	return ret;
}

int ktap_parse_file(const char *path, struct ktap_log *log)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		memset(log, 0, sizeof(*log));
		snprintf(log->error, sizeof(log->error), "cannot open: %m");
		return -1;
	}
	ret = ktap_parse_stream(f, log);
	fclose(f);
	return ret;
}
