#!/bin/bash
# What comparing the threshold costs with many CPUs, as ratios in one run:
# the scale kernel of the series (build/obj-BASE-scale: room for 256 CPUs,
# kprobe events) and the same kernel comparing the count as the
# series' first version did (build/kernels/BASE-exactsum-scale,
# build-variant.sh BASE exactsum), each in a guest with CPUS (32) vCPUs
# online; in each, REPS repetitions of MIB MiB written at full speed to
# ext4 with the knob off and at KNOB (8 MiB; the first version summed
# whenever the threshold was below twice nr_cpu_ids * WB_STAT_BATCH pages,
# 12 MiB at 32 CPUs) (scripts/guest/scale-cost.sh).
#
# The CPUs are online ones: QEMU's spare hot-pluggable CPUs (maxcpus=) are
# not counted as possible by a kernel that does not detect a hypervisor,
# which it cannot under software emulation, so nr_cpu_ids is CPUS.
#
#   scale-cost.sh [-b BASE] [-c CPUS] [-m MIB] [-r REPS] [-k KNOB]
#
# Prints, per kernel and setting, the medians of the write time and of the
# calls of __percpu_counter_sum() and __percpu_counter_compare() during the
# writes, and the sums per GiB above the knob-off run's (the knob's own).
# Results under build/scale-cost/BASE-CPUS-KNOB/.
set -u
. "$(dirname "$0")/lib.sh"
base=$(default_base) cpus=32 mib=256 reps=3 knob=8388608
while getopts b:c:m:r:k: o; do
	case $o in
	b) base=$OPTARG ;; c) cpus=$OPTARG ;; m) mib=$OPTARG ;; r) reps=$OPTARG ;; k) knob=$OPTARG ;;
	*) die "usage: scale-cost.sh [-b BASE] [-c CPUS] [-m MIB] [-r REPS] [-k KNOB]" ;;
	esac
done
series=$TOP/build/obj-$base-scale/arch/x86/boot/bzImage
exact=$TOP/build/kernels/$base-exactsum-scale.bzImage
[ -f "$series" ] || die "no ${series#"$TOP"/}; run 'bash scripts/build-kernel.sh $base scale'"
[ -f "$exact" ] || die "no ${exact#"$TOP"/}; run 'bash scripts/build-variant.sh $base exactsum'"
out=$TOP/build/scale-cost/$base-$cpus-$knob
mkdir -p "$out"
guest_files
for k in series exact; do
	kernel=$series
	[ $k = exact ] && kernel=$exact
	say "$k kernel, $cpus CPUs: $reps x $mib MiB with the knob off and at $knob (console: ${out#"$TOP"/}/$k/console.log)"
	bash "$TOP/scripts/vm-run.sh" -k "$kernel" -c "$cpus" -q -s '^scale-cost' -t 1800 \
		-o "$out/$k" -d 2G:- "${GUEST_FILES[@]}" \
		"sh /run/files/scale-cost.sh /dev/vdb $mib $reps 0 $knob" || die "the $k run failed; see ${out#"$TOP"/}/$k/console.log"
done
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { grep -h "^scale-cost: .* knob=$2 " "$out/$1/console.log" | tr ' ' '\n' | sed -n "s/^$3=//p" | median; }
printf '%-28s %-9s %10s %12s %12s %16s\n' kernel knob write_s sums compares "knob's sums/GiB"
for k in series exact; do
	off=$(field $k 0 sums)
	for kn in 0 "$knob"; do
		s=$(field $k "$kn" sums)
		printf '%-28s %-9s %10s %12s %12s %16s\n' "$([ $k = series ] && echo "v2 (compare)" || echo "first version (exact sum)")" \
			"$kn" "$(field $k "$kn" write_s)" "$s" "$(field $k "$kn" compares)" \
			"$(awk -v s="$s" -v o="$off" -v m="$mib" 'BEGIN { printf "%.0f", (s - o) * 1024 / m }')"
	done
done | tee "$out/summary.txt"
say "cpus (possible/online): $(grep -ho 'cpus=[^ ]*' "$out/series/console.log" | head -n 1)"
