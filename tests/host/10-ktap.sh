# shellcheck shell=bash
# shellcheck disable=SC2154  # tmp: scripts/test-host.sh's scratch folder
# make test-host: The KTAP parser and differ's own unit tests (C).
# Sourced by scripts/test-host.sh in file-name order; never run alone.

# KTAP parser/differ unit tests (C): their KTAP judged by the same
# parser as the guest suites' (ktap_counts, ktapdiff --check).
"$BUILD"/host/ktap_test "$BUILD"/host/ktapdiff "$ROOT"/tests/data >"$tmp/ktap_test.ktap" 2>&1
grep '^not ok' "$tmp/ktap_test.ktap"
ktap_counts "$tmp/ktap_test.ktap" ktap_test >/dev/null
