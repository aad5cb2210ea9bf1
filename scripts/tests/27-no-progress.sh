#!/bin/bash
# No kick without progress: a writeback context that cannot get below its
# device's threshold must not make every few dirtied pages start another
# writeback pass. f2fs (scripts/guest/no-progress.sh) keeps its node and
# meta pages dirty below its own batching thresholds, so with the knob at
# 32 KiB its context stays over it; one writer writes 1 MiB/s for 20 s,
# with the knob off and at 32 KiB on the filesystem's bdi.
#
# Passes: the background passes started on the bdi with the knob set may
# exceed those with it off by at most one a second (the retry rate of
# patch 4) plus NP_SLACK (10). CPU: the kworker threads' time with the knob
# set may exceed 1.1 x their time with it off by at most NP_CPU_SLACK
# clock ticks (30, i.e. 0.3 s over the 20 s). On the series without patch 4
# (build-variant.sh BASE nostall; NP_KERNEL=BZIMAGE boots it) the knob's
# passes go into the hundreds and the test fails.
. "$TOP/scripts/tests/testlib.sh"
. "$TOP/scripts/lib.sh"

out=$CHECKDIR/no-progress
secs=20 rate=1048576 knob=32768
slack=${NP_SLACK:-10} cpu_slack=${NP_CPU_SLACK:-30}
guest_files
kernel=(-b "$BASE")
[ -z "${NP_KERNEL:-}" ] || kernel=(-k "$NP_KERNEL")
expect_rc 0 "no-progress.sh in the VM (f2fs, $secs s at 1 MiB/s, knob off and $knob)" \
	"$VMRUN" "${kernel[@]}" -q -s '^no-progress' -t 420 -o "$out" \
	-d 1G:-:32M "${GUEST_FILES[@]}" \
	"sh /run/files/no-progress.sh /dev/vdb $secs $rate 0 $knob"

# field KNOB NAME: NAME=value of the result line for KNOB
field() {
	grep -h "^no-progress: f2fs knob=$1 " "$out/console.log" 2>/dev/null | tail -n 1 |
		tr ' ' '\n' | sed -n "s/^$2=//p"
}
p_off=$(field 0 passes) p_on=$(field $knob passes)
k_off=$(field 0 kworker_ticks) k_on=$(field $knob kworker_ticks)
r_on=$(field $knob reclaimable_kb)
if [ -z "$p_off" ] || [ -z "$p_on" ] || [ -z "$k_off" ] || [ -z "$k_on" ]; then
	not_ok "no result lines in ${out#"$TOP"/}/console.log"
	finish
fi
say "knob off: $p_off passes, $k_off kworker ticks; knob $knob: $p_on passes, $k_on ticks, $r_on kB dirty at the end"
bound=$((p_off + secs + slack))
if [ "$p_on" -le "$bound" ]; then
	ok "passes with the knob at $knob: $p_on <= $bound (off: $p_off, + 1/s, + $slack)"
else
	not_ok "passes with the knob at $knob: $p_on > $bound (off: $p_off): a context that cannot get below its threshold is kicked over and over"
fi
cbound=$(((k_off * 11 + 9) / 10 + cpu_slack))
if [ "$k_on" -le "$cbound" ]; then
	ok "kworker CPU with the knob at $knob: $k_on ticks <= $cbound (1.1 x off ($k_off) + $cpu_slack)"
else
	not_ok "kworker CPU with the knob at $knob: $k_on ticks > $cbound (1.1 x off ($k_off) + $cpu_slack)"
fi
finish
