#!/bin/bash
# upstream test: other bases in make check-full
# The fault suite's short case (scripts/faults.sh): the disk under ext4
# powered off (del_gendisk, a pulled USB disk) 12 s or more into a
# writer's run, once its bdi holds 15/16 of the threshold dirty or under
# writeback (its writeback at work), the writer still writing, 10 s,
# beside the same writer on a healthy disk; the knob off and at 64 KiB
# (the whole suite adds 16 MiB and the global threshold at both values:
# six more rows of about 45 s, which make check on a fresh machine has no
# time for). The removal, umount and sync finish, the file fsync'ed before
# reads back after the disk returns, nothing is lost silently, the writer
# gets what it gets with the knob off, no kernel report, and the knob
# costs no more CPU, empty passes, log lines or slab than faults.sh
# allows. make check-full runs every case (test 55).
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/faults-short
expect_rc 0 "faults.sh -c vanish -K \"0 65536\" -s 10" "$TOP/scripts/faults.sh" -b "$BASE" -c vanish -K "0 65536" -s 10 -o "$out"
finish
