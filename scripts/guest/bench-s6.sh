#!/bin/sh
# Benchmark S6, collateral writeback, inside the guest: a short-lived file
# (written at full speed, deleted DELAY seconds later) on a device that was
# NOT tuned, while another device carries the tuning. Counts the bytes that
# reached the untuned disk before the delete. Settings, interleaved: off,
# knob (dirty_background_bytes of the tuned filesystem's bdi at THRESH),
# global (vm.dirty_background_bytes at THRESH).
#
#   bench-s6.sh TUNED_MNT UNTUNED_MNT UNTUNED_DISK FS REPS SIZE_MIB DELAY THRESH_BYTES
#
# Appends rows to s6.tsv: fs setting tuned_bdi rep written_mib.
set -u
[ $# -eq 8 ] || { echo "usage: bench-s6.sh TUNED_MNT UNTUNED_MNT UNTUNED_DISK FS REPS SIZE_MIB DELAY THRESH_BYTES" >&2; exit 2; }
tuned=$1 untuned=$2 disk=$3 fs=$4 reps=$5 size=$6 delay=$7 thresh=$8
bdi=$(/run/files/fs-bdi.sh "$tuned") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
[ -w "$knob" ] || { echo "bench-s6: $knob missing: kernel without the series?" >&2; exit 1; }
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
[ -f s6.tsv ] || printf 'fs\tsetting\ttuned_bdi\trep\twritten_mib\n' >s6.tsv

defaults() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
}
# sectors written to the disk so far (field 7 of /sys/block/DISK/stat)
sectors() { awk '{ print $7 }' "/sys/block/$disk/stat"; }

# warm_up DIR...: give each device a writeout history before measuring.
# A device that has written nothing yet has a share of the global
# background threshold near zero, so whichever setting ran first would
# see its data written back by the first flusher wake-up.
warm_up() {
	for w in "$@"; do
		dd if=/dev/zero of="$w/warm-up" bs=1M count=64 conv=fsync 2>/dev/null
		rm -f "$w/warm-up"
	done
	sync
}
warm_up "$tuned" "$untuned"

rep=1
while [ "$rep" -le "$reps" ]; do
	for setting in off knob global; do
		defaults
		case $setting in
		knob) echo "$thresh" >"$knob" ;;
		global) echo "$thresh" >/proc/sys/vm/dirty_background_bytes ;;
		esac
		sync
		s0=$(sectors)
		dd if=/dev/zero of="$untuned/short-lived" bs=1M count="$size" 2>/dev/null || exit 1
		sleep "$delay"
		rm -f "$untuned/short-lived"
		sleep 1
		s1=$(sectors)
		mib=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", (b - a) * 512 / 1048576 }')
		printf '%s\t%s\t%s\t%s\t%s\n' "$fs" "$setting" "$bdi" "$rep" "$mib" >>s6.tsv
		echo "S6 $fs rep $rep $setting: $mib MiB reached the untuned disk"
	done
	rep=$((rep + 1))
done
defaults
sync
