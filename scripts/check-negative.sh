#!/bin/bash
# Show that the kselftest can fail: run it on kernels that lack what it
# tests and check that it notices.
#
#   check-negative.sh BASE
#
# build/kernels/BASE-1.bzImage (only the sysfs patch, from 'make prefixes'):
#   the ABI cases pass, every behaviour case but the knob-off baseline and
#   the global-threshold guard fails.
# build/kernels/BASE-2.bzImage (the writeback hook without patch 3, which
#   polls a device's dirtiers once it is over its threshold): the
#   many-writers case and the debugfs case (patch 7) fail.
# build/kernels/BASE-rootwb.bzImage (the series checking only the device's
#   root writeback context, from build-variant.sh BASE rootwb), when present: only the
#   cgroup case fails.
# build/kernels/BASE-nostall.bzImage (the series with a context never taken
#   for stalled, from build-variant.sh BASE nostall), when present: the
#   no-progress test (27) fails.
# build/kernels/BASE-0.bzImage (the unpatched base, 'make prefixes
#   WITH_BASE=1'), when present: every case skips, none fails.
#
# And that the stress and debug runs can fail (make kernel-planted):
# build/kernels/BASE-parse.bzImage (the store parsing with base 0), when
#   present: the stress run's bad-input sweep reports wrong answers.
# build/kernels/BASE-uaf-debug.bzImage (the debug kernel with a
#   use-after-free in the store), when present: the first write to the
#   attribute gets a KASAN report and the VM run fails with 125.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
cpio=$TOP/build/initramfs/kselftest-$base.cpio
[ -f "$cpio" ] || die "no $cpio; run 'make initramfs'"
[ -f "$TOP/build/kernels/$base-1.bzImage" ] || die "no build/kernels/$base-1.bzImage; run 'make prefixes'"
nfail=0

# run KERNEL NAME: the kselftest on KERNEL; prints its TAP, leaves totals in $totals
run() {
	local out=$TOP/build/check/$base/negative-$2
	bash "$TOP/scripts/vm-run.sh" -k "$1" -q -t 900 -o "$out" -i "$cpio" \
		'/kselftest/run_kselftest.sh -c bdi >>bdi.tap 2>&1; cat bdi.tap'
	tap=$out/results/bdi.tap
	grep -E '^(# )+(ok|not ok) [0-9]' "$tap" | sed 's/^/    /'
	# the test's own totals come first (newer runners add a line for the run)
	totals=$(grep -o 'Totals: .*' "$tap" | head -n 1)
	say "$2: $totals"
}
expect() {
	if [ "$1" = "$2" ]; then say "as expected: $3"; else say "UNEXPECTED: $3 (got '$1')"; nfail=$((nfail + 1)); fi
}

say "kernel with only the sysfs patch: the behaviour cases must fail"
run "$TOP/build/kernels/$base-1.bzImage" sysfs-only
expect "$totals" "Totals: pass:6 fail:7 xfail:0 xpass:0 skip:0 error:0" "ABI, knob-off and global cases pass, 6 behaviour cases and the debugfs case fail"

say "kernel without patch 3 (the device's dirtiers are not polled): many writers must get past the threshold before writeback begins"
run "$TOP/build/kernels/$base-2.bzImage" no-poll
expect "$totals" "Totals: pass:11 fail:2 xfail:0 xpass:0 skip:0 error:0" "11 cases pass, 2 fail"
expect "$(grep -oE 'not ok [0-9]+ wb\.[a-z_]+' "$tap" | sed 's/.* //' | paste -sd' ')" \
	"wb.debugfs_shows_threshold wb.many_writers_start_writeback_at_threshold" \
	"the failing cases are many_writers_start_writeback_at_threshold and debugfs_shows_threshold (the debugfs lines are patch 7)"

if [ -f "$TOP/build/kernels/$base-rootwb.bzImage" ]; then
	say "kernel checking only the root writeback context: the cgroup case must fail"
	run "$TOP/build/kernels/$base-rootwb.bzImage" root-wb-only
	expect "$totals" "Totals: pass:12 fail:1 xfail:0 xpass:0 skip:0 error:0" "12 cases pass, 1 fails"
	expect "$(grep -oE 'not ok [0-9]+ wb\.[a-z_]+' "$tap" | sed 's/.* //')" "wb.cgroup_contexts_held_on_their_own" \
		"the failing case is cgroup_contexts_held_on_their_own"
fi

if [ -f "$TOP/build/kernels/$base-0.bzImage" ]; then
	say "unpatched kernel: every case must skip"
	run "$TOP/build/kernels/$base-0.bzImage" unpatched
	expect "$totals" "Totals: pass:0 fail:0 xfail:0 xpass:0 skip:13 error:0" "all 13 cases skip"
fi
if [ -f "$TOP/build/kernels/$base-nostall.bzImage" ]; then
	say "kernel that never takes a context for stalled: the no-progress test must fail"
	NP_KERNEL=$TOP/build/kernels/$base-nostall.bzImage TOP=$TOP BASE=$base CHECKDIR=$TOP/build/check/$base/negative-nostall \
		bash "$TOP/scripts/tests/27-no-progress.sh" | sed 's/^/    /'
	expect "${PIPESTATUS[0]}" 1 "the no-progress test fails (exit 1)"
fi

if [ -f "$TOP/build/kernels/$base-parse.bzImage" ]; then
	say "kernel whose store takes hex and octal: the stress run's bad-input sweep must find wrong answers"
	guest_files
	out=$TOP/build/check/$base/negative-parse
	bash "$TOP/scripts/vm-run.sh" -k "$TOP/build/kernels/$base-parse.bzImage" -q -t 600 -o "$out" \
		-d 64M:- "${GUEST_FILES[@]}" \
		'/run/files/bdi-stress sweep -n 5000 -s 7 $(cat /sys/block/vdb/dev) >sweep.out 2>&1; rc=$?; tail -n 1 sweep.out; exit $rc'
	rc=$?
	sum=$(tail -n 1 "$out/results/sweep.out" 2>/dev/null)
	say "parse: exit $rc: $sum"
	expect "$rc" 1 "the sweep exits 1 (wrong answers)"
	expect "$(echo "$sum" | grep -oE '[1-9][0-9]* wrong$' | wc -l)" 1 "the sweep counts wrong answers"
fi

if [ -f "$TOP/build/kernels/$base-uaf-debug.bzImage" ]; then
	say "debug kernel with a use-after-free in the store: KASAN must report it"
	out=$TOP/build/check/$base/negative-uaf
	VM_BOOT_TIMEOUT=900 bash "$TOP/scripts/vm-run.sh" -k "$TOP/build/kernels/$base-uaf-debug.bzImage" -q \
		-t 1200 -o "$out" -d 64M:- 'echo 4096 >/sys/class/bdi/$(cat /sys/block/vdb/dev)/dirty_background_bytes; exit 0'
	rc=$?
	report=$(grep -oE 'BUG: KASAN: [a-z-]+ in [A-Za-z0-9_.]+' "$out/console.log" | head -n 1)
	say "uaf: exit $rc: ${report:-no KASAN report}"
	expect "$rc" 125 "the VM run fails on the kernel report (125)"
	expect "$(echo "$report" | grep -c 'use-after-free in bdi_set_dirty_background_bytes')" 1 \
		"KASAN reports the use-after-free in bdi_set_dirty_background_bytes()"
fi
[ "$nfail" -eq 0 ] || die "$nfail unexpected result(s)"
say "the kselftest fails and skips where it should; so do the planted faults' checks, where built"
