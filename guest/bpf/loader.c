// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and attaching the cgroup sock_addr programs for
 * guest/bpf_sock_addr.c (loader.h says what each call does).  The BPF
 * objects are embedded by the assembler; guest/bpf.mk passes their paths
 * as HOOKS_OBJ and KFUNC_OBJ.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../guestenv.h"
#include "../suite_util.h"
#include "loader.h"

#define OBJ_BLOB(name, path)						\
	__asm__(".section .rodata\n.balign 8\n"				\
		".global " #name "\n" #name ":\n"			\
		".incbin \"" path "\"\n"				\
		".global " #name "_end\n" #name "_end:\n"		\
		".byte 0\n.previous\n");				\
	extern const char name[], name##_end[]
OBJ_BLOB(hooks_obj, HOOKS_OBJ);
OBJ_BLOB(kfunc_obj, KFUNC_OBJ);

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

const char *const hook_names[NHOOKS] = {
	"bind4", "bind6", "connect4", "connect6", "sendmsg4", "sendmsg6",
	"recvmsg4", "recvmsg6", "getpeername4", "getpeername6",
	"getsockname4", "getsockname6", "connect_unix", "sendmsg_unix",
	"recvmsg_unix", "getpeername_unix", "getsockname_unix",
};

const char *bpf_errno_name(int err)
{
	return err == ENOTSUPP ? "ENOTSUPP" : errno_name(err);
}

/* libbpf's messages, and why the last call failed. */
static char lbpf_log[4096];
static size_t lbpf_len;
static char error[sizeof(lbpf_log) + 256];

static int lbpf_print(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG || lbpf_len >= sizeof(lbpf_log) - 1)
		return 0;
	n = vsnprintf(lbpf_log + lbpf_len, sizeof(lbpf_log) - lbpf_len, fmt,
		      ap);
	if (n > 0)
		lbpf_len += (size_t)n < sizeof(lbpf_log) - lbpf_len ? (size_t)n :
			    sizeof(lbpf_log) - lbpf_len - 1;
	return 0;
}

static void __attribute__((constructor)) loader_init(void)
{
	libbpf_set_print(lbpf_print);
}

char *loader_log(void)
{
	return lbpf_log;
}

void loader_log_clear(void)
{
	lbpf_len = 0;
	lbpf_log[0] = 0;
}

const char *loader_error(void)
{
	return error;
}

static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error, sizeof(error), fmt, ap);
	va_end(ap);
	return -1;
}

int loader_usable(void)
{
	struct statfs sf;
	int r;

	if (!in_test_guest()) {
		fail("not in the test guest: no BPF programs are attached on a host");
		return 0;
	}
	if (statfs("/sys/fs/cgroup", &sf) || sf.f_type != CGROUP2_SUPER_MAGIC) {
		fail("no cgroup2 mounted on /sys/fs/cgroup");
		return 0;
	}
	errno = 0;
	r = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, NULL);
	if (r != 1) {
		fail("cgroup sock_addr programs unavailable: probe=%d errno=%s",
		     r, errno_name(errno));
		return 0;
	}
	return 1;
}

static int enter_cgroup(void)
{
	char pid[16];
	int fd, n;

	if (mkdir(CGROUP_DIR, 0755) && errno != EEXIST)
		return fail("mkdir %s: %s", CGROUP_DIR, strerror(errno));
	fd = open(CGROUP_DIR "/cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("cgroup.procs: %s", strerror(errno));
	n = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (write(fd, pid, n) != n) {
		fail("cgroup.procs: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int loader_attach_object(struct bpf_object *obj)
{
	struct bpf_program *p;
	int cg, n = 0;

	if (enter_cgroup())
		return -1;
	cg = open(CGROUP_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0)
		return fail("%s: %s", CGROUP_DIR, strerror(errno));
	bpf_object__for_each_program(p, obj) {
		if (!bpf_program__autoload(p))
			continue;
		/* The link stays until the process exits. */
		if (!bpf_program__attach_cgroup(p, cg)) {
			fail("attach %s: %s %s", bpf_program__name(p),
			     strerror(errno), lbpf_log);
			close(cg);
			return -1;
		}
		n++;
	}
	close(cg);
	return n;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

static int obs_fd = -1;

int loader_attach(const char *progs)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "sock_addr_hooks");
	struct bpf_program *p;
	struct bpf_object *obj;
	int err;

	obj = bpf_object__open_mem(hooks_obj, hooks_obj_end - hooks_obj, &oo);
	if (!obj)
		return fail("open: %s %s", strerror(errno), lbpf_log);
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, has_word(progs, bpf_program__name(p)));
	err = bpf_object__load(obj);
	if (err)
		return fail("load: %d %s", err, lbpf_log);
	obs_fd = bpf_object__find_map_fd_by_name(obj, "obs");
	if (obs_fd < 0)
		return fail("no obs map: %d", obs_fd);
	return loader_attach_object(obj);
}

unsigned long long loader_obs(int slot)
{
	unsigned long long v = 0;

	if (bpf_map_lookup_elem(obs_fd, &slot, &v))
		return ~0ULL;
	return v;
}

struct bpf_object *loader_open_kfunc(void)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "sock_addr_kfunc");
	struct bpf_object *obj;

	obj = bpf_object__open_mem(kfunc_obj, kfunc_obj_end - kfunc_obj, &oo);
	if (!obj)
		fail("open: %s", lbpf_log);
	return obj;
}
