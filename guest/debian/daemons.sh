#!/bin/bash
# make check-debian, in the Debian 12 guest (a suite of /suites, run by
# guest/init): real daemons bind and connect over the kernel under test.
# One KTAP case per daemon; its "# obs" lines say what it saw and are
# compared baseline vs patched like every suite's.  Exit 0 all passed,
# 1 otherwise (kselftest codes).
set -uo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
n=0 failed=0
echo "KTAP version 1"
echo "1..3"

# verdict NAME OK DETAIL: one KTAP result line.
verdict() {
	n=$((n + 1))
	if [ "$2" = 1 ]; then
		echo "ok $n $1 # $3"
	else
		echo "not ok $n $1 # $3"
		failed=1
	fi
}

# active UNIT: wait (bounded) until systemd says UNIT is active.
active() {
	local i
	for ((i = 0; i < 60; i++)); do
		systemctl -q is-active "$1" && return 0
		sleep 1
	done
	echo "# $1: $(systemctl is-active "$1")"
	return 1
}

# systemd-networkd: the dummy and the veth pair of /etc/systemd/network,
# each of the kind asked for, configured by networkd (its own state
# file, /run/systemd/netif/links/IFINDEX) with its address.
ok=0
/lib/systemd/systemd-networkd-wait-online -q --timeout=60 -i sdummy0 -i sveth0 -i sveth1 || true
links='' addrs=''
for l in sdummy0 sveth0 sveth1; do
	idx=$(cat "/sys/class/net/$l/ifindex" 2>/dev/null)
	kind=$(ip -d -o link show dev "$l" 2>/dev/null | grep -o -w -E 'dummy|veth' | head -1)
	state=$(sed -n 's/^ADMIN_STATE=//p' "/run/systemd/netif/links/${idx:-none}" 2>/dev/null)
	links+="$l ${kind:-absent} ${state:-unknown};"
	addrs+="$l $(ip -4 -o addr show dev "$l" 2>/dev/null | awk '{print $4}' | tr '\n' ' ' | sed 's/ $//');"
done
echo "# obs daemons.networkd.links: $links"
echo "# obs daemons.networkd.addrs: $addrs"
[ "$links" = "sdummy0 dummy configured;sveth0 veth configured;sveth1 veth configured;" ] &&
	[ "$addrs" = "sdummy0 192.0.2.1/24;sveth0 198.51.100.1/24;sveth1 198.51.100.2/24;" ] && ok=1
verdict networkd_links "$ok" "networkd: $links addresses: $addrs"

# openssh-server: a key login over loopback from ssh in the same guest.
ok=0
install -d -m 700 /root/.ssh
[ -f /root/.ssh/id_ed25519 ] || ssh-keygen -q -t ed25519 -N '' -f /root/.ssh/id_ed25519
cat /root/.ssh/id_ed25519.pub >>/root/.ssh/authorized_keys
if active ssh.service; then
	# shellcheck disable=SC2016 # expanded by the remote shell
	out=$(timeout 120 ssh -n -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o LogLevel=ERROR -o ConnectTimeout=60 -i /root/.ssh/id_ed25519 root@127.0.0.1 \
		'echo sockaddr-ssh-$((6 * 7)) $(id -un) ${SSH_CONNECTION%% *}' 2>&1)
else
	out="ssh.service not active"
fi
echo "# obs daemons.sshd.login: $out"
[ "$out" = "sockaddr-ssh-42 root 127.0.0.1" ] && ok=1
verdict sshd_key_login "$ok" "ssh root@127.0.0.1 ran a command: $out"

# dnsmasq: a name from its config, asked with dig over loopback.
ok=0
if active dnsmasq.service; then
	out=$(dig +short +time=5 +tries=3 @127.0.0.1 check.sockaddr.test A 2>&1)
else
	out="dnsmasq.service not active"
fi
echo "# obs daemons.dnsmasq.dig: $out"
[ "$out" = 203.0.113.7 ] && ok=1
verdict dnsmasq_dig "$ok" "dig @127.0.0.1 check.sockaddr.test A: $out"
exit "$failed"
