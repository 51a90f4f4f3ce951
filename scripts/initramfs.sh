#!/bin/bash
# Pack the guest initramfs with the tree's usr/gen_init_cpio: /init plus
# each suite binary under /suites/.
#
# Usage: scripts/initramfs.sh OUT.cpio INIT SUITE_BINARY...
# INITRAMFS_EXTRA: a file of more gen_init_cpio lines (dir/file/slink),
# for suites that need more than their own binary (make check-btf).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$1 init=$2; shift 2
gic=$BUILD/host/gen_init_cpio
if [ ! -x "$gic" ] || [ "$BUILD/linux/usr/gen_init_cpio.c" -nt "$gic" ]; then
	mkdir -p "$BUILD/host"
	gcc -O2 -o "$gic" "$BUILD/linux/usr/gen_init_cpio.c"
fi
list=$(mktemp)
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	for d in proc sys tmp run suites; do echo "dir /$d 0755 0 0"; done
	echo "file /init $(realpath "$init") 0755 0 0"
	for s in "$@"; do
		echo "file /suites/$(basename "$s") $(realpath "$s") 0755 0 0"
	done
	# Run order = argument order (init reads /suites/.order).
	printf '%s\n' "$@" | xargs -r -n1 basename >"$list.order"
	echo "file /suites/.order $list.order 0644 0 0"
	[ -z "${INITRAMFS_EXTRA:-}" ] || cat "$INITRAMFS_EXTRA"
} >"$list"
"$gic" "$list" >"$out.tmp"
mv "$out.tmp" "$out"
rm -f "$list" "$list.order"
