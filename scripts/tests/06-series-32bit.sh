#!/bin/bash
# The series' C files compile for i386 without warnings and without 64-bit
# division helpers.
. "$TOP/scripts/tests/testlib.sh"
expect_rc 0 "i386 compile of mm/page-writeback.c and mm/backing-dev.c" \
	bash "$TOP/scripts/check-32bit.sh" "$BASE"
finish
