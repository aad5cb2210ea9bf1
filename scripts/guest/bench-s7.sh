#!/bin/sh
# Benchmark S7, precision at scale, inside the guest: SIZE_MIB arrive at
# RATE_MIB/s in all, spread over N writers (fio jobs, one file each, 64 KiB
# writes), on the filesystem mounted on MNT, then sync (the COMMIT). The
# device's dirty amount (BdiReclaimable) is sampled every 50 ms; the peak
# and the 99th percentile are compared with the threshold. For each writer
# count: floor (the same job on tmpfs), then for each threshold knob (the
# per-device dirty_background_bytes) and global (vm.dirty_background_bytes
# at the same value), interleaved.
#
#   bench-s7.sh MNT FS REPS SIZE_MIB RATE_MIB "THRESH_BYTES..." "WRITERS..."
#
# Rows in s7.tsv; dirty time series in series/.
set -u
[ $# -eq 7 ] || { echo "usage: bench-s7.sh MNT FS REPS SIZE_MIB RATE_MIB \"THRESH_BYTES...\" \"WRITERS...\"" >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 size=$4 rate=$5 threshs=$6 writers=$7
. /run/files/bench-lib.sh
bench_init "$mnt"
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
mkdir -p series /tmp/floor
header s7.tsv fs setting bdi mem_mib writers thresh rep total_s sync_s peak_kib p99_kib samples
warm_up "$mnt"

# job DIR N LABEL: N fio writers into DIR, then sync; sampled when LABEL is
# not "-". Prints "total_s sync_s peak_kib p99_kib samples".
job() {
	dir=$1 n=$2 label=$3 sampler=
	rm -rf "$dir"
	mkdir -p "$dir"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	if [ "$label" != - ]; then
		/run/files/sample-dirty -i 50 -o "$label.dirty" "$bdi" &
		sampler=$!
	fi
	# per-job size (whole 64 KiB writes) and rate, in KiB
	sz=$((size * 1024 / n / 64 * 64)) rt=$((rate * 1024 / n))
	t0=$(now)
	fio --name=w --directory="$dir" --numjobs="$n" --rw=write --bs=64k \
		--size="${sz}k" --rate="${rt}k" --ioengine=psync --fallocate=none \
		--eta=never --output=/dev/null || exit 1
	t1=$(now)
	sync
	t2=$(now)
	if [ -n "$sampler" ]; then
		sleep 0.2
		kill "$sampler"
		wait "$sampler" 2>/dev/null
		# peak and 99th percentile of the samples taken until the sync ended
		set -- $(awk -v end="$(awk -v a="$t0" -v c="$t2" 'BEGIN { printf "%d", (c - a) * 1000 }')" \
			'$1 <= end { print $2 }' "$label.dirty" | sort -n |
			awk '{ v[NR] = $1 } END { i = int(NR * 0.99); if (i < 1) i = 1; print v[NR] + 0, v[i] + 0, NR }')
	else
		set -- 0 0 0
	fi
	rm -rf "$dir"
	awk -v a="$t0" -v b="$t1" -v c="$t2" -v p="$1" -v q="$2" -v n="$3" \
		'BEGIN { printf "%.2f %.2f %d %d %d\n", c - a, c - b, p, q, n }'
}

rep=1
while [ "$rep" -le "$reps" ]; do
	for n in $writers; do
		setting off
		set -- $(job /tmp/floor/s7 "$n" -)
		row s7.tsv "$fs" floor "$bdi" "$mem" "$n" 0 "$rep" "$1" "$2" 0 0 0
		echo "S7 $fs ${mem}M rep $rep $n writers floor: total $1 s"
		for t in $threshs; do
			for s in knob global; do
				setting "$s" "$t"
				set -- $(job "$mnt/s7" "$n" "series/s7-$fs-${mem}M-$n-$t-$s-$rep")
				row s7.tsv "$fs" "$s" "$bdi" "$mem" "$n" "$t" "$rep" "$1" "$2" "$3" "$4" "$5"
				echo "S7 $fs ${mem}M rep $rep $n writers $s $((t >> 20)) MiB: total $1 s, sync $2 s, peak $(($3 / 1024)) MiB, p99 $(($4 / 1024)) MiB"
			done
		done
	done
	rep=$((rep + 1))
done
setting off
