#!/bin/sh
# Benchmark S7, many devices, inside the guest: NDEV null_blk devices
# (configfs, data discarded), MIB_EACH MiB written to each at once by one
# buffered writer per device at full speed, then sync. Settings,
# interleaved: off, and knob (dirty_background_bytes at THRESH_BYTES on
# every device). Measures the CPU time all CPUs spent busy per GiB written
# (as S4) and each device's peak dirty amount (sampled every 50 ms).
#
#   bench-s7-devices.sh REPS NDEV MIB_EACH THRESH_BYTES
#
# Rows in s7-devices.tsv; per-device peaks in series/.
set -u
[ $# -eq 4 ] || { echo "usage: bench-s7-devices.sh REPS NDEV MIB_EACH THRESH_BYTES" >&2; exit 2; }
reps=$1 ndev=$2 mib=$3 thresh=$4
. /run/files/bench-lib.sh
cfs=/sys/kernel/config
grep -q " $cfs configfs " /proc/mounts || mount -t configfs configfs "$cfs" || exit 1
[ -d "$cfs/nullb" ] || { echo "$0: no $cfs/nullb (CONFIG_BLK_DEV_NULL_BLK)" >&2; exit 1; }
mkdir -p series
header s7-devices.tsv setting devices mib_each thresh rep elapsed_s busy_s_per_gib sys_s_per_gib peak_max_kib peak_median_kib

# NDEV devices, as large as what is written to each; their bdis in $bdis
devs= bdis=
i=0
while [ "$i" -lt "$ndev" ]; do
	d=$cfs/nullb/s7-$i
	mkdir "$d" && echo $((mib + 1)) >"$d/size" && echo 0 >"$d/memory_backed" &&
		echo 1 >"$d/power" || { echo "$0: cannot create null_blk device $i" >&2; exit 1; }
	# the disk takes the configfs item's name (nullb<index> on older kernels)
	n=s7-$i
	[ -e "/sys/block/$n" ] || n=nullb$(cat "$d/index")
	devs="$devs /dev/$n" bdis="$bdis $(cat "/sys/block/$n/dev")"
	i=$((i + 1))
done
first=${bdis# }
[ -w "/sys/class/bdi/${first%% *}/dirty_background_bytes" ] ||
	{ echo "$0: no dirty_background_bytes: kernel without the series?" >&2; exit 1; }

ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $4 }' /proc/stat; }
knobs() { for b in $bdis; do echo "$1" >"/sys/class/bdi/$b/dirty_background_bytes"; done; }
jobs=
for d in $devs; do jobs="$jobs --name=${d##*/} --filename=$d"; done

rep=1
while [ "$rep" -le "$reps" ]; do
	for s in off knob; do
		knobs 0
		[ "$s" = knob ] && knobs "$thresh"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		label=series/s7-devices-$s-$rep
		# shellcheck disable=SC2086
		/run/files/sample-dirty -i 50 -o "$label.dirty" $bdis &
		sampler=$!
		set -- $(ticks)
		b0=$1 s0=$2 t0=$(now)
		# shellcheck disable=SC2086
		fio --rw=write --bs=64k --size="${mib}M" --ioengine=psync --eta=never \
			--output=/dev/null $jobs || exit 1
		sync
		t1=$(now)
		set -- $(ticks)
		kill "$sampler"
		wait "$sampler" 2>/dev/null
		# each device's peak, then the largest and the median of those
		awk '{ for (i = 2; i <= NF; i++) if ($i > m[i]) m[i] = $i } END { for (i in m) print m[i] + 0 }' \
			"$label.dirty" | sort -n >"$label.peaks"
		pk=$(awk '{ v[NR] = $1 } END { print v[NR] + 0, v[int((NR + 1) / 2)] + 0 }' "$label.peaks")
		r=$(awk -v b="$(($1 - b0))" -v y="$(($2 - s0))" -v a="$t0" -v c="$t1" -v m="$((mib * ndev))" \
			'BEGIN { g = m / 1024; printf "%.2f %.2f %.2f", c - a, b / 100 / g, y / 100 / g }')
		set -- $r $pk
		row s7-devices.tsv "$s" "$ndev" "$mib" "$thresh" "$rep" "$1" "$2" "$3" "$4" "$5"
		echo "S7 devices rep $rep $s: $ndev x $mib MiB in $1 s, busy $2 s/GiB, system $3 s/GiB, peak dirty max $(($4 / 1024)) MiB, median $(($5 / 1024)) MiB"
		rm -f "$label.dirty"
	done
	rep=$((rep + 1))
done
knobs 0
for d in "$cfs"/nullb/s7-*; do echo 0 >"$d/power"; rmdir "$d"; done
