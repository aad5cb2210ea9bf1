#!/bin/bash
# Run the benchmarks of Documentation/benchmarks.md in QEMU on the built
# kernel: one VM run per case and filesystem, every setting of a case side
# by side (interleaved) in that run.
#
#   bench.sh [-p quick|full|smoke] [-c "S1 S2 S3 S6"] [-f "ext4 xfs btrfs"] [-r REPS] [-o DIR]
#
# Results go to DIR/<case>-<fs>/ (default Documentation/benchmarks/results/
# PROFILE): the case's TSV file, meta.txt (kernel, VM, disk, sysctls,
# parameters) and the dirty time series. scripts/bench-report.sh turns them
# into tables and plots.
set -u
. "$(dirname "$0")/lib.sh"

profile=quick cases="S1 S2 S3 S6" fss="ext4 xfs btrfs" reps= out= base=${BASE:-6.12}
while getopts p:c:f:r:o: opt; do
	case $opt in
	p) profile=$OPTARG ;;
	c) cases=$OPTARG ;;
	f) fss=$OPTARG ;;
	r) reps=$OPTARG ;;
	o) out=$OPTARG ;;
	*) die "usage: bench.sh [-p quick|full|smoke] [-c CASES] [-f FILESYSTEMS] [-r REPS] [-o DIR]" ;;
	esac
done

# Parameters per profile. The guest has 2 GiB: the global background
# threshold (10 % of available memory) is about 187 MiB, well above the
# per-device thresholds of one second of a disk's bandwidth.
mem=2G cpus=2
disk_mib_s=32        # S1, S3, S6 disks; S2's fast disk
slow_mib_s=8         # S2's slow disk
s3_writers="1 10 100"
s3_agg=24            # S3 aggregate rate, MiB/s (the disk takes 32)
s6_delay=5           # S6: seconds before the short-lived file is deleted
case $profile in
smoke) s1_size=64 s1_rate=16 s2_slow=16 s2_fast=64 s3_total=32 s6_size=64 def_reps=1 ;;
quick) s1_size=256 s1_rate=16 s2_slow=64 s2_fast=256 s3_total=96 s6_size=128 def_reps=3 ;;
full) s1_size=256 s1_rate=16 s2_slow=128 s2_fast=512 s3_total=512 s6_size=128 def_reps=5 ;;
*) die "unknown profile '$profile' (quick, full or smoke)" ;;
esac
reps=${reps:-$def_reps}
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "bad repetition count '$reps'"
thresh=$((disk_mib_s << 20)) slow_thresh=$((slow_mib_s << 20))
# S1's threshold is half a second of the disk's bandwidth: fsync then costs
# at most 0.5 s, which is what a total within 3 % of the bound allows.
s1_thresh=$((disk_mib_s << 19))
out=${out:-$TOP/Documentation/benchmarks/results/$profile}
for fs in $fss; do
	case $fs in ext4 | xfs | btrfs) ;; *) die "unknown filesystem '$fs' (ext4, xfs, btrfs)" ;; esac
done

guest_files=()
for f in "$TOP"/scripts/guest/*.sh; do guest_files+=(-f "$f"); done

meta_cmd='{ echo "kernel: $(uname -r)"; echo "cpus: $(nproc)"
	grep MemTotal /proc/meminfo
	for f in /proc/sys/vm/dirty_* /proc/sys/vm/laptop_mode; do echo "vm.${f##*/}: $(cat $f)"; done
	echo "global background threshold: $(awk "/^BackgroundThresh:/ {print \$2}" /sys/kernel/debug/bdi/*/stats | head -n 1) kB"
} >meta.txt'

run_case() {
	local c=$1 fs=$2 dir=$out/$1-$2 disks cmd params
	case $c in
	S1)
		disks=(-d "2G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s1.sh /mnt/vdb $fs $reps $s1_size $s1_rate $s1_thresh"
		params=("disk: 2 GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling)"
			"s1: $s1_size MiB at $s1_rate MiB/s then fsync; threshold $s1_thresh bytes (knob and global)")
		;;
	S2)
		disks=(-d "2G:$fs:${slow_mib_s}M" -d "4G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s2.sh /mnt/vdb /mnt/vdc $fs $reps $s2_slow $s2_fast $slow_thresh"
		params=("disks: slow 2 GiB $fs at $slow_mib_s MiB/s, fast 4 GiB $fs at $disk_mib_s MiB/s (QEMU block throttling)"
			"s2: $s2_slow MiB to the slow disk and $s2_fast MiB to the fast one at once, each ending in fsync; threshold $slow_thresh bytes (knob on the slow one, or global)")
		;;
	S3)
		disks=(-d "2G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s3.sh /mnt/vdb $fs $reps $s3_total $s3_agg $thresh $s3_writers"
		params=("disk: 2 GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling)"
			"s3: $s3_writers writers, $s3_total MiB in all at $s3_agg MiB/s in all (64 KiB writes), then fsync; threshold $thresh bytes (knob and global)")
		;;
	S6)
		disks=(-d "2G:$fs:${disk_mib_s}M" -d "2G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s6.sh /mnt/vdb /mnt/vdc vdc $fs $reps $s6_size $s6_delay $thresh"
		params=("disks: tuned and untuned, each 2 GiB $fs at $disk_mib_s MiB/s (QEMU block throttling)"
			"s6: a $s6_size MiB file written to the untuned disk, deleted $s6_delay s later; threshold $thresh bytes (knob on the tuned disk, or global)")
		;;
	*) die "unknown case '$c' (S1, S2, S3 or S6)" ;;
	esac
	say "$c on $fs: $reps repetition(s)"
	rm -rf "$dir"
	mkdir -p "$dir"
	bash "$TOP/scripts/vm-run.sh" -b "$base" -q -s "^$c " -m "$mem" -c "$cpus" -t 3600 -o "$TOP/build/bench/$c-$fs" \
		"${disks[@]}" "${guest_files[@]}" "$meta_cmd; $cmd" || die "$c on $fs failed; see build/bench/$c-$fs/console.log"
	cp -r "$TOP/build/bench/$c-$fs/results/." "$dir/"
	cp "$TOP/build/bench/$c-$fs/console.log" "$dir/console.log"
	{
		echo "profile: $profile"
		echo "vm: $mem memory, $cpus CPUs, QEMU software emulation"
		echo "repetitions: $reps"
		printf '%s\n' "${params[@]}"
	} >>"$dir/meta.txt"
}

t0=$(date +%s)
for c in $cases; do
	for fs in $fss; do run_case "$c" "$fs"; done
done
say "done in $(($(date +%s) - t0)) s; results in ${out#"$TOP"/}"
