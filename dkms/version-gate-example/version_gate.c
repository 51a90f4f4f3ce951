// SPDX-License-Identifier: GPL-2.0
/*
 * The version-gate trap of docs/out-of-tree-modules.md: a module fixed
 * for Linux 6.19's kernel_bind() by testing the kernel version.  On a
 * 6.12 kernel that carries the sockaddr_unsized backport the test is
 * false, the old branch is compiled and the build fails;
 * dkms/version-gate-example.feature-test.patch tests for the type
 * instead.  At load it binds a kernel TCP socket to 127.0.0.1, port 0.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/in.h>
#include <linux/version.h>
#include <net/net_namespace.h>

static int __init version_gate_init(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct socket *sock;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	if (err)
		return err;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
	err = kernel_bind(sock, (struct sockaddr_unsized *)&sin, sizeof(sin));
#else
	err = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
#endif
	sock_release(sock);
	return err;
}

static void __exit version_gate_exit(void)
{
}

module_init(version_gate_init);
module_exit(version_gate_exit);
MODULE_DESCRIPTION("kernel_bind() behind a version test: the trap");
MODULE_LICENSE("GPL");
