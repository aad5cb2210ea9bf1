#!/bin/bash
# Run the benchmarks of Documentation/benchmarks.md in QEMU on the built
# kernel: one VM run per case and filesystem, every setting of a case side
# by side (interleaved) in that run.
#
#   bench.sh [-p quick|full|smoke] [-c "S1 ..."] [-f "ext4 xfs btrfs"] [-r REPS] [-o DIR]
#
# Results go to DIR/<case>-<fs>/ (default Documentation/benchmarks/results/
# PROFILE): the case's TSV file, meta.txt (kernel, VM, disk, sysctls,
# parameters) and the dirty time series. scripts/bench-report.sh turns them
# into tables and plots.
set -u
. "$(dirname "$0")/lib.sh"

profile=quick cases="S1" fss="ext4 xfs btrfs" reps= out= base=${BASE:-6.12}
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
# per-device threshold of one second of the disk's bandwidth.
mem=2G cpus=2 disk_mib_s=32
case $profile in
smoke) s1_size=64 s1_rate=16 def_reps=1 ;;
quick) s1_size=128 s1_rate=16 def_reps=3 ;;
full) s1_size=256 s1_rate=16 def_reps=5 ;;
*) die "unknown profile '$profile' (quick, full or smoke)" ;;
esac
reps=${reps:-$def_reps}
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "bad repetition count '$reps'"
thresh=$((disk_mib_s << 20))
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
	local c=$1 fs=$2 dir=$out/$1-$2 disks cmd
	case $c in
	S1)
		disks=(-d "2G:$fs:${disk_mib_s}M")
		cmd="$meta_cmd; sh /run/files/bench-s1.sh /mnt/vdb $fs $reps $s1_size $s1_rate $thresh"
		;;
	*) die "unknown case '$c' (S1)" ;;
	esac
	say "$c on $fs: $reps repetition(s), log: ${dir#"$TOP"/}/console.log"
	rm -rf "$dir"
	mkdir -p "$dir"
	bash "$TOP/scripts/vm-run.sh" -b "$base" -q -s "^$c " -m "$mem" -c "$cpus" -t 3600 -o "$TOP/build/bench/$c-$fs" \
		"${disks[@]}" "${guest_files[@]}" "$cmd" || die "$c on $fs failed; see build/bench/$c-$fs/console.log"
	cp -r "$TOP/build/bench/$c-$fs/results/." "$dir/"
	cp "$TOP/build/bench/$c-$fs/console.log" "$dir/console.log"
	{
		echo "profile: $profile"
		echo "vm: $mem memory, $cpus CPUs, QEMU software emulation"
		echo "disk: 2 GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling)"
		echo "repetitions: $reps"
		case $c in S1) echo "s1: ${s1_size} MiB at ${s1_rate} MiB/s then fsync; threshold $thresh bytes (knob and global)" ;; esac
	} >>"$dir/meta.txt"
}

t0=$(date +%s)
for c in $cases; do
	for fs in $fss; do run_case "$c" "$fs"; done
done
say "done in $(($(date +%s) - t0)) s; results in ${out#"$TOP"/}"
