#!/bin/bash
# The bdi kselftest on the debug kernel (KASAN, lockdep, UBSAN, debug
# objects, KFENCE: scripts/kernel-debug.config): every case passes and the
# console holds no report.
# full test: make check-full only
. "$TOP/scripts/tests/testlib.sh"
# a KASAN and lockdep kernel boots slowly under emulation
export VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-900}

kernel=$TOP/build/obj-$BASE-debug/arch/x86/boot/bzImage
out=$CHECKDIR/debug-kselftest
expect_rc 0 "run_kselftest.sh -c bdi on the debug kernel" "$VMRUN" -b "$BASE" -k "$kernel" -t 1800 \
	-o "$out" -q -s '^# (ok|not ok|# Totals|#  RUN)' -i "$TOP/build/initramfs/kselftest-$BASE.cpio" \
	'/kselftest/run_kselftest.sh -c bdi >>bdi.tap 2>&1; rc=$?; cat bdi.tap; exit $rc'
totals=$(grep -o 'Totals: pass:[0-9]* fail:[0-9]* xfail:[0-9]* xpass:[0-9]* skip:[0-9]* error:[0-9]*' \
	"$out/results/bdi.tap" 2>/dev/null | head -n 1)
echo "$totals" | grep -qE 'pass:(1[3-9]|[2-9][0-9]) fail:0 xfail:0 xpass:0 skip:0 error:0' &&
	ok "$totals" || not_ok "'$totals' (want at least 13 passed, nothing failed or skipped)"
for o in KASAN PROVE_LOCKING UBSAN DEBUG_OBJECTS KFENCE; do
	grep -qx "CONFIG_$o=y" "$TOP/build/obj-$BASE-debug/.config" || not_ok "the debug kernel has no $o"
done
console_reports "$out"
finish
