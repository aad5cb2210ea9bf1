#!/bin/bash
# upstream test: other bases in make check-full
# A kernel warning in the console log fails the run even when the command
# itself succeeds: plant one through /dev/kmsg.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-kernel-report
expect_rc 125 "planted WARNING is caught" "$VMRUN" -b "$BASE" -q -t 300 -o "$out" \
	'echo "<4>WARNING: CPU: 0 PID: 1 at planted/by/the/workbench/test.c:1" >/dev/kmsg; true'
finish
