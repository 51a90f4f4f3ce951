# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: Packages and trees: apt failures, concurrent installs,
# an unverified tree version, a patch that does not apply.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# A package apt cannot install: clear error, nonzero exit, bounded time.
t0=$(date +%s)
msg=$(EXTRA_PKGS=no-such-package-sockaddr-harness APT_TIMEOUT=300 BUILD="$tmp/b" "$ROOT"/scripts/deps.sh 2>&1); rc=$?
dt=$(( $(date +%s) - t0 ))
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'no-such-package-sockaddr-harness'; then
	result pass apt-missing-package-fails "${dt}s"
else
	result fail apt-missing-package-fails "rc=$rc: $(tail -2 <<<"$msg" | tr '\n' ' ')"
fi

# Two installs at once (stages beside each other): the second waits for
# the first (deps.sh's lock) instead of failing on apt's own lock; each
# names its own missing package.
for i in 1 2; do
	EXTRA_PKGS=no-such-package-sockaddr-$i APT_TIMEOUT=300 BUILD="$tmp/c$i" "$ROOT"/scripts/deps.sh >"$tmp/c$i.out" 2>&1 &
done
wait
got=$(for i in 1 2; do grep -c "could not install: no-such-package-sockaddr-$i" "$tmp/c$i.out"; done | tr '\n' ' ')
check apt-concurrent-installs-wait "each names its package: $got" [ "$got" = "1 1 " ]

# A tree version other than the verified one: loud warning, carries on.
# A patch that does not apply: stops naming the patch and the file.
# Both run against a tiny throwaway git tree, not the kernel.
mkdir -p "$tmp/t/linux" "$tmp/t/p"
(cd "$tmp/t/linux" && printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 999\nkernelversion:\n\t@echo 6.12.999\n' >Makefile &&
	echo hello >file.c && git init -q -b pristine && git add -A &&
	git -c user.name=t -c user.email=t@t commit -q -m base && git tag baseline &&
	echo 6.12.999-test >.pkgver && touch .unpacked)
cat >"$tmp/t/p/0001-bad.patch" <<'PATCH'
From: Test <t@t>
Subject: [PATCH] bad

---
 file.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/file.c b/file.c
--- a/file.c
+++ b/file.c
@@ -1 +1 @@
-goodbye
+world
PATCH
echo 0001-bad.patch >"$tmp/t/p/series"
msg=$(BUILD="$tmp/t" SERIES_DIR="$tmp/t/p" TARBALL=/dev/null "$ROOT"/scripts/tree.sh 2>&1); rc=$?
if echo "$msg" | grep -q 'WARNING: apt served Linux 6.12.999'; then
	result pass tree-version-warning
else
	result fail tree-version-warning
fi
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'patch does not apply: 0001-bad.patch' && echo "$msg" | grep -q 'failing files: file.c'; then
	result pass patch-not-applying-named
else
	result fail patch-not-applying-named "rc=$rc: $(echo "$msg" | tail -2)"
fi
git -C "$tmp/t/linux" worktree prune 2>/dev/null || true
