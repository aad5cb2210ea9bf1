#!/bin/sh
# An NFS client guest of benchmark S5: it does what the server guest
# (bench-s5.sh) asks, one command per connection to its control port
# (nfs-client-ctl.sh), until told to quit or TIMEOUT seconds have passed.
#
#   nfs-client.sh TIMEOUT
set -u
[ $# -eq 1 ] || { echo "usage: nfs-client.sh TIMEOUT" >&2; exit 2; }
. /run/files/nfs-lib.sh
ip link set eth0 mtu "$NFS_MTU" || exit 1
printf '#!/bin/sh\nexec sh /run/files/nfs-client-ctl.sh\n' >/tmp/ctl && chmod +x /tmp/ctl
nc -ll -p "$NFS_PORT_CTL" -e /tmp/ctl &
echo "nfs-client: $(ip -4 -o addr show dev eth0 | awk '{ print $4 }') listening on port $NFS_PORT_CTL"
end=$(($(cut -d. -f1 /proc/uptime) + $1))
until [ -e /tmp/quit ]; do
	[ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ] || { echo "nfs-client: no quit after $1 s" >&2; exit 1; }
	sleep 1
done
cp /proc/self/mountstats mountstats.txt 2>/dev/null
grep -q ' /mnt/nfs ' /proc/mounts && umount /mnt/nfs
echo "nfs-client: told to quit"
