#!/bin/sh
# Why does the fast disk of benchmark S2 lose a little with the knob on the
# slow one in a short run? Inside the guest, with the slow disk on /mnt/vdb
# and the fast one on /mnt/vdc: 128 and 512 MiB, each ending in fsync (16 s
# each; the full profile's S2 writes four times as much), sampling five
# times a second. When the fast disk has written its first 4 MiB it notes
# the time, how far each writer had got (file sizes) and the share of the
# guest's CPU time busy until then; it also notes the peaks of the
# machine-wide Dirty and Dirty + Writeback of /proc/meminfo, to hold against
# the global background threshold and the free-run ceiling halfway between
# it and the dirty threshold. Settings off, knob (8 MiB on the slow disk's
# bdi), both (that, and 32 MiB, one second of its bandwidth, on the fast
# disk's), global, and alone (the fast disk's write with no slow writer
# beside it, defaults), three repetitions. Run with
#
#   scripts/vm-run.sh -q -s PROBE -d 2G:btrfs:8M -d 4G:btrfs:32M \
#       $(for f in scripts/guest/*.sh; do echo -f $f; done) -- 'sh /run/files/probe-s2.sh'
set -u
. /run/files/bench-lib.sh
bench_init /mnt/vdb
fast_knob=/sys/class/bdi/$(/run/files/fs-bdi.sh /mnt/vdc)/dirty_background_bytes
warm_up /mnt/vdb /mnt/vdc
echo "PROBE thresholds: $(grep -hE '^(Dirty|Background)Thresh:' /sys/kernel/debug/bdi/*/stats | sort -u | tr -s ' \n' ' ')"
sec() { awk '{ print $7 }' /sys/block/vdc/stat; }
# busy and total jiffies of all CPUs
cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
mib() { [ -f "$1" ] && awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%d", b / 1048576 }' || echo 0; }
for rep in 1 2 3; do
	for s in off knob both global alone; do
		echo 0 >"$fast_knob"
		case $s in
		both) setting knob 8388608; echo 33554432 >"$fast_knob" ;;
		alone) setting off ;;
		*) setting "$s" 8388608 ;;
		esac
		rm -f /mnt/vdb/big /mnt/vdc/big
		sync
		echo 3 >/proc/sys/vm/drop_caches
		s0=$(sec) t0=$(now) c0=$(cpu)
		p1=
		if [ "$s" != alone ]; then
			dd if=/dev/zero of=/mnt/vdb/big bs=1M count=128 conv=fsync 2>/dev/null &
			p1=$!
		fi
		( dd if=/dev/zero of=/mnt/vdc/big bs=1M count=512 conv=fsync 2>/dev/null; echo "$(now)" >/tmp/fastend ) &
		p2=$!
		first= peak=0 peak_all=0 at=
		while kill -0 "$p2" 2>/dev/null; do
			set -- $(awk '/^(Dirty|Writeback):/ { printf "%d ", $2 / 1024 }' /proc/meminfo)
			d=$1 wb=$2
			[ "$d" -gt "$peak" ] && peak=$d
			[ $((d + wb)) -gt "$peak_all" ] && peak_all=$((d + wb))
			if [ -z "$first" ] && [ $(( $(sec) - s0 )) -gt 8192 ]; then
				first=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
				busy=$(echo "$c0 $(cpu)" | awk '{ printf "%d", 100 * ($3 - $1) / ($4 - $2) }')
				at="slow file $(mib /mnt/vdb/big) MiB, fast file $(mib /mnt/vdc/big) MiB, machine Dirty $d MiB, Writeback $wb MiB, CPU busy ${busy} %"
			fi
			sleep 0.2
		done
		[ -n "$p1" ] && wait "$p1"
		fast=$(awk -v a="$t0" -v b="$(cat /tmp/fastend)" 'BEGIN { printf "%.2f", 512 / (b - a) }')
		echo "PROBE $s rep $rep: fast disk's first 4 MiB written after ${first} s ($at); peak Dirty ${peak} MiB, Dirty + Writeback ${peak_all} MiB; fast ${fast} MiB/s"
	done
done
setting off
echo 0 >"$fast_knob"
