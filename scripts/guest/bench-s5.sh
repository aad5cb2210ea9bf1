#!/bin/sh
# Benchmark S5, real NFS, in the server guest: the kernel NFS server
# exports the filesystem on MNT (a throttled disk) and a tmpfs (the floor:
# the same job with no disk behind it), shapes its link, and drives the
# client guests (nfs-client.sh, at 10.0.0.11 and up) one command at a time
# through their control port. Every run: each of N clients writes its
# share of SIZE_MIB to its own file and closes it (the COMMIT), the
# server's dirty amount on the export's bdi sampled meanwhile; the run's
# time is the server's, from the go to the last client's answer.
#
#   bench-s5.sh MNT FS        parameters in /run/files/s5.conf:
#     reps size disk_mib_s thresh client_thresh app_rate settings
#     recs      record sizes swept with NFSv3, one client, the first link
#     vers      NFS versions run at 1 MiB records on every link
#     links     link rates (tc units), the first one for everything else
#     clients   client counts (at once, NFSv3, 1 MiB, the first link)
#     nclients  client guests booted
#     parts     which of these run: recs vers clients pair app
#     pair_mib pair_delay  the two exports (see pair below)
#
# Settings on the server: floor (tmpfs export), off, knob (the export's
# bdi at thresh), global (vm.dirty_background_bytes at thresh), tuned (the
# usual NFS server tuning Dave Chinner named in the seed's review:
# dirty_background_ratio 5, dirty_ratio 10, dirty_expire_centisecs 1000,
# dirty_writeback_centisecs 1). Then the client side: the server at knob,
# one client writing at app_rate MiB/s, with its own NFS mount's bdi knob
# at client_thresh, vm.dirty_background_bytes at client_thresh, or neither.
#
# Rows in s5.tsv, dirty time series in series/. Every client is told to
# quit when this script ends, whatever the reason.
set -u
[ $# -eq 2 ] || { echo "usage: bench-s5.sh MNT FS" >&2; exit 2; }
mnt=$1 fs=$2
. /run/files/bench-lib.sh
. /run/files/nfs-lib.sh
. /run/files/s5.conf
bench_init "$mnt"
# before 6.2 the settings that need strict_limit and max_bytes cannot run
settings=$(settings $settings)
stats=/sys/kernel/debug/bdi/$bdi/stats
mkdir -p series /srv/floor
vm_dirty="dirty_ratio dirty_background_ratio dirty_expire_centisecs dirty_writeback_centisecs"
for sysctl in $vm_dirty; do eval "def_$sysctl=\$(cat /proc/sys/vm/$sysctl)"; done

# s5_setting NAME: bench-lib's settings, and tuned; every sysctl back to
# its default first
s5_setting() {
	local v
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

# ctl N CMD...: send CMD to client N and print its answer (without "ok");
# a client that does not answer within 900 s has failed
ctl() {
	local h=$1 a
	shift
	a=$(echo "$*" | timeout 900 nc "10.0.0.$((10 + h))" "$NFS_PORT_CTL" 2>/dev/null | tail -n 1)
	case $a in
	ok*) echo "${a#ok}" ;;
	*) echo "bench-s5: client $h: '$*': ${a:-no answer}" >&2; return 1 ;;
	esac
}

# all_clients CMD...: ctl every client guest
all_clients() {
	local i=1
	while [ "$i" -le "$nclients" ]; do ctl "$i" "$@" >/dev/null || return 1; i=$((i + 1)); done
}
trap 'all_clients quit 2>/dev/null' EXIT

bytes() {
	case $1 in
	*k) echo $((${1%k} << 10)) ;;
	*m) echo $((${1%m} << 20)) ;;
	*) echo "$1" ;;
	esac
}

ip link set eth0 mtu "$NFS_MTU" || exit 1
mount -t tmpfs -o size=$((size + 64))m tmpfs /srv/floor || exit 1
# the two exports' slow disk (pair)
slow=/mnt/vdc
slow_bdi=$(/run/files/fs-bdi.sh "$slow") || exit 1
nfs_server_start "$mnt" /srv/floor "$slow" >/dev/null || { echo "bench-s5: the NFS server did not start" >&2; exit 1; }
echo "bench-s5: exporting $mnt ($fs, bdi $bdi), /srv/floor (tmpfs) and $slow ($fs, bdi $slow_bdi, $slow_mib_s MiB/s)"
warm_up "$mnt" "$slow"
nfs_grace_wait
# the clients boot beside the server: give them as long as two boots take
i=1 end=$(($(cut -d. -f1 /proc/uptime) + 600))
while [ "$i" -le "$nclients" ]; do
	until ctl "$i" ping >/dev/null 2>&1; do
		[ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ] ||
			{ echo "bench-s5: client $i did not answer within 600 s" >&2; exit 1; }
		sleep 2
	done
	i=$((i + 1))
done
header s5.tsv fs setting bdi vers link clients rec client_setting app_mib_s rep mib total_s write_s close_s \
	mib_s commit_ops commit_rtt_ms write_ops retrans peak_dirty_kib write_rtt_ms
header s5-exports.tsv fs setting bdi vers link rep disk_mib disk_mib_s disk_close_s other_mib other_mib_s \
	other_close_s other_write_rtt_ms peak_dirty_kib nfsd_busy_pct nfsd_bdp_pct

# nfsd_pids: the nfsd threads (after the server started them)
nfsd_pids() {
	for c in /proc/[0-9]*/comm; do
		read -r nh_c <"$c" 2>/dev/null || continue
		[ "$nh_c" = nfsd ] || continue
		c=${c#/proc/}
		echo "${c%/comm}"
	done
}

# nfsd_held PID...: while it runs, every 100 ms, where these nfsd threads
# sleep (their wchan, read without a fork; each sample a line on stdout);
# on SIGTERM it prints on fd 3 the percentage of the samples in which a
# thread was busy (not waiting for a request: in svc_recv(), or where
# 7.3's idle thread sleeps, in schedule_timeout(), whose wchan names
# process_timeout; running, or sleeping while it serves one), the percentage in balance_dirty_pages(),
# and the number of samples
nfsd_held() {
	nh_held=0 nh_busy=0 nh_n=0
	# (busybox's $((a ? b : c)) evaluates both, so no division there)
	trap 'if [ "$nh_n" -gt 0 ]; then echo "$((100 * nh_busy / nh_n)) $((100 * nh_held / nh_n)) $nh_n"; else echo "- - 0"; fi >&3; exit 0' TERM
	while :; do
		for p in "$@"; do
			# wchan ends without a newline: read fails but sets nh_w
			nh_w=
			read -r nh_w <"/proc/$p/wchan" 2>/dev/null
			[ -n "$nh_w" ] || continue
			nh_n=$((nh_n + 1))
			echo "$nh_w"
			case $nh_w in
			svc_recv | process_timeout) ;;
			balance_dirty_pages*) nh_held=$((nh_held + 1)) nh_busy=$((nh_busy + 1)) ;;
			*) nh_busy=$((nh_busy + 1)) ;;
			esac
		done
		usleep 100000
	done
}

cur_link= cur_cset= nrun=0
# run VERS LINK N REC SETTING REP APP_RATE CLIENT_SETTING
run() {
	local vers=$1 link=$2 n=$3 rec=$4 s=$5 rep=$6 app=$7 cset=$8
	local exp=$mnt i m label sampler pids p failed peak each t0 t1 total mib
	[ "$s" = floor ] && exp=/srv/floor
	if [ "$link" != "$cur_link" ]; then
		link_rate eth0 "$link" && link_rate_in eth0 "$link" && all_clients rate "$link" || return 1
		cur_link=$link
	fi
	i=1
	while [ "$i" -le "$n" ]; do
		mount_on "$i" "$vers" "$exp" || return 1
		i=$((i + 1))
	done
	if [ "$cset" != "$cur_cset" ]; then
		ctl 1 tune "${cset#client-}" "$client_thresh" >/dev/null || return 1
		cur_cset=$cset
	fi
	s5_setting "$s"
	each=$((size / n))
	mib=$((each * n))
	nrun=$((nrun + 1))
	# everything settled before the go: the clients' caches dropped and
	# their counters read, the server's disk idle and its cache dropped
	i=1
	while [ "$i" -le "$n" ]; do ctl "$i" prep >/dev/null || return 1; i=$((i + 1)); done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	label=s5-$fs-v$vers-$link-${n}c-$rec-$s-$cset-$app-$rep
	(while :; do echo "$(now) $(awk '/^BdiReclaimable:/ { print $2 }' "$stats")"; sleep 0.2; done) \
		>"series/$label.dirty" &
	sampler=$!
	pids= failed=0
	t0=$(now)
	i=1
	while [ "$i" -le "$n" ]; do
		# a new name every run: no client holds a handle of a removed file
		ctl "$i" write "s5-$nrun-$i" "$(bytes "$rec")" "$each" "$app" >"/tmp/s5-res.$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	for p in $pids; do wait "$p" || failed=1; done
	t1=$(now)
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	[ "$failed" = 0 ] || return 1
	peak=-
	[ "$s" = floor ] || peak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "series/$label.dirty")
	total=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	set -- $(cat /tmp/s5-res.*[0-9] | awk '
		{ if ($1 > w) w = $1; if ($2 > c) c = $2; co += $3; cr += $4; wo += $5; rt += $6; wr += $7 }
		END { printf "%.3f %.3f %d %.1f %d %d %.1f", w, c, co, co ? cr / co : 0, wo, rt, wo ? wr / wo : 0 }')
	rm -f /tmp/s5-res.* "$exp"/s5-*
	row s5.tsv "$fs" "$s" "$bdi" "$vers" "$link" "$n" "$rec" "$cset" "$app" "$rep" "$mib" "$total" "$1" "$2" \
		"$(awk -v m="$mib" -v t="$total" 'BEGIN { printf "%.2f", m / t }')" "$3" "$4" "$5" "$6" "$peak" "$7"
	echo "S5 $fs v$vers $link ${n} client(s) $rec $s${cset:+/$cset} rep $rep:" \
		"$(awk -v m="$mib" -v t="$total" 'BEGIN { printf "%.2f", m / t }') MiB/s, close $2 s," \
		"$3 COMMIT(s) of $4 ms, WRITEs of $7 ms, $6 TCP retransmits, server peak dirty ${peak} kB"
}

# mount_on N VERS EXPORT: client N has EXPORT mounted with NFS VERS
mount_on() {
	local m
	eval "m=\${mounted_$1:-}"
	[ "$m" = "$2 $3" ] && return 0
	ctl "$1" mount "$2" "$3" >/dev/null || return 1
	eval "mounted_$1='$2 $3'"
	[ "$1" = 1 ] && cur_cset=
	return 0
}

# pair LINK SETTING REP: two exports of this server at once: client 1
# writes PAIR_MIB MiB to the slow disk's export (slower than the link, the
# setting on its bdi at one second of it); PAIR_DELAY s later, when a
# limit throttles the nfsd threads serving client 1 in
# balance_dirty_pages(), client 2 writes SIZE/16 MiB to the tmpfs export,
# NFSv3, 1 MiB records. Where those threads are held, client 2's WRITEs
# queue behind them (the server runs 8 threads): its MiB/s falls and its
# WRITE round trip grows against off, under which client 1 is never
# throttled (it sends at the link's speed, so client 2 shares the link
# with it for longer than under a limit). Each client's MiB/s is its own
# bytes over its own time (the writes and the close); while client 2
# writes, the nfsd threads are sampled: how often they are busy (all 8
# busy means its WRITEs wait for one) and how often in
# balance_dirty_pages() (nfsd_held). SETTING "alone": client 2
# alone, everything at its default.
pair() {
	local link=$1 s=$2 rep=$3 label sampler p1 p2 peak busy held held_n failed disk=$pair_mib other=$((size / 16))
	local m_bdi=$bdi m_stats=$stats m_thresh=$thresh
	if [ "$link" != "$cur_link" ]; then
		link_rate eth0 "$link" && link_rate_in eth0 "$link" && all_clients rate "$link" || return 1
		cur_link=$link
	fi
	mount_on 1 3 "$slow" && mount_on 2 3 /srv/floor || return 1
	if [ "$cur_cset" != client-off ]; then
		ctl 1 tune off "$client_thresh" >/dev/null || return 1
		cur_cset=client-off
	fi
	# the settings go on the slow disk's bdi for this run
	s5_setting off
	bdi=$slow_bdi bdi_dir=/sys/class/bdi/$slow_bdi knob=/sys/class/bdi/$slow_bdi/dirty_background_bytes
	stats=/sys/kernel/debug/bdi/$slow_bdi/stats thresh=$((slow_mib_s << 20))
	if [ "$s" = alone ]; then s5_setting off; else s5_setting "$s"; fi
	[ -n "${nfsd:-}" ] || nfsd=$(nfsd_pids)
	nrun=$((nrun + 1))
	ctl 1 prep >/dev/null && ctl 2 prep >/dev/null || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	label=s5-$fs-exports-$link-$s-$rep
	(while :; do echo "$(now) $(awk '/^BdiReclaimable:/ { print $2 }' "$stats")"; sleep 0.2; done) \
		>"series/$label.dirty" &
	sampler=$!
	if [ "$s" = alone ]; then
		# the fields of a write that did not happen
		echo "- - 0 0 0 0 0" >/tmp/s5-pair.1
		p1=
	else
		ctl 1 write "s5-$nrun-1" $((1 << 20)) "$disk" 0 >/tmp/s5-pair.1 &
		p1=$!
	fi
	(
		[ "$s" = alone ] || sleep "$pair_delay"
		nfsd_held $nfsd 3>/tmp/s5-pair.held >"series/$label.wchan" &
		w=$!
		ctl 2 write "s5-$nrun-2" $((1 << 20)) "$other" 0 >/tmp/s5-pair.2
		rc=$?
		kill "$w"
		wait "$w"
		exit "$rc"
	) &
	p2=$!
	failed=0
	[ -z "$p1" ] || wait "$p1" || failed=1
	wait "$p2" || failed=1
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	s5_setting off
	bdi=$m_bdi bdi_dir=/sys/class/bdi/$m_bdi knob=/sys/class/bdi/$m_bdi/dirty_background_bytes
	stats=$m_stats thresh=$m_thresh
	[ "$failed" = 0 ] || return 1
	peak=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "series/$label.dirty")
	set -- $(cat /tmp/s5-pair.held)
	busy=${1:--} held=${2:--} held_n=${3:-0}
	set -- $(cat /tmp/s5-pair.1) $(cat /tmp/s5-pair.2)
	rm -f /tmp/s5-pair.* "$slow"/s5-* /srv/floor/s5-*
	# client 1: $1 write_s $2 close_s; client 2: $8 write_s $9 close_s, its WRITEs' round trips
	row s5-exports.tsv "$fs" "$s" "$slow_bdi" 3 "$link" "$rep" "$disk" \
		"$(awk -v m="$disk" -v w="$1" -v c="$2" 'BEGIN { if (w == "-") print "-"; else printf "%.2f", m / (w + c) }')" "$2" "$other" \
		"$(awk -v m="$other" -v w="$8" -v c="$9" 'BEGIN { printf "%.2f", m / (w + c) }')" "$9" \
		"$(awk -v o="${12}" -v r="${14}" 'BEGIN { printf "%.1f", o ? r / o : 0 }')" "$peak" "$busy" "$held"
	echo "S5 $fs two exports $link $s rep $rep: slow disk's export $(awk -v m="$disk" -v w="$1" -v c="$2" 'BEGIN { if (w == "-") print "-"; else printf "%.2f", m / (w + c) }') MiB/s," \
		"tmpfs export $(awk -v m="$other" -v w="$8" -v c="$9" 'BEGIN { printf "%.2f", m / (w + c) }') MiB/s, server peak dirty $peak kB," \
		"nfsd threads busy in $busy % of $held_n samples, in balance_dirty_pages() in $held %"
}

set -- $links
first_link=$1
rep=1
# has PART: whether this run does that part of S5 (parts in s5.conf)
has() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
has recs || recs=
has vers || vers=
has clients || clients=
while [ "$rep" -le "$reps" ]; do
	for r in $recs; do
		for st in $settings; do run 3 "$first_link" 1 "$r" "$st" "$rep" 0 client-off || exit 1; done
	done
	for l in $links; do
		for nv in $vers; do
			# NFSv3 at 1 MiB on the first link is a row of the sweep above
			[ "$nv" = 3 ] && [ "$l" = "$first_link" ] && case " $recs " in *" 1m "*) continue ;; esac
			for st in $settings; do run "$nv" "$l" 1 1m "$st" "$rep" 0 client-off || exit 1; done
		done
	done
	for ncl in $clients; do
		[ "$ncl" = 1 ] && continue
		for st in $settings; do run 3 "$first_link" "$ncl" 1m "$st" "$rep" 0 client-off || exit 1; done
	done
	# two exports at once, on the first link (faster than the slow disk):
	# every setting but floor, and the tmpfs export's client alone
	if [ "$nclients" -ge 2 ] && has pair; then
		for st in alone $settings; do
			[ "$st" = floor ] || pair "$first_link" "$st" "$rep" || exit 1
		done
	fi
	if [ "$app_rate" != 0 ] && has app; then
		for cs in client-off client-knob client-global; do
			run 3 "$first_link" 1 1m knob "$rep" "$app_rate" "$cs" || exit 1
		done
	fi
	rep=$((rep + 1))
done
s5_setting off
rpc.nfsd 0
