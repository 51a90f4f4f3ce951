/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GCOV_DUMP_H
#define GCOV_DUMP_H

/*
 * Copy every .gcda file under the kernel's gcov folder in debugfs
 * (CONFIG_GCOV_KERNEL) to the character device @dev, as text:
 *   gcda <path below debugfs' gcov/> <bytes>
 *   <base64, 76 characters a line>
 *   end
 * and a last line "gcov-dump files=N bytes=M".  make coverage decodes
 * it on the host.  Returns the number of files, or -1 when @dev cannot
 * be opened or the folder is not there.
 */
int gcov_dump(const char *dev);

#endif
