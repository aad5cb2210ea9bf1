#!/bin/bash
# W=1 and sparse (where the kernel accepts Debian's sparse) on the kernel C
# files the series touches: no warning on a line the series added or
# changed (scripts/check-warnings.sh).
. "$TOP/scripts/tests/testlib.sh"

expect_rc 0 "check-warnings.sh $BASE" "$TOP/scripts/check-warnings.sh" "$BASE"
finish
