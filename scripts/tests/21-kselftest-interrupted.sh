#!/bin/bash
# The bdi kselftest leaves the machine as it found it when it is stopped
# in the middle of a behaviour case: by SIGTERM, as the kselftest runner's
# timeout stops it, and by SIGINT (^C). Afterwards the vm sysctls it tunes
# must read as before, no loop device may stay bound and no test process
# may be left running.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/kselftest-interrupted
# shellcheck disable=SC2016 # expanded in the guest
guest='
t=/kselftest/bdi/dirty_background_bytes
show() {
	for f in dirty_ratio dirty_bytes dirty_background_ratio dirty_background_bytes \
		dirty_writeback_centisecs dirty_expire_centisecs; do
		printf "%s=%s " $f $(cat /proc/sys/vm/$f)
	done
}
echo "before: $(show)" >state.txt
for sig in TERM INT; do
	$t >run-$sig.log 2>&1 &
	pid=$!
	# wait until a behaviour case has tuned the sysctls
	i=0
	while [ "$(cat /proc/sys/vm/dirty_writeback_centisecs)" != 360000 ] && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ $i -lt 600 ] && echo "$sig: tuned" >>state.txt
	sleep 1
	kill -$sig $pid
	wait $pid
	sleep 3
	echo "$sig after: $(show)" >>state.txt
	echo "$sig bound loops: $(ls /sys/block/loop*/loop/backing_file 2>/dev/null | wc -l)" >>state.txt
	echo "$sig processes: $(ps -o args | grep -c "^$t")" >>state.txt
done
cat state.txt'
expect_rc 0 "the kselftest stopped by SIGTERM and SIGINT in the VM" "$VMRUN" -b "$BASE" -t 300 -o "$out" \
	-i "$TOP/build/initramfs/kselftest-$BASE.cpio" "$guest"
state=$out/results/state.txt
before=$(sed -n 's/^before: //p' "$state" 2>/dev/null)
if [ -z "$before" ]; then
	not_ok "no state in ${state#"$TOP"/}"
	finish
fi
for sig in TERM INT; do
	if ! grep -qx "$sig: tuned" "$state"; then
		not_ok "SIG$sig: the test never tuned the sysctls, so the stop tested nothing"
		continue
	fi
	after=$(sed -n "s/^$sig after: //p" "$state")
	if [ "$after" = "$before" ]; then
		ok "SIG$sig: vm sysctls as before ($before)"
	else
		not_ok "SIG$sig: vm sysctls left changed: $after (before: $before)"
	fi
	n=$(sed -n "s/^$sig bound loops: //p" "$state")
	[ "$n" = 0 ] && ok "SIG$sig: no loop device left bound" || not_ok "SIG$sig: $n loop device(s) left bound"
	n=$(sed -n "s/^$sig processes: //p" "$state")
	[ "$n" = 0 ] && ok "SIG$sig: no test process left" || not_ok "SIG$sig: $n test process(es) left running"
done
finish
