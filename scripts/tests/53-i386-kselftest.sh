#!/bin/bash
# The kselftest on a 32-bit kernel of the series (scripts/i386-kselftest.sh):
# an i386 build booted in qemu-system-i386; every case but the cgroup one
# (no mkfs.ext4 in its shell-less guest) passes, the console stays clean.
# full test: make check-full only
. "$TOP/scripts/tests/testlib.sh"

expect_rc 0 "i386-kselftest.sh $BASE" "$TOP/scripts/i386-kselftest.sh" "$BASE"
console_reports "$CHECKDIR/i386-kselftest"
finish
