# The guest's NFS pieces: the kernel NFS server, the link's rate, the
# client's mount and its per-op statistics. Sourced by nfs-smoke.sh,
# bench-s5.sh and nfs-client.sh.
# shellcheck shell=sh

NFS_PORT_CTL=7000	# the clients' control listener (nfs-client.sh)
# Jumbo frames between the guests: under software emulation every frame
# costs the same, whatever its size, and with 1500 bytes the emulated
# guests, not the link, would set the rate
NFS_MTU=9000

# iproute2's, not busybox's applets (which the guest's shell prefers, and
# which know no network namespaces, veth, ifb or tbf)
ip() { /usr/sbin/ip "$@"; }
tc() { /usr/sbin/tc "$@"; }

# nfs_server_start DIR...: export each DIR (read-write, root as root,
# sync: a COMMIT returns once the data is on disk) to 10.0.0.0/8 with the
# kernel's NFS server (v3, v4.2), rpcbind and mountd. NFSv4's grace
# period, in which no file may be created, is cut to its minimum.
nfs_server_start() {
	local d n=0
	mkdir -p /var/lib/nfs/v4recovery /run/rpcbind /proc/fs/nfsd
	grep -q ' /proc/fs/nfsd ' /proc/mounts || mount -t nfsd nfsd /proc/fs/nfsd || return 1
	: >/etc/exports
	for d in "$@"; do
		# an fsid of its own: a tmpfs has no device to name it by
		n=$((n + 1))
		echo "$d 10.0.0.0/8(rw,sync,no_root_squash,no_subtree_check,insecure,fsid=$n)" >>/etc/exports
	done
	rpcbind -w || { echo "nfs: rpcbind did not start" >&2; return 1; }
	exportfs -ra || return 1
	rpc.mountd --no-udp || return 1
	rpc.nfsd --no-udp --lease-time 10 --grace-time 10 8 || return 1
	cat /proc/fs/nfsd/versions
}

# nfs_grace_wait: sleep out the server's NFSv4 grace period (10 s)
nfs_grace_wait() { sleep 11; }

# link_rate DEV RATE: shape what leaves DEV to RATE (tc units: 100mbit)
link_rate() {
	tc qdisc replace dev "$1" root tbf rate "$2" burst 256kb latency 100ms
}

# link_rate_in DEV RATE: shape what arrives on DEV to RATE, through an ifb
# device, so that all the senders on the link share RATE
link_rate_in() {
	ip link show ifb0 >/dev/null 2>&1 || ip link add ifb0 type ifb || return 1
	ip link set ifb0 up &&
		tc qdisc replace dev ifb0 root tbf rate "$2" burst 256kb latency 100ms &&
		{ tc qdisc del dev "$1" ingress 2>/dev/null; tc qdisc add dev "$1" handle ffff: ingress; } &&
		tc filter add dev "$1" parent ffff: matchall action mirred egress redirect dev ifb0
}

# nfs_mount SERVER:PATH MNT VERS: mount with the given NFS version (3,
# 4.2) over TCP, no lock daemon; retried while the server comes up
nfs_mount() {
	local i=0
	mkdir -p "$2"
	until mount.nfs "$1" "$2" -o "vers=$3,proto=tcp,nolock" 2>/tmp/nfs-mount.err; do
		i=$((i + 1))
		[ "$i" -lt 60 ] || { cat /tmp/nfs-mount.err >&2; return 1; }
		sleep 2
	done
}

# nfs_opstat MNT OP: "ops rtt_ms execute_ms" of OP (COMMIT, WRITE) for
# the mount on MNT, from /proc/self/mountstats (cumulative since mount)
nfs_opstat() {
	awk -v m="$1" -v op="$2:" '
		$1 == "device" { here = ($5 == m) }
		here && $1 == op { print $2, $8, $9; found = 1; exit }
		END { if (!found) print 0, 0, 0 }' /proc/self/mountstats
}

# tcp_retrans: TCP segments retransmitted so far (/proc/net/snmp)
tcp_retrans() {
	awk '$1 == "Tcp:" { if (!n) { for (i = 1; i <= NF; i++) if ($i == "RetransSegs") f = i; n = 1 } else print $f }' \
		/proc/net/snmp
}

now() { cut -d' ' -f1 /proc/uptime; }
