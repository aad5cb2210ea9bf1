#!/bin/bash
# No kick without progress: a writeback context that cannot get below its
# device's threshold must not make every few dirtied pages start another
# writeback pass. One VM, two filesystems, each with the knob off and on:
#
# - f2fs (scripts/guest/no-progress.sh) keeps its node and meta pages dirty
#   below its own batching thresholds, so with the knob at 32 KiB its
#   context stays over it; one writer writes 1 MiB/s for 20 s.
# - FUSE (scripts/guest/no-progress-fuse.sh, daemon stall-fuse.c): a writer
#   writes 512 KiB/s for 20 s with the knob at 64 KiB on the mount's bdi;
#   from 5 to 15 s the daemon holds every WRITE request, and
#   fuse_writepages() skips background writeback as congested.
# - FUSE in normal running (scripts/guest/fuse-stream.sh): the daemon
#   writes at 8 MiB/s, so its channel is congested and drains all the
#   time and passes end stuck now and then; a writer writes 48 MiB as fast
#   as it can and fsyncs, knob off and at 64 KiB taking turns, 3 times
#   each. The median throughput with the knob set must be at least
#   NP_STREAM_MIN (0.8) x off's: the series with patch 6 holding off the
#   global and strictlimit kicks after every stuck pass ran it at 0.50 x
#   off on 7.3 (3.70 against 7.40 MiB/s); the daemon's speed bounds both.
#
# Passes: the passes the threshold starts (traced with the reason
# background_bytes, patch 5) that write nothing (f2fs: in the whole run;
# FUSE: during the stall) may number at most one a second (the first
# retry interval of patch 6) plus NP_SLACK (10); with the knob off there
# are none. f2fs's passes may number at most its data over the threshold
# (20 MiB / 32 KiB = 640). Passes that write something are the knob at work: FUSE takes
# 24 pages at a time into its queue for a while after the daemon stops
# answering. CPU:
# the kworker threads' time during the FUSE stall with the knob set may
# exceed 1.1 x their time with it off by at most NP_CPU_SLACK clock ticks
# (30, i.e. 0.3 s). The FUSE file must read back whole. On the series
# without patch 6 (build-variant.sh BASE nostall; NP_KERNEL=BZIMAGE boots
# it) the stalled FUSE context gets an empty pass every few pages dirtied
# and the test fails.
. "$TOP/scripts/tests/testlib.sh"
. "$TOP/scripts/lib.sh"

out=$CHECKDIR/no-progress
slack=${NP_SLACK:-10} cpu_slack=${NP_CPU_SLACK:-30} stream_min=${NP_STREAM_MIN:-0.8}
guest_files
kernel=(-b "$BASE")
[ -z "${NP_KERNEL:-}" ] || kernel=(-k "$NP_KERNEL")
expect_rc 0 "no-progress.sh and no-progress-fuse.sh in the VM" \
	"$VMRUN" "${kernel[@]}" -q -s '^(no-progress|stall-fuse|fuse-stream)' -t 900 -o "$out" \
	-d 1G:-:32M "${GUEST_FILES[@]}" \
	"sh /run/files/no-progress.sh /dev/vdb 20 1048576 0 32768 &&
	 sh /run/files/no-progress-fuse.sh 20 524288 5 15 0 65536 &&
	 sh /run/files/fuse-stream.sh 48 3 8192 0 65536"

# field FS KNOB NAME: NAME=value of the result line for FS and KNOB
field() {
	grep -h "^no-progress: $1 knob=$2 " "$out/console.log" 2>/dev/null | tail -n 1 |
		tr ' ' '\n' | sed -n "s/^$3=//p"
}
# judge WHAT ON OFF SECS: at most OFF + SECS + slack passes
judge_passes() {
	local bound=$(($3 + $4 + slack))
	if [ "$2" -le "$bound" ]; then
		ok "$1: $2 passes with the knob set <= $bound (off: $3, + 1/s for $4 s, + $slack)"
	else
		not_ok "$1: $2 passes with the knob set > $bound (off: $3): a context that cannot get below its threshold is kicked over and over"
	fi
}
# judge_cpu WHAT ON OFF: at most 1.1 x OFF + cpu_slack kworker ticks
judge_cpu() {
	local bound=$((($3 * 11 + 9) / 10 + cpu_slack))
	if [ "$2" -le "$bound" ]; then
		ok "$1: kworker CPU with the knob set $2 ticks <= $bound (1.1 x off ($3) + $cpu_slack)"
	else
		not_ok "$1: kworker CPU with the knob set $2 ticks > $bound (1.1 x off ($3) + $cpu_slack)"
	fi
}

# f2fs: its passes with the knob set write data (the knob at work); the
# ones that write nothing must stay bounded, and so must the passes that
# write next to nothing: f2fs's own pages keep the context over a 32 KiB
# threshold, and without patch 6 every few data pages start another pass
# (1040 for 20 MiB, on 6.12). Its CPU is reported, not judged: writing
# 20 MiB in 32 KiB pieces costs more than one sync.
e_off=$(field f2fs 0 empty_passes) e_on=$(field f2fs 32768 empty_passes)
p_off=$(field f2fs 0 passes) p_on=$(field f2fs 32768 passes)
k_off=$(field f2fs 0 kworker_ticks) k_on=$(field f2fs 32768 kworker_ticks)
if [ -n "$e_off" ] && [ -n "$e_on" ]; then
	say "f2fs, 20 s and a sync: knob off: $p_off passes ($e_off empty), $k_off kworker ticks; knob 32 KiB: $p_on passes ($e_on empty), $k_on ticks, $(field f2fs 32768 reclaimable_kb) kB dirty when the writer was done"
	judge_passes "f2fs, 20 s: background_bytes passes that wrote nothing" "$e_on" "$e_off" 20
	b_off=$(field f2fs 0 bytes_passes) b_on=$(field f2fs 32768 bytes_passes)
	# a context that makes progress gets at least the threshold's worth
	# written per pass: at most 20 MiB / 32 KiB = 640 passes
	if [ "${b_on:-0}" -le 640 ]; then
		ok "f2fs: $b_on passes for 20 MiB written <= 640 (the data over the threshold)"
	else
		not_ok "f2fs: $b_on passes for 20 MiB written > 640 (the data over the threshold): passes that can barely write are started over and over"
	fi
	# the knob's passes carry a reason of their own (patch 5)
	if [ "${b_off:-x}" = 0 ] && [ "${b_on:-0}" -gt 0 ]; then
		ok "f2fs: $b_on passes traced as background_bytes with the knob set, none with it off"
	else
		not_ok "f2fs: passes traced as background_bytes: '$b_on' with the knob set, '$b_off' with it off (want some and none)"
	fi
else
	not_ok "no f2fs result lines in ${out#"$TOP"/}/console.log"
fi

# FUSE: while the daemon holds every WRITE, no pass can write anything.
p_off=$(field fuse 0 stall_passes) p_on=$(field fuse 65536 stall_passes)
e_off=$(field fuse 0 stall_empty) e_on=$(field fuse 65536 stall_empty)
k_off=$(field fuse 0 stall_ticks) k_on=$(field fuse 65536 stall_ticks)
if [ -n "$p_off" ] && [ -n "$p_on" ] && [ -n "$e_off" ] && [ -n "$e_on" ] && [ -n "$k_off" ] && [ -n "$k_on" ]; then
	say "FUSE, 10 s stalled: knob off: $p_off passes ($e_off empty), $k_off kworker ticks; knob 64 KiB: $p_on passes ($e_on empty), $k_on ticks (in all: $(field fuse 0 passes) and $(field fuse 65536 passes) passes)"
	judge_passes "FUSE daemon stalled 10 s: background_bytes passes that wrote nothing" "$e_on" "$e_off" 10
	judge_cpu "FUSE daemon stalled 10 s" "$k_on" "$k_off"
else
	not_ok "no FUSE result lines in ${out#"$TOP"/}/console.log"
fi

# FUSE in normal running: the knob must not slow the writer down
# median KNOB: the median MiB/s of the stream runs with KNOB, when all 3 ran
median() {
	[ "$(grep -c "^fuse-stream: knob=$1 " "$out/console.log" 2>/dev/null)" = 3 ] &&
		median_field "$out/console.log" "fuse-stream: knob=$1 " mib_s
}
m_off=$(median 0) m_on=$(median 65536)
if [ -n "$m_off" ] && [ -n "$m_on" ]; then
	r=$(awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "%.2f", a / b }')
	say "FUSE stream, daemon at 8 MiB/s, 48 MiB and fsync, medians of 3: knob off $m_off MiB/s, knob 64 KiB $m_on MiB/s ($r x off)"
	if awk -v r="$r" -v m="$stream_min" 'BEGIN { exit !(r >= m) }'; then
		ok "FUSE stream: the knob at 64 KiB writes at $r x off's speed >= $stream_min"
	else
		not_ok "FUSE stream: the knob at 64 KiB writes at $r x off's speed < $stream_min: writeback is held off while the channel drains"
	fi
else
	not_ok "no FUSE stream result lines (3 of each setting) in ${out#"$TOP"/}/console.log"
fi
finish
