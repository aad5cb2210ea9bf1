#!/bin/sh
# Benchmark S8, bursts, inside the guest: data arrives faster than a slow
# disk can take it for short periods, with idle in between (clients of an
# NFS server writing in bursts, a copy to a USB disk), then one fsync:
# BURSTS bursts of BURST_MIB at full speed, GAP_MS apart (burst-write.c).
# Measures what the writer sees (time in the bursts, the slowest burst, the
# 99th percentile and longest write()), the fsync, the whole job and the
# bdi's peaks of dirty pages and of pages not yet written.
#
# Each setting runs the job twice: "warm", right after the disk wrote
# 32 MiB with everything at its default (its share of the recent writeout
# near all of it), and "idle", after the disk sat idle while another disk
# wrote OTHER_MIB (its share near none: a disk just plugged in, a device
# written now and then). The per-bdi limits follow that share: the bdi's
# part of the global thresholds is its share of them, capped by max_bytes,
# with a floor of an eighth of the global background threshold's headroom
# for the flusher's check. (A bdi over its max_bytes share has its
# completions left out of the shares, so under strict_limit the warm job
# itself does not raise it.)
#
# Settings, interleaved, each repetition in another order: off, knob
# (THRESH), limit (strict_limit and max_bytes starting background writeback
# at THRESH), limit-bg2 (the same start with dirty_background_ratio 2 and
# a higher limit), maxbytes (max_bytes as for limit without strict_limit)
# and knob+limit (the knob at THRESH, strict_limit with max_bytes CAP)
# (bench-lib.sh). The bdi's dirty limit and background share (kB, from
# debugfs) at the start of every job are the rows' last two columns.
#
#   bench-s8.sh MNT OTHER_MNT FS REPS BURST_MIB BURSTS GAP_MS OTHER_MIB THRESH_BYTES CAP_BYTES
#
# Rows in s8.tsv; dirty time series (sample-dirty) in series/; with
# STACKS=1 in the environment, also the writer's kernel stacks while it
# sleeps uninterruptibly (series/*.stacks).
set -u
[ $# -eq 10 ] || { echo "usage: bench-s8.sh MNT OTHER_MNT FS REPS BURST_MIB BURSTS GAP_MS OTHER_MIB THRESH_BYTES CAP_BYTES" >&2; exit 2; }
mnt=$1 other=$2 fs=$3 reps=$4 burst=$5 bursts=$6 gap=$7 other_mib=$8 thresh=$9 cap=${10}
stacks=${STACKS:-0}
. /run/files/bench-lib.sh
bench_init "$mnt"
mkdir -p series
header s8.tsv fs setting bdi phase rep write_s slowest_s p99_ms max_ms fsync_s total_s peak_kib peak_unwritten_kib \
	limit_kib share_kib

# job PHASE: the bursts and the fsync, the bdi's dirty sampled; one row
job() {
	label=series/s8-$fs-$s-$1-$rep
	rm -f "$mnt/s8"
	sync
	# the bdi's dirty limit and background share as the job starts (what
	# the limits follow: its share of the recent writeout, max_bytes): the
	# share is the limit times BackgroundThresh / DirtyThresh
	lim=$(awk '/^BdiDirtyThresh:/ { b = $2 } /^DirtyThresh:/ { d = $2 } /^BackgroundThresh:/ { g = $2 }
		END { printf "%d %d", b, d ? b * g / d : 0 }' "/sys/kernel/debug/bdi/$bdi/stats")
	/run/files/sample-dirty -i 50 -b -o "$label.dirty" "$bdi" &
	sampler=$!
	/run/files/burst-write "$mnt/s8" $((64 << 10)) $((burst << 20)) "$bursts" "$gap" >/tmp/s8.out &
	writer=$!
	# STACKS=1: where the writer sleeps uninterruptibly, its kernel stack
	# every 2 ms (what a long write() waits for); a tracing run, not kept
	# with the figures
	if [ "$stacks" = 1 ]; then
		while kill -0 "$writer" 2>/dev/null; do
			if [ "$(cut -d' ' -f3 "/proc/$writer/stat" 2>/dev/null)" = D ]; then
				{ echo "@ $(now)"; cat "/proc/$writer/stack"; } >>"$label.stacks" 2>/dev/null
			fi
			usleep 2000
		done
	fi
	wait "$writer" || { kill "$sampler"; exit 1; }
	r=$(cat /tmp/s8.out)
	sleep 0.2
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	# the peaks of the dirty pages and of those not yet written (dirty
	# or under writeback: what an fsync waits for, what strict_limit counts)
	set -- "$1" $r $(awk 'BEGIN { d = 0; u = 0 } $2 > d { d = $2 } $2 + $3 > u { u = $2 + $3 } END { print d, u }' "$label.dirty")
	row s8.tsv "$fs" "$s" "$bdi" "$1" "$rep" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" $lim
	echo "S8 $fs rep $rep $s $1: bursts $2 s (slowest $3 s), write() p99 $4 ms max $5 ms, fsync $6 s, total $7 s," \
		"peak dirty $(($8 / 1024)) MiB, not yet written $(($9 / 1024)) MiB"
	rm -f "$mnt/s8"
}

list=$(settings off knob limit limit-bg2 maxbytes knob+limit)
for s in $list; do
	echo "S8 setting $s: $(setting_desc "$s" "$thresh" "$cap")"
done
rep=1
while [ "$rep" -le "$reps" ]; do
	for s in $(rotate $((rep - 1)) $list); do
		# the same history for every setting: the disk has just written
		setting off
		dd if=/dev/zero of="$mnt/warm-up" bs=1M count=32 conv=fsync 2>/dev/null || exit 1
		rm -f "$mnt/warm-up"
		sync
		setting "$s" "$thresh" "$cap"
		job warm
		# the disk idle while another one writes
		dd if=/dev/zero of="$other/s8-other" bs=1M count="$other_mib" conv=fsync 2>/dev/null || exit 1
		rm -f "$other/s8-other"
		sync
		job idle
	done
	rep=$((rep + 1))
done
setting off
sync
