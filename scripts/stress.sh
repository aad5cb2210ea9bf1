#!/bin/bash
# The stress run of the per-device threshold (scripts/guest/stress.sh) in a
# VM: a bad-input sweep, then SECS seconds of attribute writers and readers
# on every bdi, loop devices created and removed, fio on ext4, XFS and btrfs
# disks throttled to 32 MiB/s, a btrfs unmounted and mounted again, writers
# in memory cgroups created and removed; then every file is read back and
# checked. The VM run fails on any kernel report in the console (oops,
# WARNING, KASAN, lockdep, hung task).
#
#   stress.sh [-b BASE] [-k BZIMAGE] [-t SECS] [-o DIR]
#     -b BASE     kernel base (default: the first in config.mk)
#     -k BZIMAGE  another kernel of that base (e.g. the debug kernel)
#     -t SECS     seconds of load (default 60)
#     -o DIR      output folder (default build/stress/BASE)
#
# Its last line is the summary (inputs swept, operations, cycles, MiB
# verified, wrong answers); exit status as vm-run.sh's.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) kernel= secs=60 out=
usage() { sed -n '10,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts b:k:t:o:h opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	t) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
[ $# -ge "$OPTIND" ] && usage
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "$PROG: bad seconds '$secs'" >&2; exit 2; }
[ -n "$out" ] || out=$TOP/build/stress/$base
guest_files
say "stress on $base: ${secs} s of load (the VM runs about $((secs + 120)) s; console: ${out#"$TOP"/}/console.log)"
args=(-b "$base" -m 2G -t $((secs * 3 + 600)) -o "$out" -s '^stress: '
	-d 1G:ext4:32M -d 1G:xfs:32M -d 1G:btrfs:32M -d 1G:btrfs:32M -q "${GUEST_FILES[@]}")
[ -z "$kernel" ] || args+=(-k "$kernel")
exec "$TOP/scripts/vm-run.sh" "${args[@]}" "sh /run/files/stress.sh $secs"
