#!/bin/sh
# One command from the S5 server guest (bench-s5.sh) to a client guest,
# read from standard input (a connection to the client's control port);
# the answer's last line starts with "ok" or "error".
#
#   mount VERS PATH     mount 10.0.0.1:PATH on /mnt/nfs with NFS version VERS
#   rate RATE           shape what the client sends to RATE (tc units)
#   tune off|knob|global BYTES
#                       the client's own writeback: defaults, the knob on
#                       the NFS mount's bdi, or vm.dirty_background_bytes
#   prep                before a write: sync, drop the caches, note the
#                       counters the write's answer is counted from
#   write NAME REC SIZE_MIB RATE_MIB
#                       write /mnt/nfs/NAME (paced-write; RATE_MIB 0: full
#                       speed) and close it; answers "ok write_s close_s
#                       commit_ops commit_rtt_ms write_ops tcp_retransmits
#                       write_rtt_ms" counted from the last prep (the
#                       round trips: their sums in ms, from mountstats)
#   ping                answer ok
#   quit                end the client guest
set -u
. /run/files/nfs-lib.sh
read -r cmd a b c d || exit 0
mnt=/mnt/nfs
err() { echo "error: $*"; exit 0; }
case $cmd in
mount)
	grep -q " $mnt " /proc/mounts && { umount "$mnt" || err "umount $mnt"; }
	nfs_mount "10.0.0.1:$b" "$mnt" "$a" >/dev/null 2>&1 || err "mount 10.0.0.1:$b vers=$a"
	echo "ok $(/run/files/fs-bdi.sh "$mnt")"
	;;
rate)
	link_rate eth0 "$a" || err "tc on eth0"
	echo ok
	;;
tune)
	bdi=$(/run/files/fs-bdi.sh "$mnt") || err "no NFS mount"
	echo 0 >"/sys/class/bdi/$bdi/dirty_background_bytes"
	echo 10 >/proc/sys/vm/dirty_background_ratio
	case $a in
	off) ;;
	knob) echo "$b" >"/sys/class/bdi/$bdi/dirty_background_bytes" || err "knob on $bdi" ;;
	global) echo "$b" >/proc/sys/vm/dirty_background_bytes || err "global" ;;
	*) err "unknown setting $a" ;;
	esac
	echo ok
	;;
prep)
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo "$(nfs_opstat "$mnt" COMMIT) $(nfs_opstat "$mnt" WRITE) $(tcp_retrans)" >/tmp/prep
	echo ok
	;;
write)
	[ -f /tmp/prep ] || err "write without prep"
	set -- $(cat /tmp/prep)
	c0=$1 r0=$2 w0=$4 wr0=$5 rt0=$7
	rm -f /tmp/prep
	t=$(/run/files/paced-write "$mnt/$a" "$b" $((c << 20)) $((d << 20)) 2>&1) || err "$t"
	set -- $(nfs_opstat "$mnt" COMMIT) $(nfs_opstat "$mnt" WRITE) $(tcp_retrans)
	echo "ok $t $(($1 - c0)) $(($2 - r0)) $(($4 - w0)) $(($7 - rt0)) $(($5 - wr0))"
	;;
ping) echo ok ;;
quit)
	: >/tmp/quit
	echo ok
	;;
*) err "unknown command '$cmd'" ;;
esac
