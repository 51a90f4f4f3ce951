/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader of guest/bpf_sock_addr.c: the cgroup sock_addr programs of
 * sock_addr_hooks.bpf.c (embedded in the binary, guest/bpf.mk) loaded
 * with the tree's own libbpf and attached to the cgroup CGROUP_DIR, into
 * which the calling process moves.  No test harness here: each call
 * returns whether it worked and keeps the reason for the test to report
 * (loader_error()).
 */
#ifndef BPF_LOADER_H
#define BPF_LOADER_H

#include <bpf/libbpf.h>

#include "sock_addr_hooks.h"

#define CGROUP_DIR	"/sys/fs/cgroup/bpf_sock_addr"
#define ENOTSUPP	524	/* kernel-internal, seen by bpf() callers */

/* errno_name(), plus ENOTSUPP. */
const char *bpf_errno_name(int err);
/* "bind4", ..., "getsockname_unix": the program of each hook. */
extern const char *const hook_names[NHOOKS];

/* Why the last loader call failed (or why BPF cannot be used here). */
const char *loader_error(void);

/*
 * 1 when BPF programs can be attached here: the test guest, cgroup2 on
 * /sys/fs/cgroup and cgroup sock_addr programs in the kernel; else 0
 * and loader_error() says which is missing (a reason to SKIP).
 */
int loader_usable(void);

/*
 * Load the programs named in @progs (space separated, the function
 * names in sock_addr_hooks.bpf.c), attach them to CGROUP_DIR and move
 * this process into it; sockets made afterwards run them.  They are
 * detached when the process exits.  Returns how many were attached, or
 * -1 (loader_error()).
 */
int loader_attach(const char *progs);

/* The "obs" map of the last loader_attach(): ~0 when unreadable. */
unsigned long long loader_obs(int slot);

/*
 * The kfunc object (sock_addr_kfunc.bpf.o), opened, not loaded: NULL on
 * failure (loader_error()).
 */
struct bpf_object *loader_open_kfunc(void);
/*
 * Attach the loaded programs of @obj to CGROUP_DIR and move this process
 * into it: the count, or -1 (loader_error()).
 */
int loader_attach_object(struct bpf_object *obj);

/*
 * libbpf's messages (all but debug) since the last loader_log_clear(),
 * one per line; the caller may cut the buffer up.
 */
char *loader_log(void);
void loader_log_clear(void);

#endif
