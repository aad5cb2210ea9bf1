#!/bin/bash
# The stress run (scripts/stress.sh) for STRESS_SECS (default 300) seconds
# on the debug kernel: no wrong answer, no lost write, no kernel report.
# full test: make check-full only
. "$TOP/scripts/tests/testlib.sh"
# a KASAN and lockdep kernel boots slowly under emulation
export VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-900}

secs=${STRESS_SECS:-300}
out=$CHECKDIR/debug-stress
expect_rc 0 "stress.sh -t $secs on the debug kernel" "$TOP/scripts/stress.sh" -b "$BASE" \
	-k "$TOP/build/obj-$BASE-debug/arch/x86/boot/bzImage" -t "$secs" -o "$out"
sum=$(grep -h '^stress: summary:' "$out/console.log" 2>/dev/null | tail -n 1)
echo "$sum" | grep -q 'wrong 0$' && ok "${sum#stress: summary: }" || not_ok "summary: '$sum'"
console_reports "$out"
finish
