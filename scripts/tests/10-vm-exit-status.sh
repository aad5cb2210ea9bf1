#!/bin/bash
# upstream test: other bases in make check-full
# A guest command's exit status and its result files come back to the host.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-exit-status
expect_rc 7 "guest 'exit 7' gives 7" \
	"$VMRUN" -b "$BASE" -q -t 300 -o "$out" 'echo hello from the guest >note.txt; exit 7'
if [ "$(cat "$out/results/note.txt" 2>/dev/null)" = "hello from the guest" ]; then
	ok "result file came back"
else
	not_ok "result file did not come back (${out#"$TOP"/}/results/note.txt)"
fi
expect_rc 0 "guest 'true' gives 0" "$VMRUN" -b "$BASE" -q -t 300 -o "$out" true
finish
