# shellcheck shell=bash
# The harness scripts' common library: sourced, never executed.  Its
# functions live in scripts/lib/, one job per file:
#   stages.sh    messages, stage timing, background stages, disk space
#   results.sh   a pipeline's results, closing line and KTAP record
#   expect.sh    what a run is judged against (config/expect, fuzz paths,
#                kernel reports, new warnings)
#   profiles.sh  the tree, arch and toolchain profiles; the identity
#   kbuild.sh    object folders, reproducible cached builds, the series
#   qemu.sh      the one QEMU launcher of every test boot
#   engine.sh    the one baseline-vs-patched engine: boot both, judge, compare
#   cocci.sh     Coccinelle over a kernel tree, one file per spatch
#   aptdata.sh   a Debian package of a pinned version fetched as data,
#                another suite's from private apt state (never installed)
# Here: what every script gets on sourcing (ROOT, the tree's and the
# arch's profiles, BUILD).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# shellcheck source=lib/stages.sh
. "$ROOT/scripts/lib/stages.sh"
# shellcheck source=lib/results.sh
. "$ROOT/scripts/lib/results.sh"
# shellcheck source=lib/expect.sh
. "$ROOT/scripts/lib/expect.sh"
# shellcheck source=lib/profiles.sh
. "$ROOT/scripts/lib/profiles.sh"
# shellcheck source=lib/kbuild.sh
. "$ROOT/scripts/lib/kbuild.sh"
# shellcheck source=lib/qemu.sh
. "$ROOT/scripts/lib/qemu.sh"
# shellcheck source=lib/engine.sh
. "$ROOT/scripts/lib/engine.sh"
# shellcheck source=lib/cocci.sh
. "$ROOT/scripts/lib/cocci.sh"
# shellcheck source=lib/aptdata.sh
. "$ROOT/scripts/lib/aptdata.sh"

# The tree first: its build folder is BUILD's default.
tree_profile

# Absolute: worktrees and kbuild are driven from other directories.  A
# tree other than 6.12 keeps everything in its own subfolder.
BUILD=$(realpath -m "${BUILD:-$ROOT/build${TREE_BUILD:+/$TREE_BUILD}}")
# The Debian rootfs is a userland (config/userland), the same for every
# tree's kernels: one cache per userland beside the default tree's build
# (scripts/rootfs.sh).
userland_profile
rootfs_name=rootfs-$USERLAND_NAME
[ "$USERLAND_NAME" = debian ] && rootfs_name=rootfs
ROOTFS_DIR=$(realpath -m "${ROOTFS_DIR:-${BUILD%/"$TREE_BUILD"}/$rootfs_name}")
export ROOT BUILD ROOTFS_DIR

# malloc on transparent huge pages for every program the harness starts
# (compilers, linkers, QEMU): where a page fault is dear, as in the VM
# this project is measured on, a cold hardened kernel built with it took
# 21% less time, its vmlinux byte-identical (make compile-bench measures
# it side by side).  No effect where THP is off; added to the caller's
# own tunables, never replacing them.
case ":${GLIBC_TUNABLES:-}:" in
*:glibc.malloc.hugetlb=*) ;;
*) export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1 ;;
esac

# The arch last: its guest folder is under BUILD.
arch_profile
