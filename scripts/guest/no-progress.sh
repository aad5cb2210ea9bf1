#!/bin/sh
# A writeback context that cannot get below its device's threshold: f2fs
# keeps its node and meta pages dirty below its own batching thresholds
# (unless the dirty limits are exceeded), so with a small knob its context
# stays over it whatever background writeback does.
#
#   no-progress.sh DEV SECS RATE KNOB...
#
# Makes f2fs on DEV and, for each KNOB (bytes; 0 is the knob off), writes a
# new file at RATE bytes/s for SECS seconds with the knob at that value on
# the filesystem's bdi, counting the background writeback passes the
# flusher starts on that bdi (tracepoint writeback:writeback_start with
# reason background or background_bytes), the CPU time of the kworker
# threads (clock ticks) and the context's dirty amount at the end. One line
# per setting:
#
#   no-progress: f2fs knob=N passes=P empty_passes=E bytes_passes=B kworker_ticks=K secs=S reclaimable_kb=R
#
# (B: background passes traced with the reason background_bytes, the
# threshold's own; E: those of them that wrote nothing; K and the passes include the
# sync that ends each setting, so that both write the whole file; R: the
# bdi's dirty amount when the writer is done, before that sync)
#
# Exit 0 when every setting ran, 1 otherwise.
set -u
dev=$1 secs=$2 rate=$3
shift 3
mnt=/mnt/np
err() { echo "no-progress: $*"; exit 1; }
. /run/files/np-lib.sh

[ -f $tr/events/writeback/writeback_start/enable ] || err "no writeback_start tracepoint"
mkfs.f2fs -q -f "$dev" >/dev/null 2>&1 || err "mkfs.f2fs $dev failed"
mkdir -p $mnt
mount -t f2fs "$dev" $mnt || err "cannot mount f2fs on $dev"
bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
[ -f /sys/class/bdi/$bdi/dirty_background_bytes ] || err "no dirty_background_bytes on bdi $bdi"
echo "no-progress: f2fs on $dev, bdi $bdi, $secs s at $rate bytes/s per setting"

reclaimable_kb() {
	awk '/^BdiReclaimable:/ { print $2 }' /sys/kernel/debug/bdi/$bdi/stats
}

n=0
for knob in "$@"; do
	n=$((n + 1))
	np_start "$knob"
	k0=$(kworker_ticks)
	/run/files/paced-write $mnt/file$n 4096 $((rate * secs)) "$rate" >/dev/null ||
		err "writing $mnt/file$n failed"
	left=$(reclaimable_kb)
	# the knob off leaves the data dirty: the sync makes both settings
	# write the same amount inside the window
	sync
	k1=$(kworker_ticks)
	np_stop
	echo "no-progress: f2fs knob=$knob passes=$(passes) empty_passes=$(empty_passes) bytes_passes=$(bytes_passes) kworker_ticks=$((k1 - k0)) secs=$secs reclaimable_kb=$left"
done
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
umount $mnt || err "umount $mnt failed"
echo "no-progress: done"
