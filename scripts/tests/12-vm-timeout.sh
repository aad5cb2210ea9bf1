#!/bin/bash
# upstream test: other bases in make check-full
# A guest that does not finish is stopped at the timeout and reported as such.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-timeout
t0=$(date +%s)
expect_rc 124 "guest 'sleep 3600' hits a 40 s timeout" \
	"$VMRUN" -b "$BASE" -q -t 40 -o "$out" 'sleep 3600'
dt=$(($(date +%s) - t0))
if [ "$dt" -le 60 ]; then ok "stopped after $dt s"; else not_ok "took $dt s to stop"; fi
finish
