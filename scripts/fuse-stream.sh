#!/bin/bash
# FUSE with writeback_cache in normal running: one writer as fast as it
# can, with the knob off and set on the mount's bdi, taking turns, in one VM
# (scripts/guest/fuse-stream.sh); then each setting's median throughput and
# its ratio to the knob off. FUSE's channel is congested whenever its
# background requests reach their threshold, so passes end stuck now and
# then on a healthy daemon: what patch 6 does then must not slow the writer.
#
#   fuse-stream.sh [-b BASE] [-k BZIMAGE] [-m MIB] [-w KBPS] [-r REPS] [-K KNOBS] [-o DIR]
#     -b BASE     kernel base (default: the first in config.mk)
#     -k BZIMAGE  another kernel of that base
#     -m MIB      MiB the writer writes, then fsyncs (default 64)
#     -w KBPS     the daemon's write speed in kB/s (default 8192; 0: no
#                 limit): at 8 MiB/s its channel is congested and drains
#                 all the time
#     -r REPS     rounds of every setting (default 5)
#     -K KNOBS    knob values in bytes, 0 (off) first (default "0 65536")
#     -o DIR      output folder (default build/fuse-stream/BASE)
#
# Prints the median MiB/s, passes and empty rounds per setting and the
# ratio of each median to the knob off's. A measurement, not a test: exit 0
# when every run finished.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) kernel= mib=64 kbps=8192 reps=5 knobs="0 65536" out=
usage() { sed -n '9,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts b:k:m:w:r:K:o:h opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	m) mib=$OPTARG ;;
	w) kbps=$OPTARG ;;
	r) reps=$OPTARG ;;
	K) knobs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
[[ $mib =~ ^[1-9][0-9]*$ ]] || die "bad -m '$mib' (MiB, a positive number)"
[[ $kbps =~ ^[0-9]+$ ]] && [ "$kbps" -le 1048576 ] || die "bad -w '$kbps' (kB/s, 0 to 1048576)"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "bad -r '$reps' (a positive number)"
for k in $knobs; do [[ $k =~ ^[0-9]+$ ]] || die "bad knob '$k' in -K (bytes)"; done
[ "${knobs%% *}" = 0 ] || die "-K must start with 0 (the knob off)"
out=${out:-$TOP/build/fuse-stream/$base}
kern=(-b "$base")
[ -z "$kernel" ] || kern=(-k "$kernel")
guest_files
n=$(($(wc -w <<<"$knobs") * reps))
say "FUSE stream: $mib MiB and fsync, daemon at $kbps kB/s, knobs $knobs, $reps rounds ($n runs; log: ${out#"$TOP"/}/console.log)"
"$TOP/scripts/vm-run.sh" "${kern[@]}" -q -s '^fuse-stream: ' -t $((300 + n * 120)) -o "$out" \
	"${GUEST_FILES[@]}" "sh /run/files/fuse-stream.sh $mib $reps $kbps $knobs" ||
	die "the VM run failed (exit $?); see ${out#"$TOP"/}/console.log"

# med KNOB FIELD: the median of FIELD over KNOB's runs
med() { median_field "$out/console.log" "fuse-stream: knob=$1 " "$2"; }
off=$(med 0 mib_s)
[ -n "$off" ] || die "no result lines in ${out#"$TOP"/}/console.log"
for k in $knobs; do
	m=$(med "$k" mib_s)
	say "knob $k: median $m MiB/s ($(awk -v a="$m" -v b="$off" 'BEGIN { printf "%.2f", a / b }') x off), passes $(med "$k" passes), background_bytes passes $(med "$k" bytes_passes), empty rounds $(med "$k" empty_rounds), kworker ticks $(med "$k" kworker_ticks)"
done
