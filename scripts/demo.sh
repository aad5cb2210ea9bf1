#!/bin/bash
# The demonstration `make` ends with: boot the built kernel with an ext4
# disk throttled to 32 MiB/s and write a 256 MiB stream at 16 MiB/s, then
# fsync it (an NFS server receiving a file, then the client's COMMIT),
# once with the device's dirty_background_bytes at 0 and once at 16 MiB.
# On a kernel without the knob it lists the bdi files instead.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
out=$TOP/build/demo-$base
guest_cmd='{
echo "kernel: $(uname -r)"
bdi=$(basename "$(readlink /sys/block/vdb/bdi)")
echo "/sys/class/bdi/$bdi/ (the ext4 disk):"
ls /sys/class/bdi/$bdi/ | tr "\n" " "; echo
if [ ! -e /sys/class/bdi/$bdi/dirty_background_bytes ]; then
	echo "this kernel has no per-device dirty_background_bytes"
	exit 0
fi
# Keep what the global knobs do as it is; show them.
echo "vm.dirty_background_ratio=$(cat /proc/sys/vm/dirty_background_ratio) vm.dirty_ratio=$(cat /proc/sys/vm/dirty_ratio) global background threshold: $(awk "/^BackgroundThresh:/ {print \$2}" /sys/kernel/debug/bdi/$bdi/stats) kB"
s=/run/files/stream-fsync.sh
sh $s /mnt/vdb/stream $bdi 256 16 0 knob-off >>table.txt &&
sh $s /mnt/vdb/stream $bdi 256 16 16777216 knob-16MiB >>table.txt &&
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
} >demo.txt 2>&1; rc=$?; cat demo.txt; exit $rc
'
say "ext4 on a disk throttled to 32 MiB/s; 256 MiB arrive at 16 MiB/s, then fsync"
say "knob off vs /sys/class/bdi/<disk>/dirty_background_bytes = 16 MiB (about a minute)"
bash "$TOP/scripts/vm-run.sh" -b "$base" -q -t 900 -o "$out" -d 1G:ext4:32M \
	-f "$TOP/scripts/guest/stream-fsync.sh" "$guest_cmd" || die "the demo VM run failed; see build/demo-$base/console.log"
cat "$out/results/demo.txt"
if [ -s "$out/results/table.txt" ]; then
	echo
	printf '%-12s %10s %10s %10s %16s\n' setting total_s write_s fsync_s peak_dirty_MiB
	awk '{ printf "%-12s %10s %10s %10s %16.1f\n", $1, $2, $3, $4, $5 / 1024 }' "$out/results/table.txt"
	echo
	say "the time series of the device's dirty amount: build/demo-$base/results/*.dirty"
fi
