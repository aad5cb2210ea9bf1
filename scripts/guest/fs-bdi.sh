#!/bin/sh
# Print the name of the bdi that holds the dirty pages of the filesystem
# mounted on MNT (its sb->s_bdi): the disk's for ext4 and XFS on one device
# (major:minor), the filesystem's own for btrfs (btrfs-N), NFS and FUSE.
#
#   fs-bdi.sh MNT
set -u
[ $# -eq 1 ] || { echo "usage: fs-bdi.sh MNT" >&2; exit 2; }
mnt=$1
# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE ...
line=$(awk -v m="$mnt" '$5 == m' /proc/self/mountinfo | tail -n 1)
[ -n "$line" ] || { echo "fs-bdi: $mnt is not a mount point" >&2; exit 1; }
dev=$(echo "$line" | awk '{ print $3 }')
fstype=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { print $(i + 1); exit } }')
if [ "$fstype" = btrfs ]; then
	# /sys/fs/btrfs/<fsid>/bdi; the fsid is the one whose devices hold SOURCE.
	src=$(basename "$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { print $(i + 2); exit } }')")
	for d in /sys/fs/btrfs/*/devices/"$src"; do
		[ -e "$d" ] || continue
		basename "$(readlink "${d%/devices/*}/bdi")"
		exit 0
	done
	echo "fs-bdi: no btrfs bdi found for $mnt" >&2
	exit 1
fi
if [ -e "/sys/class/bdi/$dev" ]; then
	echo "$dev"
	exit 0
fi
echo "fs-bdi: no bdi named $dev for $mnt ($fstype)" >&2
exit 1
