# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: Kernel config validation: dropped options named, the
# last request checked.
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# Config validation: a dropped option is named and fails.
printf 'CONFIG_NET=y\n# CONFIG_UNIX is not set\n' >"$tmp/.config"
printf 'CONFIG_NET=y\nCONFIG_UNIX=y\n' >"$tmp/frag"
msg=$("$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag" 2>&1); rc=$?
if [ "$rc" != 0 ] && echo "$msg" | grep -q 'CONFIG_UNIX dropped out'; then
	result pass config-dropped-option-named
else
	result fail config-dropped-option-named "rc=$rc: $msg"
fi
printf 'CONFIG_NET=y\nCONFIG_UNIX=y\n' >"$tmp/.config"
if "$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag" >/dev/null 2>&1; then
	result pass config-complete-accepted
else
	result fail config-complete-accepted
fi

# A later fragment overrides an earlier one (config/btf.config turns
# CONFIG_MODULES back on): the last request is the one checked.
printf 'CONFIG_MODULES=n\n' >"$tmp/frag-a"
printf 'CONFIG_MODULES=y\n' >"$tmp/frag-b"
printf 'CONFIG_MODULES=y\n' >"$tmp/.config"
ok1=0 ok2=0
"$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag-a" "$tmp/frag-b" >/dev/null 2>&1 && ok1=1
printf '# CONFIG_MODULES is not set\n' >"$tmp/.config"
if ! msg=$("$ROOT"/scripts/check-config.sh "$tmp/.config" "$tmp/frag-a" "$tmp/frag-b" 2>&1); then
	echo "$msg" | grep -q 'CONFIG_MODULES dropped out' && ok2=1
fi
if [ "$ok1$ok2" = 11 ]; then
	result pass config-later-fragment-wins
else
	result fail config-later-fragment-wins "accepted override: $ok1, dropped override named: $ok2"
fi
