#!/bin/sh
# Data integrity with the per-device threshold, in the guest. Files are
# written by fio with a crc32c header in every 64 KiB block and checked
# with fio --verify_only after the page cache is dropped.
#
#   integrity.sh verify
#       vdb ext4, vdc xfs, vdd btrfs (mounted): with the knob at 0, 64 KiB
#       and 1 GiB, write 32 MiB on each, sync, drop caches, check. Then a
#       planted corruption (4 KiB overwritten through the filesystem) must
#       be caught, or the check proves nothing.
#   integrity.sh crash-write
#       The same disks: fsync'ed files are announced on the console
#       ("@@FSYNCED FILE MIB"), then, with more writes in flight, the line
#       "@@CUT-POWER@@" asks the host to kill the VM (vm-run.sh -K).
#   integrity.sh crash-check LIST
#       After the kill, the same disks unmounted (vdb ext4, vdc xfs, vdd
#       btrfs): mount and unmount (log replay), check each filesystem
#       read-only (e2fsck -fn, xfs_repair -n, btrfs check --readonly), mount
#       again and check every file of LIST ("FILE MIB" lines).
#
# Each mode ends with an "integrity: summary:" line; exit 1 when something
# did not read back, a filesystem check failed or the planted corruption
# went unseen.
set -u
bad=0
log() { echo "integrity: $*"; }
wrong() { echo "integrity: WRONG: $*"; bad=$((bad + 1)); }
FIO_JOB="--rw=write --bs=64k --verify=crc32c --verify_state_save=0 --ioengine=psync"
fio_write() { # FILE MIB [fio options]
	_f=$1 _mib=$2
	shift 2
	fio --name=w --filename="$_f" --size="${_mib}M" $FIO_JOB --do_verify=0 "$@" \
		--output=/dev/null >/dev/null 2>&1
}
fio_check() { # FILE MIB
	fio --name=w --filename="$1" --size="${2}M" $FIO_JOB --verify_only \
		--output=/dev/null >/dev/null 2>&1
}
knob_of() { echo "/sys/class/bdi/$(/run/files/fs-bdi.sh "$1")/dirty_background_bytes"; }
cold() { sync && echo 3 >/proc/sys/vm/drop_caches; }
fs_of() { case $1 in /mnt/vdb) echo ext4 ;; /mnt/vdc) echo xfs ;; *) echo btrfs ;; esac; }
MNTS="/mnt/vdb /mnt/vdc /mnt/vdd"

verify() {
	files=0 mib=0
	for m in $MNTS; do
		k=$(knob_of "$m") || exit 2
		[ -w "$k" ] || { log "no $k: a kernel without the series?"; exit 2; }
		for v in 0 65536 1073741824; do
			echo "$v" >"$k"
			fio_write "$m/knob-$v" 32 || wrong "writing $m/knob-$v failed"
		done
		echo 0 >"$k"
	done
	cold
	for m in $MNTS; do
		for v in 0 65536 1073741824; do
			if fio_check "$m/knob-$v" 32; then
				files=$((files + 1)) mib=$((mib + 32))
			else
				wrong "$m/knob-$v ($(fs_of "$m"), knob $v) does not read back"
			fi
		done
	done
	# the control: a file with 4 KiB overwritten must fail the check
	fio_write /mnt/vdb/planted 4 && dd if=/dev/zero of=/mnt/vdb/planted bs=4k seek=300 \
		count=1 conv=notrunc 2>/dev/null && cold
	if fio_check /mnt/vdb/planted 4; then
		wrong "a file with 4 KiB overwritten passed the check: the check proves nothing"
		planted="missed"
	else
		planted="caught"
	fi
	log "summary: verify: $files files, $mib MiB read back cold (knob 0, 64 KiB, 1 GiB on ext4, xfs, btrfs); planted corruption $planted; wrong $bad"
}

crash_write() {
	n=0
	# a small knob on ext4, none on XFS, a large one on btrfs
	echo 1048576 >"$(knob_of /mnt/vdb)"
	echo 16777216 >"$(knob_of /mnt/vdd)"
	for i in 0 1 2 3; do
		for m in $MNTS; do
			fio_write "$m/synced-$i" 8 --end_fsync=1 || { wrong "writing $m/synced-$i failed"; continue; }
			# the file's directory entry too
			sync -f "$m" 2>/dev/null || sync
			echo "@@FSYNCED $m/synced-$i 8"
			n=$((n + 1))
		done
	done
	# writes in flight when the power goes
	for m in $MNTS; do
		fio_write "$m/unsynced" 64 &
	done
	sleep 3
	log "summary: crash-write: $n files fsync'ed, cutting the power with 3 writers running"
	echo "@@CUT-POWER@@"
	sleep 600
}

crash_check() {
	list=$1 files=0 mib=0 fsck_ok=0
	for d in vdb:ext4 vdc:xfs vdd:btrfs; do
		dev=/dev/${d%%:*} fs=${d#*:} m=/mnt/${d%%:*}
		mkdir -p "$m"
		mount -t "$fs" "$dev" "$m" && umount "$m" || { wrong "$fs on $dev does not mount after the crash"; continue; }
		case $fs in
		ext4) out=$(e2fsck -fn "$dev" 2>&1) ;;
		xfs) out=$(xfs_repair -n "$dev" 2>&1) ;;
		btrfs) out=$(btrfs check --readonly "$dev" 2>&1) ;;
		esac
		if [ $? -eq 0 ]; then
			fsck_ok=$((fsck_ok + 1))
		else
			wrong "the $fs check of $dev found errors:"
			echo "$out" | tail -n 15
		fi
		mount -t "$fs" "$dev" "$m" || wrong "$fs on $dev does not mount after its check"
	done
	while read -r f n; do
		if [ -f "$f" ] && fio_check "$f" "$n"; then
			files=$((files + 1)) mib=$((mib + n))
		else
			wrong "$f was fsync'ed before the crash and does not read back"
		fi
	done <"$list"
	[ "$files" -gt 0 ] || wrong "no fsync'ed file to check"
	log "summary: crash-check: filesystems clean $fsck_ok of 3; $files fsync'ed files, $mib MiB read back; wrong $bad"
}

case ${1:-} in
verify) verify ;;
crash-write) crash_write ;;
crash-check) crash_check "${2:?usage: integrity.sh crash-check LIST}" ;;
*) echo "usage: integrity.sh verify | crash-write | crash-check LIST" >&2; exit 2 ;;
esac
[ "$bad" -eq 0 ]
