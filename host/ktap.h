/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP parser for console logs of the test VM (see
 * Documentation/dev-tools/ktap.rst).  The log may mix printk lines with
 * KTAP; only version, plan, result and "# obs " lines are used, indented
 * by two spaces per nesting level.
 */
#ifndef KTAP_H
#define KTAP_H

#include <stdio.h>

enum ktap_result {
	KTAP_NONE,	/* no result line (nested document cut short) */
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
};

struct ktap_test {
	char *name;		/* description of the result line */
	int number;
	int line;		/* line number of the result line */
	enum ktap_result result;
	char *directive;	/* "SKIP", "TIMEOUT", ... or NULL */
	int plan;		/* plan of its nested document, -1 if none */
	int incomplete;		/* nested document has fewer results than plan */
	char **obs;		/* "# obs " lines before the result, text after it */
	int nobs;
	struct ktap_test **sub;	/* nested tests, in order */
	int nsub;
};

struct ktap_log {
	struct ktap_test root;	/* root.sub: top-level tests */
	char error[256];	/* why parsing failed */
};

/* Both return 0, or -1 with log->error set; free the log either way. */
int ktap_parse_file(const char *path, struct ktap_log *log);
int ktap_parse_stream(FILE *f, struct ktap_log *log);
void ktap_free(struct ktap_log *log);

const char *ktap_result_name(enum ktap_result r);

/* realloc() that exits with status 2 when memory runs out. */
void *xrealloc(void *p, size_t n);

#endif
