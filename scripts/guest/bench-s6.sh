#!/bin/sh
# Benchmark S6, collateral writeback, inside the guest: a short-lived file
# (written at full speed, deleted DELAY seconds later) on a device that was
# NOT tuned, while another device carries the tuning. Counts the bytes
# written to the untuned disk from the start of the write until the disk is
# idle after the delete. Settings, interleaved: off,
# knob (on the tuned filesystem's bdi), global, limit (strict_limit and
# max_bytes on the tuned filesystem's bdi, starting its background
# writeback at the knob's threshold) (bench-lib.sh).
#
#   bench-s6.sh TUNED_MNT UNTUNED_MNT UNTUNED_DISK FS REPS SIZE_MIB DELAY THRESH_BYTES
#
# Rows in s6.tsv.
set -u
[ $# -eq 8 ] || { echo "usage: bench-s6.sh TUNED_MNT UNTUNED_MNT UNTUNED_DISK FS REPS SIZE_MIB DELAY THRESH_BYTES" >&2; exit 2; }
tuned=$1 untuned=$2 disk=$3 fs=$4 reps=$5 size=$6 delay=$7 thresh=$8
. /run/files/bench-lib.sh
bench_init "$tuned"
header s6.tsv fs setting tuned_bdi rep written_mib

# sectors written to the disk so far (field 7 of /sys/block/DISK/stat)
sectors() { awk '{ print $7 }' "/sys/block/$disk/stat"; }
# idle: wait (at most 30 s) until no request is in flight on the disk, so
# that writes queued behind the throttle before the delete are counted
idle() {
	i=0
	while [ "$(awk '{ print $1 + $2 }' "/sys/block/$disk/inflight")" != 0 ] && [ "$i" -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$i" -lt 300 ] || echo "$0: $disk still busy after 30 s; the count may be short" >&2
}

list=$(settings off knob global limit)
rep=1
while [ "$rep" -le "$reps" ]; do
	for s in $list; do
		# The untuned disk's share of the global background threshold
		# follows its recent writeout: a global run that wrote the whole
		# file would raise it for the next setting. The same warm-up
		# (64 MiB to each disk, with everything at its default) before
		# every setting gives each the same history: a share of about
		# half the global background threshold, less than the file.
		setting off
		warm_up "$tuned" "$untuned"
		setting "$s" "$thresh"
		sync
		idle
		s0=$(sectors)
		dd if=/dev/zero of="$untuned/short-lived" bs=1M count="$size" 2>/dev/null || exit 1
		sleep "$delay"
		rm -f "$untuned/short-lived"
		sleep 1
		idle
		mib=$(awk -v a="$s0" -v b="$(sectors)" 'BEGIN { printf "%.1f", (b - a) * 512 / 1048576 }')
		row s6.tsv "$fs" "$s" "$bdi" "$rep" "$mib"
		echo "S6 $fs rep $rep $s: $mib MiB reached the untuned disk"
	done
	rep=$((rep + 1))
done
setting off
sync
