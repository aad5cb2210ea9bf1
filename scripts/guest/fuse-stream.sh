#!/bin/sh
# FUSE with writeback_cache in normal running (the stall-fuse daemon, never
# stalled, writing at KBPS kB/s; 0: as fast as it can): one writer writes
# MIB MiB as fast as it can and fsyncs, with the knob off and set on the
# mount's bdi, the settings taking turns REPS times. FUSE's channel is
# congested whenever its background requests reach their threshold, so the
# flusher's passes end stuck now and then while the daemon is healthy;
# this shows what that costs the writer.
#
#   fuse-stream.sh MIB REPS KBPS KNOB...
#
# One line per run:
#
#   fuse-stream: knob=N rep=R secs=S mib_s=X passes=P bytes_passes=B empty_rounds=E kworker_ticks=K
#
# (secs: from the first write to the end of the fsync; passes: background
# writeback passes on the bdi; bytes_passes: those the threshold started;
# empty_rounds: rounds of wb_writeback() that wrote nothing, whatever
# started them). The file must read back whole. Exit 0 when every run
# finished, 1 otherwise.
set -u
mib=$1 reps=$2 kbps=$3
shift 3
back=/run/fs-back mnt=/mnt/fs
err() { echo "fuse-stream: $*"; kill "${fuse:-}" 2>/dev/null; exit 1; }
. /run/files/np-lib.sh

up() { awk '{ print $1 }' /proc/uptime; }
if [ "$kbps" -gt 0 ]; then stall_fuse $back $mnt "$kbps"; else stall_fuse $back $mnt; fi
bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
[ -f /sys/class/bdi/$bdi/dirty_background_bytes ] || err "no dirty_background_bytes on bdi $bdi"
echo "fuse-stream: FUSE on $mnt, bdi $bdi, daemon at ${kbps:-0} kB/s (0: no limit), $mib MiB and fsync, knobs $*, $reps rounds"

r=0
while [ $r -lt "$reps" ]; do
	r=$((r + 1))
	for knob in "$@"; do
		np_start "$knob"
		k0=$(kworker_ticks) t0=$(up)
		dd if=/dev/zero of=$mnt/f bs=1M count="$mib" conv=fsync 2>/run/fs-dd.err ||
			err "the writer failed: $(cat /run/fs-dd.err)"
		t1=$(up) k1=$(kworker_ticks)
		np_stop
		[ "$(wc -c <$mnt/f)" -eq $((mib << 20)) ] || err "$mnt/f is $(wc -c <$mnt/f) bytes, not $((mib << 20))"
		echo "fuse-stream: knob=$knob rep=$r $(awk -v a="$t0" -v b="$t1" -v m="$mib" \
			'BEGIN { s = b - a; printf "secs=%.2f mib_s=%.2f", s, m / s }') passes=$(passes) bytes_passes=$(bytes_passes) empty_rounds=$(empty_rounds) kworker_ticks=$((k1 - k0))"
		rm -f $mnt/f
	done
done
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
umount $mnt || err "umount $mnt failed"
wait $fuse
echo "fuse-stream: done"
