/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the cgroup sock_addr programs (sock_addr_hooks.bpf.c, built
 * with -target bpf: no libc here), their loader (loader.c) and the tests
 * (../bpf_sock_addr.c): the hook ids and the layout of the "obs" array
 * map.
 */
#ifndef SOCK_ADDR_HOOKS_H
#define SOCK_ADDR_HOOKS_H

/* Hook ids; obs slots of hook h are OBS(h, 0..3). */
enum hook { H_BIND4, H_BIND6, H_CONNECT4, H_CONNECT6, H_SENDMSG4,
	    H_SENDMSG6, H_RECVMSG4, H_RECVMSG6, H_GETPEERNAME4,
	    H_GETPEERNAME6, H_GETSOCKNAME4, H_GETSOCKNAME6, H_CONNECT_UNIX,
	    H_SENDMSG_UNIX, H_RECVMSG_UNIX, H_GETPEERNAME_UNIX,
	    H_GETSOCKNAME_UNIX, NHOOKS };

/*
 * Per hook: [0] calls, [1] user_family of the last call, [2] its
 * type << 8 | protocol, [3] its user_port as the program read it (host
 * order for inet; for unix the first two bytes of sun_path).
 * OBS_BIND_RET + i: return values of the bpf_bind() calls.
 */
#define OBS(h, i)	((h) * 4 + (i))
#define OBS_BIND_RET	(NHOOKS * 4)
#define OBS_SLOTS	(OBS_BIND_RET + 8)

#endif
