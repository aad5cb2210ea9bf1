#!/bin/bash
# Run the benchmarks of Documentation/benchmarks.md in QEMU on the built
# kernel: one VM run per case and filesystem, every setting of a case side
# by side (interleaved) in that run.
#
#   bench.sh [-p quick|full|scale|nfs|smoke] [-c "S1 S2 S3 S4 S5 S6 S7 S8"] [-f "ext4 xfs btrfs"]
#            [-r REPS] [-m GUEST_GIB] [-o DIR] [-k BZIMAGE]
#
# -k boots BZIMAGE instead of BASE's built kernel (for example a kernel of
# an earlier version of the series, kept under build/kernels/).
# S5_RECS, S5_VERS, S5_LINKS, S5_CLIENTS, S5_SETTINGS and S5_APP in the
# environment replace S5's record sizes, NFS versions, link rates, client
# counts, server settings and the client side's write rate (0: none).
#
# The quick profile runs S1 to S4, S6 and S8 on ext4 (about 35 minutes), the full one
# on ext4, XFS and btrfs with more repetitions and larger files; the scale
# profile runs S7 (many writers with 2, 8 and 16 GiB of guest memory, many
# devices, many cgroups; one VM run per memory size); the nfs profile runs
# S5 (real NFS: a server guest and client guests on a shared link, see
# scripts/guest/bench-s5.sh) on ext4, XFS and btrfs. S4 boots
# the unpatched kernel too (build/kernels/BASE-0.bzImage, from
# 'make prefixes WITH_BASE=1'), alternately with the patched one, one VM
# run each per repetition.
#
# Results go to DIR/<case>-<fs>/: the case's TSV file, meta.txt (kernel,
# VM, disk, sysctls, parameters) and the dirty time series; a case's folder
# appears only once its run has succeeded. At the end scripts/bench-report.sh
# turns DIR into tables and plots. The kernel is BASE's ($BASE, or the
# first base of config.mk). The default DIR is
# Documentation/benchmarks/BASE/results/PROFILE for a run of the profile
# as it is (every case, its filesystems, repetitions and guest size), and
# build/bench-results/BASE/PROFILE for any other, so that a partial run never
# mixes with the published results. Exit status: 0, 2 for bad usage, 1 or
# vm-run.sh's status (124 timeout, 125 kernel report, 126 no status) when
# a run fails.
set -u
. "$(dirname "$0")/lib.sh"

all_cases="S1 S2 S3 S4 S5 S6 S7 S8"
profile=quick cases= fss= reps= out= base=${BASE:-$(default_base)} gib=2
usage() {
	echo "$PROG: $*" >&2
	echo "usage: bench.sh [-p quick|full|scale|nfs|smoke] [-c \"$all_cases\"] [-f \"ext4 xfs btrfs\"] [-r REPS] [-m GUEST_GIB] [-o DIR] [-k BZIMAGE]" >&2
	exit 2
}
kernel_patched=
while getopts p:c:f:r:m:o:k: opt; do
	case $opt in
	p) profile=$OPTARG ;;
	c) cases=$OPTARG ;;
	f) fss=$OPTARG ;;
	r) reps=$OPTARG ;;
	m) gib=$OPTARG ;;
	o) out=$OPTARG out_given=1 ;;
	k) kernel_patched=$(realpath -m "$OPTARG") ;;
	*) usage "unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage "unexpected argument '$1'"
[ -z "$cases" ] || [ -n "${cases// /}" ] || usage "no case given"
for c in $cases; do
	case " $all_cases " in *" $c "*) ;; *) usage "unknown case '$c' (${all_cases// /, })" ;; esac
done

# Parameters per profile, for a guest of 2 GiB: the global background
# threshold (10 % of available memory) is then about 187 MiB, well above
# the per-device thresholds of one second of a disk's bandwidth, and below
# S1's 256 MiB. A larger guest (-m) scales the sizes of S1, S2, S3 and S6
# with its memory, so that they keep that relation to the global threshold.
[[ $gib =~ ^[1-9][0-9]*$ ]] && [ "$gib" -ge 2 ] || usage "bad guest memory '$gib' (whole GiB, at least 2)"
mem=${gib}G cpus=2
disk_mib_s=32        # S1, S3, S6 disks; S2's fast disk
slow_mib_s=8         # S2's slow disk
s3_writers="1 10 100"
s3_agg=24            # S3 aggregate rate, MiB/s (the disk takes 32)
s6_delay=5           # S6: seconds before the short-lived file is deleted
s4_runs=4            # S4: measured runs per VM boot (after one not kept)
s7_size=256 s7_rate=16 # S7: MiB in all at MiB/s in all, whatever the writer count
s7_writers="1 16 64"
s7_devices=64 s7_dev_mib=16 s7_dev_thresh=$((2 << 20))  # S7, many devices
s7_cgroups=32 s7_cg_mib=8 s7_cg_thresh=$((2 << 20))     # S7, many cgroups
# S5: SIZE MiB in all per run (s1_size: scaled like S1), the seed's 100
# Mbit link and 1 Gbit; the server's threshold is one second of its disk
# (thresh), a client's one second of the 100 Mbit link; client guests of
# 1 GiB and 1 CPU. The client side: one client writing at s5_app MiB/s.
s5_recs="4k 1m 10m" s5_vers="3 4.2" s5_links="100mbit 1gbit" s5_clients="1 2 10"
s5_cthresh=$((12 << 20)) s5_app=8 s5_settings="floor off knob global tuned limit maxbytes"
# S5's two exports: a second server disk, slower than the first link, so
# that its export's writers can be throttled
s5_slow_mib_s=4
# S5's parts (S5_PARTS narrows them): the record-size sweep, the NFS
# versions per link, the client counts, the two exports, the client side.
# In the two exports, client 1 sends s5_pair_mib MiB to the slow disk's
# export and client 2 starts s5_pair_delay s later, when client 1's WRITEs
# are being throttled with a limit
s5_parts="recs vers clients pair app" s5_pair_delay=4
# S8: bursts of s8_burst MiB at full speed, s8_gap ms apart, to the slow
# disk, then fsync; in all less than the global background threshold, so
# that with everything at its default and the disk's share of the recent
# writeout high (warm) no background writeback starts before the fsync;
# the other disk writes s8_other MiB between the two phases (idle: the
# share near none); knob+limit caps the bdi at 8 seconds of the slow disk
s8_burst=32 s8_bursts=4 s8_gap=3000 s8_other=64 s8_cap=$((8 * slow_mib_s << 20))
def_cases="S1 S2 S3 S4 S6 S8" s7_mems=$gib
case $profile in
smoke) s1_size=64 s1_rate=16 s2_slow=16 s2_fast=64 s3_total=32 s4_size=128 s6_size=64 def_reps=1 def_fss=ext4
	s8_burst=8 s8_bursts=2 s8_gap=1000 s8_other=32
	s5_recs=1m s5_vers=3 s5_links=100mbit s5_clients=1 s5_app=0 ;;
quick) s1_size=256 s1_rate=16 s2_slow=64 s2_fast=256 s3_total=96 s4_size=256 s6_size=128 def_reps=3 def_fss=ext4 ;;
full) s1_size=256 s1_rate=16 s2_slow=512 s2_fast=2048 s3_total=256 s4_size=512 s6_size=128 def_reps=5 \
	def_fss="ext4 xfs btrfs" ;;
scale) s1_size=256 s1_rate=16 s2_slow=64 s2_fast=256 s3_total=96 s4_size=256 s6_size=128 def_reps=2 def_fss=ext4 \
	def_cases=S7 s7_mems="2 8 16" ;;
# nfs: 43 NFS runs of 256 MiB per repetition and filesystem, about 16 min;
# two repetitions on three filesystems took 6031 s here (REPS=3: about 2.5 h)
nfs) s1_size=256 s1_rate=16 s2_slow=64 s2_fast=256 s3_total=96 s4_size=256 s6_size=128 def_reps=2 \
	def_fss="ext4 xfs btrfs" def_cases=S5 ;;
*) usage "unknown profile '$profile' (quick, full, scale, nfs or smoke)" ;;
esac
cases=${cases:-$def_cases}
# S5's lists can be narrowed for a shorter run (results then go to build/)
for v in RECS VERS LINKS CLIENTS SETTINGS APP PARTS; do
	eval "[ -z \"\${S5_$v:-}\" ] || { s5_${v,,}=\$S5_$v; custom_s5=1; }"
done
s5_nclients=$(printf '%s\n' $s5_clients | sort -n | tail -n 1)
# S2 in the full profile runs about 64 s per disk, as seed 002's did (77 and
# 154 s): the first second, before any background writeback starts, is then
# a small part of the fast disk's time, as it is for a device in real use;
# shorter runs show mostly that second (Documentation/benchmarks.md).
scale() { echo $(($1 * gib / 2)); }
s1_size=$(scale "$s1_size") s2_slow=$(scale "$s2_slow") s2_fast=$(scale "$s2_fast")
s3_total=$(scale "$s3_total") s6_size=$(scale "$s6_size") s8_burst=$(scale "$s8_burst")
[ -z "$reps" ] || [[ $reps =~ ^[1-9][0-9]*$ ]] || usage "bad repetition count '$reps'"
# S8_STACKS=1 (a tracing run: the S8 writer's kernel stacks) never publishes
[ "$profile" = smoke ] || [ -n "$reps$fss${custom_s5:-}${S8_STACKS:-}" ] || [ "$cases" != "$def_cases" ] || [ "$gib" != 2 ] || default_run=1
# S3 (three writer counts times three settings per repetition) takes
# longest: the full profile gives it 3 repetitions unless told. S4 pairs
# the two kernels' boots: an even number of repetitions, so that each
# kernel boots first equally often, 4 unless told.
s3_reps=${reps:-$def_reps}
[ "$profile" = full ] && [ -z "$reps" ] && s3_reps=3
s4_reps=${reps:-4}
reps=${reps:-$def_reps} fss=${fss:-$def_fss}
[ -n "${fss// /}" ] || usage "no filesystem given"
thresh=$((disk_mib_s << 20)) slow_thresh=$((slow_mib_s << 20))
# S1's threshold is half a second of the disk's bandwidth: fsync then costs
# at most 0.5 s, which is what a total within 3 % of the bound allows.
s1_thresh=$((disk_mib_s << 19))
published=$TOP/Documentation/benchmarks/$base/results/$profile
[ -z "$out" ] || out=$(realpath -m "$out")
if [ -z "$out" ]; then
	out=$TOP/build/bench-results/$base/$profile
	[ "${default_run:-0}" = 1 ] && out=$published
fi
for fs in $fss; do
	case $fs in ext4 | xfs | btrfs) ;; *) usage "unknown filesystem '$fs' (ext4, xfs, btrfs)" ;; esac
done

guest_files
meta_cmd='{ echo "kernel: $(uname -r)"; echo "cpus: $(nproc)"
	grep MemTotal /proc/meminfo
	for f in /proc/sys/vm/dirty_* /proc/sys/vm/laptop_mode; do echo "vm.${f##*/}: $(cat $f)"; done
	echo "global background threshold: $(awk "/^BackgroundThresh:/ {print \$2}" /sys/kernel/debug/bdi/*/stats | head -n 1) kB"
} >meta.txt'

# vm DIR KERNEL CMD: one VM run of a case with the disks in $disks; the
# timeout grows with the job sizes. A failure ends the benchmark with
# vm-run.sh's exit status.
vm() {
	local rc
	bash "$TOP/scripts/vm-run.sh" -k "$2" -q -s "^$c " -m "${vm_mem:-$mem}" -c "$cpus" -t $((1800 * gib)) -o "$1" \
		"${disks[@]}" "${GUEST_FILES[@]}" "$meta_cmd; $3"
	rc=$?
	[ "$rc" = 0 ] && return 0
	echo "$PROG: $c on $fs failed (exit $rc); see ${1#"$TOP"/}/console.log" >&2
	exit "$rc"
}

# image KERNEL: the line meta.txt gives a kernel image
image() { echo "${1#"$TOP"/} sha256 $(sha256sum "$1" | cut -d' ' -f1)"; }

# s7_gather RUN DIR: add one S7 VM run's rows, series and console to DIR
s7_gather() {
	local t
	for t in "$1"/results/s7*.tsv; do
		[ -f "$t" ] || continue
		if [ -f "$2/${t##*/}" ]; then tail -n +2 "$t" >>"$2/${t##*/}"; else cp "$t" "$2/"; fi
	done
	mkdir -p "$2/series"
	cp -r "$1"/results/series/. "$2/series/" 2>/dev/null
	grep -v '^kernel: \|^MemTotal' "$1/results/meta.txt" >"$2/meta.txt"
	grep '^kernel: \|^MemTotal' "$1/results/meta.txt" >>"$2/kernels.txt"
	cat "$1/console.log" >>"$2/console.log"
}

# s5_run DIR FS: one S5 run: the server guest and the client guests at
# once on a hub of their own; rows, series and consoles into DIR
s5_run() {
	local r=$TOP/build/bench/$base/S5-$2 hub pids=() i rc=0 t=$((3600 * gib)) lock
	rm -rf "$r"
	mkdir -p "$r"
	# a hub of this run's own (vm-run.sh -n, scripts/net-hub.c): the first
	# number whose lock this run takes (other runs on the machine hold theirs)
	for hub in $(seq 40000 40099); do
		lock=$TOP/build/bench/hub-$hub.lock
		mkdir "$lock" 2>/dev/null && break
		# a lock left by a run that died
		kill -0 "$(cat "$lock/pid" 2>/dev/null)" 2>/dev/null || { rm -rf "$lock"; mkdir "$lock" 2>/dev/null && break; }
		lock=
	done
	[ -n "$lock" ] || die "no free hub number in 40000-40099 (locks in build/bench/hub-*.lock)"
	echo $$ >"$lock/pid"
	cat >"$r/s5.conf" <<-EOF
	reps=$n size=$s1_size disk_mib_s=$disk_mib_s thresh=$thresh client_thresh=$s5_cthresh slow_mib_s=$s5_slow_mib_s
	app_rate=$s5_app settings="$s5_settings" recs="$s5_recs" vers="$s5_vers" links="$s5_links"
	clients="$s5_clients" nclients=$s5_nclients parts="$s5_parts" pair_mib=$((s1_size / 2)) pair_delay=$s5_pair_delay
	EOF
	say "S5 on $2: server and $s5_nclients client guest(s) on hub $hub (consoles in ${r#"$TOP"/}/*/console.log)"
	for i in $(seq "$s5_nclients"); do
		bash "$TOP/scripts/vm-run.sh" -k "$kernel_patched" -q -m 1G -c 1 -t "$t" \
			-o "$r/client-$i" -n "$hub:$((10 + i))" "${GUEST_FILES[@]}" \
			"sh /run/files/nfs-client.sh $((t - 60))" >"$r/client-$i.log" 2>&1 &
		pids+=($!)
	done
	bash "$TOP/scripts/vm-run.sh" -k "$kernel_patched" -q -s "^S5 |^bench-s5" -m "$mem" -c "$cpus" -t "$t" \
		-o "$r/server" -n "$hub:1" "${disks[@]}" "${GUEST_FILES[@]}" -f "$r/s5.conf" \
		"$meta_cmd; sh /run/files/bench-s5.sh /mnt/vdb $2" || rc=$?
	# the server tells the clients to quit when it ends; a client still
	# running a minute later has hung
	for i in $(seq 60); do
		kill -0 "${pids[@]}" 2>/dev/null || break
		sleep 1
	done
	for i in "${!pids[@]}"; do
		if kill -0 "${pids[$i]}" 2>/dev/null; then
			pkill -KILL -f "qemu-system-x86_64.*-pidfile $r/client-$((i + 1))/qemu.pid" 2>/dev/null
			wait "${pids[$i]}" 2>/dev/null
			echo "$PROG: S5 client $((i + 1)) on $2 did not end with the server; stopped it" >&2
			[ "$rc" != 0 ] || rc=1
		else
			wait "${pids[$i]}" || { [ "$rc" != 0 ] || rc=1; echo "$PROG: S5 client $((i + 1)) on $2 failed; see ${r#"$TOP"/}/client-$((i + 1))/console.log" >&2; }
		fi
	done
	rm -rf "$lock"
	[ "$rc" = 0 ] || { echo "$PROG: S5 on $2 failed (exit $rc); see ${r#"$TOP"/}/server/console.log and client-*/console.log" >&2; exit "$rc"; }
	cp -r "$r/server/results/." "$1/"
	cat "$r/server/console.log" >"$1/console.log"
	mkdir -p "$1/clients"
	for i in $(seq "$s5_nclients"); do
		cat "$r/client-$i/console.log" >>"$1/console.log"
		cp "$r/client-$i/results/mountstats.txt" "$1/clients/mountstats-$i.txt" 2>/dev/null
	done
}

run_case() {
	local c=$1 fs=$2 dir=$out/$1-$2 disks cmd params n=$reps b k v
	case $c in
	S1)
		disks=(-d "${gib}G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s1.sh /mnt/vdb $fs $n $s1_size $s1_rate $s1_thresh"
		params=("disk: $gib GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling)"
			"s1: $s1_size MiB at $s1_rate MiB/s then fsync; threshold $s1_thresh bytes (knob and global); limit: strict_limit and max_bytes sized so that background writeback starts at $s1_thresh bytes (twice that where the kernel starts it at the bdi's background share, 7.3; 4/3 where at its free-run ceiling, 6.2 to 6.12); limit16: strict_limit and max_bytes 16 MiB; limit-bg2: as limit with dirty_background_ratio 2; maxbytes: max_bytes as for limit, without strict_limit")
		;;
	S2)
		disks=(-d "${gib}G:$fs:${slow_mib_s}M" -d "$((2 * gib))G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s2.sh /mnt/vdb /mnt/vdc $fs $n $s2_slow $s2_fast $slow_thresh"
		params=("disks: slow $gib GiB $fs at $slow_mib_s MiB/s, fast $((2 * gib)) GiB $fs at $disk_mib_s MiB/s (QEMU block throttling)"
			"s2: $s2_slow MiB to the slow disk and $s2_fast MiB to the fast one at once, each ending in fsync; threshold $slow_thresh bytes (knob on the slow one, or global)")
		;;
	S3)
		n=$s3_reps
		disks=(-d "${gib}G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s3.sh /mnt/vdb $fs $n $s3_total $s3_agg $thresh $s3_writers"
		params=("disk: $gib GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling)"
			"s3: $s3_writers writers, $s3_total MiB in all at $s3_agg MiB/s in all (64 KiB writes), then fsync; threshold $thresh bytes (knob and global)")
		;;
	S4)
		n=$s4_reps
		disks=(-d "$((2 * gib))G:$fs")
		params=("disk: $((2 * gib)) GiB $fs, not throttled"
			"s4: $s4_size MiB in 4 KiB writes at full speed, then fsync; $s4_runs runs per VM boot after one not kept; the unpatched and the patched kernel (knob 0) booted alternately, one boot each per repetition")
		;;
	S7)
		disks=(-d "2G:$fs:${disk_mib_s}M")
		params=("disk: 2 GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling); guest memory $s7_mems GiB, one VM run each"
			"s7: $s7_size MiB in all at $s7_rate MiB/s in all by $s7_writers writers (64 KiB writes), then sync; thresholds $((16 << 20)) and $thresh bytes (knob and global); dirty sampled every 50 ms"
			"s7 devices: $s7_devices null_blk devices, $s7_dev_mib MiB written to each at once at full speed; knob $s7_dev_thresh bytes on every device, or off"
			"s7 cgroups: $s7_cgroups memory cgroups with cgroup writeback, one writer each, $s7_cg_mib MiB each; knob $s7_cg_thresh bytes, or off")
		;;
	S5)
		disks=(-d "${gib}G:$fs:${disk_mib_s}M" -d "${gib}G:$fs:${s5_slow_mib_s}M")
		params=("server: $mem memory, $cpus CPUs; disk: $gib GiB $fs, writes throttled to $disk_mib_s MiB/s (QEMU block throttling); exports the disk and a tmpfs (floor)"
			"clients: $s5_nclients guest(s) of 1 GiB and 1 CPU; link: every guest on one hub (QEMU dgram netdevs on unix sockets, through scripts/net-hub on the host), shaped with tc tbf on each sender and on the server's ingress (ifb) to $s5_links"
			"s5: $s1_size MiB in all per run, each client its share to its own file, then close; record sizes $s5_recs (NFSv3, 1 client, first link); NFS $s5_vers at 1m on every link; $s5_clients clients at once (NFSv3, 1m, first link); client side: one client at $s5_app MiB/s with its NFS bdi knob or the global knob at $s5_cthresh bytes (server at knob)"
			"s5 settings on the server: $s5_settings; knob and global at $thresh bytes; tuned: dirty_background_ratio 5, dirty_ratio 10, dirty_expire_centisecs 1000, dirty_writeback_centisecs 1; limit: strict_limit and max_bytes sized so that background writeback starts at $thresh bytes (twice that where the kernel starts it at the bdi's background share, 7.3; 4/3 where at its free-run ceiling, 6.2 to 6.12); maxbytes: the same max_bytes without strict_limit"
			"s5 exports: with 2 or more client guests, on the first link: client 1 writes $((s1_size / 2)) MiB to the export of a second disk at $s5_slow_mib_s MiB/s (slower than the link; the settings on its bdi, at one second of it), client 2 $((s1_size / 16)) MiB to the tmpfs export from ${s5_pair_delay} s later, NFSv3, 1 MiB records, every server setting but floor; alone: client 2 with the server to itself"
			"s5 parts: $s5_parts")
		;;
	S8)
		disks=(-d "${gib}G:$fs:${slow_mib_s}M" -d "${gib}G:$fs:${disk_mib_s}M")
		cmd="STACKS=${S8_STACKS:-0} sh /run/files/bench-s8.sh /mnt/vdb /mnt/vdc $fs $n $s8_burst $s8_bursts $s8_gap $s8_other $slow_thresh $s8_cap"
		params=("disks: slow $gib GiB $fs at $slow_mib_s MiB/s, other $gib GiB $fs at $disk_mib_s MiB/s (QEMU block throttling)"
			"s8: $s8_bursts bursts of $s8_burst MiB at full speed (64 KiB writes), $s8_gap ms apart, to the slow disk, then fsync; warm: right after the slow disk wrote 32 MiB; idle: after $s8_other MiB to the other disk; knob $slow_thresh bytes; limit: strict_limit and max_bytes sized so that background writeback starts at $slow_thresh bytes (twice that where the kernel starts it at the bdi's background share, 7.3; 4/3 where at its free-run ceiling, 6.2 to 6.12); limit-bg2: as limit with dirty_background_ratio 2; maxbytes: the same max_bytes without strict_limit; knob+limit: the knob and strict_limit with max_bytes $s8_cap")
		;;
	S6)
		disks=(-d "${gib}G:$fs:${disk_mib_s}M" -d "${gib}G:$fs:${disk_mib_s}M")
		cmd="sh /run/files/bench-s6.sh /mnt/vdb /mnt/vdc vdc $fs $n $s6_size $s6_delay $thresh"
		params=("disks: tuned and untuned, each $gib GiB $fs at $disk_mib_s MiB/s (QEMU block throttling)"
			"s6: a $s6_size MiB file written to the untuned disk, deleted $s6_delay s later; threshold $thresh bytes (knob on the tuned disk, or global)")
		;;
	esac
	say "$c on $fs: $n repetition(s)"
	# the case's folder appears only when its run is complete
	dir=$dir.partial
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ "$c" = S4 ]; then
		# Alternate which kernel boots first, so that drift in the host's
		# speed does not favour one of them.
		: >"$dir/console.log"
		for b in $(seq "$n"); do
			for k in $( ((b % 2)) && echo "unpatched patched" || echo "patched unpatched"); do
				v=$kernel_patched
				[ "$k" = unpatched ] && v=$kernel_unpatched
				vm "$TOP/build/bench/$base/$c-$fs" "$v" "sh /run/files/bench-s4.sh /mnt/vdb $fs $k $b $s4_runs $s4_size"
				# the guest writes the header when it finds no s4.tsv
				if [ -f "$dir/s4.tsv" ]; then
					tail -n +2 "$TOP/build/bench/$base/$c-$fs/results/s4.tsv" >>"$dir/s4.tsv"
				else
					cp "$TOP/build/bench/$base/$c-$fs/results/s4.tsv" "$dir/s4.tsv"
				fi
				sed -n 's/^kernel: /kernel '"$k"': /p' "$TOP/build/bench/$base/$c-$fs/results/meta.txt" >>"$dir/kernels.txt"
				cat "$TOP/build/bench/$base/$c-$fs/console.log" >>"$dir/console.log"
			done
		done
		grep -v '^kernel: ' "$TOP/build/bench/$base/$c-$fs/results/meta.txt" >"$dir/meta.txt"
		sort -u "$dir/kernels.txt" >>"$dir/meta.txt"
		rm -f "$dir/kernels.txt"
		echo "kernel image unpatched: $(image "$kernel_unpatched")" >>"$dir/meta.txt"
	elif [ "$c" = S5 ]; then
		s5_run "$dir" "$fs"
	elif [ "$c" = S7 ]; then
		# One VM run per guest memory size for the writers, one more for
		# the many devices and the many cgroups; rows and series gathered.
		: >"$dir/console.log"
		local m r=$TOP/build/bench/$base/$c-$fs
		for m in $s7_mems; do
			vm_mem=${m}G vm "$r" "$kernel_patched" \
				"sh /run/files/bench-s7.sh /mnt/vdb $fs $n $s7_size $s7_rate '$((16 << 20)) $thresh' '$s7_writers'"
			s7_gather "$r" "$dir"
		done
		vm "$r" "$kernel_patched" "sh /run/files/bench-s7-devices.sh $n $s7_devices $s7_dev_mib $s7_dev_thresh &&
			sh /run/files/bench-s7-cgroups.sh /mnt/vdb $fs $n $s7_cgroups $s7_cg_mib $s7_rate $s7_cg_thresh"
		s7_gather "$r" "$dir"
		sort -u "$dir/kernels.txt" >>"$dir/meta.txt"
		rm -f "$dir/kernels.txt"
	else
		vm "$TOP/build/bench/$base/$c-$fs" "$kernel_patched" "$cmd"
		cp -r "$TOP/build/bench/$base/$c-$fs/results/." "$dir/"
		cp "$TOP/build/bench/$base/$c-$fs/console.log" "$dir/console.log"
	fi
	echo "kernel image: $(image "$kernel_patched")" >>"$dir/meta.txt"
	{
		echo "profile: $profile"
		echo "vm: $mem memory, $cpus CPUs, QEMU software emulation"
		echo "repetitions: $n"
		printf '%s\n' "${params[@]}"
		# what the guest left out on a kernel without strict_limit and max_bytes
		grep -h 'a kernel before 6.2): settings not run:' "$dir/console.log" 2>/dev/null |
			sed 's/^[^:]*: /settings left out: /'
	} >>"$dir/meta.txt"
	rm -rf "${dir%.partial}"
	mv "$dir" "${dir%.partial}"
}

[ -n "$kernel_patched" ] || kernel_patched=$TOP/build/obj-$base/arch/x86/boot/bzImage
kernel_unpatched=$TOP/build/kernels/$base-0.bzImage
[ -f "$kernel_patched" ] || die "no kernel at ${kernel_patched#"$TOP"/}; run 'make kernel'"
case " $cases " in
*" S4 "*)
	# S4 compares two kernels, so they must differ by the series only.
	[ -f "$kernel_unpatched" ] && cmp -s "$TOP/build/kernels/$base-0.config" "$TOP/build/obj-$base/.config" ||
		die "S4 needs the unpatched kernel built with the current config; run 'make prefixes WITH_BASE=1' (a full kernel build)"
	;;
esac

[ "${default_run:-0}" = 1 ] || [ -n "${out_given:-}" ] ||
	say "not the whole $profile profile: results go to ${out#"$TOP"/} (-o to choose)"
t0=$(date +%s)
for c in $cases; do
	for fs in $fss; do run_case "$c" "$fs"; done
done
say "done in $(($(date +%s) - t0)) s; results in ${out#"$TOP"/}"
# the published results' tables go to Documentation/benchmarks/BASE,
# others' next to them
if [ "$out" = "$published" ] || [ "$(dirname "$out")" = "$TOP/Documentation/benchmarks/$base/results" ]; then
	bash "$TOP/scripts/bench-report.sh" "$out"
else
	bash "$TOP/scripts/bench-report.sh" "$out" "$out"
fi
