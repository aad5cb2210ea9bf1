#!/bin/sh
# bdi-writeback on a real kernel, in the workbench guest (busybox, debugfs
# on /sys/kernel/debug). scripts/tests/25-bdi-writeback-vm.sh boots it with
# ext4 on /dev/vdb and btrfs on /dev/vdc (both throttled to 16 MiB/s) and
# a blank /dev/vdd.
#
#   bdi-writeback-vm-test patched     on the ext4 disk, the btrfs filesystem
#                                     (its own bdi), a loop device and a
#                                     partition: set and read back, auto-size
#                                     from the kernel's estimate and from the
#                                     I/O counters, watch (through unmount,
#                                     device removal and SIGTERM/SIGINT),
#                                     apply with a policy file, a FUSE
#                                     mount's own bdi, a tmpfs, and every
#                                     documented failure
#   bdi-writeback-vm-test unpatched   a kernel without the attribute: exit
#                                     status 5 and a message that says so
#
# Prints "ok: ..." and "NOT OK: ..." lines; exits with the number of failed
# checks. The tool is the AddressSanitizer/UBSan build: a report goes to
# /results/san.* (the host test fails on it) and ends the run with 98 or 99.
# shellcheck disable=SC2317 # functions called through check() and run()
export PATH="/usr/local/bin:$PATH"
export ASAN_OPTIONS=detect_leaks=1:exitcode=99:log_path=/results/san
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98:log_path=/results/san
BW=bdi-writeback
MiB=1048576
nfail=0

ok() { echo "ok: $*"; }
not_ok() { echo "NOT OK: $*"; nfail=$((nfail + 1)); }
step() { echo; echo "== $*"; }

# run WANT WHAT CMD...: CMD must exit with WANT; its output is shown and
# left in $out
run() {
	want=$1 what=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/  | /'
	if [ "$rc" -eq "$want" ]; then
		ok "$what (exit $rc)"
	else
		not_ok "$what: exit $rc, expected $want"
	fi
}

# check WHAT CMD...: CMD must succeed
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
has() { case $out in *"$1"*) return 0 ;; esac; return 1; }
has_line() { printf '%s\n' "$out" | grep -qx -- "$1"; }
# attr BDI: its dirty_background_bytes; nothing when it has none
attr() { cat "/sys/class/bdi/$1/dirty_background_bytes" 2>/dev/null; }
attr_is() { check "$1: dirty_background_bytes reads $2 (it reads $(attr "$1"))" [ "$(attr "$1")" = "$2" ]; }

# estimate BDI: the kernel's write bandwidth estimate in kBps, taken as
# the tool documents it: BdiWriteBandwidth while the bdi has dirty inodes,
# else the largest WbWriteBandwidth of a context that has written; 0: none
estimate() {
	d=/sys/kernel/debug/bdi/$1
	# shellcheck disable=SC2046 # two numbers
	set -- $(awk '/^BdiWriteBandwidth:/ { b = $2 } /^BdiWritten:/ { w = $2 } END { print b + 0, w + 0 }' "$d/stats")
	if [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then
		echo "$1"
		return
	fi
	awk '/^WbCgIno:/ { if (w > 0 && b > best) best = b; w = 0; b = 0 }
	     /^WbWritten:/ { w = $2 } /^WbWriteBandwidth:/ { b = $2 }
	     END { if (w > 0 && b > best) best = b; print best + 0 }' "$d/wb_stats"
}

# sized KBPS SECONDS: bandwidth x seconds to the nearest MiB, within 4 MiB..1 GiB
sized() {
	v=$((($1 * 1024 * $2 + MiB / 2) / MiB * MiB))
	[ "$v" -ge $((4 * MiB)) ] || v=$((4 * MiB))
	[ "$v" -le $((1024 * MiB)) ] || v=$((1024 * MiB))
	echo "$v"
}

# about_16mbs BDI VALUE: VALUE is 2 s of a disk throttled to 16 MiB/s as its
# I/O counters show it over a few seconds: 0.25 to 2.5 times 32 MiB. QEMU's
# throttle lets bursts through (up to 43 MiB/s over 2 s seen here) and
# io_ticks counts metadata reads, journal writes and cache flushes as busy
# time (8.7 MiB/s seen on btrfs, 6 MiB/s on ext4 in one CI run, with an
# fsync after every 32 MiB); the kernel's estimate after the same writes
# still read 90-100 MiB/s. A unit slip (sectors, kB, ms) lands far outside.
about_16mbs() {
	set -- "$1" "${2:-0}"
	check "$1: $(($2 / MiB)) MiB from the counters of a 16 MiB/s disk (8-80 MiB)" \
		[ "$2" -ge $((8 * MiB)) -a "$2" -le $((80 * MiB)) ]
}

# wait_log FILE TEXT [TIMES] [SECONDS]: until FILE has TIMES lines with TEXT
wait_log() {
	f=$1 t=$2 n=${3:-1} s=${4:-60} i=0
	while [ "$i" -lt $((s * 5)) ]; do
		[ "$(grep -cF -- "$t" "$f" 2>/dev/null)" -ge "$n" ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	echo "  (no $n line(s) with '$t' in $f after $s s; it has:)"
	sed 's/^/  | /' "$f"
	return 1
}

# stop_watch PID SIGNAL LOG: the watcher stops cleanly on SIGNAL
stop_watch() {
	kill -"$2" "$1"
	wait "$1"
	rc=$?
	check "watcher exits 0 on SIG$2 (exit $rc)" [ "$rc" -eq 0 ]
	check "watcher logs 'SIG$2, stopping'" wait_log "$3" "SIG$2, stopping" 1 5
	sed 's/^/  | /' "$3"
}

# write MNT NAME MIB: MIB MiB of zeros to MNT/NAME, then fsync
write() { dd if=/dev/zero of="$1/$2" bs=1M count="$3" conv=fsync 2>/dev/null; }

# set_get TARGET BDI: set, read back, refuse bad sizes, turn off
set_get() {
	t=$1 b=$2
	run 0 "get $t" $BW get -n -r -o BDI,TYPE,BG-BYTES "$t"
	check "get $t names bdi $b" has "$b "
	run 0 "set $t 64M" $BW set "$t" 64M
	attr_is "$b" 67108864
	kb=$(awk '/^BdiBgBytesThresh:/ { print $2 }' "/sys/kernel/debug/bdi/$b/stats")
	check "debugfs BdiBgBytesThresh of $b: 65536 kB ($kb)" [ "$kb" = 65536 ]
	run 0 "get -b $t" $BW get -n -r -b -o BG-BYTES "$t"
	check "get shows 67108864" [ "$out" = 67108864 ]
	run 0 "set $t 1.5GiB" $BW set "$t" 1.5GiB
	attr_is "$b" 1610612736
	for bad in 12Q -1 10MB 0.1K 18446744073709551616 ""; do
		run 7 "set $t '$bad' is refused" $BW set "$t" "$bad"
	done
	attr_is "$b" 1610612736
	run 0 "set $t 0" $BW set "$t" 0
	attr_is "$b" 0
}

# auto_checks TARGET BDI MNT THROTTLED: auto-size from the kernel's estimate
# and from the I/O counters (MNT gets written; THROTTLED: 16 MiB/s disk)
auto_checks() {
	t=$1 b=$2 m=$3
	write "$m" auto-1 48
	run 0 "auto --dry-run $t" $BW auto --dry-run "$t"
	check "dry run uses the kernel's estimate" has "from the kernel's estimate"
	attr_is "$b" 0
	k1=$(estimate "$b")
	run 0 "auto $t (kernel estimate, x 2 s)" $BW auto "$t"
	k2=$(estimate "$b")
	v=$(attr "$b")
	check "$b: $v is the estimate ($k1 or $k2 kBps) x 2 s" \
		[ "$v" = "$(sized "$k1" 2)" -o "$v" = "$(sized "$k2" 2)" ]
	check "set output shows $v" has "($v)"
	run 0 "auto $t --seconds 0.25 --min 1M" $BW auto "$t" --seconds 0.25 --min 1M
	v=$(attr "$b")
	check "$b: $v is the estimate x 0.25 s, at least 1 MiB" \
		[ "$v" -ge "$MiB" -a "$v" -lt "$(sized "$k2" 2)" ]
	# the counters, while a writer keeps the disk busy for the whole window
	# (one big write can be over before the window opens on a fast device)
	rm -f /tmp/auto-stop
	(while [ ! -e /tmp/auto-stop ]; do write "$m" auto-2 32; done) &
	w=$!
	sleep 0.5
	run 0 "auto --source counters --window 3 $t" $BW auto --source counters --window 3 "$t"
	touch /tmp/auto-stop
	wait "$w"
	v=$(attr "$b")
	check "set output says it used the I/O counters" has "I/O counters of"
	if [ "$4" = throttled ]; then
		about_16mbs "$b" "$v"
	else
		check "$b: $((${v:-0} / MiB)) MiB from the counters, within 4 MiB..1 GiB" \
			[ "$v" -ge $((4 * MiB)) -a "$v" -le $((1024 * MiB)) ]
	fi
	rm -f "$m/auto-1" "$m/auto-2"
	run 0 "set $t 0" $BW set "$t" 0
}

# apply_checks EXT4 BTRFS PART: apply with a policy file (the guest has no
# udev: ID_BUS and ID_SERIAL are empty)
apply_checks() {
	ext4=$1 btrfs=$2 part=$3
	mkdir -p /tmp/bw.conf.d
	cat >/tmp/bw.conf <<-EOF
	# no udev here: ID_BUS is empty
	ID_BUS=usb -> ignore
	mount=/mnt/vdb fstype=ext4 -> bytes 24M
	fstype=btrfs -> auto 1s
	bdi=7:* -> ignore
	EOF
	printf 'bdi=%s -> bytes 12M\n' "$part" >/tmp/bw.conf.d/10-part.conf
	run 0 "apply --check" $BW apply --config /tmp/bw.conf --check
	check "5 rules in 2 files" has "5 rule(s) in 2 file(s)"
	run 0 "apply /mnt/vdb" $BW apply --config /tmp/bw.conf /mnt/vdb
	check "the rule of line 3" has "/tmp/bw.conf:3: mount=/mnt/vdb fstype=ext4 -> bytes 24M"
	attr_is "$ext4" 25165824
	run 0 "set /mnt/vdb 0" $BW set /mnt/vdb 0
	run 0 "apply /dev/vdb: a device, matched by its mounts" $BW apply --config /tmp/bw.conf /dev/vdb
	attr_is "$ext4" 25165824
	run 0 "apply /mnt/part: the drop-in's rule" $BW apply --config /tmp/bw.conf /mnt/part
	check "names the drop-in" has "/tmp/bw.conf.d/10-part.conf:1: bdi=$part -> bytes 12M"
	attr_is "$part" 12582912
	run 0 "apply /dev/loop0: ignore" $BW apply --config /tmp/bw.conf /dev/loop0
	check "says which rule" has "/tmp/bw.conf:5: bdi=7:* -> ignore"
	attr_is 7:0 0
	write /mnt/vdc apply 16
	run 0 "apply /mnt/vdc: auto 1s on btrfs's own bdi" $BW apply --config /tmp/bw.conf /mnt/vdc
	check "sized from 1 s of its bandwidth" has " x 1 s"
	check "$btrfs is set" [ "$(attr "$btrfs")" -gt 0 ]
	rm -f /mnt/vdc/apply
	run 0 "apply --watch with a fixed rule applies once and ends" \
		timeout 20 $BW apply --watch --config /tmp/bw.conf /mnt/part
	run 0 "no rule for /dev/vdc (no mounts of its own)" $BW apply --config /tmp/bw.conf /dev/vdc
	check "says so" has "no rule matches"
	run 0 "--default when no rule matches" $BW apply --config /tmp/bw.conf --default "bytes 4M" /dev/vdc
	attr_is "$(cat /sys/block/vdc/dev)" 4194304

	for t in /mnt/vdb /mnt/vdc /mnt/part /dev/vdc; do $BW set "$t" 0 >/dev/null; done
	echo 'mount=/mnt/part -> bytes 1X' >>/tmp/bw.conf.d/10-part.conf
	run 9 "a bad line in a drop-in: nothing applied" $BW apply --config /tmp/bw.conf /mnt/vdb
	check "file and line" has "/tmp/bw.conf.d/10-part.conf:2: invalid size '1X' for bytes"
	attr_is "$ext4" 0
	rm -f /tmp/bw.conf.d/10-part.conf

	bdi_dir=/sys/class/bdi/$ext4
	printf 'bdi=%s -> bytes 8M strict_limit 1 max_bytes 16M\n' "$ext4" >/tmp/bw.conf
	if [ -e "$bdi_dir/strict_limit" ] && [ -e "$bdi_dir/max_bytes" ]; then
		ratio=$(cat "$bdi_dir/max_ratio")
		run 0 "apply the 6.2 limits with the threshold" $BW apply --config /tmp/bw.conf /mnt/vdb
		attr_is "$ext4" 8388608
		check "strict_limit is 1" [ "$(cat "$bdi_dir/strict_limit")" = 1 ]
		mb=$(cat "$bdi_dir/max_bytes")
		# the kernel keeps max_bytes as a share of the dirty limit and
		# reads it back from today's limit: a little above or below
		check "max_bytes is about 16 MiB ($mb)" [ "$mb" -gt $((15 * MiB)) -a "$mb" -le $((17 * MiB)) ]
		echo 0 >"$bdi_dir/strict_limit"
		echo "$ratio" >"$bdi_dir/max_ratio"
	else
		run 5 "a kernel before 6.2: no strict_limit, nothing applied" \
			$BW apply --config /tmp/bw.conf /mnt/vdb
		check "says which attribute" has "Linux 6.2 and later have it"
		attr_is "$ext4" 0
	fi
	$BW set /mnt/vdb 0 >/dev/null
	rm -rf /tmp/bw.conf /tmp/bw.conf.d
}

# fuse_checks: a FUSE mount (the workbench's stall-fuse daemon, from
# /run/files) has a bdi of its own, 0:N after the mount's device number;
# the tool finds it from the mount point and sets it. A tmpfs has no
# writeback device: exit 4.
fuse_checks() {
	if [ ! -x /run/files/stall-fuse ]; then
		not_ok "no /run/files/stall-fuse: the host test passes the workbench's guest files"
		return
	fi
	mkdir -p /run/fuse-back /mnt/fuse
	/run/files/stall-fuse /run/fuse-back /mnt/fuse 2>/run/stall-fuse.log &
	fpid=$!
	i=0
	while ! grep -q " /mnt/fuse fuse" /proc/mounts && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	# the mount's MAJ:MIN (mountinfo's third field) is its bdi's name
	fbdi=$(awk '$5 == "/mnt/fuse" { print $3 }' /proc/self/mountinfo)
	if [ -z "$fbdi" ]; then
		not_ok "FUSE: stall-fuse did not mount /mnt/fuse ($(cat /run/stall-fuse.log))"
		kill "$fpid" 2>/dev/null
		return
	fi
	check "FUSE: the mount's bdi $fbdi exists" [ -d "/sys/class/bdi/$fbdi" ]
	run 0 "get /mnt/fuse" $BW get /mnt/fuse
	check "get names bdi $fbdi" has "$fbdi"
	run 0 "set /mnt/fuse 1M" $BW set /mnt/fuse 1M
	attr_is "$fbdi" 1048576
	run 0 "list" $BW list
	check "list shows $fbdi" has "$fbdi"
	echo data >/mnt/fuse/f && sync
	check "a file written through FUSE reaches its folder" [ "$(cat /run/fuse-back/f 2>/dev/null)" = data ]
	run 0 "set /mnt/fuse 0" $BW set /mnt/fuse 0
	attr_is "$fbdi" 0
	umount /mnt/fuse
	wait "$fpid" 2>/dev/null
	mkdir -p /mnt/tmpfs
	mount -t tmpfs tmpfs /mnt/tmpfs
	run 4 "set on a tmpfs: no writeback device" $BW set /mnt/tmpfs 1M
	umount /mnt/tmpfs
}

patched() {
	step "the kernel"
	if [ ! -e /sys/block/vdb/bdi/dirty_background_bytes ]; then
		not_ok "$(uname -r) has no dirty_background_bytes: not a kernel with the series"
		return
	fi
	ok "$(uname -r) has dirty_background_bytes"

	step "the targets"
	ext4=$(cat /sys/block/vdb/dev)
	btrfs=
	for d in /sys/fs/btrfs/*/devices/vdc; do
		[ -e "$d" ] && btrfs=$(basename "$(readlink "${d%/devices/vdc}/bdi")")
	done
	check "btrfs on /dev/vdc has its own bdi ($btrfs)" [ -n "$btrfs" ]
	dd if=/dev/zero of=/tmp/loop.img bs=1M count=0 seek=128 2>/dev/null
	losetup /dev/loop0 /tmp/loop.img && mkfs.ext4 -q /dev/loop0 && mkdir -p /mnt/loop &&
		mount -t ext4 /dev/loop0 /mnt/loop
	check "loop0 over /tmp/loop.img, ext4 on /mnt/loop" grep -q ' /mnt/loop ' /proc/mounts
	printf 'o\nn\np\n1\n\n\nw\n' | fdisk /dev/vdd >/dev/null 2>&1
	mkfs.ext4 -q /dev/vdd1 && mkdir -p /mnt/part && mount -t ext4 /dev/vdd1 /mnt/part
	check "a partition, /dev/vdd1, ext4 on /mnt/part" grep -q ' /mnt/part ' /proc/mounts
	part=$(cat /sys/block/vdd/dev)
	echo "ext4 on vdb: $ext4; btrfs: $btrfs; loop0: 7:0; vdd: $part"
	run 0 "list" $BW list
	run 0 "list --json" $BW list --json
	check "list --json: btrfs bdi with /mnt/vdc" has "\"bdi\": \"$btrfs\""
	check "list --json: /mnt/vdc among the mounts" has '"/mnt/vdc"'

	step "ext4 on a whole disk (/dev/vdb): set and read back"
	set_get /mnt/vdb "$ext4"
	set_get /dev/vdb "$ext4"
	step "btrfs (/mnt/vdc): its own bdi $btrfs, not the disk's"
	set_get /mnt/vdc/ "$btrfs"
	run 0 "get /dev/vdc: the disk's bdi" $BW get -n -r -o BDI /dev/vdc
	check "/dev/vdc is $(cat /sys/block/vdc/dev), not $btrfs" [ "$out" = "$(cat /sys/block/vdc/dev)" ]
	run 0 "set /dev/vdc 1M: the disk, with a note" $BW set /dev/vdc 1M
	check "the note names $btrfs" has "whose dirty pages go to $btrfs"
	run 0 "set /dev/vdc 0" $BW set /dev/vdc 0
	step "loop device"
	set_get /dev/loop0 7:0
	set_get /mnt/loop 7:0
	step "a partition: its disk's bdi"
	set_get /dev/vdd1 "$part"
	set_get /mnt/part "$part"
	set_get "$ext4" "$ext4"

	step "auto-size: ext4"
	auto_checks /mnt/vdb "$ext4" /mnt/vdb throttled
	step "auto-size: btrfs"
	auto_checks /mnt/vdc "$btrfs" /mnt/vdc throttled
	step "auto-size: loop device"
	auto_checks /dev/loop0 7:0 /mnt/loop fast

	step "apply: a policy file"
	apply_checks "$ext4" "$btrfs" "$part"

	step "FUSE and tmpfs: the mount's own bdi, and none"
	fuse_checks

	step "what is refused"
	run 4 "tmpfs has no writeback bdi" $BW get /tmp
	check "says so" has "/tmp (tmpfs) has no backing device that writes back"
	run 4 "nor /proc" $BW set /proc/sys 1M
	run 4 "nor does auto" $BW auto /tmp
	run 3 "no such path" $BW get /mnt/vdb/nonexistent
	run 3 "no such device" $BW set /dev/vdz 1M
	run 3 "no such bdi" $BW get 9:99
	run 3 "a character device" $BW get /dev/null
	run 2 "bad --max (a bad option value is bad usage)" $BW auto /mnt/vdb --max 1X
	run 2 "get -1 is an unknown option" $BW get -1
	run 64 "several targets, one bad: each tried, 64" $BW get -nr -o BDI /mnt/vdb /nonexistent
	check "the good one is shown" has_line "$ext4"
	run 7 "set: a bad knob value" $BW set /mnt/vdb strict_limit=2
	run 2 "set: an unknown knob" $BW set /mnt/vdb min_ratio=1
	run 2 "unknown command" $BW frobnicate
	run 2 "--watch with --dry-run" $BW auto --watch --dry-run /mnt/vdb
	grep -q '^nobody:' /etc/passwd || echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	run 6 "not root: permission denied" su -s /bin/sh -c "$BW set /mnt/vdb 1M" nobody
	check "says so" has "Permission denied"
	attr_is "$ext4" 0
	run 0 "not root: get works" su -s /bin/sh -c "$BW get /mnt/vdb" nobody

	step "the other knobs: set, shown, put back"
	if [ -e /sys/block/vdb/bdi/strict_limit ]; then
		run 0 "set max_bytes and strict_limit" $BW set /mnt/vdb max_bytes=64M strict_limit=1
		check "strict_limit reads 1" [ "$(cat /sys/block/vdb/bdi/strict_limit)" = 1 ]
		mb=$(cat /sys/block/vdb/bdi/max_bytes)
		# kept as a ratio of the global dirty limit, which moves with free memory
		check "max_bytes near 64 MiB ($mb)" [ "$mb" -gt $((56 * MiB)) ] && [ "$mb" -lt $((72 * MiB)) ]
		run 0 "get -o STRICT" $BW get -nr -o STRICT /mnt/vdb
		check "STRICT shows 1" [ "$out" = 1 ]
		run 0 "put back" $BW set /mnt/vdb strict_limit=0 max_ratio=100
		check "strict_limit reads 0" [ "$(cat /sys/block/vdb/bdi/strict_limit)" = 0 ]
	fi
	ra=$(cat /sys/block/vdb/bdi/read_ahead_kb)
	run 0 "set read_ahead_kb=1M" $BW set /dev/vdb read_ahead_kb=1M
	check "read_ahead_kb reads 1024" [ "$(cat /sys/block/vdb/bdi/read_ahead_kb)" = 1024 ]
	run 0 "read_ahead_kb back to $ra" $BW set /dev/vdb read_ahead_kb="$ra"

	step "watch /mnt/vdb before it is mounted: nothing below it is touched"
	umount /mnt/vdb
	$BW auto --watch --interval 1 --fallback 8M /mnt/vdb >watch-early.log 2>&1 &
	pid=$!
	check "watcher waits for the mount" wait_log watch-early.log "/mnt/vdb: not there yet (/mnt/vdb is not mounted)" 1 20
	sleep 3
	check "and sets nothing meanwhile" [ "$(grep -c ' -> ' watch-early.log)" -eq 0 ]
	mount -t ext4 /dev/vdb /mnt/vdb
	check "mounted: watcher finds $ext4" wait_log watch-early.log "/mnt/vdb: there, bdi $ext4" 1 20
	check "and sizes it" wait_log watch-early.log "$ext4 (/mnt/vdb): 0 B -> " 1 30
	stop_watch "$pid" TERM watch-early.log
	run 0 "set /mnt/vdb 0" $BW set /mnt/vdb 0

	step "watch ext4 (/mnt/vdb) with the I/O counters, through unmount and mount"
	$BW auto --watch --interval 1 --source counters /mnt/vdb >watch-ext4.log 2>&1 &
	pid=$!
	check "watcher starts" wait_log watch-ext4.log "/mnt/vdb: watching bdi $ext4" 1 20
	write /mnt/vdb watch 64
	check "watcher sizes $ext4 from the counters" wait_log watch-ext4.log "$ext4 (/mnt/vdb): 0 B -> " 1 30
	check "from the I/O counters of vdb" wait_log watch-ext4.log "(I/O counters of vdb) x 2 s" 1 1
	about_16mbs "$ext4" "$(attr "$ext4")"
	rm -f /mnt/vdb/watch
	umount /mnt/vdb
	check "unmounted: watcher says it is gone" wait_log watch-ext4.log "/mnt/vdb: gone (/mnt/vdb is not mounted)" 1 20
	mount -t ext4 /dev/vdb /mnt/vdb
	check "mounted again: watcher says it is back" wait_log watch-ext4.log "/mnt/vdb: back, bdi $ext4" 1 20
	check "and set nothing while it was gone" \
		[ "$(sed -n '/: gone (/,/: back, /p' watch-ext4.log | grep -c ' -> ')" -eq 0 ]
	stop_watch "$pid" TERM watch-ext4.log
	run 0 "set /mnt/vdb 0" $BW set /mnt/vdb 0

	step "watch btrfs (/mnt/vdc) with the kernel's estimate"
	$BW auto --watch --interval 1 /mnt/vdc >watch-btrfs.log 2>&1 &
	pid=$!
	write /mnt/vdc watch 32
	check "watcher sizes $btrfs" wait_log watch-btrfs.log "$btrfs (/mnt/vdc): 0 B -> " 1 30
	check "from the kernel's estimate" wait_log watch-btrfs.log "(the kernel's estimate) x 2 s" 1 1
	v=$(attr "$btrfs")
	check "$btrfs: $((${v:-0} / MiB)) MiB, set and logged" grep -q "($v)" watch-btrfs.log
	check "the disk under btrfs is left alone" [ "$(attr "$(cat /sys/block/vdc/dev)")" = 0 ]
	rm -f /mnt/vdc/watch
	stop_watch "$pid" INT watch-btrfs.log
	run 0 "set /mnt/vdc 0" $BW set /mnt/vdc 0

	step "watch a loop device through its removal and return"
	umount /mnt/loop
	$BW auto --watch --interval 1 --fallback 8M /dev/loop0 >watch-loop.log 2>&1 &
	pid=$!
	check "watcher sizes 7:0 (written before: the kernel's estimate)" \
		wait_log watch-loop.log "7:0 (/dev/loop0): 0 B -> " 1 20
	losetup -d /dev/loop0
	loopctl remove 0
	check "loop0 and its bdi are gone" [ ! -e /sys/class/bdi/7:0 ]
	check "watcher says it is gone" wait_log watch-loop.log "/dev/loop0: gone" 1 20
	loopctl add 0
	check "loop0 and its bdi are back" [ -e /sys/class/bdi/7:0 ]
	losetup /dev/loop0 /tmp/loop.img
	check "watcher says it is back" wait_log watch-loop.log "/dev/loop0: back, bdi 7:0" 1 20
	check "and sets the fallback until it has written" \
		wait_log watch-loop.log "7:0 (/dev/loop0): 0 B -> 8 MiB (8388608): --fallback" 1 20
	attr_is 7:0 8388608
	mount -t ext4 /dev/loop0 /mnt/loop
	write /mnt/loop watch 64
	check "then sizes it from the kernel's estimate" \
		wait_log watch-loop.log "7:0 (/dev/loop0): 8 MiB -> " 1 30
	stop_watch "$pid" TERM watch-loop.log
	umount /mnt/loop
	losetup -d /dev/loop0
}

unpatched() {
	step "a kernel without dirty_background_bytes ($(uname -r))"
	check "/sys/class/bdi/*/dirty_background_bytes is absent" [ ! -e "/sys/block/vdb/bdi/dirty_background_bytes" ]
	run 0 "get /mnt/vdb: what the kernel has" $BW get -nr -o BDI,BG-BYTES,MAX-RATIO /mnt/vdb
	check "dirty_background_bytes shown as -" has "$(cat /sys/block/vdb/dev) - "
	check "names the running kernel, once" [ "$(printf '%s\n' "$out" | grep -c "running kernel ($(uname -r))")" -eq 1 ]
	check "says the series is not applied" has "not applied"
	run 0 "auto --dry-run sizes all the same" $BW auto --dry-run --fallback 16M /mnt/vdb
	check "says what it would set" has "would set dirty_background_bytes to"
	run 5 "set /dev/vdb 64M" $BW set /dev/vdb 64M
	check "names the running kernel" has "running kernel ($(uname -r))"
	check "offers what the kernel has" has "it has max"
	run 5 "set on btrfs" $BW set /mnt/vdc 64M
	run 5 "auto" $BW auto /mnt/vdb
	# a watcher that does start would never end: bounded
	run 5 "auto --watch" timeout 20 $BW auto --watch /mnt/vdc
	run 0 "list still works" $BW list
	check "and says the attribute is missing" has "no bdi has dirty_background_bytes"
	run 4 "tmpfs: no writeback bdi" $BW get /tmp
	run 3 "no such path" $BW get /nonexistent
	run 7 "a bad size is refused first" $BW set /mnt/vdb 12Q
	echo 'fstype=ext4 -> strict_limit 1 bytes 16M' >/tmp/bw.conf
	run 5 "apply a rule with the threshold" $BW apply --config /tmp/bw.conf /mnt/vdb
	check "names the missing attribute" has "no /sys/class/bdi/"
	if [ -e /sys/block/vdb/bdi/strict_limit ]; then
		check "and wrote nothing" [ "$(cat /sys/block/vdb/bdi/strict_limit)" = 0 ]
		echo 'fstype=ext4 -> strict_limit 1' >/tmp/bw.conf
		run 0 "apply a rule with the 6.2 knobs only" $BW apply --config /tmp/bw.conf /mnt/vdb
		check "strict_limit is 1" [ "$(cat /sys/block/vdb/bdi/strict_limit)" = 1 ]
		echo 0 >/sys/block/vdb/bdi/strict_limit
	fi
	rm -f /tmp/bw.conf
}

case ${1:-} in
patched) patched ;;
unpatched) unpatched ;;
*) echo "usage: bdi-writeback-vm-test patched|unpatched" >&2; exit 2 ;;
esac
echo
if ls /results/san.* >/dev/null 2>&1; then
	not_ok "sanitizer reports: $(ls /results/san.*)"
	cat /results/san.*
fi
echo "bdi-writeback VM test ($1): $nfail check(s) failed"
exit "$nfail"
