#!/bin/sh
# Benchmark S5, real NFS, in the server guest: the kernel NFS server
# exports the filesystem on MNT (a throttled disk) and a tmpfs (the floor:
# the same job with no disk behind it), shapes its link, and drives the
# client guests (nfs-client.sh, at 10.0.0.11 and up) one command at a time
# through their control port. Every run: each of N clients writes its
# share of SIZE_MIB to its own file and closes it (the COMMIT), the
# server's dirty amount on the export's bdi sampled meanwhile.
#
#   bench-s5.sh MNT FS        parameters in /run/files/s5.conf:
#     reps size disk_mib_s thresh client_thresh app_rate settings
#     recs      record sizes swept with NFSv3, one client, the first link
#     vers      NFS versions run at 1 MiB records on every link
#     links     link rates (tc units), the first one for everything else
#     clients   client counts (at once, NFSv3, 1 MiB, the first link)
#     nclients  client guests booted
#
# Settings on the server: floor (tmpfs export), off, knob (the export's
# bdi at thresh), global (vm.dirty_background_bytes at thresh), tuned (the
# usual NFS server tuning Dave Chinner named in the seed's review:
# dirty_background_ratio 5, dirty_ratio 10, dirty_expire_centisecs 1000,
# dirty_writeback_centisecs 1). Then the client side: the server at knob,
# one client writing at app_rate MiB/s, with its own NFS mount's bdi knob
# at client_thresh, vm.dirty_background_bytes at client_thresh, or neither.
#
# Rows in s5.tsv, dirty time series in series/.
set -u
[ $# -eq 2 ] || { echo "usage: bench-s5.sh MNT FS" >&2; exit 2; }
mnt=$1 fs=$2
. /run/files/bench-lib.sh
. /run/files/nfs-lib.sh
. /run/files/s5.conf
bench_init "$mnt"
stats=/sys/kernel/debug/bdi/$bdi/stats
mkdir -p series /srv/floor
vm_dirty="dirty_ratio dirty_background_ratio dirty_expire_centisecs dirty_writeback_centisecs"
for v in $vm_dirty; do eval "def_$v=\$(cat /proc/sys/vm/$v)"; done

# s5_setting NAME: bench-lib's settings, and tuned; every sysctl back to
# its default first
s5_setting() {
	for v in $vm_dirty; do eval "echo \$def_$v" >"/proc/sys/vm/$v"; done
	case $1 in
	floor) setting off ;;
	tuned)
		setting off
		echo 5 >/proc/sys/vm/dirty_background_ratio
		echo 10 >/proc/sys/vm/dirty_ratio
		echo 1000 >/proc/sys/vm/dirty_expire_centisecs
		echo 1 >/proc/sys/vm/dirty_writeback_centisecs
		;;
	*) setting "$1" "$thresh" ;;
	esac
}

# ctl N CMD...: send CMD to client N; prints its answer (without "ok")
ctl() {
	h=$1
	shift
	a=$(echo "$*" | nc "10.0.0.$((10 + h))" "$NFS_PORT_CTL" 2>/dev/null | tail -n 1)
	case $a in
	ok*) echo "${a#ok}" ;;
	*) echo "bench-s5: client $h: '$*': ${a:-no answer}" >&2; return 1 ;;
	esac
}

bytes() {
	case $1 in
	*k) echo $((${1%k} << 10)) ;;
	*m) echo $((${1%m} << 20)) ;;
	*) echo "$1" ;;
	esac
}

ip link set eth0 mtu "$NFS_MTU" || exit 1
mount -t tmpfs -o size=$((size + 64))m tmpfs /srv/floor || exit 1
nfs_server_start "$mnt" /srv/floor >/dev/null || { echo "bench-s5: the NFS server did not start" >&2; exit 1; }
echo "bench-s5: exporting $mnt ($fs, bdi $bdi) and /srv/floor (tmpfs)"
warm_up "$mnt"
nfs_grace_wait
i=1
while [ "$i" -le "$nclients" ]; do
	t=0
	until ctl "$i" ping >/dev/null 2>&1; do
		[ "$t" -lt 300 ] || { echo "bench-s5: client $i did not answer in 300 s" >&2; exit 1; }
		sleep 2
		t=$((t + 2))
	done
	i=$((i + 1))
done
header s5.tsv fs setting bdi vers link clients rec client_setting app_mib_s rep mib total_s write_s close_s \
	mib_s commit_ops commit_rtt_ms write_ops peak_dirty_kib

cur_link= cur_cset= nrun=0
# run VERS LINK N REC SETTING REP APP_RATE CLIENT_SETTING
run() {
	vers=$1 link=$2 n=$3 rec=$4 s=$5 rep=$6 app=$7 cset=$8
	exp=$mnt
	[ "$s" = floor ] && exp=/srv/floor
	if [ "$link" != "$cur_link" ]; then
		link_rate eth0 "$link" && link_rate_in eth0 "$link" || return 1
		i=1
		while [ "$i" -le "$nclients" ]; do ctl "$i" rate "$link" >/dev/null || return 1; i=$((i + 1)); done
		cur_link=$link
	fi
	i=1
	while [ "$i" -le "$n" ]; do
		eval "m=\${mounted_$i:-}"
		if [ "$m" != "$vers $exp" ]; then
			ctl "$i" mount "$vers" "$exp" >/dev/null || return 1
			eval "mounted_$i='$vers $exp'"
			cur_cset=
		fi
		i=$((i + 1))
	done
	if [ "$cset" != "$cur_cset" ]; then
		ctl 1 tune "${cset#client-}" "$client_thresh" >/dev/null || return 1
		cur_cset=$cset
	fi
	s5_setting "$s"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	label=s5-$fs-v$vers-$link-${n}c-$rec-$s-$cset-$app-$rep
	(while :; do echo "$(now) $(awk '/^BdiReclaimable:/ { print $2 }' "$stats")"; sleep 0.2; done) \
		>"series/$label.dirty" &
	sampler=$!
	each=$((size / n)) pids=
	nrun=$((nrun + 1))
	i=1
	while [ "$i" -le "$n" ]; do
		# a new name every run: no client holds a handle of a removed file
		ctl "$i" write "s5-$nrun-$i" "$(bytes "$rec")" "$each" "$app" >"/tmp/s5-res.$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	wait_ok=0
	for p in $pids; do wait "$p" || wait_ok=1; done
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	[ "$wait_ok" = 0 ] || return 1
	peak=-
	[ "$s" = floor ] || peak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "series/$label.dirty")
	set -- $(cat /tmp/s5-res.*[0-9] | awk '
		{ if ($1 > w) w = $1; if ($2 > c) c = $2; if ($1 + $2 > t) t = $1 + $2
		  co += $3; cr += $4; wo += $5 }
		END { printf "%.3f %.3f %.3f %d %.1f %d", t, w, c, co, co ? cr / co : 0, wo }')
	rm -f /tmp/s5-res.* "$exp"/s5-*
	mibs=$(awk -v m="$size" -v t="$1" 'BEGIN { printf "%.2f", m / t }')
	row s5.tsv "$fs" "$s" "$bdi" "$vers" "$link" "$n" "$rec" "$cset" "$app" "$rep" "$size" "$1" "$2" "$3" \
		"$mibs" "$4" "$5" "$6" "$peak"
	echo "S5 $fs v$vers $link ${n} client(s) $rec $s${cset:+/$cset} rep $rep: $mibs MiB/s," \
		"close $3 s, $4 COMMIT(s) of $5 ms, server peak dirty ${peak} kB"
}

set -- $links
first_link=$1
rep=1
while [ "$rep" -le "$reps" ]; do
	for rec in $recs; do
		for s in $settings; do run 3 "$first_link" 1 "$rec" "$s" "$rep" 0 client-off || exit 1; done
	done
	for link in $links; do
		for v in $vers; do
			[ "$v" = 3 ] && [ "$link" = "$first_link" ] && case " $recs " in *" 1m "*) continue ;; esac
			for s in $settings; do run "$v" "$link" 1 1m "$s" "$rep" 0 client-off || exit 1; done
		done
	done
	for n in $clients; do
		[ "$n" = 1 ] && continue
		for s in $settings; do run 3 "$first_link" "$n" 1m "$s" "$rep" 0 client-off || exit 1; done
	done
	if [ "$app_rate" != 0 ]; then
		for cs in client-off client-knob client-global; do
			run 3 "$first_link" 1 1m knob "$rep" "$app_rate" "$cs" || exit 1
		done
	fi
	rep=$((rep + 1))
done
s5_setting off
i=1
while [ "$i" -le "$nclients" ]; do ctl "$i" quit >/dev/null; i=$((i + 1)); done
rpc.nfsd 0
