#!/bin/sh
# Benchmark S4, the cost of the series when nobody uses it, inside the
# guest: small buffered writes at full speed (4 KiB each, SIZE_MIB in all,
# then fsync) to an unthrottled disk, with the knob at 0 or on a kernel
# without the series. Measures the CPU time all CPUs spent busy (user,
# nice, system, irq, softirq in /proc/stat) per GiB written, and the
# system part alone. The host script boots the two kernels alternately;
# this script only labels its rows with KERNEL.
#
#   bench-s4.sh MNT FS KERNEL BOOT RUNS SIZE_MIB
#
# Rows in s4.tsv.
set -u
[ $# -eq 6 ] || { echo "usage: bench-s4.sh MNT FS KERNEL BOOT RUNS SIZE_MIB" >&2; exit 2; }
mnt=$1 fs=$2 kernel=$3 boot=$4 runs=$5 size=$6
. /run/files/bench-lib.sh
bdi=$(/run/files/fs-bdi.sh "$mnt") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
if [ -e "$knob" ]; then
	[ "$(cat "$knob")" = 0 ] || { echo "$0: $knob is not 0" >&2; exit 1; }
fi
header s4.tsv fs kernel bdi boot run elapsed_s busy_s_per_gib sys_s_per_gib
warm_up "$mnt"

# busy and system clock ticks of all CPUs so far (USER_HZ is 100)
ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $4 }' /proc/stat; }

# run 0 warms up (the first run after boot is the slowest) and is not kept
run=0
while [ "$run" -le "$runs" ]; do
	rm -f "$mnt/s4"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	set -- $(ticks)
	b0=$1 s0=$2 t0=$(now)
	fio --name=s4 --filename="$mnt/s4" --rw=write --bs=4k --size="${size}M" \
		--ioengine=psync --fallocate=none --end_fsync=1 --eta=never --output=/dev/null || exit 1
	t1=$(now)
	set -- $(ticks)
	r=$(awk -v b="$(($1 - b0))" -v s="$(($2 - s0))" -v a="$t0" -v c="$t1" -v m="$size" \
		'BEGIN { g = m / 1024; printf "%.2f %.2f %.2f", c - a, b / 100 / g, s / 100 / g }')
	set -- $r
	[ "$run" -gt 0 ] || { run=1; continue; }
	row s4.tsv "$fs" "$kernel" "$bdi" "$boot" "$run" "$1" "$2" "$3"
	echo "S4 $fs $kernel boot $boot run $run: $1 s, busy $2 s/GiB, system $3 s/GiB"
	run=$((run + 1))
done
rm -f "$mnt/s4"
sync
