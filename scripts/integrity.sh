#!/bin/bash
# Data integrity with the per-device threshold, in three VM runs
# (scripts/guest/integrity.sh):
#   1. verify       write with the knob at 0, 64 KiB and 1 GiB on ext4, XFS
#                   and btrfs, read back cold, and catch a planted corruption
#   2. crash-write  fsync files, then kill QEMU with writes in flight
#   3. crash-check  boot again on the same disks: log replay, read-only fsck,
#                   every file fsync'ed before the kill reads back
# The disk images are written by QEMU into the host's page cache
# (cache=unsafe), so the kill loses what the guest had not yet written to its
# disk (its page cache, requests in flight), as a kernel crash would.
#
#   integrity.sh [-b BASE] [-k BZIMAGE] [-o DIR]
#
# Prints each run's summary line; exit 0 when all three passed.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) kernel= out=
usage() { sed -n '13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts b:k:o:h opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
[ $# -ge "$OPTIND" ] && usage
[ -n "$out" ] || out=$TOP/build/integrity/$base
guest_files
vm() { # OUTDIR VM-RUN ARGS...
	local dir=$1
	shift
	"$TOP/scripts/vm-run.sh" -b "$base" ${kernel:+-k "$kernel"} -q -s '^integrity: ' -o "$dir" \
		"${GUEST_FILES[@]}" "$@"
}
rc=0
rm -rf "$out"
mkdir -p "$out"

say "1/3 verify: write and read back cold on ext4, XFS, btrfs (console: ${out#"$TOP"/}/verify/console.log)"
vm "$out/verify" -t 900 -d 1G:ext4 -d 1G:xfs -d 1G:btrfs 'sh /run/files/integrity.sh verify' || rc=1

say "2/3 crash-write: fsync files, then kill the VM mid-stream (console: ${out#"$TOP"/}/crash-write/console.log)"
imgs=$out/disks
mkdir -p "$imgs"
make_disk "$imgs/ext4.img" $((1 << 30)) ext4 && make_disk "$imgs/xfs.img" $((1 << 30)) xfs &&
	make_disk "$imgs/btrfs.img" $((1 << 30)) btrfs || die "cannot make the disk images in ${imgs#"$TOP"/}"
if vm "$out/crash-write" -t 900 -K '^@@CUT-POWER@@' -D "$imgs/ext4.img:ext4" -D "$imgs/xfs.img:xfs" \
	-D "$imgs/btrfs.img:btrfs" 'sh /run/files/integrity.sh crash-write'; then
	sed -n 's/^@@FSYNCED //p' "$out/crash-write/console.log" >"$out/fsynced.list"
	say "$(wc -l <"$out/fsynced.list") files fsync'ed before the kill"
	say "3/3 crash-check: fsck and read back after the kill (console: ${out#"$TOP"/}/crash-check/console.log)"
	vm "$out/crash-check" -t 900 -f "$out/fsynced.list" -D "$imgs/ext4.img" -D "$imgs/xfs.img" \
		-D "$imgs/btrfs.img" 'sh /run/files/integrity.sh crash-check /run/files/fsynced.list' || rc=1
else
	say "the crash-write run failed; no crash-check"
	rc=1
fi
rm -rf "$imgs"
exit $rc
