#!/bin/bash
# make check-debian, in the Debian 12 guest: sockaddr-check.service's
# job once multi-user.target is reached.  guest/init, run as a normal
# program, runs the suites in /suites in the order of /suites/.order;
# it takes ktap= and suite_timeout= from the kernel command line the
# harness gave, so the KTAP goes to ttyS1 as in the initramfs boots.
set -uo pipefail
echo "sockaddr-check: multi-user.target reached, running $(wc -l </suites/.order) suites"
INIT_SUITE_DIR=/suites INIT_CMDLINE=$(cat /proc/cmdline) /usr/local/lib/sockaddr/init
echo "sockaddr-check: done (rc $?), powering off"
