#!/bin/bash
# Data integrity (scripts/integrity.sh) on the debug kernel.
# full test: make check-full only
. "$TOP/scripts/tests/testlib.sh"
# a KASAN and lockdep kernel boots slowly under emulation
export VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-900}

out=$CHECKDIR/debug-integrity
expect_rc 0 "integrity.sh on the debug kernel" "$TOP/scripts/integrity.sh" -b "$BASE" \
	-k "$TOP/build/obj-$BASE-debug/arch/x86/boot/bzImage" -o "$out"
for f in verify crash-check; do
	sum=$(grep -h "^integrity: summary: $f:" "$out/$f/console.log" 2>/dev/null | tail -n 1)
	echo "$sum" | grep -q 'wrong 0$' && ok "${sum#integrity: summary: }" || not_ok "$f: '$sum'"
done
console_reports "$out"
finish
