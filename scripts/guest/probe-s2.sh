#!/bin/sh
# Why does the fast disk of benchmark S2 lose a little with the knob on the
# slow one? Inside the guest, with the slow disk on /mnt/vdb and the fast
# one on /mnt/vdc: the same writes as S2 (128 and 512 MiB, each ending in
# fsync), sampling every 0.2 s when the fast disk has written its first
# 4 MiB and the machine-wide Dirty of /proc/meminfo. Settings off, knob
# (8 MiB on the slow disk's bdi), both (that, and 32 MiB, one second of its
# bandwidth, on the fast disk's), global, three repetitions. Run with
#
#   scripts/vm-run.sh -q -s PROBE -d 2G:btrfs:8M -d 4G:btrfs:32M \
#       $(for f in scripts/guest/*.sh; do echo -f $f; done) -- 'sh /run/files/probe-s2.sh'
set -u
. /run/files/bench-lib.sh
bench_init /mnt/vdb
fast_knob=/sys/class/bdi/$(/run/files/fs-bdi.sh /mnt/vdc)/dirty_background_bytes
warm_up /mnt/vdb /mnt/vdc
sec() { awk '{ print $7 }' /sys/block/vdc/stat; }
for rep in 1 2 3; do
	for s in off knob both global; do
		echo 0 >"$fast_knob"
		if [ "$s" = both ]; then
			setting knob 8388608
			echo 33554432 >"$fast_knob"
		else
			setting "$s" 8388608
		fi
		rm -f /mnt/vdb/big /mnt/vdc/big
		sync
		echo 3 >/proc/sys/vm/drop_caches
		s0=$(sec) t0=$(now)
		dd if=/dev/zero of=/mnt/vdb/big bs=1M count=128 conv=fsync 2>/dev/null &
		p1=$!
		( dd if=/dev/zero of=/mnt/vdc/big bs=1M count=512 conv=fsync 2>/dev/null; echo "$(now)" >/tmp/fastend ) &
		p2=$!
		first= peak=0
		while kill -0 "$p2" 2>/dev/null; do
			d=$(awk '/^Dirty:/ { print int($2 / 1024) }' /proc/meminfo)
			[ "$d" -gt "$peak" ] && peak=$d
			if [ -z "$first" ] && [ $(( $(sec) - s0 )) -gt 8192 ]; then first=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'); fi
			sleep 0.2
		done
		wait "$p1"
		fast=$(awk -v a="$t0" -v b="$(cat /tmp/fastend)" 'BEGIN { printf "%.2f", 512 / (b - a) }')
		echo "PROBE $s rep $rep: fast disk wrote its first 4 MiB after ${first} s; peak machine-wide Dirty ${peak} MiB; fast ${fast} MiB/s"
	done
done
setting off
echo 0 >"$fast_knob"
