#!/bin/bash
# full test: make check-full only
# The whole fault suite (scripts/faults.sh), 30 s of fault per case: I/O
# errors under ext4, XFS, btrfs and the raw disk, a full over-committed
# device, a stalled FUSE daemon, a stalled disk (loop on that FUSE mount),
# a stopped NFS server under a hard mount, a disk that goes away; the knob
# off, at 64 KiB and at 16 MiB, and the global threshold at 64 KiB and
# 16 MiB as the reference; each case whose device stack is not the
# healthy disk's also with no fault (healthy-CASE), the knob's own cost
# there. The summary table is in the output; the checks
# and their bounds are faults.sh's.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/faults
expect_rc 0 "faults.sh -s 30" "$TOP/scripts/faults.sh" -b "$BASE" -s 30 -o "$out"
finish
