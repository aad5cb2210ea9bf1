#!/bin/sh
# A writeback context that cannot get below its device's threshold while
# its FUSE daemon stalls: stall-fuse holds every WRITE request, the kernel's
# background requests pile up and fuse_writepages() skips WB_SYNC_NONE
# writeback as congested.
#
#   no-progress-fuse.sh SECS RATE STALL_FROM STALL_TO KNOB...
#
# For each KNOB (bytes; 0 is the knob off) on the mount's bdi, a writer
# writes a new file at RATE bytes/s for SECS seconds; from STALL_FROM to
# STALL_TO seconds into it the daemon stalls its writes. Counts the
# background writeback passes the flusher starts on the bdi (tracepoint
# writeback:writeback_start, reason background or background_bytes) and
# the kworker threads' CPU time (clock ticks), during the stall and in all:
#
#   no-progress: fuse knob=N passes=P stall_passes=SP stall_empty=SE kworker_ticks=K stall_ticks=SK stall_secs=S
#
# (SE: passes during the stall that the threshold started, traced with
# the reason background_bytes, and that wrote nothing)
#
# The file read back after the writer closed it must be whole. Exit 0 when
# every setting ran, 1 otherwise.
set -u
secs=$1 rate=$2 from=$3 to=$4
shift 4
back=/run/np-back mnt=/mnt/npf
err() { echo "no-progress: $*"; kill "${fuse:-}" 2>/dev/null; exit 1; }
. /run/files/np-lib.sh

[ -f $tr/events/writeback/writeback_start/enable ] || { echo "no-progress: no writeback_start tracepoint"; exit 1; }
stall_fuse $back $mnt
bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
[ -f /sys/class/bdi/$bdi/dirty_background_bytes ] || err "no dirty_background_bytes on bdi $bdi"
echo "no-progress: FUSE on $mnt, bdi $bdi, $secs s at $rate bytes/s, writes stalled from $from to $to s"

n=0
for knob in "$@"; do
	n=$((n + 1))
	np_start "$knob"
	k0=$(kworker_ticks)
	/run/files/paced-write $mnt/file$n 4096 $((rate * secs)) "$rate" >/run/np-writer.out 2>&1 &
	w=$!
	sleep "$from"
	p1=$(passes) e1=$(empty_passes) k1=$(kworker_ticks)
	kill -USR1 $fuse
	sleep $((to - from))
	p2=$(passes) e2=$(empty_passes) k2=$(kworker_ticks)
	kill -USR2 $fuse
	wait $w || err "the writer failed: $(cat /run/np-writer.out)"
	k3=$(kworker_ticks)
	np_stop
	[ "$(wc -c <$mnt/file$n)" -eq $((rate * secs)) ] || err "$mnt/file$n is $(wc -c <$mnt/file$n) bytes, not $((rate * secs))"
	echo "no-progress: fuse knob=$knob passes=$(passes) stall_passes=$((p2 - p1)) stall_empty=$((e2 - e1)) kworker_ticks=$((k3 - k0)) stall_ticks=$((k2 - k1)) stall_secs=$((to - from))"
	rm -f $mnt/file$n
done
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
umount $mnt || err "umount $mnt failed"
wait $fuse
echo "no-progress: done"
