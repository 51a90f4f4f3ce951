// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of host/ktap.c and the ktapdiff exit codes.
 *
 *   ktap_test KTAPDIFF DATADIR
 *
 * DATADIR holds the sample console logs (tests/data).  Prints KTAP and,
 * last, one line "N passed, N failed"; exits 1 if anything failed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

static const char *ktapdiff, *datadir;
static int failures;

/* Record a failed expectation; the test keeps going to show them all. */
#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: expected %s\n", __func__, __LINE__, #cond); \
		failures++;						\
	}								\
} while (0)

static char *data(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", datadir, name);
	return p;
}

static int parse(const char *name, struct ktap_log *log)
{
	int ret = ktap_parse_file(data(name), log);

	if (ret)
		printf("# %s: %s\n", name, log->error);
	return ret;
}

/* Exit status of ktapdiff with up to 3 arguments, output discarded. */
static int run_ktapdiff(const char *a, const char *b, const char *c)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(126);
		execl(ktapdiff, ktapdiff, a, b, c, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_complete(void)
{
	struct ktap_log log;
	struct ktap_test *s1, *s2;

	EXPECT(parse("complete.log", &log) == 0);
	EXPECT(log.root.plan == 2 && log.root.nsub == 2);
	if (log.root.nsub == 2) {
		s1 = log.root.sub[0];
		s2 = log.root.sub[1];
		EXPECT(!strcmp(s1->name, "sockaddr_basic"));
		EXPECT(s1->result == KTAP_PASS && s1->plan == 3);
		EXPECT(s1->nsub == 3 && !s1->incomplete);
		if (s1->nsub == 3) {
			EXPECT(s1->sub[0]->nobs == 1);
			EXPECT(s1->sub[1]->nobs == 2);
			EXPECT(!strcmp(s1->sub[1]->obs[0],
				       "inet4_stream.bind_valid.bind: ret=0 errno=0"));
			EXPECT(s1->sub[2]->result == KTAP_SKIP);
		}
		EXPECT(s2->result == KTAP_SKIP && s2->nsub == 1);
		if (s2->nsub == 1)	/* TAP "ok 1 - name" style */
			EXPECT(!strcmp(s2->sub[0]->name, "only_case"));
	}
	ktap_free(&log);
}

static void test_printk_interleaved(void)
{
	struct ktap_log log;
	struct ktap_test *s;

	EXPECT(parse("printk.log", &log) == 0);
	/* The KUnit document behind timestamps must not be taken. */
	EXPECT(log.root.plan == 1 && log.root.nsub == 1);
	if (log.root.nsub != 1)
		goto out;
	s = log.root.sub[0];
	EXPECT(!strcmp(s->name, "suite_a") && s->nsub == 2);
	if (s->nsub == 2) {
		EXPECT(s->sub[0]->nobs == 1);
		EXPECT(s->sub[1]->result == KTAP_PASS);
		EXPECT(s->sub[1]->nobs == 1);
	}
out:
	ktap_free(&log);
}

static void test_console_prefix(void)
{
	struct ktap_log log;

	EXPECT(parse("prefix.log", &log) == 0);
	EXPECT(log.root.nsub == 1);
	if (log.root.nsub == 1) {
		EXPECT(log.root.sub[0]->nsub == 1);
		if (log.root.sub[0]->nsub == 1)
			EXPECT(log.root.sub[0]->sub[0]->nobs == 1);
	}
	ktap_free(&log);
}

static void test_missing_plan(void)
{
	struct ktap_log log;

	EXPECT(ktap_parse_file(data("noplan.log"), &log) == -1);
	EXPECT(strstr(log.error, "no plan") != NULL);
	ktap_free(&log);
}

static void test_truncated(void)
{
	struct ktap_log log;

	EXPECT(ktap_parse_file(data("truncated.log"), &log) == -1);
	EXPECT(strstr(log.error, "1 of 2") != NULL);
	ktap_free(&log);
}

static void test_nested_levels(void)
{
	struct ktap_log log;
	struct ktap_test *top, *mid;

	EXPECT(parse("deep.log", &log) == 0);
	EXPECT(log.root.nsub == 1);
	if (log.root.nsub != 1)
		goto out;
	top = log.root.sub[0];
	EXPECT(top->result == KTAP_FAIL && top->nsub == 2);
	if (top->nsub != 2)
		goto out;
	mid = top->sub[0];
	EXPECT(!strcmp(mid->name, "test_3") && mid->nsub == 2);
	if (mid->nsub == 2)
		EXPECT(mid->sub[0]->result == KTAP_FAIL);
	EXPECT(top->sub[1]->result == KTAP_SKIP);
	EXPECT(!strcmp(top->sub[1]->directive, "SKIP"));
out:
	ktap_free(&log);
}

/*
 * 6.1's kselftest_harness.h prints a skip as "ok N # SKIP reason": the
 * name comes from its "#  RUN NAME ..." line; named results keep theirs.
 */
static void test_harness_unnamed_skip(void)
{
	struct ktap_log log;
	struct ktap_test *s;

	EXPECT(parse("harness_unnamed_skip.log", &log) == 0);
	if (log.root.nsub != 1 || log.root.sub[0]->nsub != 3) {
		EXPECT(!"one suite of three cases");
		goto out;
	}
	s = log.root.sub[0];
	EXPECT(!strcmp(s->sub[0]->name, "global.bind4"));
	EXPECT(!strcmp(s->sub[1]->name, "global.unix_kfunc"));
	EXPECT(s->sub[1]->result == KTAP_SKIP);
	EXPECT(!strcmp(s->sub[2]->name, "global.unix_sendmsg"));
out:
	ktap_free(&log);
}

/* KUnit indents each level by four spaces, not the spec's two. */
static void test_kunit_four_spaces(void)
{
	struct ktap_log log;
	struct ktap_test *suite;

	EXPECT(parse("kunit4.log", &log) == 0);
	EXPECT(log.root.nsub == 1);
	if (log.root.nsub != 1)
		goto out;
	suite = log.root.sub[0];
	EXPECT(!strcmp(suite->name, "mctp") && suite->nsub == 2);
	if (suite->nsub != 2)
		goto out;
	EXPECT(suite->sub[0]->nsub == 2 && suite->sub[0]->result == KTAP_FAIL);
	if (suite->sub[0]->nsub == 2)
		EXPECT(suite->sub[0]->sub[1]->result == KTAP_FAIL);
	EXPECT(suite->sub[1]->result == KTAP_PASS);
out:
	ktap_free(&log);
}

static void test_suite_crash(void)
{
	struct ktap_log log;

	EXPECT(parse("suite_crash.log", &log) == 0);
	EXPECT(log.root.nsub == 2);
	if (log.root.nsub == 2) {
		EXPECT(log.root.sub[0]->incomplete);
		EXPECT(log.root.sub[0]->result == KTAP_FAIL);
		EXPECT(!log.root.sub[1]->incomplete);
	}
	ktap_free(&log);
}

static void test_diff_exit_codes(void)
{
	EXPECT(run_ktapdiff(data("complete.log"), data("complete.log"),
			    NULL) == 0);
	EXPECT(run_ktapdiff(data("complete.log"), data("one_diff.log"),
			    NULL) == 1);
	EXPECT(run_ktapdiff("--allow", data("allow_one_diff.txt"),
			    data("complete.log")) == 2);	/* one log only */
	EXPECT(run_ktapdiff(data("complete.log"), data("truncated.log"),
			    NULL) == 2);
	EXPECT(run_ktapdiff(data("noplan.log"), data("complete.log"),
			    NULL) == 2);
}

/* ktapdiff with a shell command line's arguments (quoted by the
 * caller), output discarded: its exit status. */
static int run_cmd(const char *fmt, const char *a, const char *b,
		   const char *c, const char *d)
{
	char args[2048], *cmd;
	int ret;

	snprintf(args, sizeof(args), fmt, a, b, c, d);
	if (asprintf(&cmd, "'%s' %s >/dev/null 2>&1", ktapdiff, args) < 0)
		return -1;
	ret = system(cmd);
	free(cmd);
	return WIFEXITED(ret) ? WEXITSTATUS(ret) : -1;
}

static int run_allowed(const char *allow, const char *a, const char *b)
{
	return run_cmd("--allow '%s' --log ktap '%s' '%s'%s", allow, a, b, "");
}

static void test_diff_allow_list(void)
{
	EXPECT(run_allowed(data("allow_one_diff.txt"), data("complete.log"),
			   data("one_diff.log")) == 0);
	EXPECT(run_allowed(data("allow_no_reason.txt"), data("complete.log"),
			   data("one_diff.log")) == 2);
	/* Allowing by obs label, "<kind>.<case>.<step>". */
	EXPECT(run_allowed(data("allow_obs_label.txt"), data("complete.log"),
			   data("one_diff.log")) == 0);
	EXPECT(run_allowed(data("allow_other_label.txt"),
			   data("complete.log"), data("one_diff.log")) == 1);
	/* A suite entry covers its cases; '*' stops at '/'. */
	EXPECT(run_allowed(data("allow_suite.txt"), data("complete.log"),
			   data("one_diff.log")) == 0);
	EXPECT(run_allowed(data("allow_across_slash.txt"),
			   data("complete.log"), data("one_diff.log")) == 1);
	/* Anchored to one log. */
	EXPECT(run_allowed(data("allow_other_log.txt"), data("complete.log"),
			   data("one_diff.log")) == 1);
	/* An entry that matches nothing fails, even with nothing else. */
	EXPECT(run_allowed(data("allow_stale.txt"), data("complete.log"),
			   data("one_diff.log")) == 1);
	EXPECT(run_allowed(data("allow_suite.txt"), data("complete.log"),
			   data("complete.log")) == 1);
	/* One entry naming two suites is too broad. */
	EXPECT(run_allowed(data("allow_broad.txt"), data("complete.log"),
			   data("one_diff.log")) == 1);
}

static int run_expect(const char *x, const char *kernel, const char *log)
{
	return run_cmd("--expect '%s' --log ktap --kernel %s '%s'%s", x, kernel,
		       log, "");
}

/* Expectations: floors, the suite list, allowed skips, one-kernel suites.
 * expect_ok.log is complete.log whose second suite passed; xfail.log is
 * expect_ok.log with an XFAIL and a TODO case. */
static void test_expect(void)
{
	EXPECT(run_expect(data("expect_complete.txt"), "baseline",
			  data("expect_ok.log")) == 0);
	/* patched_only is listed for the patched kernel: missing there. */
	EXPECT(run_expect(data("expect_complete.txt"), "patched",
			  data("expect_ok.log")) == 1);
	/* A listed suite that skipped as a whole did not run. */
	EXPECT(run_expect(data("expect_complete.txt"), "baseline",
			  data("complete.log")) == 1);
	EXPECT(run_expect(data("expect_floor.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	EXPECT(run_expect(data("expect_unlisted.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	EXPECT(run_expect(data("expect_skip.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	EXPECT(run_expect(data("expect_missing.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	/* An allowed skip that matched no skipped case is stale. */
	EXPECT(run_expect(data("expect_skip_stale.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	/* XFAIL and TODO cases: not passed cases, allowed when listed. */
	EXPECT(run_expect(data("expect_xfail.txt"), "baseline",
			  data("xfail.log")) == 0);
	EXPECT(run_expect(data("expect_xfail_unlisted.txt"), "baseline",
			  data("xfail.log")) == 1);
	EXPECT(run_expect(data("expect_xfail_floor.txt"), "baseline",
			  data("xfail.log")) == 1);
	/* ... and an xfail line that matched none is stale too. */
	EXPECT(run_expect(data("expect_xfail.txt"), "baseline",
			  data("expect_ok.log")) == 1);
	/* A cut-short log, or a malformed file, is an error. */
	EXPECT(run_expect(data("expect_complete.txt"), "baseline",
			  data("truncated.log")) == 2);
	EXPECT(run_expect(data("allow_one_diff.txt"), "baseline",
			  data("expect_ok.log")) == 2);
}

/* Whether "ktapdiff --expect X --log ktap --kernel patched LOG" printed
 * a line starting with @want (popen). */
static int expect_says(const char *x, const char *log, const char *want)
{
	char cmd[1200], line[512];
	int found = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s' --expect '%s' --log ktap --kernel "
		 "patched '%s' 2>/dev/null", ktapdiff, x, log);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		found |= !strncmp(line, want, strlen(want));
	pclose(f);
	return found;
}

/* The "obs" lines: a label's value within its own suite's subtree
 * (obs_two.log: matrix and matrix_m32 print the same labels, reach one
 * label four times), every line of it, up to a word's end. */
static void test_expect_obs(void)
{
	char log[512];

	/* data()'s paths are reused after four calls: a copy of its own. */
	snprintf(log, sizeof(log), "%s", data("obs_two.log"));

	EXPECT(run_expect(data("expect_obs.txt"), "patched", log) == 0);
	EXPECT(expect_says(data("expect_obs.txt"), log,
			   "pass\treach obs\t2 obs labels as listed (3 obs lines)"));
	/* Another value: matrix's line does not count for matrix_m32. */
	EXPECT(run_expect(data("expect_obs_value.txt"), "patched", log) == 1);
	EXPECT(expect_says(data("expect_obs_value.txt"), log,
			   "fail\tmatrix_m32 obs\tcaif.connect_valid.connect: "
			   "wanted \"ret=-1 errno=ENODEV\", got \"ret=-1 errno=EINVAL\""));
	/* A missing label (printed in the other suite only). */
	EXPECT(run_expect(data("expect_obs_missing.txt"), "patched", log) == 1);
	EXPECT(expect_says(data("expect_obs_missing.txt"), log,
			   "fail\tmatrix_m32 obs\tinet4_tcp.bind_valid.getsockname: "
			   "wanted \"ret=0 errno=0\", got no such obs line in matrix_m32"));
	/* One line of four with another value. */
	EXPECT(run_expect(data("expect_obs_repeat.txt"), "patched", log) == 1);
	EXPECT(expect_says(data("expect_obs_repeat.txt"), log,
			   "fail\treach obs\treach.bond_enslave: wanted "
			   "\"ret=0 errno=0\", got \"ret=-1 errno=EBUSY\" (1 of 4 lines)"));
	/* A prefix that ends inside a word does not hold. */
	EXPECT(run_expect(data("expect_obs_word.txt"), "patched", log) == 1);
	/* A suite missing: its labels fail unchecked, once. */
	EXPECT(run_expect(data("expect_obs.txt"), "patched",
			  data("expect_ok.log")) == 1);
	EXPECT(expect_says(data("expect_obs.txt"), data("expect_ok.log"),
			   "fail\tmatrix obs\t3 obs labels unchecked: suite missing"));
	/* A label listed twice, or an obs line without a value: errors. */
	EXPECT(run_expect(data("expect_obs_dup.txt"), "patched", log) == 2);
	EXPECT(run_expect(data("expect_obs_novalue.txt"), "patched", log) == 2);
}

/* The last line of "ktapdiff --check [--json] LOG" (popen). */
static int check_output(const char *opt, const char *log, char *out, int size)
{
	char cmd[1200], line[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s' --check %s '%s' 2>/dev/null",
		 ktapdiff, opt, log);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	out[0] = '\0';
	while (fgets(line, sizeof(line), f))
		snprintf(out, size, "%s", line);
	return pclose(f);
}

/* The counts the harness reads: nested cases, a crashed suite as one
 * more failure, the top level where nothing is nested. */
static void test_check_counts(void)
{
	char out[512];

	check_output("", data("complete.log"), out, sizeof(out));
	EXPECT(!strcmp(out, "cases: 3 passed, 0 failed, 1 skipped\n"));
	check_output("", data("suite_crash.log"), out, sizeof(out));
	EXPECT(!strcmp(out, "cases: 2 passed, 1 failed, 0 skipped\n"));
	check_output("--json", data("suite_crash.log"), out, sizeof(out));
	EXPECT(strstr(out, "\"cases\": {\"passed\": 2, \"failed\": 1, \"skipped\": 0}"));
	EXPECT(strstr(out, "\"top\": {\"passed\": 1, \"failed\": 1, \"skipped\": 0}"));
}

static void test_check_mode(void)
{
	EXPECT(run_ktapdiff("--check", data("complete.log"), NULL) == 0);
	EXPECT(run_ktapdiff("--check", data("suite_crash.log"), NULL) == 1);
	EXPECT(run_ktapdiff("--check", data("truncated.log"), NULL) == 2);
	EXPECT(run_ktapdiff("--check", data("noplan.log"), NULL) == 2);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "complete_log", test_complete },
	{ "printk_interleaved", test_printk_interleaved },
	{ "console_prefix", test_console_prefix },
	{ "missing_plan", test_missing_plan },
	{ "truncated_run", test_truncated },
	{ "nested_levels_and_skip", test_nested_levels },
	{ "harness_unnamed_skip_named_by_run", test_harness_unnamed_skip },
	{ "kunit_four_space_indent", test_kunit_four_spaces },
	{ "suite_crash_incomplete", test_suite_crash },
	{ "diff_exit_codes", test_diff_exit_codes },
	{ "diff_allow_list", test_diff_allow_list },
	{ "expect", test_expect },
	{ "expect_obs", test_expect_obs },
	{ "check_mode", test_check_mode },
	{ "check_counts", test_check_counts },
};

int main(int argc, char **argv)
{
	int n = sizeof(tests) / sizeof(tests[0]), passed = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: ktap_test KTAPDIFF DATADIR\n");
		return 2;
	}
	ktapdiff = argv[1];
	datadir = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		int before = failures;

		tests[i].fn();
		if (failures == before)
			passed++;
		printf("%sok %d - %s\n", failures == before ? "" : "not ",
		       i + 1, tests[i].name);
	}
	printf("%d passed, %d failed\n", passed, n - passed);
	return passed == n ? 0 : 1;
}
