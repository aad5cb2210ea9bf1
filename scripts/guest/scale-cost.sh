#!/bin/sh
# What comparing the threshold costs with many CPUs: on the scale kernel
# (kprobe events), for each repetition and each KNOB (bytes; 0 is off) on
# ext4 on DEV, write MIB MiB to a new file at full speed in 4 KiB write()s,
# then sync, counting the calls of __percpu_counter_sum() and
# __percpu_counter_compare() during the writes (kprobe_profile) and timing
# the writes.
#
#   scale-cost.sh DEV MIB REPS KNOB...
#
# One line per repetition and setting:
#   scale-cost: cpus=POSSIBLE/ONLINE knob=N write_s=S sums=A compares=B
set -u
dev=$1 mib=$2 reps=$3
shift 3
tr=/sys/kernel/tracing
mnt=/mnt/sc
err() { echo "scale-cost: $*"; exit 1; }
[ -f $tr/kprobe_events ] || mount -t tracefs none $tr 2>/dev/null
[ -f $tr/kprobe_events ] || err "no kprobe events (the scale kernel has them)"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 || err "mkfs.ext4 $dev failed"
mkdir -p $mnt
mount -t ext4 "$dev" $mnt || err "cannot mount $dev"
bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
# The probes are placed and enabled once: placing them patches kernel text,
# and doing that again and again beside 32 emulated CPUs once left an int3
# in a tracepoint (an oops in trace_sched_wakeup). Counts are differences.
{ echo 'p:sc_sum __percpu_counter_sum' && echo 'p:sc_cmp __percpu_counter_compare'; } >$tr/kprobe_events &&
	echo 1 >$tr/events/kprobes/sc_sum/enable && echo 1 >$tr/events/kprobes/sc_cmp/enable ||
	err "cannot probe the per-CPU counter functions"
cpus="$(cat /sys/devices/system/cpu/possible)/$(cat /sys/devices/system/cpu/online)"
# hits NAME: hits of kprobe NAME so far
hits() { awk -v f="$1" '$1 == f { print $2 }' $tr/kprobe_profile; }
r=0
while [ $r -lt "$reps" ]; do
	r=$((r + 1))
	for knob in "$@"; do
		rm -f $mnt/f
		sync
		echo "$knob" >/sys/class/bdi/$bdi/dirty_background_bytes || err "cannot set the knob to $knob"
		s0=$(hits sc_sum) c0=$(hits sc_cmp)
		t=$(/run/files/paced-write $mnt/f 4096 $((mib << 20)) 0) || err "writing failed"
		s=$(($(hits sc_sum) - s0)) c=$(($(hits sc_cmp) - c0))
		sync
		echo "scale-cost: cpus=$cpus knob=$knob write_s=${t%% *} sums=$s compares=$c"
	done
done
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
echo 0 >$tr/events/kprobes/sc_sum/enable
echo 0 >$tr/events/kprobes/sc_cmp/enable
echo >$tr/kprobe_events
umount $mnt
echo "scale-cost: done"
