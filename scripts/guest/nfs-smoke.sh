#!/bin/sh
# NFS smoke test inside one guest: the kernel NFS server exports the
# filesystem on MNT (a throttled disk) from the root network namespace; a
# client in the namespace "cli", joined to it by a veth pair whose client
# end is shaped to RATE, writes SIZE_MIB of random data over NFSv3 and
# again over NFSv4.2, and closes the file. The export's bdi has its
# dirty_background_bytes at KNOB_BYTES: while the data arrives (slower than
# the disk writes), the server's dirty amount must stay within SLACK_MIB of
# it, and after the client's close the file, read back cold on the server,
# must have the data's checksum.
#
# Client and server share one page cache and one set of global dirty
# thresholds here: a smoke test, not a benchmark (bench-s5.sh is one).
# The flusher's periodic wake-ups are pushed an hour away, since a fresh
# device's share of the global background threshold is near zero and a
# wake-up would start its writeback whatever the knob says.
#
#   nfs-smoke.sh MNT KNOB_BYTES SIZE_MIB RATE SLACK_MIB
set -u
[ $# -eq 5 ] || { echo "usage: nfs-smoke.sh MNT KNOB_BYTES SIZE_MIB RATE SLACK_MIB" >&2; exit 2; }
mnt=$1 knob_bytes=$2 size=$3 rate=$4 slack=$5
. /run/files/nfs-lib.sh
fail=0
nok() { echo "nfs-smoke: NOT OK: $*"; fail=$((fail + 1)); }
bdi=$(/run/files/fs-bdi.sh "$mnt") || exit 1
knob=/sys/class/bdi/$bdi/dirty_background_bytes
[ -w "$knob" ] || { echo "nfs-smoke: $knob missing: kernel without the series?" >&2; exit 1; }
stats=/sys/kernel/debug/bdi/$bdi/stats
dirty_kib() { awk '/^BdiReclaimable:/ { print $2 }' "$stats"; }
written_kib() { awk '/^BdiWritten:/ { print $2 }' "$stats"; }

echo 360000 >/proc/sys/vm/dirty_writeback_centisecs
echo 360000 >/proc/sys/vm/dirty_expire_centisecs

# the link: veth0 (server, 10.0.1.1) <-> veth1 (namespace cli, 10.0.1.2)
ip netns add cli &&
	ip link add veth0 type veth peer name veth1 &&
	ip link set veth1 netns cli &&
	ip addr add 10.0.1.1/24 dev veth0 && ip link set veth0 up &&
	ip -n cli addr add 10.0.1.2/24 dev veth1 && ip -n cli link set veth1 up &&
	ip -n cli link set lo up &&
	tc -n cli qdisc replace dev veth1 root tbf rate "$rate" burst 256kb latency 100ms ||
	{ echo "nfs-smoke: cannot set up the veth link" >&2; exit 1; }
nfs_server_start "$mnt" >/dev/null || { echo "nfs-smoke: the NFS server did not start" >&2; exit 1; }
echo "$knob_bytes" >"$knob" || exit 1
echo "nfs-smoke: server exports $mnt (bdi $bdi, $knob_bytes bytes), link $rate"

head -c $((size << 20)) /dev/urandom >/tmp/data || exit 1
want=$(sha256sum /tmp/data | cut -d' ' -f1)
nfs_grace_wait

for vers in 3 4.2; do
	cmnt=/mnt/nfs-$vers f=data-$vers
	mkdir -p "$cmnt"
	nsenter --net=/run/netns/cli mount.nfs "10.0.1.1:$mnt" "$cmnt" -o "vers=$vers,proto=tcp,nolock" ||
		{ nok "NFSv$vers: mount failed"; continue; }
	sync
	echo 3 >/proc/sys/vm/drop_caches
	w0=$(written_kib)
	(while :; do echo "$(now) $(dirty_kib)"; sleep 0.1; done) >"smoke-$vers.dirty" &
	sampler=$!
	t0=$(now)
	dd if=/tmp/data of="$cmnt/$f" bs=1M 2>/dev/null || nok "NFSv$vers: the client's write failed"
	t1=$(now)
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	set -- $(nfs_opstat "$cmnt" COMMIT)
	peak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "smoke-$vers.dirty")
	wrote=$(($(written_kib) - w0))
	echo "nfs-smoke: NFSv$vers: $size MiB written and closed in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s;" \
		"server: peak dirty $peak kB (threshold $((knob_bytes >> 10)) kB), $wrote kB written back;" \
		"client: $1 COMMIT(s), $2 ms round trip in all"
	[ "$peak" -le $(((knob_bytes >> 10) + (slack << 10))) ] ||
		nok "NFSv$vers: the server's dirty amount reached $peak kB, more than $slack MiB over the threshold"
	[ "$1" -ge 1 ] || nok "NFSv$vers: the client sent no COMMIT"
	umount "$cmnt" || nok "NFSv$vers: umount failed"
	# read back cold on the server: nothing of it left in the page cache
	echo 3 >/proc/sys/vm/drop_caches
	got=$(sha256sum "$mnt/$f" | cut -d' ' -f1)
	if [ "$got" = "$want" ]; then
		echo "nfs-smoke: NFSv$vers: $mnt/$f read back on the server: checksum matches"
	else
		nok "NFSv$vers: $mnt/$f on the server: sha256 $got, the client wrote $want"
	fi
done
rpc.nfsd 0
echo 0 >"$knob"
[ "$fail" -eq 0 ] || { echo "nfs-smoke: $fail check(s) failed"; exit 1; }
echo "nfs-smoke: ok"
