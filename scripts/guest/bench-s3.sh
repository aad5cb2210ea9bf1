#!/bin/sh
# Benchmark S3, many concurrent writers (many NFS clients), inside the
# guest: N fio jobs, each writing its own file at AGG_MIB/N MiB/s, together
# TOTAL_MIB, then fsync. Measures the aggregate throughput and the extents
# per file (filefrag; xfs_bmap too on XFS). Settings, interleaved: off, knob
# (the filesystem's bdi at THRESH), global (vm.dirty_background_bytes at
# THRESH).
#
#   bench-s3.sh MNT FS REPS TOTAL_MIB AGG_MIB THRESH_BYTES WRITERS...
#
# Appends rows to s3.tsv: fs setting bdi writers rep total_s mib_s
# extents_avg extents_max bmap_avg (bmap_avg "-" off XFS).
set -u
[ $# -ge 7 ] || { echo "usage: bench-s3.sh MNT FS REPS TOTAL_MIB AGG_MIB THRESH_BYTES WRITERS..." >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 total=$4 agg=$5 thresh=$6
shift 6
writers=$*
bdi=$(/run/files/fs-bdi.sh "$mnt") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
[ -w "$knob" ] || { echo "bench-s3: $knob missing: kernel without the series?" >&2; exit 1; }
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
[ -f s3.tsv ] || printf 'fs\tsetting\tbdi\twriters\trep\ttotal_s\tmib_s\textents_avg\textents_max\tbmap_avg\n' >s3.tsv

defaults() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
}
now() { cut -d' ' -f1 /proc/uptime; }

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
	for n in $writers; do
		for setting in off knob global; do
			defaults
			case $setting in
			knob) echo "$thresh" >"$knob" ;;
			global) echo "$thresh" >/proc/sys/vm/dirty_background_bytes ;;
			esac
			dir=$mnt/s3
			rm -rf "$dir"
			mkdir -p "$dir"
			sync
			# per-job size and rate in KiB
			size=$((total * 1024 / n)) rate=$((agg * 1024 / n))
			t0=$(now)
			fio --name=w --directory="$dir" --numjobs="$n" --rw=write --bs=64k \
				--size="${size}k" --rate="${rate}k" --ioengine=psync \
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
			mibs=$(awk -v t="$tt" -v m="$total" 'BEGIN { printf "%.2f", m / t }')
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fs" "$setting" "$bdi" "$n" "$rep" \
				"$tt" "$mibs" "$1" "$2" "$bmap" >>s3.tsv
			echo "S3 $fs rep $rep $n writers $setting: $tt s, $mibs MiB/s, extents avg $1 max $2, xfs_bmap avg $bmap"
			rm -rf "$dir"
		done
	done
	rep=$((rep + 1))
done
defaults
sync
