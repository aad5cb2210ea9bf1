#!/bin/bash
# The fault suite: devices that fail, fill up, stall or go away while they
# hold dirty pages over their threshold (scripts/guest/faults.sh), each
# case with the knob off, at 64 KiB and at 16 MiB on the failing device,
# and the global threshold at those values for reference, side by side,
# in one VM; then the summary and the verdict.
#
#   faults.sh [-b BASE] [-k BZIMAGE] [-c CASES] [-K SETTINGS] [-T TWINS] [-s SECS] [-o DIR] [-r]
#     -b BASE     kernel base (default: the first in config.mk)
#     -k BZIMAGE  another kernel of that base (a variant, the debug kernel)
#     -c CASES    cases (default: all): eio-ext4 eio-xfs eio-btrfs eio-raw
#                 enospc stall-fuse stall-disk stall-nfs vanish (the case
#                 "healthy", the same writer with no fault, always runs
#                 first)
#     -K SETTINGS the settings each case runs with (default: 0 65536
#                 16777216 g65536 g16777216): the knob's bytes, 0 (off)
#                 must be one, gBYTES the knob off and the global
#                 vm.dirty_background_bytes at BYTES, the reference
#     -T TWINS    the cases (of CASES) run once more with no fault, as
#                 healthy-CASE, the same stack and writer (default: every case
#                 of CASES whose stack is not the healthy disk's, ext4 on
#                 null_blk: eio-xfs eio-btrfs eio-raw enospc stall-fuse
#                 stall-disk stall-nfs; "none" for none, alone): the
#                 knob's own cost on that device, where the bounds below
#                 take it from (else from healthy); the price of a kick
#                 and the storm cap come from healthy always
#     -s SECS     seconds of fault (default 30)
#     -o DIR      output folder (default build/faults/BASE)
#     -r          no VM: read DIR's console.log of an earlier run again
#                 with the same -c, -K, -T and -s (the kernel-report verdict is
#                 not re-read)
#
# Passes when, for every case and each knob value, against the knob off in
# the same case (the CPU time against its reference, below):
#   - kernel CPU time (system, irq, softirq, all CPUs), of the whole case
#     (from the knob set to the umount) and of the fault's seconds (the
#     guest's serial console meanwhile prints only records of levels 0 to
#     2 and kernel reports, so that the I/O errors a setting logs are
#     bounded as records below rather than counted as the console's CPU),
#     each <= 1.1 x (a reference's + the knob's own cost beyond that
#     reference's) + 50 clock ticks (0.5 s), whichever reference gives the
#     larger bound: off, or the global threshold at the same value
#     (gBYTES). During the fault gBYTES is a reference only where its
#     rounds that wrote nothing stay within the bound on them below (the
#     global threshold at 64 KiB spins on a stalled FUSE daemon, 385 empty
#     rounds against off's 6 on 6.1, what patch 6 spares the knob);
#     outside the fault the device is healthy and the global threshold at
#     the knob's value is what the knob replaces. A filesystem that fails
#     a write page by page (XFS on 7.3: about a page a round, 11344 rounds
#     in the 30 s at 16M, 11289 with the global threshold at 16M) makes
#     every page the writer dirties over a threshold a round of writeback
#     that fails, whichever threshold it is, where off leaves the pages in
#     memory until fsync() fails at the first and the umount drops the
#     rest; the knob must cost no more than the global threshold set to
#     its value. The own cost is measured, with the same noise, over the
#     same seconds: the knob's CPU beyond the reference's on the device
#     with no fault (the case's twin, healthy-CASE, where it ran: the same
#     stack with no fault; else healthy, ext4 on null_blk), which holds
#     the kicks of the flusher it adds there, plus its kicks in the case
#     beyond the reference's and beyond those it adds to the reference's
#     on that device, each at what one costs on healthy (of the -K setting
#     that added the most kicks to off's there, 100 at least: its CPU
#     beyond off's over those kicks; nothing, and no storm check, without
#     one). Only kicks that started rounds are priced: at most the knob's
#     rounds beyond the reference's and beyond those it adds on the device
#     with no fault (a kick that starts nothing is no work of the knob's),
#     and at most twice the storm cap below. A passing run names, case by
#     case, the device its own cost came from. Without gBYTES
#     in -K the reference is off alone. A warm-up (the healthy case, the
#     knob off, a few seconds, not counted) runs first: the first
#     setting in a fresh guest measured up to 1.6 times the next ones,
#     and each case runs its settings in another order (the list turned
#     by one a case), so that none is always first. A kick is a call asking the
#     flusher for background writeback (writeback_wake_background;
#     whether or not it was idle; a retry the flusher queues for itself
#     and the periodic writeback are not kicks). A context written down
#     to its knob a folio a round hovers at it, and its dirtiers kick the
#     flusher again at their next look (with 4 KiB pages every 8 pages
#     over the knob, by a cheap read, while no writeback runs on the
#     context, no kick waits for the flusher and no stall holds it:
#     patches 3 and 6), where the global threshold waits for their usual
#     one (every nr_dirtied_pause pages): XFS failing writes at 16 MiB on
#     7.3, 686 kicks against 45, every pass writing (failing) a folio
#   - kicks: on healthy and on each twin, what a knob setting adds to off's is
#     at most one for every knob's worth the writer dirties (4 MiB when
#     the knob is larger, the least a round of background writeback
#     writes) + 100 (a kick starts a pass that writes the context down
#     under the knob), and at least half the passes it adds when those
#     are 100 or more (else the kicks are not counted); in a
#     case, the knob's kicks beyond those of off and of gBYTES, whichever
#     kicked more, are at most twice the most a knob setting added on the
#     healthy device (a kick storm fails, and the CPU allowance stops
#     there)
#   - rounds of writeback on the bdi that write nothing (whatever started
#     them: the knob, the global threshold, the 30 s expiry), during the
#     fault, <= off's + one a second (patch 6's first retry interval) + 10;
#     the rounds that write something are the knob at work, counted and
#     shown (at 64 KiB one for every 64 KiB or so the writer dirties)
#   - a field missing or not a number in a setting's line fails it
#   - kernel log records <= off's + 6 a second of the case (fault + 10 s)
#     + 20: with the knob set, data is written and fails during the fault,
#     and each failing write reports at up to three call sites (block
#     layer, buffer or iomap layer, filesystem), each rate-limited to 10
#     messages per 5 s plus a "callbacks suppressed" line; a flood, a
#     message for every page, would be hundreds a second
#   - starting the fault (the disk's removal for vanish), sync and umount
#     after the fault take <= off's + 10 s (no hang; a hang that never
#     ends is the VM's timeout and fails the run); the umount fails only
#     where off's failed
#   - the writer and its fsync() get what they get with the knob off or
#     with the global threshold at the knob's value (the exit status of
#     write() and the word of fsync(): EIO, EROFS, ok); with no g
#     setting at the knob's value in -K (or one whose lines failed), as
#     with off only
#   - slab after the case, caches dropped, grows <= off's growth + 2 MiB
# and, for every setting, the knob off included: a fault that fails
# writes (eio-*, enospc, vanish) reaches the writer, as an error of
# write() or fsync() or a file that does not read back whole (else the
# fault did not take effect), and a stall (stall-fuse, stall-disk) holds
# the daemon's WRITE requests (held=, counted by the daemon); the file
# fsync'ed before the fault reads back whole after a remount, and the writer's file,
# read back after the fault, is whole unless the writer or its fsync()
# got an error (nothing is lost silently); the console holds no kernel
# report (oops, WARNING, hung task, ...): the I/O errors are expected.
# Data written during a fault is not compared with the knob off: with the
# knob set it is written (and fails) during the fault, with the knob off
# it may still be in memory when the fault ends, as with any lower
# threshold.
#
# Exit 0 when every check holds, 1 when one fails, the VM run's status
# (vm-run.sh) when it did not finish.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) kernel= secs=30 out=
cases="eio-ext4 eio-xfs eio-btrfs eio-raw enospc stall-fuse stall-disk stall-nfs vanish"
knobs="0 65536 16777216 g65536 g16777216"
usage() { sed -n '8,31p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
reread= twins=default
while getopts b:k:c:K:T:s:o:rh opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	c) cases=$OPTARG ;;
	K) knobs=$OPTARG ;;
	T) twins=$OPTARG ;;
	s) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	r) reread=1 ;;
	*) usage ;;
	esac
done
[ $# -ge "$OPTIND" ] && usage
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "$PROG: bad seconds '$secs'" >&2; exit 2; }
for c in $cases; do
	case $c in
	eio-ext4 | eio-xfs | eio-btrfs | eio-raw | enospc | stall-fuse | stall-disk | stall-nfs | vanish) ;;
	*) echo "$PROG: unknown case '$c'" >&2; exit 2 ;;
	esac
done
for kn in $knobs; do
	[[ $kn =~ ^g?(0|[1-9][0-9]{0,17})$ && $kn != g0 ]] ||
		{ echo "$PROG: bad setting '$kn' (bytes, or g and bytes)" >&2; exit 2; }
done
[[ " $knobs " == *" 0 "* ]] || { echo "$PROG: the settings must hold 0 (off)" >&2; exit 2; }
[ -n "$out" ] || out=$TOP/build/faults/$base
# the twins, each run just before its case ("" as make's TWINS= is the
# default; tabs and spaces alike)
read -ra tw <<<"$twins"
twins=${tw[*]:-default}
[[ $twins == @(default|none) || " $twins " != *" "@(default|none)" "* ]] ||
	{ echo "$PROG: -T takes \"none\" or \"default\" alone, or cases: '$twins'" >&2; exit 2; }
all=healthy
for c in $cases; do
	case $twins in
	default) [[ $c == @(eio-ext4|vanish) ]] || all+=" healthy-$c" ;;
	none) ;;
	*) [[ " $twins " != *" $c "* ]] || all+=" healthy-$c" ;;
	esac
	all+=" $c"
done
for c in $twins; do
	[[ $c == @(default|none) || " $cases " == *" $c "* ]] ||
		{ echo "$PROG: twin '$c' is not among the cases" >&2; exit 2; }
done
cases=$all
n=$(echo $cases | wc -w) k=$(echo $knobs | wc -w)
# a setting writes for 12 s before the fault and 5 s after it (the
# guest's pre and post), and takes some 20 s more for set-up and checks
writing=$((secs + 17))
est=$((n * k * (writing + 20)))
if [ -n "$reread" ]; then
	[ -f "$out/console.log" ] || { echo "$PROG: no $out/console.log to read" >&2; exit 2; }
	say "faults on $base: reading ${out#"$TOP"/}/console.log again (no VM)"
	rc=0
else
	guest_files
	cmd=
	# first a warm-up, the healthy case with the knob off for a few
	# seconds (of other seconds than the run's, so that its line is not
	# read): the first setting in a fresh guest measured up to 1.6 times
	# the next ones (healthy off on 6.1, 578 ticks against 363 for the
	# global threshold at 16 MiB)
	cmd="sh /run/files/faults.sh healthy $((secs == 3 ? 4 : 3)) 0; "
	# each case runs its settings in another order, the list turned by
	# one a case, so that no setting is always the first or the last of
	# its case
	read -ra order <<<"$knobs"
	for c in $cases; do
		cmd+="sh /run/files/faults.sh $c $secs ${order[*]}; "
		order=("${order[@]:1}" "${order[0]}")
	done
	say "faults on $base: $n cases x $k settings, $secs s of fault each (about $((est / 60 + 1)) min; console: ${out#"$TOP"/}/console.log)"
	args=(-b "$base" -m 2G -t $((est * 2 + 300)) -o "$out" -q -s '^fault: ' "${GUEST_FILES[@]}")
	[ -z "$kernel" ] || args+=(-k "$kernel")
	"$TOP/scripts/vm-run.sh" "${args[@]}" "$cmd"
	rc=$?
fi
# the VM's verdict first: a kernel report (125), a hang (124), a crash
case $rc in
0) ;;
125) echo "$PROG: the console holds a kernel report (see ${out#"$TOP"/}/console.log)" ;;
*) echo "$PROG: the VM run ended with $rc (124: timeout, a hang; see ${out#"$TOP"/}/console.log)" ;;
esac

lines=$(tr -d '\r' <"$out/console.log" | sed -n 's/^fault: case=/case=/p')
if [ -n "$reread" ] && [ -n "$lines" ] && ! grep -q ' wakes=' <<<"$lines"; then
	echo "$PROG: ${out#"$TOP"/}/console.log counts no kicks (wakes=): it is of a run before they were counted; run the suite again"
fi
# val CASE KNOB FIELD
val() {
	echo "$lines" | awk -v c="$1" -v k="$2" -v f="$3" -v s="$secs" '
		$1 == "case=" c && $2 == "knob=" k && $3 == "secs=" s {
			for (i = 1; i <= NF; i++) if (index($i, f "=") == 1) { print substr($i, length(f) + 2); exit }
		}'
}
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# numbers CASE KNOB FIELD...: each field there and a number of its kind:
# the times (*_s) decimals, slab_kb two integers A:B, the others integers
# (the kworker figures may be negative), umount ok or failed, for the
# shell's arithmetic and the checks; one
# that is missing or is not is a failed check, never a pass
numbers() {
	local c=$1 kn=$2 f v re ret=0
	shift 2
	for f; do
		v=$(val "$c" "$kn" "$f")
		case $f in
		*_s) re='^[0-9]+(\.[0-9]+)?$' ;;
		slab_kb) re='^(0|[1-9][0-9]*):(0|[1-9][0-9]*)$' ;;
		*kworker_ticks) re='^(0|-?[1-9][0-9]*)$' ;;
		umount) re='^(ok|failed)$' ;;
		*) re='^(0|[1-9][0-9]*)$' ;;
		esac
		[[ $v =~ $re ]] && continue
		[ -n "$v" ] || v='(missing)'
		bad "$c, knob $(name "$kn"): $f is '$v', not $(case $f in umount) echo "ok or failed" ;; *) echo "a number of its kind" ;; esac) (see the console)"
		ret=1
	done
	return $ret
}
# the fields the checks compare
fields="sys_ticks kworker_ticks passes wakes empty log_lines fault_sys_ticks fault_kworker_ticks fault_passes fault_wakes fault_empty fault_dirty_kb sync_s umount_s fault_s held slab_kb umount"
# ok[CASE KNOB]: the setting printed its line, every field a number
declare -A ok
# le A B: A <= B for decimals
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
name() {
	case $1 in
	g*) echo "g$(name "${1#g}")" ;;
	0) echo off ;; 65536) echo 64K ;; 16777216) echo 16M ;; *) echo "$1" ;;
	esac
}

# per second of fault: ticks, and dirty MiB when the fault started
rate() { awk -v t="$1" -v s="$2" 'BEGIN { printf "%.1f", t / s }'; }
fmt='%-18s %-4s %6s %6s %6s %6s %6s %5s %5s %6s %5s %4s %-7s %-7s %6s %6s %7s %s\n'
# shellcheck disable=SC2059
printf "$fmt" case knob sys_tk f_sys/s kw_tk f_kw/s passes kicks empty f_empty dirty log writer fsync \
	sync_s umnt_s slab_kB "before/during"
for c in $cases; do
	for kn in $knobs; do
		if [ -z "$(val "$c" "$kn" knob)" ]; then
			bad "$c, knob $(name "$kn"): no result line (the case failed or hung; see the console)"
			continue
		fi
		# shellcheck disable=SC2086
		numbers "$c" "$kn" $fields || continue
		ok[$c $kn]=1
		sl=$(val "$c" "$kn" slab_kb)
		# shellcheck disable=SC2059
		printf "$fmt" "$c" "$(name "$kn")" "$(val "$c" "$kn" sys_ticks)" \
			"$(rate "$(val "$c" "$kn" fault_sys_ticks)" "$secs")" "$(val "$c" "$kn" kworker_ticks)" \
			"$(rate "$(val "$c" "$kn" fault_kworker_ticks)" "$secs")" "$(val "$c" "$kn" passes)" \
			"$(val "$c" "$kn" wakes)" "$(val "$c" "$kn" empty)" "$(val "$c" "$kn" fault_empty)" \
			"$(rate "$(val "$c" "$kn" fault_dirty_kb)" 1024)" "$(val "$c" "$kn" log_lines)" \
			"rc=$(val "$c" "$kn" writer)" "$(val "$c" "$kn" fsync)" "$(val "$c" "$kn" sync_s)" \
			"$(val "$c" "$kn" umount_s)" "$((${sl#*:} - ${sl%:*}))" \
			"$(val "$c" "$kn" verified)/$(val "$c" "$kn" during)"
	done
done
echo "(ticks: 1/100 s of kernel time on all CPUs; kw: of the kworkers alive at both ends (one"
echo " that exits takes its time along, which can make it negative); f_: during the fault;"
echo " passes: rounds of writeback the thresholds started; kicks: calls asking the flusher for"
echo " background writeback; empty: rounds, whatever started them, that wrote nothing; dirty:"
echo " MiB dirty or under writeback when the fault started)"

# the checks every setting gets
for c in $cases; do
	for kn in $knobs; do
		[ -n "$(val "$c" "$kn" knob)" ] || continue
		[[ $c != healthy* ]] || [ "$(val "$c" "$kn" umount)" != failed ] ||
			bad "$c, knob $(name "$kn"): the umount failed"
		# no fault, no error: a device with no fault that fails is no
		# measure of the knob's own cost
		[[ $c != healthy* ]] || [ "$(val "$c" "$kn" writer) $(val "$c" "$kn" fsync) $(val "$c" "$kn" during)" = "0 ok whole" ] ||
			bad "$c, knob $(name "$kn"): with no fault the writer got rc=$(val "$c" "$kn" writer) fsync=$(val "$c" "$kn" fsync), its file $(val "$c" "$kn" during)"
		[ "$(val "$c" "$kn" verified)" = yes ] ||
			bad "$c, knob $(name "$kn"): the file fsync'ed before the fault does not read back whole"
		if [ "$(val "$c" "$kn" during)" != whole ] && [ "$(val "$c" "$kn" writer)" = 0 ] &&
			[ "$(val "$c" "$kn" fsync)" = ok ]; then
			bad "$c, knob $(name "$kn"): the writer's file is $(val "$c" "$kn" during), yet write() and fsync() reported no error"
		fi
		# a fault that fails writes must reach the writer, a stall must
		# hold writes: else it did not happen, and the case measured a
		# healthy device (stall-nfs: the server's threads were seen to
		# stop, or the case ended with an error)
		case $c in
		eio-* | enospc | vanish)
			if [ "$(val "$c" "$kn" during)" = whole ] && [ "$(val "$c" "$kn" writer)" = 0 ] &&
				[ "$(val "$c" "$kn" fsync)" = ok ]; then
				bad "$c, knob $(name "$kn"): no error reached the writer and its file is whole: the fault did not take effect"
			fi ;;
		stall-fuse | stall-disk)
			[ "$(val "$c" "$kn" held)" != 0 ] ||
				bad "$c, knob $(name "$kn"): the daemon held no WRITE during its stall: the fault did not take effect" ;;
		esac
	done
done
# the knob against off, case by case
# (a row without its line or with a field that is not a number failed
# above; the comparisons need both rows of the case and of healthy)
# hdiff FIELD KN R [CASE]: on the healthy device (CASE's twin where it
# ran, with both settings), setting KN's FIELD beyond
# setting R's, 0 when below
# hdev KN R [CASE]: that device, healthy or CASE's twin
hdev() {
	if [[ -n ${3:-} && -n ${ok[healthy-$3 $1]:-} && -n ${ok[healthy-$3 $2]:-} ]]; then
		echo "healthy-$3"
	else
		echo healthy
	fi
}
hdiff() {
	local h d
	h=$(hdev "$2" "$3" "${4:-}")
	d=$(($(val $h "$2" "$1") - $(val $h "$3" "$1")))
	echo $((d > 0 ? d : 0))
}
# what a kick of the knob costs at work: on the healthy device, the knob
# setting among -K's that added the most kicks to off's (100 at least),
# its kernel CPU beyond off's over those kicks (cost_s ticks over cost_w
# kicks; none when no setting did)
cost_s=0 cost_w=1 kmax=0
# the writer's bytes in a setting, while its kicks are counted
wbytes=$((writing * (2 << 20)))
# kicks_ok H KN W P: on the device with no fault H (healthy or a twin),
# knob KN's W kicks and P passes beyond off's. The kicks are counted: a
# knob setting that starts 100 passes more than off kicks the flusher
# for them; a kick starts a pass that writes the context down under the
# knob, a round of at least 4 MiB: one kick for every knob's worth the
# writer dirties, or every 4 MiB when the knob is larger, at most, + 100
kicks_ok() {
	local kb=$((wbytes / ($2 < 4194304 ? $2 : 4194304) + 100))
	if [ "$4" -ge 100 ] && [ $((2 * $3)) -lt "$4" ]; then
		bad "$1, knob $(name "$2"): $4 passes beyond off's but $3 kicks: the kicks are not counted"
		return 1
	fi
	[ "$3" -le "$kb" ] && return
	bad "$1, knob $(name "$2"): $3 kicks beyond off's > $kb (one for every $(name "$2") the writer dirties, 4 MiB at most, + 100)"
	return 1
}
# the twins' kicks held to the same bounds (their own cost goes into
# their cases' allowance)
for h in $cases; do
	[[ $h == healthy-* ]] || continue
	for kn in $knobs; do
		[[ $kn != 0 && $kn != g* && -n ${ok[$h $kn]:-} && -n ${ok[$h 0]:-} ]] || continue
		kicks_ok "$h" "$kn" "$(hdiff wakes "$kn" 0 "${h#healthy-}")" "$(hdiff passes "$kn" 0 "${h#healthy-}")"
	done
done
for kn in $knobs; do
	[[ $kn != 0 && $kn != g* && -n ${ok[healthy $kn]:-} && -n ${ok[healthy 0]:-} ]] || continue
	w=$(hdiff wakes "$kn" 0) p=$(hdiff passes "$kn" 0)
	kicks_ok healthy "$kn" "$w" "$p" || continue
	[ "$w" -ge 100 ] && [ "$w" -gt "$kmax" ] || continue
	kmax=$w cost_w=$w cost_s=$(hdiff sys_ticks "$kn" 0)
done
if [ "$kmax" -eq 0 ]; then
	echo "(no kick of the knob priced and no kick storm check: no knob setting added 100 kicks on the healthy device)"
else
	echo "(a kick of the knob on the healthy device: $(awk -v s="$cost_s" -v w="$cost_w" 'BEGIN { printf "%.3f", s / w }') ticks, $cost_s ticks over $cost_w kicks)"
fi
# cpu_check CASE KNOB WHAT SFIELD WFIELD PFIELD REFS: the knob's CPU
# (SFIELD, ticks) within the bound against a reference R of REFS, off or
# the global threshold at the knob's value: 1.1 x (R's CPU in the case +
# the knob's own cost beyond R's) + 50, the own cost being the knob's
# CPU beyond R's on the device with no fault (CASE's twin where it ran
# with both settings, else healthy; the same field: the whole case, or
# the fault's seconds), which holds the kicks it adds there, and its
# kicks in the case (WFIELD) beyond R's and beyond those, at a healthy
# kick's cost (rounded up). Only a kick that started a round of
# writeback is priced: the kicks so counted are at most the knob's
# rounds (PFIELD) beyond R's and beyond those it adds on that device
# (a kick that starts nothing is no work the knob does), and at
# most the storm check's cap. The knob passes under the larger bound
cpu_check() {
	local c=$1 kn=$2 what="$1, knob $(name "$2")" s1 w1 p1 r rs hd hk hx x xp ka b bound='' ref='' why=''
	s1=$(val "$c" "$kn" "$4") w1=$(val "$c" "$kn" "$5") p1=$(val "$c" "$kn" "$6")
	for r in $7; do
		rs=$(val "$c" "$r" "$4") hd=$(hdev "$kn" "$r" "$c")
		hk=$(hdiff "$4" "$kn" "$r" "$c") hx=$(hdiff "$5" "$kn" "$r" "$c")
		x=$((w1 - $(val "$c" "$r" "$5") - hx))
		xp=$((p1 - $(val "$c" "$r" "$6") - $(hdiff "$6" "$kn" "$r" "$c")))
		[ "$x" -le "$xp" ] || x=$xp
		[ "$x" -ge 0 ] || x=0
		[ "$kmax" -eq 0 ] || [ "$x" -le $((2 * kmax)) ] || x=$((2 * kmax))
		ka=$(((x * cost_s + cost_w - 1) / cost_w))
		b=$((((rs + hk + ka) * 11 + 9) / 10 + 50))
		[ -z "$bound" ] || [ "$b" -gt "$bound" ] || continue
		bound=$b ref=$r
		why="1.1 x ($(name "$r")'s $rs + the knob's cost beyond it on $hd $hk"
		[ "$x" -eq 0 ] || [ "$kmax" -eq 0 ] || why+=" + $x kicks beyond $(name "$r")'s and the $hx it adds on $hd, at $cost_s/$cost_w = $ka"
		why+=") + 50"
	done
	[ "$s1" -le "$bound" ] ||
		bad "$what: $3 $s1 ticks > $bound ($why)"
	rs=$(val "$c" "$ref" "$4") x=$((w1 - $(val "$c" "$ref" "$5")))
	if [ "$x" -gt 0 ] && [ "$s1" -gt "$rs" ]; then
		echo "($what, $3: against $(name "$ref"), $x kicks and $((s1 - rs)) ticks more," \
			"$(awk -v s=$((s1 - rs)) -v w="$x" 'BEGIN { printf "%.3f", s / w }') ticks a kick)"
	fi
}
for c in $cases; do
	[[ $c != healthy* ]] || continue
	[[ -n ${ok[$c 0]:-} && -n ${ok[healthy 0]:-} ]] || continue
	# where the allowance comes from (a twin with a failed row failed
	# above; hdiff then falls back to healthy for that setting)
	src=healthy
	[[ " $cases " != *" healthy-$c "* ]] || src=healthy-$c
	echo "($c: the knob's own cost from $src$([ "$src" = healthy ] || echo ", the same stack with no fault")$([ "$kmax" -eq 0 ] || echo "; a kick's price and the storm cap from healthy, ext4 on null_blk"))"
	for kn in $knobs; do
		[[ $kn != 0 && $kn != g* ]] || continue
		[[ -n ${ok[$c $kn]:-} && -n ${ok[healthy $kn]:-} ]] || continue
		what="$c, knob $(name "$kn")"
		w1=$(val "$c" "$kn" wakes)
		refs=0
		[[ -z ${ok[$c g$kn]:-} || -z ${ok[healthy g$kn]:-} ]] || refs+=" g$kn"
		# a kick storm is not the knob at work: its kicks beyond
		# those of off and of the global threshold at its value,
		# whichever kicked more, at most twice the most any knob
		# setting added on the healthy device
		kref=0
		for r in $refs; do [ "$(val "$c" "$r" wakes)" -le "$(val "$c" "$kref" wakes)" ] || kref=$r; done
		kx=$((w1 - $(val "$c" "$kref" wakes)))
		if [ "$kmax" -gt 0 ] && [ "$kx" -gt $((2 * kmax)) ]; then
			bad "$what: $kx kicks beyond $(name "$kref")'s > $((2 * kmax)) (twice the most a knob setting added on the healthy device, $kmax)"
		fi
		# the CPU: the whole case against off and the global threshold at the
		# knob's value; the fault's seconds against off, and against
		# the global threshold only where it writes during the fault:
		# its rounds that wrote nothing then within the bound the knob
		# is held to below (a threshold that spins on a stalled device,
		# as the global one at 64 KiB on a stalled FUSE daemon, is no
		# measure of the knob's cost there; outside the fault the
		# device is healthy and the global threshold at the knob's
		# value is what the knob replaces)
		fref=0
		for r in $refs; do
			[ "$r" != 0 ] || continue
			if [ "$(val "$c" "$r" fault_empty)" -le $(($(val "$c" 0 fault_empty) + secs + 10)) ]; then
				fref+=" $r"
			else
				echo "($what: $(name "$r") is no CPU reference during the fault: $(val "$c" "$r" fault_empty) rounds that wrote nothing then, off $(val "$c" 0 fault_empty))"
			fi
		done
		cpu_check "$c" "$kn" "kernel CPU" sys_ticks wakes passes "$refs"
		cpu_check "$c" "$kn" "kernel CPU during the fault" fault_sys_ticks fault_wakes fault_passes "$fref"
		e0=$(val "$c" 0 fault_empty) e1=$(val "$c" "$kn" fault_empty)
		[ "$e1" -le $((e0 + secs + 10)) ] ||
			bad "$what: $e1 passes that wrote nothing during the fault > $((e0 + secs + 10)) (off's $e0 + one a second + 10)"
		l0=$(val "$c" 0 log_lines) l1=$(val "$c" "$kn" log_lines)
		lb=$((l0 + 6 * (secs + 10) + 20))
		[ "$l1" -le "$lb" ] ||
			bad "$what: $l1 kernel log records > $lb (off's $l0 + 6 a second of the case + 20)"
		for t in sync_s umount_s fault_s; do
			t0=$(val "$c" 0 $t) t1=$(val "$c" "$kn" $t)
			le "$t1" "$(awk -v a="$t0" 'BEGIN { print a + 10 }')" ||
				bad "$what: $(case $t in fault_s) echo "starting the fault" ;; *) echo "${t%_s}" ;; esac) took $t1 s > off's $t0 s + 10 s"
		done
		[ "$(val "$c" "$kn" umount)" = ok ] || [ "$(val "$c" 0 umount)" != ok ] ||
			bad "$what: the umount after the fault failed, off's succeeded"
		# what the writer and its fsync() got: as with the knob off, or
		# as with the global threshold at the knob's value (which writes
		# the data back, and meets the fault, as early). On a filling
		# device which error comes first is a race: the data's ENOSPC
		# at fsync(), or EIO at write() once ext4 fails a metadata
		# block it wrote there (on 6.12 off and g16M got the one, 16M
		# with as much dirty the other; on 7.3 off got ENOSPC): there
		# an error where a reference got one will do
		r1="rc=$(val "$c" "$kn" writer) fsync=$(val "$c" "$kn" fsync)"
		same='' got=''
		for r in $refs; do
			rr="rc=$(val "$c" "$r" writer) fsync=$(val "$c" "$r" fsync)"
			[ "$r1" != "$rr" ] || same=1
			[ "$c" != enospc ] || [ "$r1" = "rc=0 fsync=ok" ] || [ "$rr" = "rc=0 fsync=ok" ] ||
				[[ ! $r1 =~ ^rc=[01]\ fsync=(ok|ENOSPC|EIO)$ || ! $rr =~ ^rc=[01]\ fsync=(ok|ENOSPC|EIO)$ ]] || same=1
			got+="${got:+, }$(name "$r") $rr"
		done
		if [[ $refs != *g* ]]; then
			if [[ " $knobs " == *" g$kn "* ]]; then
				got+=" (g$kn's own lines failed above, so no comparison with it)"
			else
				got+=" (and no g$kn in -K to compare with: add it)"
			fi
		fi
		[ -n "$same" ] ||
			bad "$what: the writer got $r1, unlike $got"
		sl0=$(val "$c" 0 slab_kb) sl1=$(val "$c" "$kn" slab_kb)
		g0=$((${sl0#*:} - ${sl0%:*})) g1=$((${sl1#*:} - ${sl1%:*}))
		[ "$g1" -le $((g0 + 2048)) ] ||
			bad "$what: slab grew by $g1 kB > off's $g0 kB + 2048"
	done
done
if [ "$rc" -ne 0 ]; then
	say "summary: the VM run failed ($rc); $nfail check(s) failed"
	exit "$rc"
fi
if [ "$nfail" -gt 0 ]; then
	say "summary: $nfail check(s) failed"
	exit 1
fi
say "summary: every case within bounds: $(echo $cases | wc -w) cases x $k settings, $secs s of fault"
