#!/bin/sh
# What comparing the threshold costs with many possible CPUs: on a kernel
# started with many CPUs (the scale kernel), for each repetition and
# each KNOB (bytes; 0 is off) on ext4 on DEV, write MIB MiB to a new file
# at full speed in 4 KiB write()s, then sync, counting the calls of
# __percpu_counter_sum() and __percpu_counter_compare() during the writes
# (ftrace's function profiler) and timing them.
#
#   scale-cost.sh DEV MIB REPS KNOB...
#
# One line per repetition and setting:
#   scale-cost: cpus=POSSIBLE/ONLINE knob=N write_s=S sums=A compares=B sum_us=U
# (U: the microseconds spent in the sums, as the profiler times them)
set -u
dev=$1 mib=$2 reps=$3
shift 3
tr=/sys/kernel/tracing
mnt=/mnt/sc
err() { echo "scale-cost: $*"; exit 1; }
[ -f $tr/function_profile_enabled ] || err "no function profiler (the scale kernel has it)"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" >/dev/null 2>&1 || err "mkfs.ext4 $dev failed"
mkdir -p $mnt
mount -t ext4 "$dev" $mnt || err "cannot mount $dev"
bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
echo "__percpu_counter_sum __percpu_counter_compare" >$tr/set_ftrace_filter || err "cannot filter functions"
cpus="$(cat /sys/devices/system/cpu/possible)/$(cat /sys/devices/system/cpu/online)"
# hits NAME: calls of NAME over every CPU since the profiler was enabled
hits() { cat $tr/trace_stat/function* 2>/dev/null | awk -v f="$1" '$1 == f { n += $2 } END { print n + 0 }'; }
# usecs NAME: microseconds spent in NAME over every CPU (the profiler's Time)
usecs() { cat $tr/trace_stat/function* 2>/dev/null | awk -v f="$1" '$1 == f { n += $3 } END { printf "%.0f\n", n }'; }
r=0
while [ $r -lt "$reps" ]; do
	r=$((r + 1))
	for knob in "$@"; do
		rm -f $mnt/f
		sync
		echo "$knob" >/sys/class/bdi/$bdi/dirty_background_bytes || err "cannot set the knob to $knob"
		echo 1 >$tr/function_profile_enabled
		t=$(/run/files/paced-write $mnt/f 4096 $((mib << 20)) 0) || err "writing failed"
		s=$(hits __percpu_counter_sum) c=$(hits __percpu_counter_compare) us=$(usecs __percpu_counter_sum)
		echo 0 >$tr/function_profile_enabled
		sync
		echo "scale-cost: cpus=$cpus knob=$knob write_s=${t%% *} sums=$s compares=$c sum_us=$us"
	done
done
echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
umount $mnt
echo "scale-cost: done"
