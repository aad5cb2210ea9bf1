#!/bin/bash
# A throttled disk writes at the set speed (within 20 %): direct writes
# of 128 MiB to a disk throttled to 32 MiB/s, timed by fio in the guest.
. "$TOP/scripts/tests/testlib.sh"

out=$TOP/build/check/vm-throttle
speed=$((32 << 20))
expect_rc 0 "fio direct write to a 32M/s disk" "$VMRUN" -b "$BASE" -q -t 300 -o "$out" \
	-d 256M:-:32M \
	'fio --name=w --filename=/dev/vdb --rw=write --bs=1M --size=128M --direct=1 \
		--ioengine=psync --output-format=json --output=fio.json'
bw=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["write"]["bw_bytes"])' \
	"$out/results/fio.json" 2>/dev/null)
if [ -z "$bw" ]; then
	not_ok "no fio result in ${out#"$TOP"/}/results/fio.json"
else
	pct=$((bw * 100 / speed))
	if [ "$pct" -ge 80 ] && [ "$pct" -le 120 ]; then
		ok "measured $((bw >> 10)) KiB/s = $pct % of the set $((speed >> 10)) KiB/s"
	else
		not_ok "measured $((bw >> 10)) KiB/s = $pct % of the set $((speed >> 10)) KiB/s (allowed 80-120 %)"
	fi
fi
finish
