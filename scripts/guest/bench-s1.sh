#!/bin/sh
# Benchmark S1, the NFS-server analogue, inside the guest: SIZE_MIB arrive
# at RATE_MIB/s on the filesystem mounted on MNT, then one fsync (the
# COMMIT). Settings, interleaved within each repetition so that drift hits
# all alike: floor (the same job on tmpfs), off, knob, global, and the 6.2
# per-bdi limits: limit (strict_limit and max_bytes starting background
# writeback at the knob's threshold), limit16 (max_bytes 16 MiB, what
# distributions set on USB disks) and maxbytes (max_bytes as for limit,
# without strict_limit) (bench-lib.sh).
#
#   bench-s1.sh MNT FS REPS SIZE_MIB RATE_MIB THRESH_BYTES
#
# Rows in s1.tsv; dirty time series in series/.
set -u
[ $# -eq 6 ] || { echo "usage: bench-s1.sh MNT FS REPS SIZE_MIB RATE_MIB THRESH_BYTES" >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 size=$4 rate=$5 thresh=$6
. /run/files/bench-lib.sh
bench_init "$mnt"
mkdir -p series /tmp/floor
header s1.tsv fs setting bdi rep total_s write_s fsync_s peak_dirty_kib
warm_up "$mnt"

list=$(settings floor off knob global limit limit16 limit-bg2 maxbytes)
rep=1
while [ "$rep" -le "$reps" ]; do
	for s in $(rotate $((rep - 1)) $list); do
		file=$mnt/s1 b=$bdi
		if [ "$s" = floor ]; then
			setting off
			file=/tmp/floor/s1 b=-
		else
			setting "$s" "$thresh"
		fi
		r=$(sh /run/files/stream-fsync.sh "$file" "$b" "$size" "$rate" - "series/s1-$fs-$s-$rep") || exit 1
		set -- $r
		row s1.tsv "$fs" "$s" "$bdi" "$rep" "$2" "$3" "$4" "$5"
		echo "S1 $fs rep $rep $s: total $2 s, fsync $4 s, peak dirty $(($5 / 1024)) MiB"
		rm -f "$file"
	done
	rep=$((rep + 1))
done
setting off
