#!/bin/sh
# Benchmark S2, a slow and a fast device written at the same time (seed
# 002: a per-device rule once cut a fast disk from 25.9 to 16.1 MB/s),
# inside the guest. Both get a large file at full speed, ending in fsync;
# the knob goes on the slow device only. Settings, interleaved: off, knob,
# global, limit (strict_limit and max_bytes on the slow device, starting
# background writeback at the knob's threshold) (bench-lib.sh).
#
#   bench-s2.sh SLOW_MNT FAST_MNT FS REPS SLOW_MIB FAST_MIB THRESH_BYTES
#
# Rows in s2.tsv: each device's MiB/s from start to the end of its fsync.
set -u
[ $# -eq 7 ] || { echo "usage: bench-s2.sh SLOW_MNT FAST_MNT FS REPS SLOW_MIB FAST_MIB THRESH_BYTES" >&2; exit 2; }
slow=$1 fast=$2 fs=$3 reps=$4 slow_mib=$5 fast_mib=$6 thresh=$7
. /run/files/bench-lib.sh
bench_init "$slow"
header s2.tsv fs setting slow_bdi rep slow_mib_s fast_mib_s
warm_up "$slow" "$fast"

# write DIR MIB OUT: MIB MiB into DIR/big ending in fsync; MiB/s to OUT
write() {
	t0=$(now)
	dd if=/dev/zero of="$1/big" bs=1M count="$2" conv=fsync 2>/dev/null || exit 1
	awk -v a="$t0" -v b="$(now)" -v m="$2" 'BEGIN { printf "%.2f\n", m / (b - a) }' >"$3"
}

list=$(settings off knob global limit)
rep=1
while [ "$rep" -le "$reps" ]; do
	for s in $list; do
		# the same writeout history before every setting: a setting
		# that held the slow disk back (limit) would otherwise leave
		# the next one a different share of the global thresholds
		setting off
		warm_up "$slow" "$fast"
		setting "$s" "$thresh"
		rm -f "$slow/big" "$fast/big"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		write "$slow" "$slow_mib" /tmp/s2.slow &
		ps=$!
		write "$fast" "$fast_mib" /tmp/s2.fast &
		pf=$!
		wait "$ps" && wait "$pf" || exit 1
		rs=$(cat /tmp/s2.slow) rf=$(cat /tmp/s2.fast)
		row s2.tsv "$fs" "$s" "$bdi" "$rep" "$rs" "$rf"
		echo "S2 $fs rep $rep $s: slow $rs MiB/s, fast $rf MiB/s"
	done
	rep=$((rep + 1))
done
rm -f "$slow/big" "$fast/big"
setting off
sync
