#!/bin/sh
# Guest side of the NFS-server analogue (the demo and benchmark S1): data
# arrives at a fixed rate below the disk's speed, then one fsync (the
# COMMIT). Samples the dirty amount of the bdi that holds the file's dirty
# pages while it runs.
#
#   stream-fsync.sh FILE BDI SIZE_MIB RATE_MIB KNOB_BYTES LABEL
#
# BDI is the name under /sys/class/bdi (e.g. 254:16, btrfs-1), or "-" for
# none (tmpfs: no sampling); KNOB_BYTES is written to its
# dirty_background_bytes ("-" leaves it alone). Prints one
# line: LABEL total_s write_s fsync_s peak_dirty_kib, and leaves the dirty
# time series in LABEL.dirty (uptime_s dirty_kib per line).
set -u
[ $# -eq 6 ] || { echo "usage: stream-fsync.sh FILE BDI SIZE_MIB RATE_MIB KNOB_BYTES LABEL" >&2; exit 2; }
file=$1 bdi=$2 size=$3 rate=$4 knob=$5 label=$6
stats=/sys/kernel/debug/bdi/$bdi/stats
[ "$bdi" = - ] || [ -r "$stats" ] || { echo "stream-fsync: no $stats" >&2; exit 1; }

now() { cut -d' ' -f1 /proc/uptime; }
dirty_kib() { if [ "$bdi" = - ]; then echo 0; else awk '/^BdiReclaimable:/ { print $2 }' "$stats"; fi; }

if [ "$knob" != - ]; then
	echo "$knob" >"/sys/class/bdi/$bdi/dirty_background_bytes" || exit 1
fi
rm -f "$file"
sync
echo 3 >/proc/sys/vm/drop_caches

(while :; do echo "$(now) $(dirty_kib)"; sleep 0.2; done) >"$label.dirty" &
sampler=$!
t0=$(now)
fio --name=stream --filename="$file" --rw=write --bs=1M --size="${size}M" \
	--rate="${rate}m" --ioengine=psync --fallocate=none --eta=never --output=/dev/null || exit 1
t1=$(now)
sync "$file" || exit 1
t2=$(now)
sleep 0.3
kill "$sampler"
wait "$sampler" 2>/dev/null
peak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "$label.dirty")
awk -v l="$label" -v a="$t0" -v b="$t1" -v c="$t2" -v p="$peak" \
	'BEGIN { printf "%s %.2f %.2f %.2f %d\n", l, c - a, b - a, c - b, p }'
