#!/bin/sh
# Benchmark S1, the NFS-server analogue, inside the guest: SIZE_MIB arrive
# at RATE_MIB/s on the filesystem mounted on MNT, then one fsync (the
# COMMIT). Settings, interleaved within each repetition so that drift hits
# all alike: floor (the same job on tmpfs), off (knob 0, global defaults),
# knob (the filesystem's bdi at THRESH bytes), global
# (vm.dirty_background_bytes at THRESH bytes instead).
#
#   bench-s1.sh MNT FS REPS SIZE_MIB RATE_MIB THRESH_BYTES
#
# Appends one row per run to s1.tsv: fs setting bdi rep total_s write_s
# fsync_s peak_dirty_kib; dirty time series in series/.
set -u
[ $# -eq 6 ] || { echo "usage: bench-s1.sh MNT FS REPS SIZE_MIB RATE_MIB THRESH_BYTES" >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 size=$4 rate=$5 thresh=$6
files=/run/files
bdi=$($files/fs-bdi.sh "$mnt") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
[ -w "$knob" ] || { echo "bench-s1: $knob missing: kernel without the series?" >&2; exit 1; }
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
mkdir -p series /tmp/floor
[ -f s1.tsv ] || printf 'fs\tsetting\tbdi\trep\ttotal_s\twrite_s\tfsync_s\tpeak_dirty_kib\n' >s1.tsv

defaults() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
}

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
warm_up "$mnt"

rep=1
while [ "$rep" -le "$reps" ]; do
	for setting in floor off knob global; do
		defaults
		file=$mnt/s1 b=$bdi
		case $setting in
		floor) file=/tmp/floor/s1 b=- ;;
		knob) echo "$thresh" >"$knob" ;;
		global) echo "$thresh" >/proc/sys/vm/dirty_background_bytes ;;
		esac
		row=$(sh $files/stream-fsync.sh "$file" "$b" "$size" "$rate" - "series/s1-$fs-$setting-$rep") || exit 1
		set -- $row
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fs" "$setting" "$bdi" "$rep" "$2" "$3" "$4" "$5" >>s1.tsv
		echo "S1 $fs rep $rep $setting: total $2 s, fsync $4 s, peak dirty $(($5 / 1024)) MiB"
		rm -f "$file"
	done
	rep=$((rep + 1))
done
defaults
