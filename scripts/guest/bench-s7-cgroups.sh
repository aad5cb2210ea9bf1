#!/bin/sh
# Benchmark S7, many cgroups, inside the guest: NCG memory cgroups (cgroup
# v2, memory and io controllers on: cgroup writeback), one writer each
# writing MIB_EACH MiB to its own file on the filesystem mounted on MNT, at
# RATE_MIB/s in all, then sync. Each cgroup's writes are dirtied in a
# writeback context (struct bdi_writeback) of its own, which the knob holds
# to the threshold on its own. Settings, interleaved: off, and knob
# (dirty_background_bytes at THRESH_BYTES). Measures each writeback
# context's dirty amount (debugfs wb_stats, sampled every 50 ms) and the
# CPU time all CPUs spent busy per GiB written.
#
#   bench-s7-cgroups.sh MNT FS REPS NCG MIB_EACH RATE_MIB THRESH_BYTES
#
# Rows in s7-cgroups.tsv; per-context peaks in series/.
set -u
[ $# -eq 7 ] || { echo "usage: bench-s7-cgroups.sh MNT FS REPS NCG MIB_EACH RATE_MIB THRESH_BYTES" >&2; exit 2; }
mnt=$1 fs=$2 reps=$3 ncg=$4 mib=$5 rate=$6 thresh=$7
. /run/files/bench-lib.sh
bench_init "$mnt"
cg=/sys/fs/cgroup
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 cgroup2 "$cg" || exit 1
echo "+memory +io" >"$cg/cgroup.subtree_control" || { echo "$0: cannot enable memory and io controllers" >&2; exit 1; }
mkdir -p series
header s7-cgroups.tsv fs setting bdi cgroups mib_each thresh rep total_s busy_s_per_gib wbs peak_max_kib peak_median_kib
warm_up "$mnt"

ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
rt=$((rate * 1024 / ncg))

rep=1
while [ "$rep" -le "$reps" ]; do
	for s in off knob; do
		setting "$s" "$thresh"
		dir=$mnt/s7c
		rm -rf "$dir"
		mkdir -p "$dir"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		i=0
		while [ "$i" -lt "$ncg" ]; do mkdir -p "$cg/s7-$i"; i=$((i + 1)); done
		label=series/s7-cgroups-$fs-$s-$rep
		/run/files/sample-dirty -i 50 -w -o "$label.dirty" "$bdi" &
		sampler=$!
		b0=$(ticks) t0=$(now)
		i=0 pids=
		while [ "$i" -lt "$ncg" ]; do
			sh -c "echo \$\$ >$cg/s7-$i/cgroup.procs && exec fio --name=c$i --filename=$dir/c$i \
				--rw=write --bs=64k --size=${mib}M --rate=${rt}k --ioengine=psync \
				--fallocate=none --eta=never --output=/dev/null" &
			pids="$pids $!"
			i=$((i + 1))
		done
		fail=0
		for p in $pids; do wait "$p" || fail=1; done
		[ "$fail" = 0 ] || { echo "$0: a writer failed" >&2; exit 1; }
		sync
		t1=$(now) b1=$(ticks)
		kill "$sampler"
		wait "$sampler" 2>/dev/null
		# each writeback context's peak (the root's, cgroup inode 1, left
		# out: the writers are in the child cgroups)
		awk '{ for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[1] != 1 && a[2] + 0 >= m[a[1]]) m[a[1]] = a[2] + 0 } }
			END { for (k in m) print m[k] }' "$label.dirty" | sort -n >"$label.peaks"
		pk=$(awk '{ v[NR] = $1 } END { print NR, v[NR] + 0, v[int((NR + 1) / 2)] + 0 }' "$label.peaks")
		r=$(awk -v b="$((b1 - b0))" -v a="$t0" -v c="$t1" -v m="$((mib * ncg))" \
			'BEGIN { printf "%.2f %.2f", c - a, b / 100 / (m / 1024) }')
		set -- $r $pk
		row s7-cgroups.tsv "$fs" "$s" "$bdi" "$ncg" "$mib" "$thresh" "$rep" "$1" "$2" "$3" "$4" "$5"
		echo "S7 cgroups $fs rep $rep $s: $ncg x $mib MiB in $1 s, busy $2 s/GiB; $3 writeback contexts, peak dirty max $(($4 / 1024)) MiB, median $(($5 / 1024)) MiB"
		rm -f "$label.dirty"
		rm -rf "$dir"
		i=0
		while [ "$i" -lt "$ncg" ]; do rmdir "$cg/s7-$i" 2>/dev/null; i=$((i + 1)); done
	done
	rep=$((rep + 1))
done
setting off
