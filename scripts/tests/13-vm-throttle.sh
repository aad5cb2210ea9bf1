#!/bin/bash
# full test: make check-full only
# A throttled disk writes at the set speed (within 20 %): direct writes of
# 128 MiB to a disk throttled to 32 MiB/s, timed by fio in the guest. The
# same measurement on an unthrottled disk must fall outside the band, or
# the check could not tell a throttled disk from any other.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-throttle
speed=$((32 << 20))

# measure DISKSPEC: prints fio's write bandwidth in bytes/s
measure() {
	"$VMRUN" -b "$BASE" -q -t 300 -o "$out" -d "$1" \
		'fio --name=w --filename=/dev/vdb --rw=write --bs=1M --size=128M --direct=1 \
			--ioengine=psync --output-format=json --output=fio.json' >/dev/null 2>&1 || return 1
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["write"]["bw_bytes"])' \
		"$out/results/fio.json" 2>/dev/null
}

for disk in 256M:-:32M 256M; do
	bw=$(measure "$disk")
	if [ -z "$bw" ]; then
		not_ok "no fio result for disk $disk (${out#"$TOP"/}/console.log)"
		continue
	fi
	pct=$((bw * 100 / speed))
	within=no
	[ "$pct" -ge 80 ] && [ "$pct" -le 120 ] && within=yes
	msg="disk $disk: $((bw >> 10)) KiB/s = $pct % of $((speed >> 10)) KiB/s"
	case $disk:$within in
	*:32M:yes | 256M:no) ok "$msg" ;;
	*:32M:no) not_ok "$msg (allowed 80-120 %)" ;;
	*) not_ok "$msg: an unthrottled disk measures as throttled, so the check cannot fail" ;;
	esac
done
finish
