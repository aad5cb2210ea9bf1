#!/bin/sh
# Benchmark S3, many concurrent writers (many NFS clients), inside the
# guest: N fio jobs, each writing its own file at AGG_MIB/N MiB/s, together
# TOTAL_MIB, then fsync. Measures the aggregate throughput and the extents
# per file (filefrag; xfs_bmap too on XFS). fio does not preallocate the
# files (--fallocate=none): the filesystem allocates as writeback goes, as
# for an NFS server's writes, which is what the extent count is about. Settings, interleaved: off,
# knob, global, limit (strict_limit and max_bytes starting background
# writeback at the knob's threshold) (bench-lib.sh).
#
#   bench-s3.sh MNT FS REPS TOTAL_MIB AGG_MIB THRESH_BYTES WRITERS...
#
# Rows in s3.tsv (bmap_avg "-" off XFS).
set -u
[ $# -ge 7 ] || { echo "usage: bench-s3.sh MNT FS REPS TOTAL_MIB AGG_MIB THRESH_BYTES WRITERS..." >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 total=$4 agg=$5 thresh=$6
shift 6
writers=$*
. /run/files/bench-lib.sh
bench_init "$mnt"
header s3.tsv fs setting bdi writers rep total_s mib_s extents_avg extents_max bmap_avg
warm_up "$mnt"

list=$(settings off knob global limit)
rep=1
while [ "$rep" -le "$reps" ]; do
	for n in $writers; do
		for s in $list; do
			setting "$s" "$thresh"
			dir=$mnt/s3
			rm -rf "$dir"
			mkdir -p "$dir"
			sync
			# per-job size (whole 64 KiB writes) and rate in KiB
			size=$((total * 1024 / n / 64 * 64)) rate=$((agg * 1024 / n))
			t0=$(now)
			fio --name=w --directory="$dir" --numjobs="$n" --rw=write --bs=64k \
				--size="${size}k" --rate="${rate}k" --ioengine=psync --fallocate=none \
				--end_fsync=1 --eta=never --output=/dev/null || exit 1
			t1=$(now)
			ext=$(filefrag "$dir"/* | awk '{ n++; s += $(NF - 2); if ($(NF - 2) > m) m = $(NF - 2) }
				END { printf "%.2f %d", s / n, m }')
			bmap=-
			if [ "$fs" = xfs ]; then
				# one line per extent: "N: [from..to]: block..block"
				bmap=$(for f in "$dir"/*; do xfs_bmap "$f" | grep -E '^[[:space:]]*[0-9]+: \[' | grep -vc hole; done |
					awk '{ s += $1; n++ } END { printf "%.2f", s / n }')
			fi
			set -- $ext
			tt=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
			mibs=$(awk -v t="$tt" -v k="$((size * n))" 'BEGIN { printf "%.2f", k / 1024 / t }')
			row s3.tsv "$fs" "$s" "$bdi" "$n" "$rep" "$tt" "$mibs" "$1" "$2" "$bmap"
			echo "S3 $fs rep $rep $n writers $s: $tt s, $mibs MiB/s, extents avg $1 max $2, xfs_bmap avg $bmap"
			rm -rf "$dir"
		done
	done
	rep=$((rep + 1))
done
setting off
sync
