#!/bin/sh
# Stress of the per-device threshold, in the guest, for SECS seconds:
#   - a bad-input sweep of the attribute (bdi-stress sweep)
#   - attribute writers and readers on every bdi (bdi-stress attr)
#   - loop devices created, written, detached and removed (bdi-stress loops)
#   - buffered fio writers (crc32c headers) on ext4, XFS and btrfs
#   - a btrfs mounted and unmounted over and over (its bdi comes and goes)
#   - writers in memory cgroups created and removed on the ext4 disk
# then every file written is read back cold and checked.
#
#   stress.sh SECS    disks: vdb ext4, vdc xfs, vdd btrfs (mounted), vde btrfs
#
# The last line is the summary; exit 1 when anything was wrong.
set -u
secs=${1:?usage: stress.sh SECS}
bin=/run/files/bdi-stress
files=/run/files
bad=0
log() { echo "stress: $*"; }
wrong() { echo "stress: WRONG: $*"; bad=$((bad + 1)); }

for m in /mnt/vdb /mnt/vdc /mnt/vdd; do
	grep -q " $m " /proc/mounts || { log "$m is not mounted"; exit 2; }
done
bdi_b=$("$files/fs-bdi.sh" /mnt/vdb) || exit 2
[ -w "/sys/class/bdi/$bdi_b/dirty_background_bytes" ] ||
	{ log "no dirty_background_bytes: a kernel without the series?"; exit 2; }

# fio job with a checksum header in every block: write, or check later
FIO_JOB="--rw=write --bs=64k --verify=crc32c --verify_state_save=0 --ioengine=psync"
fio_write() { # FILE MIB
	fio --name=w --filename="$1" --size="${2}M" $FIO_JOB --do_verify=0 \
		--output=/dev/null >/dev/null 2>&1
}
fio_check() { # FILE MIB
	fio --name=w --filename="$1" --size="${2}M" $FIO_JOB --verify_only \
		--output=/dev/null >/dev/null 2>&1
}
log "bad-input sweep on $bdi_b"
"$bin" sweep -n 5000 -s 7 "$bdi_b" >sweep.out 2>&1 || wrong "the sweep found wrong answers"
grep -v '^sweep: WRONG' sweep.out | tail -n 1
grep '^sweep: WRONG' sweep.out | head -n 10

: >fio.out
: >umount.out
end=$(($(date +%s) + secs))
log "$secs s of load: attribute writers, loop devices, fio on ext4/XFS/btrfs, umount, cgroups"
"$bin" attr -t "$secs" -p 4 -s 11 >attr.out 2>&1 &
"$bin" loops -t "$secs" -s 13 /tmp >loops.out 2>&1 &

# buffered writers on the three filesystems
for m in /mnt/vdb /mnt/vdc /mnt/vdd; do
	(
		i=0
		while [ "$(date +%s)" -lt "$end" ]; do
			fio_write "$m/stress-$i" 24 || echo "fio: WRONG: writing $m/stress-$i failed" >>fio.out
			rm -f "$m/stress-$((i - 3))"
			i=$((i + 1))
		done
	) &
done

# a btrfs whose bdi registers and unregisters with each mount
(
	n=0
	mkdir -p /mnt/vde
	grep -q " /mnt/vde " /proc/mounts && umount /mnt/vde
	while [ "$(date +%s)" -lt "$end" ]; do
		mount -t btrfs /dev/vde /mnt/vde || { echo "umount-cycle: cannot mount" >umount.out; exit 1; }
		if [ -f /mnt/vde/f ] && ! fio_check /mnt/vde/f 8; then
			echo "umount-cycle: WRONG: /mnt/vde/f did not survive the unmount" >>umount.out
		fi
		fio_write /mnt/vde/f 8
		umount /mnt/vde || { echo "umount-cycle: cannot unmount" >>umount.out; exit 1; }
		n=$((n + 1))
	done
	echo "umount-cycle: $n mount/write/unmount cycles" >>umount.out
) &

# writers in memory cgroups created and removed, two at a time
for c in memory io; do
	echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control || { log "no $c controller"; exit 2; }
done
cg_cycle() { # ID
	(
		n=0
		while [ "$(date +%s)" -lt "$end" ]; do
			cg=/sys/fs/cgroup/stress-$1-$n
			mkdir "$cg" || { echo "cgroup: cannot create $cg" >>cgroup.out; exit 1; }
			echo 96M >"$cg/memory.max"
			f=/mnt/vdb/cg-$1-$((n % 3))
			sh -c "echo \$\$ >$cg/cgroup.procs && exec fio --name=w --filename=$f \
				--size=16M $FIO_JOB --do_verify=0 --output=/dev/null" >/dev/null 2>&1 ||
				echo "fio: WRONG: writing $f in $cg failed" >>fio.out
			tries=0
			while ! rmdir "$cg" 2>/dev/null; do
				tries=$((tries + 1))
				[ "$tries" -lt 100 ] || { echo "cgroup: cannot remove $cg" >>cgroup.out; exit 1; }
				sleep 0.1
			done
			n=$((n + 1))
		done
		echo "cgroup $1: $n create/write/remove cycles" >>cgroup.out
	) &
}
: >cgroup.out
cg_cycle a
cg_cycle b

wait
cat attr.out loops.out umount.out cgroup.out 2>/dev/null
grep -q 'cycles' umount.out || wrong "the umount cycle did not finish"
cat fio.out
grep -hq WRONG attr.out loops.out umount.out fio.out && wrong "the load found wrong answers"
grep -q "cannot" umount.out cgroup.out && wrong "a cycle could not go on"
[ "$(grep -c 'cycles' cgroup.out)" -eq 2 ] || wrong "a cgroup cycle did not finish"

log "sync, drop caches, read every file back"
sync
echo 3 >/proc/sys/vm/drop_caches
files_ok=0 mib_ok=0
for f in /mnt/vdb/stress-* /mnt/vdc/stress-* /mnt/vdd/stress-* /mnt/vdb/cg-*; do
	[ -f "$f" ] || continue
	mib=$(($(stat -c %s "$f") >> 20))
	if fio_check "$f" "$mib"; then
		files_ok=$((files_ok + 1)) mib_ok=$((mib_ok + mib))
	else
		wrong "$f does not read back what was written"
	fi
done
mount -t btrfs /dev/vde /mnt/vde && {
	if fio_check /mnt/vde/f 8; then files_ok=$((files_ok + 1)) mib_ok=$((mib_ok + 8)); else
		wrong "/mnt/vde/f does not read back what was written"; fi
	umount /mnt/vde
}

inputs=$(sed -n 's/^sweep: .*: \([0-9]*\) inputs tried.*/\1/p' sweep.out)
attr_ops=$(sed -n 's/^attr: .*: \([0-9]*\) writes, \([0-9]*\) malformed writes, \([0-9]*\) reads.*/\1 \2 \3/p' attr.out)
loops=$(sed -n 's/^loops: .*: \([0-9]*\) create.*/\1/p' loops.out)
umounts=$(sed -n 's/^umount-cycle: \([0-9]*\) .*/\1/p' umount.out)
cgs=$(sed -n 's/^cgroup .: \([0-9]*\) .*/\1/p' cgroup.out | awk '{ s += $1 } END { print s + 0 }')
set -- $attr_ops
log "summary: $secs s; inputs swept ${inputs:-0}; attribute writes ${1:-0} (+${2:-0} malformed), reads ${3:-0};" \
	"loop cycles ${loops:-0}; umount cycles ${umounts:-0}; cgroup cycles $cgs;" \
	"files verified $files_ok ($mib_ok MiB); wrong $bad"
[ "$bad" -eq 0 ]
