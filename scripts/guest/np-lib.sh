# Helpers of no-progress.sh and no-progress-fuse.sh (sourced): the
# writeback tracepoints and the kworkers' CPU time for the bdi in $bdi.
# shellcheck shell=sh

tr=/sys/kernel/tracing
[ -f $tr/events/writeback/writeback_start/enable ] || tr=/sys/kernel/debug/tracing

# kworker_ticks: user + system clock ticks of every kworker thread
kworker_ticks() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk '{ c = $2; sub(/^.*\) /, "") } c ~ /^\(kworker/ { t += $12 + $13 } END { print t + 0 }'
}
# np_re: the trace lines' start for the bdi in $bdi, an extended regular
# expression; with np_gone set also "(unknown)", the name the tracepoints
# give a bdi once its device is gone (del_gendisk() unregisters the bdi
# while its writeback contexts still run)
np_re() {
	if [ -n "${np_gone:-}" ]; then echo "bdi ($bdi|[(]unknown[)]): "; else echo "bdi $bdi: "; fi
}
# background passes started on the bdi so far, those the threshold
# started, and those of them that wrote nothing
passes() { grep -cE "writeback_start: $(np_re).*reason=background" $tr/trace; }
bytes_passes() { grep -cE "writeback_start: $(np_re).*reason=background_bytes " $tr/trace; }
empty_passes() { grep -cE "writeback_written: $(np_re).*nr_pages=9223372036854775807 .*reason=background_bytes " $tr/trace; }
# empty_rounds: rounds of writeback on the bdi, whatever started them,
# that wrote no page: wb_writeback() traces writeback_start and
# writeback_written around each round of its loop (the flusher runs one at
# a time on a bdi), and a round that wrote nothing leaves nr_pages as it was
empty_rounds() {
	awk -v b="$(np_re)" '
		$0 !~ b || !match($0, /nr_pages=[0-9]+/) { next }
		{ v = substr($0, RSTART + 9, RLENGTH - 9) }
		/writeback_start: / { at = v; next }
		/writeback_written: / && v == at { n++ }
		END { print n + 0 }' $tr/trace
}

# np_start KNOB: the bdi cleaned with the knob off, then KNOB set and the
# tracepoints recording afresh
np_start() {
	echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
	sync
	sleep 1
	echo "$1" >/sys/class/bdi/$bdi/dirty_background_bytes || err "cannot set the knob to $1"
	# (per CPU; NP_TRACE_KB another size, a small one to see the overflow
	# check in np_stop fail)
	echo "${NP_TRACE_KB:-4096}" >$tr/buffer_size_kb
	# no comm recording: it hooks sched_switch, and patching that
	# tracepoint in __schedule() on and off left a CPU of QEMU's
	# multi-threaded TCG on the patch's int3 ("Oops: int3" in
	# __schedule(), twice, in the fault suite on 7.3)
	[ ! -f $tr/options/record-cmd ] || echo 0 >$tr/options/record-cmd
	# reading the trace while recording must not pause the recording
	# (pause-on-trace, on by default, drops the events meanwhile without
	# counting them as lost)
	[ ! -f $tr/options/pause-on-trace ] || echo 0 >$tr/options/pause-on-trace
	echo 0 >$tr/tracing_on
	echo >$tr/trace
	echo 1 >$tr/events/writeback/writeback_start/enable
	echo 1 >$tr/events/writeback/writeback_written/enable
	# the kicks of the flusher for background writeback, where the
	# kernel has the tracepoint
	[ ! -f $tr/events/writeback/writeback_wake_background/enable ] ||
		echo 1 >$tr/events/writeback/writeback_wake_background/enable
	echo 1 >$tr/tracing_on
}
# np_stop: recording stopped; fails when the trace buffer overflowed
np_stop() {
	np_off
	# events the ring buffer overwrote or dropped since the trace was
	# cleared (np_start), on every CPU
	set -- $tr/per_cpu/cpu*/stats
	[ -f "$1" ] || err "no $tr/per_cpu/cpu*/stats to tell whether the trace buffer overflowed"
	lost=$(cat "$@" | awk '/^(overrun|commit overrun|dropped events):/ { n += $NF } END { print n + 0 }')
	[ "$lost" -eq 0 ] || err "the trace buffer overflowed: $lost events lost"
	# the most kB a CPU's buffer held, against its NP_TRACE_KB (headroom)
	np_trace_kb=$(cat "$@" | awk '/^bytes:/ && $2 > m { m = $2 } END { print int(m / 1024) }')
}
# np_off: recording stopped, the tracepoints off (also on an error exit)
np_off() {
	echo 0 >$tr/tracing_on
	for e in writeback_start writeback_written writeback_wake_background; do
		[ ! -f $tr/events/writeback/$e/enable ] || echo 0 >$tr/events/writeback/$e/enable
	done
}

# stall_fuse BACK MNT [KBPS]: the stall-fuse daemon (its files in BACK)
# mounted on MNT, writing at KBPS kB/s if given, its pid in $fuse (SIGUSR1
# holds every WRITE, SIGUSR2 answers again)
stall_fuse() {
	mkdir -p "$1" "$2"
	/run/files/stall-fuse "$1" "$2" ${3:+"$3"} 2>/run/stall-fuse.log &
	fuse=$!
	i=0
	until grep -q " $2 fuse" /proc/mounts; do
		i=$((i + 1))
		[ $i -le 100 ] || err "stall-fuse did not mount $2: $(cat /run/stall-fuse.log)"
		sleep 0.1
	done
}
