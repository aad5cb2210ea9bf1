#!/bin/bash
# Boot a workbench kernel under QEMU (software emulation), run one shell
# command in the guest and bring its results back.
#
#   vm-run.sh [options] [--] COMMAND
#     -b BASE      kernel base (default: the first in config.mk): build/obj-BASE/...
#     -k BZIMAGE   boot this kernel instead
#     -m MEM       guest memory (default 2G)
#     -c CPUS      guest CPUs (default 2, at most 64)
#     -d SPEC      extra disk, repeatable: SIZE[:FS[:WRITE_BPS]], e.g. 1G:xfs:32M
#                  FS is ext4, xfs, btrfs or "-" (none); WRITE_BPS throttles
#                  writes with QEMU block throttling. Disks are /dev/vdb,
#                  /dev/vdc, ... and a disk with a filesystem is mounted on
#                  /mnt/vdb, ...
#     -D IMG[:FS]  attach an existing disk image as the next disk (mounted
#                  when FS is given), and keep it: a later run can boot on
#                  what this one left (repeatable, in order with -d)
#     -n HUB:HOST  a network card on a link shared by every guest given the same
#                  HUB (a name of letters, digits, '.', '_' and '-', e.g. a
#                  number); the guest is 10.0.0.HOST/24 (HOST 1-254) on its
#                  eth0. Every frame reaches every other guest of the HUB
#                  over unix datagram sockets in build/net/hub-HUB/, through
#                  a hub process on the host (scripts/net-hub.c; no network
#                  address is used): the first guest on the HUB starts it and
#                  it exits 10 s after the last one has gone (its log:
#                  hub.log there)
#     -i CPIO      extra initramfs piece (e.g. build/initramfs/kselftest-6.12.cpio)
#     -f FILE      copy FILE into the guest's /run/files/ (repeatable)
#     -t SECONDS   timeout for the whole VM run (default 600)
#     -o DIR       output folder (default build/vm/last): console.log and
#                  results/ (what the command left in its working directory)
#     -q           do not echo the console while it runs
#     -s REGEX     with -q, still echo the console lines matching REGEX
#     -K REGEX     kill QEMU (SIGKILL, no shutdown: a power cut) as soon as a
#                  console line matches REGEX; the run then ends with 0
#
# Environment: VM_APPEND adds kernel parameters; VM_BOOT_TIMEOUT (180) is
# how long the guest may take to reach its /init before it is booted once
# more.
#
# The command runs with sh in /results inside the guest. Exit status: the
# command's own; 124 when the timeout hit; 125 when the console log shows
# a kernel oops/BUG/WARNING/KASAN/UBSAN/lockdep/hung-task report; 126 when
# the guest never reported a status (crash, panic, boot failure, or no /init
# after VM_BOOT_TIMEOUT (180) s twice); 2 for bad usage, a HOST already on
# its HUB, a hub that cannot start or a disk of a filesystem the kernel
# lacks (XFS or btrfs on a kernel of make check). After -K the results disk is not
# written: the command leaves its findings on the console or the kept disks.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) kernel= mem=2G cpus=2 timeout=600 outdir=$TOP/build/vm/last quiet=0
boot_timeout=${VM_BOOT_TIMEOUT:-180}
disks=() pieces=() files=() show= killre= net=
usage() { sed -n '4,/^set -u$/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
bad() { echo "$PROG: $*" >&2; exit 2; }

while getopts b:k:m:c:d:D:n:i:f:t:o:qs:K:h opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	m) mem=$OPTARG ;;
	c) cpus=$OPTARG ;;
	d) disks+=("$OPTARG") ;;
	D) disks+=("@$OPTARG") ;;
	K) killre=$OPTARG ;;
	n) net=$OPTARG ;;
	i) pieces+=("$OPTARG") ;;
	f) files+=("$OPTARG") ;;
	t) timeout=$OPTARG ;;
	o) outdir=$OPTARG ;;
	q) quiet=1 ;;
	s) show=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || bad "no command given (usage: vm-run.sh [options] COMMAND)"
cmd=$*

# bytes SIZE: 512, 64K, 256M, 2G -> bytes
bytes() {
	local n=${1%[KkMmGg]} u=${1##*[0-9]}
	[[ $n =~ ^[0-9]+$ ]] || return 1
	case $u in
	"") echo "$n" ;;
	[Kk]) echo $((n << 10)) ;;
	[Mm]) echo $((n << 20)) ;;
	[Gg]) echo $((n << 30)) ;;
	*) return 1 ;;
	esac
}

[[ $cpus =~ ^[1-9][0-9]?$ ]] && [ "$cpus" -le 64 ] || bad "bad CPU count '$cpus' (1 to 64)"
[[ $timeout =~ ^[0-9]+$ ]] || bad "bad timeout '$timeout' (seconds)"
nics=() vm_net= gsock=
if [ -n "$net" ]; then
	[[ $net =~ ^([A-Za-z0-9][A-Za-z0-9._-]{0,31}):([0-9]{1,3})$ ]] ||
		bad "bad network '$net' (HUB:HOST, e.g. 40123:1 or nfs:2)"
	hub=${BASH_REMATCH[1]} host=$((10#${BASH_REMATCH[2]}))
	[ "$host" -ge 1 ] && [ "$host" -le 254 ] || bad "bad host number '$host' in '$net' (1-254)"
	# the guest's socket and the hub's (QEMU takes ",," for a comma)
	netdir=$TOP/build/net/hub-$hub
	gsock=$netdir/guest-$host.sock
	[ ${#gsock} -le 107 ] || bad "the socket path $gsock is too long for a unix socket (107 bytes at most)"
	nics=(-netdev "dgram,id=net0,local.type=unix,local.path=${gsock//,/,,},remote.type=unix,remote.path=${netdir//,/,,}/hub.sock"
		-device "virtio-net-pci,netdev=net0,mac=$(printf '52:54:00:00:00:%02x' "$host")")
	vm_net="eth0:10.0.0.$host/24"
fi
bytes "$mem" >/dev/null || bad "bad memory size '$mem' (e.g. 2G)"
[ -n "$kernel" ] || kernel=$TOP/build/obj-$base/arch/x86/boot/bzImage
[ -f "$kernel" ] || bad "no kernel at $kernel; run 'make kernel' first"
# A disk of a filesystem the kernel cannot mount is refused before anything
# starts: `make check` builds its kernels without XFS and btrfs
# (scripts/kernel-fs.config). The kernel's config is beside it in its build
# folder, or NAME.config beside build/kernels/NAME.bzImage.
case $kernel in
*/arch/x86/boot/bzImage) kconfig=${kernel%/arch/x86/boot/bzImage}/.config ;;
*.bzImage) kconfig=${kernel%.bzImage}.config ;;
*) kconfig= ;;
esac
for spec in "${disks[@]}"; do
	fs=${spec#@}
	case $spec in @*) fs=${fs#*:} ;; *) fs=${fs#*:} fs=${fs%%:*} ;; esac
	case $fs in xfs) opt=CONFIG_XFS_FS ;; btrfs) opt=CONFIG_BTRFS_FS ;; *) continue ;; esac
	[ -n "$kconfig" ] && [ -f "$kconfig" ] && ! grep -q "^$opt=y" "$kconfig" || continue
	kbase=$(basename "$(dirname "$(dirname "$(dirname "$(dirname "$kernel")")")")")
	case $kernel in
	*/arch/x86/boot/bzImage) kbase=${kbase#obj-} fix="make BASE=${kbase%%-*} kernel" ;;
	"$TOP"/build/kernels/*) kbase=$(basename "$kernel") fix="make BASE=${kbase%%-*} prefixes, or the target that built it" ;;
	*) fix="with scripts/kernel-fs.config" ;;
	esac
	bad "the kernel ${kernel#"$TOP"/} has no $fs (${kconfig#"$TOP"/}): \`make check' builds its kernels without XFS and btrfs; build it again outside make check ($fix)"
done

basecpio=$TOP/build/initramfs/base.cpio
[ -f "$basecpio" ] || bad "no $basecpio; run 'make initramfs' first"
for p in "${pieces[@]}"; do [ -f "$p" ] || bad "no initramfs piece $p"; done
for f in "${files[@]}"; do [ -f "$f" ] || bad "no file $f to copy into the guest"; done
command -v qemu-system-x86_64 >/dev/null || bad "qemu-system-x86_64 not found; run 'make setup'"

# -n: join the hub. Under the hub's start lock, start the hub unless one
# runs and take this guest's lock, held (fd 8) for as long as this script
# runs, QEMU and a second boot included: the hub counts the guest as present
# while it is held, and leaves only after no guest has been for 10 s, which
# it decides under the same start lock (scripts/net-hub.c).
if [ -n "$net" ]; then
	hubprog=$(host_prog net-hub) || exit 2
	mkdir -p "$netdir" || bad "cannot create ${netdir#"$TOP"/}"
	exec 8>>"$netdir/guest-$host.lock" 9>>"$netdir/lock"
	flock -w 60 9 || bad "cannot take the lock ${netdir#"$TOP"/}/lock"
	flock -w 5 8 || bad "host $host is already on hub $hub (${netdir#"$TOP"/}/guest-$host.lock is held)"
	# a running hub holds hub.lock; none can start or leave meanwhile
	if flock -n "$netdir/hub.lock" true; then
		"$hubprog" -b "$netdir" </dev/null >>"$netdir/hub.log" 2>&1 8>&- 9>&- ||
			bad "the network hub $hub did not start: $(tail -n 1 "$netdir/hub.log")"
		say "started the network hub $hub (pid $(cat "$netdir/hub.pid"), log ${netdir#"$TOP"/}/hub.log)"
	fi
	exec 9>&-
	trap 'rm -f "$gsock"' EXIT
fi

rm -rf "$outdir"
mkdir -p "$outdir/results" "$outdir/run/run/files"
log=$outdir/console.log

# Disks: vda carries the results back (a tar archive), the extra ones follow.
drives=(-drive "file=$outdir/results.img,if=none,id=res,format=raw,cache=unsafe"
	-device virtio-blk-pci,drive=res)
truncate -s 64M "$outdir/results.img"
vm_disks= letters=(b c d e f g h i j k l m n o p)
i=0
for spec in "${disks[@]}"; do
	[ "$i" -lt ${#letters[@]} ] || bad "too many disks"
	name=vd${letters[$i]}
	if [ "${spec#@}" != "$spec" ]; then
		IFS=: read -r img fs extra <<<"${spec#@}"
		[ -z "${extra:-}" ] || bad "bad disk '${spec#@}' (IMG[:FS])"
		[ -f "$img" ] || bad "no disk image $img"
		fs=${fs:--}
		case $fs in ext4 | xfs | btrfs | -) ;; *) bad "unknown filesystem '$fs' in '${spec#@}'" ;; esac
		drives+=(-drive "file=$img,if=none,id=d$i,format=raw,cache=unsafe,aio=threads"
			-device "virtio-blk-pci,drive=d$i,serial=$name")
		vm_disks+="$name:$fs "
		i=$((i + 1))
		continue
	fi
	IFS=: read -r size fs bps extra <<<"$spec"
	[ -z "${extra:-}" ] || bad "bad disk '$spec' (SIZE[:FS[:WRITE_BPS]])"
	sz=$(bytes "$size") || bad "bad disk size '$size' in '$spec'"
	fs=${fs:--}
	img=$outdir/disk-$i.img
	case $fs in ext4 | xfs | btrfs | -) ;; *) bad "unknown filesystem '$fs' in '$spec' (ext4, xfs, btrfs or -)" ;; esac
	make_disk "$img" "$sz" "$fs" || bad "mkfs.$fs failed for '$spec'"
	opt=
	if [ -n "${bps:-}" ]; then
		b=$(bytes "$bps") || bad "bad write speed '$bps' in '$spec'"
		opt=",throttling.bps-write=$b"
	fi
	drives+=(-drive "file=$img,if=none,id=d$i,format=raw,cache=unsafe,aio=threads$opt"
		-device "virtio-blk-pci,drive=d$i,serial=$name")
	vm_disks+="$name:$fs "
	i=$((i + 1))
done

# The per-run initramfs piece: the command, the disk list, the files.
printf '%s\n' "$cmd" >"$outdir/run/run/cmd"
printf 'VM_DISKS="%s"\nVM_NET="%s"\n' "$vm_disks" "$vm_net" >"$outdir/run/run/vm.env"
for f in "${files[@]}"; do cp "$f" "$outdir/run/run/files/"; done
(cd "$outdir/run" && find . | cpio -o -H newc --quiet -R 0:0) >"$outdir/run.cpio"
cat "$basecpio" "${pieces[@]}" "$outdir/run.cpio" >"$outdir/initrd.cpio"
rm -rf "$outdir/run" "$outdir/run.cpio"

say "booting ${kernel#"$TOP"/} with $mem, $cpus CPUs, disks: ${vm_disks:-none}${vm_net:+, network ${vm_net#eth0:} on hub $hub}; timeout $timeout s"
say "console log: ${log#"$TOP"/}"
# pci=noacpi: PCI interrupts are routed from the BIOS's table, not by the
# ACPI _PRT method, whose interpreter gives up after a loop timeout when
# the emulation runs slowly (a loaded host, a KASAN kernel), leaving the
# virtio disks without an interrupt and the boot stuck.
#
# boot_watch: kill QEMU when the guest has not reached its /init after
# $boot_timeout s (a rare hang early in boot under software emulation on
# a loaded host, before any test code runs)
boot_watch() {
	local w=0
	while [ $w -lt "$boot_timeout" ]; do
		sleep 5
		w=$((w + 5))
		grep -q '^guest-init: running the command' "$log" 2>/dev/null && return
		[ -s "$outdir/qemu.pid" ] || [ $w -lt 30 ] || return
	done
	: >"$outdir/.boothang"
	kill -KILL "$(cat "$outdir/qemu.pid" 2>/dev/null)" 2>/dev/null
}

# boot: one QEMU run; the console goes to $log; sets qrc
boot() {
	rm -f "$outdir/.boothang" "$outdir/qemu.pid"
	boot_watch &
	local watch=$!
	set -o pipefail
	# (la57=off: 4-level paging, as nearly every machine runs. With 5-level
	# paging, 7.2 can take an interrupt while identify_cpu() has cleared the
	# boot CPU's capabilities, pgtable_l5_enabled() reads false for that
	# moment and KASAN reports a wild access to a per-CPU address at boot.)
	# (tsc=unstable: under emulation the clocksource watchdog finds the TSC
	# skewed against the HPET at a random moment, usually within seconds,
	# and the kernel then turns the sched_clock_stable static key off by
	# patching its code on the running CPUs; QEMU's multi-threaded TCG
	# has let another CPU run into the patch's int3 afterwards: "Oops: int3"
	# in sched_clock_stable() at 1.1 s of boot, and in __schedule() in a
	# run of the fault suite, both on 7.3. With the TSC unstable from boot
	# the key is never turned on, and the guest runs on the HPET, as it
	# did after the watchdog anyway.)
	# (the braces keep bash from reporting QEMU's death after -K)
	{ timeout -k 10 "$timeout" qemu-system-x86_64 \
		-nodefaults -no-user-config -display none -no-reboot \
		-accel tcg,thread=multi -cpu max,la57=off -smp "$cpus" -m "$mem" \
		-kernel "$kernel" -initrd "$outdir/initrd.cpio" \
		-append "console=ttyS0 panic=-1 printk.time=1 loglevel=5 rdinit=/init pci=noacpi tsc=unstable${VM_APPEND:+ $VM_APPEND}" \
		-serial stdio -monitor none -pidfile "$outdir/qemu.pid" "${drives[@]}" "${nics[@]}" \
		</dev/null 2>"$outdir/qemu.err"; } 2>/dev/null |
		sed -u 's/\r$//' | tee "$log" | {
			if [ -n "$killre" ]; then
				# pass the console on until the line, then cut the power
				while IFS= read -r line; do
					if [ "$quiet" = 0 ] || { [ -n "$show" ] && [[ $line =~ $show ]]; }; then
						printf '  | %s\n' "$line"
					fi
					if [[ $line =~ $killre ]]; then
						kill -KILL "$(cat "$outdir/qemu.pid")" 2>/dev/null
						: >"$outdir/.killed"
						break
					fi
				done
				cat >/dev/null
			elif [ "$quiet" = 0 ]; then
				sed -u 's/^/  | /'
			elif [ -n "$show" ]; then
				grep --line-buffered -E "$show" | sed -u 's/^/  | /'
			else
				cat >/dev/null
			fi
		}
	qrc=${PIPESTATUS[0]}
	set +o pipefail
	kill "$watch" 2>/dev/null
	wait "$watch" 2>/dev/null
}

t0=$(date +%s)
boot
if [ -e "$outdir/.boothang" ]; then
	cp "$log" "$outdir/console-boothang.log"
	say "the guest did not reach /init within $boot_timeout s (console kept in ${outdir#"$TOP"/}/console-boothang.log); booting once more"
	boot
	if [ -e "$outdir/.boothang" ]; then
		rm -f "$outdir/initrd.cpio" "$outdir"/disk-*.img "$outdir/qemu.pid" "$outdir/.boothang"
		say "the guest did not reach /init within $boot_timeout s twice; see ${log#"$TOP"/}"
		exit 126
	fi
fi
dt=$(($(date +%s) - t0))
rm -f "$outdir/initrd.cpio" "$outdir"/disk-*.img "$outdir/qemu.pid"

if [ -e "$outdir/.killed" ]; then
	rm -f "$outdir/.killed" "$outdir/results.img"
	say "killed the VM as asked (-K) after $dt s"
	"$TOP/scripts/console-check.sh" "$log" >/dev/null || {
		say "KERNEL REPORT in the console log (${log#"$TOP"/}):"
		"$TOP/scripts/console-check.sh" "$log" | sed 's/^/  ! /' >&2
		exit 125
	}
	exit 0
fi

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	say "TIMEOUT: the VM ran for more than $timeout s; see ${log#"$TOP"/}"
	exit 124
fi
if [ -s "$outdir/qemu.err" ]; then
	sed 's/^/  qemu: /' "$outdir/qemu.err" >&2
fi
tar -xf "$outdir/results.img" -C "$outdir/results" 2>/dev/null
rm -f "$outdir/results.img"

if ! reports=$("$TOP/scripts/console-check.sh" "$log"); then
	say "KERNEL REPORT in the console log (${log#"$TOP"/}):"
	printf '%s\n' "$reports" | sed 's/^/  ! /' >&2
	exit 125
fi
status=$(sed -n 's/^@@VM-EXIT-STATUS@@ \([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [ -z "$status" ]; then
	say "the guest never reported an exit status (qemu exit $qrc after $dt s); see ${log#"$TOP"/}"
	exit 126
fi
rm -f "$outdir/results/.exit-status"
say "guest command exited with $status after $dt s"
exit "$status"
