#!/bin/bash
# The bdi kselftest, run by the kselftest runner in the VM on the patched
# kernel: every case passes, none is skipped, and the console stays clean
# (vm-run.sh fails the run on any kernel report).
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/kselftest-bdi
expect_rc 0 "run_kselftest.sh -c bdi in the VM" "$VMRUN" -b "$BASE" -t 900 -o "$out" \
	-i "$TOP/build/initramfs/kselftest-$BASE.cpio" \
	'/kselftest/run_kselftest.sh -c bdi >>bdi.tap 2>&1; rc=$?; cat bdi.tap; exit $rc'
tap=$out/results/bdi.tap
# the test's own totals come first (newer runners add a line for the run)
totals=$(grep -o 'Totals: pass:[0-9]* fail:[0-9]* xfail:[0-9]* xpass:[0-9]* skip:[0-9]* error:[0-9]*' "$tap" 2>/dev/null | head -n 1)
if [ -z "$totals" ]; then
	not_ok "no kselftest totals in ${tap#"$TOP"/}"
else
	pass=$(echo "$totals" | sed 's/^Totals: pass:\([0-9]*\).*/\1/')
	if echo "$totals" | grep -q 'fail:0 xfail:0 xpass:0 skip:0 error:0' && [ "$pass" -ge 13 ]; then
		ok "$totals"
	else
		not_ok "$totals (want at least 13 passed and nothing failed or skipped)"
	fi
fi
finish
