#!/bin/bash
# The console checker catches planted kernel reports and nothing else.
# host test: runs once
. "$TOP/scripts/tests/testlib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
clean='[    0.000000] Linux version 6.12.117
[    1.234567] Run /init as init process
guest-init: running the command
# BUG: this is a test name printed by a user program, not the kernel
ok 1 something'
printf '%s\n' "$clean" >"$d/clean"
expect_rc 0 "clean log passes" "$TOP/scripts/console-check.sh" "$d/clean"

for planted in \
	'[   12.345678] WARNING: CPU: 1 PID: 42 at mm/page-writeback.c:123 balance_dirty_pages+0x1/0x2' \
	'[    3.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008' \
	'[    3.000002] Oops: general protection fault, probably for non-canonical address' \
	'[    3.000003] BUG: KASAN: slab-use-after-free in wb_workfn+0x10/0x20' \
	'[    3.000004] UBSAN: shift-out-of-bounds in mm/page-writeback.c:99:1' \
	'[    3.000005] WARNING: possible recursive locking detected' \
	'[  122.000006] INFO: task kworker/u4:1:33 blocked for more than 120 seconds.' \
	'[    3.000007] Kernel panic - not syncing: Fatal exception'; do
	{ printf '%s\n' "$clean"; printf '%s\r\n' "$planted"; } >"$d/planted"
	expect_rc 1 "caught: ${planted:15:40}" "$TOP/scripts/console-check.sh" "$d/planted"
done
expect_rc 2 "unreadable log is an error" "$TOP/scripts/console-check.sh" "$d/none"
finish
