#!/bin/sh
# Faults on a device that holds dirty pages over its threshold: the device
# fails, fills up, stalls or goes away while a writer keeps writing, with
# the knob off and set, one after the other, each on a fresh device.
#
#   faults.sh CASE SECS KNOB...
#
# CASE is one of
#   healthy ext4 on the null_blk disk below, no fault: what each setting
#           costs without one
#   healthy-CASE
#           CASE's device and writer, no fault: what each setting costs
#           on that device without one
#   eio-ext4, eio-xfs, eio-btrfs, eio-raw
#           a memory-backed null_blk disk of 512 MiB (8 MB/s) whose
#           first 128 MiB fail every write (its bad blocks list) for SECS
#           seconds, under the filesystem or written to directly; under
#           ext4 (which puts regular files in its second block group,
#           128 MiB in, the writer's file right after the file fsync'ed
#           before the fault) from where that file starts to the end of
#           its block group, where the journal starts (124 MiB): ext4's
#           data fails, its metadata does not
#   enospc  ext4 on a loop device of 512 MiB whose backing file lives in a
#           tmpfs that fills up (over-committed: 16 MiB left) for SECS s;
#           then the tmpfs grows again
#   stall-fuse
#           a FUSE mount (stall-fuse.c) whose daemon holds every WRITE for
#           SECS seconds, then answers again
#   stall-disk
#           ext4 on a loop device whose backing file lives on that FUSE
#           mount: when the daemon holds its WRITEs, the loop device stops
#           completing writes (its worker waits on the FUSE file) for SECS
#           seconds, then catches up: a disk that stops and recovers
#   stall-nfs
#           an NFSv3 mount (hard, over TCP on the loopback) of a tmpfs the
#           kernel NFS server exports: the server stops (rpc.nfsd 0: its
#           threads and sockets gone) for SECS seconds, then starts again;
#           the knob is on the client mount's own bdi
#   vanish  ext4 on the null_blk disk, powered off (del_gendisk, as when a
#           USB disk is pulled) with the writer running, once the bdi
#           holds 15/16 of the setting's threshold dirty or under
#           writeback (at once with the knob off); unmounted, powered on
#           again and the file fsync'ed before read back
# For each KNOB (bytes on the device's bdi, 0 is off; gBYTES: the knob off
# and vm.dirty_background_bytes at BYTES instead, the reference: what the
# global threshold at the same value costs): a file of 8 MiB is
# written and fsync'ed, then a writer writes 2 MiB/s; 12 s into it (for
# vanish, then at its threshold) the fault starts, SECS s later it ends
# (not for vanish); 5 s later the
# writer stops, its file is fsync'ed, then sync and umount are timed. The
# file fsync'ed before the fault must read back whole after a remount;
# the writer's file then is whole, short or differs. One line per KNOB:
#
#   fault: case=C knob=K secs=S sys_ticks=T kworker_ticks=W passes=P
#     wakes=N empty=E log_lines=L fault_sys_ticks=.. fault_kworker_ticks=..
#     fault_passes=.. fault_wakes=.. fault_empty=.. fault_dirty_kb=..
#     fault_log_lines=..
#     writer=RC fsync=WORD sync_s=.. umount_s=.. slab_kb=BEFORE:AFTER
#     verified=yes|no during=whole|short|differs trace_kb=K fault_s=..
#     umount=ok|failed held=N
#
# (ticks: clock ticks of kernel time (system, irq, softirq) on all CPUs and
# of the kworker threads; passes: rounds of writeback the thresholds
# started on the bdi (reason background or background_bytes); wakes: the
# calls asking the bdi's flusher for background writeback, whichever
# threshold made them (writeback_wake_background); empty:
# rounds on the bdi, whatever started them, that wrote no page;
# fault_dirty_kb: dirty and under writeback when the fault starts (the
# writer has written 24 MiB by then, over 64 KiB and 16 MiB, so that
# either threshold has had its chance to start writeback: at 16 MiB
# what is left dirty may be under it, but for vanish, which waits for
# 15/16 of the threshold); log_lines: kernel log records; trace_kb:
# the most a CPU's trace buffer held, of its 4096 kB (an overflow ends the
# case with an error); fault_s: how long starting the fault took (the
# disk's removal for vanish); umount: whether the umount after the fault
# succeeded; held: the WRITE requests the stall-fuse daemon held during
# its stall (stall-fuse, stall-disk: 0 is a stall that did not happen),
# 0 in the other cases; the fault_ figures are those
# of the SECS s of the fault, the others of the whole case from the knob
# set to the umount.) A fault that does not start or end (the command
# fails, the disk is still there) ends the case with an error. Exit 0
# when every setting ran, 1 otherwise.
set -u
case=$1 secs=$2
shift 2
# healthy-CASE: CASE's device stack and writer with no fault (the knob's
# own cost on that device, for the host's bounds)
stack=$case fault=1
case $case in healthy-?*) stack=${case#healthy-} fault= ;; esac
rate=$((2 << 20)) pre=12 post=5
mnt=/mnt/fault nb=/sys/kernel/config/nullb/fault fmnt=/mnt/fault-fuse
# the disk's bad sectors during an I/O fault: 511 x 512 sectors (almost
# 128 MiB), as many as null_blk's list of bad ranges (one page, at most
# 512 sectors a range) holds, from bad_start: 0, the writer's data, the
# superblock and the metadata that starts the disk; under ext4, set in
# setup (bad_len then shorter)
bad_start=0 bad_len=$((511 * 512))
# The serial console prints only the records of levels 0 to 2 (emergency,
# alert, critical: panics, oopses, a filesystem's critical errors) while a
# setting is measured: each record it prints costs the guest's CPU some
# milliseconds of busy-waiting on the emulated UART (as on a real serial
# console), which the kernel CPU figures would count, so that a setting
# that logs more I/O errors would pay for the console rather than for its
# writeback; the records themselves are counted and bounded. Kernel
# reports (report-patterns.sh) still reach the console as they come: a
# reader of /dev/kmsg forwards them. After the setting's figures are
# taken, the records the console held back are copied to it
# (console_copy), out of time order.
. /run/files/report-patterns.sh
printk0=$(cut -f1 /proc/sys/kernel/printk)
quiet_level=3
[ "$printk0" -ge $quiet_level ] || quiet_level=$printk0
quiet=
console_quiet() { echo "$quiet_level" >/proc/sys/kernel/printk; quiet=1; }
console_loud() { echo "$printk0" >/proc/sys/kernel/printk; quiet=; }
# kmsg_print (awk -v n=N -v lo=LO -v hi=HI -v re=RE): the kernel log
# records (/dev/kmsg's form) after the first N, of levels from LO to below
# HI, whose message matches RE, as the console prints them, each as it
# comes (a program, not a function: the reader in the background is awk
# itself, for kill)
kmsg_print='/^[0-9]/ && ++r > n {
	split($0, h, ";"); split(h[1], f, ",")
	m = substr($0, length(h[1]) + 2)
	if (f[1] % 8 >= lo && f[1] % 8 < hi && m ~ re) {
		printf "[%5d.%06d] %s\n", f[3] / 1000000, f[3] % 1000000, m
		fflush()
	}
}'
# console_copy N: the records after the first N that the console held
# back (of levels from quiet_level up to below printk0); first a record of
# its own (debug: neither printed nor copied), to know /run/kmsg holds
# every record logged before
console_copy() {
	echo "<7>faults: copy after $1" >/dev/kmsg
	i=0
	until grep -q ";faults: copy after $1\$" /run/kmsg; do
		i=$((i + 1)); [ $i -le 20 ] || break; sleep 0.1
	done
	awk -v n="$1" -v lo="$quiet_level" -v hi="$printk0" -v re= "$kmsg_print" </run/kmsg
}
# (a gBYTES setting's global threshold put back, for the next case; the
# records of a setting cut short copied to the console)
err() {
	echo "fault: $case: $*"
	[ -z "${bg_ratio:-}" ] || echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
	if [ -n "$quiet" ]; then
		console_loud
		console_copy "$l0"
	fi
	np_off
	kill $klog $kfwd 2>/dev/null
	exit 1
}
klog='' kfwd=''
. /run/files/np-lib.sh
# after its disk is gone, the tracepoints name the bdi "(unknown)"
[ "$stack" != vanish ] || np_gone=1

for e in writeback_start writeback_written writeback_wake_background; do
	[ -f $tr/events/writeback/$e/enable ] || err "no $e tracepoint"
done
# vanish reads the bdi's dirty pages from debugfs
[ "$stack" != vanish ] || [ -d /sys/kernel/debug/bdi ] ||
	err "no /sys/kernel/debug/bdi to read the bdi's dirty pages from (CONFIG_DEBUG_FS)"
mkdir -p $mnt /run/thin
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
# the kernel log, every record from now on, for counting
cat /dev/kmsg >/run/kmsg 2>/dev/null &
klog=$!
# the kernel reports among the kernel log's records (from the oldest it
# holds), to the console as they come
awk -v n=0 -v lo=0 -v hi=8 -v re="$report_patterns" "$kmsg_print" </dev/kmsg &
kfwd=$!
dd if=/dev/urandom of=/run/fault-src bs=1M count=8 2>/dev/null
sum=$(sha256sum </run/fault-src)
size=$((rate * (pre + secs + post)))
# what the writer writes, for comparing
/run/files/paced-write /run/fault-expect 65536 $size 0 >/dev/null || err "no room for /run/fault-expect"

up() { awk '{ print $1 }' /proc/uptime; }
since() { awk -v a="$1" -v b="$(up)" 'BEGIN { printf "%.2f", b - a }'; }
# kernel time of all CPUs: system + irq + softirq
sys_ticks() { awk '/^cpu / { print $4 + $7 + $8; exit }' /proc/stat; }
# kernel log records (a continuation line of one starts with a space)
log_lines() { grep -c '^[0-9]' /run/kmsg; }
# dirty or under writeback, kB (the writer is all that writes)
dirty_kb() { awk '/^(Dirty|Writeback):/ { t += $2 } END { print t + 0 }' /proc/meminfo; }
# kicks of the bdi's flusher for background writeback (any threshold)
wakes() { grep -cE "writeback_wake_background: $(np_re)" $tr/trace; }
slab_kb() { sync; echo 3 >/proc/sys/vm/drop_caches; awk '/^Slab:/ { print $2 }' /proc/meminfo; }

# the null_blk disk: 512 MiB in memory, 8 MB/s, its data kept while it is
# powered off
nb_on() {
	if [ ! -d $nb ]; then
		mkdir $nb || err "cannot make a null_blk device (configfs)"
		echo 512 >$nb/size && echo 1 >$nb/memory_backed && echo 4096 >$nb/blocksize &&
			echo 8 >$nb/mbps || err "cannot configure the null_blk device"
	fi
	echo 1 >$nb/power || err "cannot power the null_blk device on"
	# newer kernels name the disk after the configfs item, older ones
	# nullb<index>
	i=0
	until [ -b /dev/fault ] || [ -b /dev/nullb$(cat $nb/index) ]; do
		i=$((i + 1)); [ $i -le 50 ] || err "no disk for the null_blk device"; sleep 0.1
	done
	dev=/dev/fault
	[ -b $dev ] || dev=/dev/nullb$(cat $nb/index)
}
nb_off() { echo 0 >$nb/power; }
nb_gone() { [ ! -d $nb ] || { echo 0 >$nb/power; rmdir $nb; }; }

mkfs_mount() {
	case $1 in
	ext4) mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$dev" ;;
	xfs) mkfs.xfs -q -f -K "$dev" ;;
	btrfs) mkfs.btrfs -q -f -K "$dev" ;;
	esac >/run/fault-mkfs.log 2>&1 || err "mkfs.$1 failed: $(cat /run/fault-mkfs.log)"
	mount -t "$1" "$dev" $mnt || err "cannot mount $dev ($1)"
}

# nfs_up: the NFS server exporting the tmpfs on /run/nfs-exp to the
# loopback, started once for every setting of the case
nfs_up() {
	mkdir -p /run/nfs-exp
	grep -q ' /run/nfs-exp ' /proc/mounts || mount -t tmpfs -o size=256m tmpfs /run/nfs-exp ||
		err "no tmpfs for the NFS export"
	# (in each case's shell: the server may be of an earlier case)
	. /run/files/nfs-lib.sh
	[ -f /run/nfs-up ] && return
	nfs_server_start /run/nfs-exp >/dev/null &&
		exportfs -o rw,sync,no_root_squash,no_subtree_check,insecure,fsid=1 127.0.0.1:/run/nfs-exp ||
		err "the NFS server did not start"
	: >/run/nfs-up
}
nfsd_threads() { rpc.nfsd --no-udp "$1" && [ "$(cat /proc/fs/nfsd/threads)" -eq "$1" ]; }

# fuse_stop: the FUSE mount of stall-disk gone, the daemon with it
fuse_stop() {
	if ! umount $fmnt; then
		echo "fault: $case: umount $fmnt failed"
		umount -l $fmnt
		kill $fuse
	fi
	wait $fuse
	rm -rf /run/fault-back
}

# fuse_signal SIG WORD: the stall-fuse daemon sent SIG, and its log says
# WORD once more than before, within 5 s
fuse_signal() {
	n=$(grep -c "stall-fuse: $2" /run/stall-fuse.log)
	kill -"$1" $fuse || return 1
	i=0
	until [ "$(grep -c "stall-fuse: $2" /run/stall-fuse.log)" -gt "$n" ]; do
		i=$((i + 1)); [ $i -le 50 ] || return 1; sleep 0.1
	done
}

# set-up, fault on, fault off and the read back, per case; $target is
# what the writer writes, $before the file fsync'ed before the fault
setup() {
	case $stack in
	healthy | eio-ext4 | eio-xfs | eio-btrfs | vanish)
		nb_on
		fs=${stack#eio-}
		[ "$stack" != vanish ] && [ "$stack" != healthy ] || fs=ext4
		mkfs_mount $fs
		target=$mnt/during before=$mnt/before ;;
	eio-raw)
		nb_on
		target=$dev before= ;;
	enospc)
		fs=ext4
		mount -t tmpfs -o size=1200m tmpfs /run/thin || err "no tmpfs"
		truncate -s 512M /run/thin/disk
		dev=$(losetup -f) && losetup "$dev" /run/thin/disk || err "no loop device"
		mkfs_mount ext4
		target=$mnt/during before=$mnt/before ;;
	stall-fuse)
		stall_fuse /run/fault-back $mnt
		target=$mnt/during before=$mnt/before ;;
	stall-nfs)
		nfs_up
		nfs_mount 127.0.0.1:/run/nfs-exp $mnt 3 || err "cannot mount the NFS export"
		target=$mnt/during before=$mnt/before ;;
	stall-disk)
		fs=ext4
		stall_fuse /run/fault-back $fmnt
		truncate -s 512M $fmnt/disk || err "cannot make $fmnt/disk"
		dev=$(losetup -f) && losetup "$dev" $fmnt/disk || err "no loop device"
		mkfs_mount ext4
		target=$mnt/during before=$mnt/before ;;
	*) err "unknown case" ;;
	esac
	if [ -n "$before" ]; then
		bdi=$(sh /run/files/fs-bdi.sh $mnt) || err "no bdi for $mnt"
		cp /run/fault-src "$before" && /run/files/fsync-files "$before" >/dev/null ||
			err "cannot write and fsync $before"
		if [ "$stack" = eio-ext4 ]; then
			# from its first block to the end of that block group
			# (8 x the block size blocks, at most; the next one
			# starts with the journal), in sectors
			r=$(filefrag -v "$before" | awk '
				/ blocks of [0-9]+ bytes/ { b = $(NF - 1) }
				$1 == "0:" && b {
					sub(/\.\.$/, "", $4); g = 8 * b
					print $4 * b / 512, (int($4 / g) + 1) * g * b / 512; exit
				}')
			[ -n "$r" ] || err "no extent for $before (filefrag)"
			bad_start=${r% *}
			[ $((${r#* } - bad_start)) -ge $bad_len ] || bad_len=$((${r#* } - bad_start))
		fi
	else
		bdi=$(cat /sys/class/block/${dev#/dev/}/dev)
		# the raw disk: the file fsync'ed before is its last 8 MiB
		dd if=/run/fault-src of="$dev" bs=1M seek=504 conv=fsync 2>/dev/null ||
			err "cannot write the end of $dev"
	fi
	[ -f /sys/class/bdi/$bdi/dirty_background_bytes ] || err "no dirty_background_bytes on bdi $bdi"
}
# bad_range +|-: the bad range set or cleared, 512 sectors a write (one
# entry of the list each): 6.1's badblocks_set() given the whole range at
# once left its start good, and every write succeeded
bad_range() {
	s=$bad_start e=$((bad_start + bad_len))
	while [ $s -lt $e ]; do
		n=$((e - s)); [ $n -le 512 ] || n=512
		echo "$1$s-$((s + n - 1))" >$nb/badblocks || return 1
		s=$((s + n))
	done
}
fault_on() {
	[ -n "$fault" ] || return 0
	case $stack in
	healthy) ;;
	eio-*) bad_range + ;;
	enospc)
		used=$(df -k /run/thin | awk 'NR == 2 { print $3 }')
		mount -o remount,size=$((used + 16384))k /run/thin ;;
	stall-fuse | stall-disk) fuse_signal USR1 stalled ;;
	stall-nfs) nfsd_threads 0 ;;
	vanish) nb_off && [ ! -b "$dev" ] ;;
	esac
}
fault_off() {
	[ -n "$fault" ] || return 0
	case $stack in
	eio-*) bad_range - ;;
	enospc) mount -o remount,size=1200m /run/thin ;;
	stall-fuse | stall-disk)
		fuse_signal USR2 resumed &&
			held=$(grep resumed /run/stall-fuse.log | tail -n 1 | awk '{ print $3 }') ;;
	stall-nfs) nfsd_threads 8 ;;
	esac
}
# at_threshold BYTES: back once the bdi holds dirty and writeback pages of
# 15/16 of BYTES (its threshold, the knob's or the global one) or more, so
# that the disk goes away with its threshold's writeback at work; at most
# 10 s (a threshold written down from well over it comes back at the
# writer's 2 MiB/s). At once for 0 (off)
at_threshold() {
	[ "$1" -gt 0 ] || return 0
	i=0
	until [ $(($(bdi_dirty_kb) * 1024 * 16)) -ge $(($1 * 15)) ]; do
		i=$((i + 1))
		[ $i -le 100 ] || err "bdi $bdi did not reach 15/16 of $1 bytes dirty in 10 s"
		sleep 0.1
	done
}
bdi_dirty_kb() {
	awk '/^(BdiWriteback|BdiReclaimable):/ { t += $2 } END { print t + 0 }' /sys/kernel/debug/bdi/$bdi/stats
}
# the unmount, timed
unmount() {
	t=$(up) umount=ok
	if [ "$stack" != eio-raw ] && ! umount $mnt; then
		echo "fault: $case: umount $mnt failed"
		umount=failed
	fi
	umount_s=$(since "$t")
}
# what the device keeps, after a fresh mount (the raw disk read past the
# page cache): the file fsync'ed before the fault must read back whole;
# the writer's file is whole, short or differs
# same FILE: FILE holds what the writer wrote
same() {
	if [ "$(wc -c <"$1" 2>/dev/null || echo 0)" -ne $size ]; then
		echo short
	else
		cmp -s "$1" /run/fault-expect && echo whole || echo differs
	fi
}
verify() {
	verified=no during=
	[ "$stack" != vanish ] || nb_on
	case $stack in
	eio-raw)
		[ "$(dd if="$dev" bs=1M skip=504 count=8 iflag=direct 2>/dev/null | sha256sum)" != "$sum" ] || verified=yes
		dd if="$dev" bs=1M count=$((size >> 20)) iflag=direct 2>/dev/null | cmp -s - /run/fault-expect &&
			during=whole || during=differs ;;
	stall-fuse)
		wait $fuse
		[ "$(sha256sum </run/fault-back/before)" != "$sum" ] || verified=yes
		during=$(same /run/fault-back/during)
		rm -rf /run/fault-back ;;
	stall-nfs)
		[ "$(sha256sum </run/nfs-exp/before)" != "$sum" ] || verified=yes
		during=$(same /run/nfs-exp/during)
		rm -f /run/nfs-exp/before /run/nfs-exp/during ;;
	*)
		if mount -t $fs "$dev" $mnt; then
			[ "$(sha256sum <$mnt/before)" != "$sum" ] || verified=yes
			during=$(same $mnt/during)
			umount $mnt
		else
			echo "fault: $case: cannot mount $dev again"
		fi ;;
	esac
	case $stack in
	enospc) losetup -d "$dev"; umount /run/thin ;;
	stall-disk) losetup -d "$dev"; fuse_stop ;;
	stall-fuse | stall-nfs) ;;
	*) nb_gone ;;
	esac
}

echo "fault: $case: $secs s of fault, knobs $*"
# the global background threshold as it was, to put back after a gBYTES
# setting (writing the ratio sets the bytes to 0)
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
for knob in "$@"; do
	setup
	slab0=$(slab_kb)
	case $knob in
	g*)
		np_start 0
		echo "${knob#g}" >/proc/sys/vm/dirty_background_bytes ||
			err "cannot set vm.dirty_background_bytes to ${knob#g}" ;;
	*) np_start "$knob" ;;
	esac
	s0=$(sys_ticks) k0=$(kworker_ticks) l0=$(log_lines)
	console_quiet
	/run/files/paced-write "$target" 65536 $size $rate >/run/fault-writer.out 2>&1 &
	w=$!
	sleep $pre
	[ "$stack" != vanish ] || at_threshold "${knob#g}"
	s1=$(sys_ticks) k1=$(kworker_ticks) l1=$(log_lines) p1=$(passes) e1=$(empty_rounds) w1=$(wakes)
	d1=$(dirty_kb) held=0
	t=$(up)
	fault_on || err "the fault did not start (knob $knob)"
	fault_s=$(since "$t")
	sleep "$secs"
	s2=$(sys_ticks) k2=$(kworker_ticks) l2=$(log_lines) p2=$(passes) e2=$(empty_rounds) w2=$(wakes)
	fault_off || err "the fault did not end (knob $knob)"
	wait $w
	writer=$?
	fsync=$(/run/files/fsync-files "$target" 2>&1)
	t=$(up)
	sync
	sync_s=$(since "$t")
	unmount
	s3=$(sys_ticks) k3=$(kworker_ticks) l3=$(log_lines)
	console_loud
	console_copy "$l0"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
	np_stop
	# the kernel log's readers still read (a reader that stopped would
	# freeze log_lines and stop forwarding reports)
	kill -0 $klog 2>/dev/null && kill -0 $kfwd 2>/dev/null || err "a reader of /dev/kmsg stopped"
	verify
	# (gone with the device in some cases)
	[ ! -f /sys/class/bdi/$bdi/dirty_background_bytes ] ||
		echo 0 >/sys/class/bdi/$bdi/dirty_background_bytes
	slab1=$(slab_kb)
	echo "fault: case=$case knob=$knob secs=$secs sys_ticks=$((s3 - s0)) kworker_ticks=$((k3 - k0))" \
		"passes=$(passes) wakes=$(wakes) empty=$(empty_rounds) log_lines=$((l3 - l0))" \
		"fault_sys_ticks=$((s2 - s1)) fault_kworker_ticks=$((k2 - k1)) fault_passes=$((p2 - p1))" \
		"fault_wakes=$((w2 - w1))" \
		"fault_empty=$((e2 - e1)) fault_dirty_kb=$d1 fault_log_lines=$((l2 - l1)) writer=$writer fsync=$fsync" \
		"sync_s=$sync_s umount_s=$umount_s slab_kb=$slab0:$slab1 verified=$verified during=$during" \
		"trace_kb=$np_trace_kb fault_s=$fault_s umount=$umount held=$held"
done
np_off
kill $klog $kfwd 2>/dev/null
echo "fault: $case: done"
