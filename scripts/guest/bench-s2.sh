#!/bin/sh
# Benchmark S2, a slow and a fast device written at the same time (seed
# 002: a per-device rule once cut a fast disk from 25.9 to 16.1 MB/s),
# inside the guest. Both get a large file at full speed, ending in fsync;
# the knob goes on the slow device only. Settings, interleaved: off, knob
# (slow filesystem's bdi at THRESH), global (vm.dirty_background_bytes at
# THRESH).
#
#   bench-s2.sh SLOW_MNT FAST_MNT FS REPS SLOW_MIB FAST_MIB THRESH_BYTES
#
# Appends rows to s2.tsv: fs setting slow_bdi rep slow_mib_s fast_mib_s
# (each device's size / its own time from start to the end of its fsync).
set -u
[ $# -eq 7 ] || { echo "usage: bench-s2.sh SLOW_MNT FAST_MNT FS REPS SLOW_MIB FAST_MIB THRESH_BYTES" >&2; exit 2; }
slow=$1 fast=$2 fs=$3 reps=$4 slow_mib=$5 fast_mib=$6 thresh=$7
bdi=$(/run/files/fs-bdi.sh "$slow") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
[ -w "$knob" ] || { echo "bench-s2: $knob missing: kernel without the series?" >&2; exit 1; }
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
[ -f s2.tsv ] || printf 'fs\tsetting\tslow_bdi\trep\tslow_mib_s\tfast_mib_s\n' >s2.tsv

defaults() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
}
now() { cut -d' ' -f1 /proc/uptime; }

# write DIR MIB OUT: MIB MiB into DIR/big ending in fsync; elapsed s to OUT
write() {
	t0=$(now)
	dd if=/dev/zero of="$1/big" bs=1M count="$2" conv=fsync 2>/dev/null || exit 1
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }' >"$3"
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
warm_up "$slow" "$fast"

rep=1
while [ "$rep" -le "$reps" ]; do
	for setting in off knob global; do
		defaults
		case $setting in
		knob) echo "$thresh" >"$knob" ;;
		global) echo "$thresh" >/proc/sys/vm/dirty_background_bytes ;;
		esac
		rm -f "$slow/big" "$fast/big"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		write "$slow" "$slow_mib" /tmp/s2.slow &
		ps=$!
		write "$fast" "$fast_mib" /tmp/s2.fast &
		pf=$!
		wait "$ps" || exit 1
		wait "$pf" || exit 1
		rs=$(awk -v m="$slow_mib" '{ printf "%.2f", m / $1 }' /tmp/s2.slow)
		rf=$(awk -v m="$fast_mib" '{ printf "%.2f", m / $1 }' /tmp/s2.fast)
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$fs" "$setting" "$bdi" "$rep" "$rs" "$rf" >>s2.tsv
		echo "S2 $fs rep $rep $setting: slow $rs MiB/s, fast $rf MiB/s"
	done
	rep=$((rep + 1))
done
rm -f "$slow/big" "$fast/big"
defaults
sync
