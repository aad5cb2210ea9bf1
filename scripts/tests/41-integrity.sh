#!/bin/bash
# full test: make check-full only
# Data integrity (scripts/integrity.sh): files written with the knob at 0,
# 64 KiB and 1 GiB on ext4, XFS and btrfs read back cold, a planted
# corruption is caught, and after the VM is killed mid-stream the
# filesystems check clean and every file fsync'ed before the kill reads
# back.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/integrity
expect_rc 0 "integrity.sh (verify, crash-write, crash-check)" "$TOP/scripts/integrity.sh" -b "$BASE" -o "$out"
v=$(grep -h '^integrity: summary: verify:' "$out/verify/console.log" 2>/dev/null | tail -n 1)
c=$(grep -h '^integrity: summary: crash-check:' "$out/crash-check/console.log" 2>/dev/null | tail -n 1)
echo "$v" | grep -q '9 files, 288 MiB read back cold.*planted corruption caught; wrong 0' &&
	ok "${v#integrity: summary: }" || not_ok "verify: '${v#integrity: summary: }'"
echo "$c" | grep -q 'filesystems clean 3 of 3; 12 fsync.ed files, 96 MiB read back; wrong 0' &&
	ok "${c#integrity: summary: }" || not_ok "crash-check: '${c#integrity: summary: }'"
finish
