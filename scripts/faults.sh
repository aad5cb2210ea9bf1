#!/bin/bash
# The fault suite: devices that fail, fill up, stall or go away while they
# hold dirty pages over their threshold (scripts/guest/faults.sh), each
# case with the knob off, at 64 KiB and at 16 MiB on the failing device,
# and the global threshold at those values for reference, side by side,
# in one VM; then the summary and the verdict.
#
#   faults.sh [-b BASE] [-k BZIMAGE] [-c CASES] [-K SETTINGS] [-s SECS] [-o DIR] [-r]
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
#     -s SECS     seconds of fault (default 30)
#     -o DIR      output folder (default build/faults/BASE)
#     -r          no VM: read DIR's console.log of an earlier run again
#                 with the same -c, -K and -s (the kernel-report verdict is
#                 not re-read)
#
# Passes when, for every case and each knob value, against the knob off in
# the same case (the CPU time against its reference, below):
#   - kernel CPU time (system, irq, softirq, all CPUs, from the knob set to
#     the umount; the guest's serial console meanwhile prints only
#     records of levels 0 to 2 and kernel reports, so that the I/O errors
#     a setting logs are bounded as records below rather than counted as
#     the console's CPU) <= 1.1 x (the reference's + the knob's own cost
#     at work) + 50 clock ticks (0.5 s): the own cost is measured too,
#     with the same noise.
#     The reference is off, or the global threshold at the same value
#     (gBYTES) where that costs more than off: a filesystem that fails a
#     write page by page (XFS on 7.3: about a page a round, 11344 rounds
#     in the 30 s at 16M, 11289 with the global threshold at 16M) makes
#     every page the writer dirties over a threshold a round of writeback
#     that fails, whichever threshold it is, where off leaves the pages in
#     memory until fsync() fails at the first and the umount drops the
#     rest; the knob must cost no more than the global threshold set to
#     its value, which is what it replaces.
#     The knob's own cost at work is its cost on the healthy device
#     (healthy row: knob minus off), which holds the kicks of the flusher
#     it adds there (its kicks beyond off's), plus its kicks beyond those,
#     each at what one costs on the healthy device (of the -K setting that
#     added the most kicks there, 100 at least: its CPU beyond off's over
#     those kicks; nothing without one). The kicks of a case are counted
#     beyond those of off and of gBYTES, whichever kicked more. A kick is
#     a call that wakes the flusher for background writeback
#     (writeback_wake_background; a retry the flusher queues for itself
#     and the periodic writeback are not kicks). A context written down to
#     its knob a folio a round hovers at it, and its dirtiers kick the
#     flusher again at their next look (every 8 pages over the knob, while
#     no writeback runs on the context and no kick waits for the flusher),
#     where the global threshold waits for
#     their usual one (every nr_dirtied_pause pages): XFS failing writes
#     at 16 MiB on 7.3, 686 kicks against 45, every pass writing (failing)
#     a folio. The knob's kicks beyond the reference's are held to twice
#     the most a knob setting added on the healthy device: a kick storm
#     fails, and the allowance stops there
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
#   - sync and umount after the fault take <= off's + 10 s (no hang; a
#     hang that never ends is the VM's timeout and fails the run)
#   - slab after the case, caches dropped, grows <= off's growth + 2 MiB
# and, for every setting, the knob off included: a fault that fails
# writes (eio-*, enospc, vanish) reaches the writer, as an error of
# write() or fsync() or a file that does not read back whole (else the
# fault did not take effect); the file fsync'ed before
# the fault reads back whole after a remount, and the writer's file,
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
usage() { sed -n '8,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
reread=
while getopts b:k:c:K:s:o:rh opt; do
	case $opt in
	b) base=$OPTARG ;;
	k) kernel=$OPTARG ;;
	c) cases=$OPTARG ;;
	K) knobs=$OPTARG ;;
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
	[[ $kn =~ ^g?[0-9]+$ && $kn != g0 ]] ||
		{ echo "$PROG: bad setting '$kn' (bytes, or g and bytes)" >&2; exit 2; }
done
[[ " $knobs " == *" 0 "* ]] || { echo "$PROG: the settings must hold 0 (off)" >&2; exit 2; }
[ -n "$out" ] || out=$TOP/build/faults/$base
cases="healthy $cases"
n=$(echo $cases | wc -w) k=$(echo $knobs | wc -w)
# a setting takes the fault, 10 s of writing around it, set-up and checks
est=$((n * k * (secs + 30)))
if [ -n "$reread" ]; then
	[ -f "$out/console.log" ] || { echo "$PROG: no $out/console.log to read" >&2; exit 2; }
	say "faults on $base: reading ${out#"$TOP"/}/console.log again (no VM)"
	rc=0
else
	guest_files
	cmd=
	for c in $cases; do cmd+="sh /run/files/faults.sh $c $secs $knobs; "; done
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
	echo "$lines" | awk -v c="$1" -v k="$2" -v f="$3" '
		$1 == "case=" c && $2 == "knob=" k {
			for (i = 1; i <= NF; i++) if (index($i, f "=") == 1) { print substr($i, length(f) + 2); exit }
		}'
}
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# numbers CASE KNOB FIELD...: each field there and a number of its kind:
# the times (*_s) decimals, slab_kb two integers A:B, the others integers
# (the kworker figures may be negative), for the shell's arithmetic; one
# that is missing or is not is a failed check, never a pass
numbers() {
	local c=$1 kn=$2 f v re ret=0
	shift 2
	for f; do
		v=$(val "$c" "$kn" "$f")
		case $f in
		*_s) re='^[0-9]+(\.[0-9]+)?$' ;;
		slab_kb) re='^[0-9]+:[0-9]+$' ;;
		*) re='^-?[0-9]+$' ;;
		esac
		[[ $v =~ $re ]] && continue
		bad "$c, knob $(name "$kn"): $f is '$v', not a number of its kind (see the console)"
		ret=1
	done
	return $ret
}
# the fields the checks compare
fields="sys_ticks kworker_ticks passes wakes empty log_lines fault_sys_ticks fault_kworker_ticks fault_empty fault_dirty_kb sync_s umount_s slab_kb"
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
fmt='%-10s %-4s %6s %6s %6s %6s %6s %5s %5s %6s %5s %4s %-7s %-7s %6s %6s %7s %s\n'
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
echo " passes: rounds of writeback the thresholds started; kicks: calls that woke the flusher for"
echo " background writeback; empty: rounds, whatever started them, that wrote nothing; dirty:"
echo " MiB dirty or under writeback when the fault started)"

# the checks every setting gets
for c in $cases; do
	for kn in $knobs; do
		[ -n "$(val "$c" "$kn" knob)" ] || continue
		[ "$(val "$c" "$kn" verified)" = yes ] ||
			bad "$c, knob $(name "$kn"): the file fsync'ed before the fault does not read back whole"
		if [ "$(val "$c" "$kn" during)" != whole ] && [ "$(val "$c" "$kn" writer)" = 0 ] &&
			[ "$(val "$c" "$kn" fsync)" = ok ]; then
			bad "$c, knob $(name "$kn"): the writer's file is $(val "$c" "$kn" during), yet write() and fsync() reported no error"
		fi
		# a fault that fails writes must reach the writer: else it did
		# not happen, and the case measured a healthy device
		case $c in
		eio-* | enospc | vanish)
			if [ "$(val "$c" "$kn" during)" = whole ] && [ "$(val "$c" "$kn" writer)" = 0 ] &&
				[ "$(val "$c" "$kn" fsync)" = ok ]; then
				bad "$c, knob $(name "$kn"): no error reached the writer and its file is whole: the fault did not take effect"
			fi ;;
		esac
	done
done
# the knob against off, case by case
# (a row without its line or with a field that is not a number failed
# above; the comparisons need both rows of the case and of healthy)
hs0=$(val healthy 0 sys_ticks) hw0=$(val healthy 0 wakes)
# the kicks of the flusher a knob setting adds on the healthy device (its
# kicks beyond off's there)
hkicks() { local w=$(($(val healthy "$1" wakes) - hw0)); echo $((w > 0 ? w : 0)); }
# what a kick of the knob costs at work: on the healthy device, the knob
# setting among -K's that added the most kicks (100 at least), its kernel
# CPU beyond off's over those kicks (cost_s ticks over cost_w kicks; 0 over
# 1 when none did)
cost_s=0 cost_w=1 kmax=0
for kn in $knobs; do
	[[ $kn != 0 && $kn != g* && -n ${ok[healthy $kn]:-} && -n ${ok[healthy 0]:-} ]] || continue
	w=$(hkicks "$kn")
	[ "$w" -ge 100 ] && [ "$w" -gt "$kmax" ] || continue
	kmax=$w cost_w=$w cost_s=$(($(val healthy "$kn" sys_ticks) - hs0))
	[ "$cost_s" -ge 0 ] || cost_s=0
done
[ "$kmax" -eq 0 ] ||
	echo "(a kick of the knob on the healthy device: $(awk -v s=$cost_s -v w=$cost_w 'BEGIN { printf "%.3f", s / w }') ticks, $cost_s ticks over $cost_w kicks)"
for c in $cases; do
	[ "$c" != healthy ] || continue
	[[ -n ${ok[$c 0]:-} && -n ${ok[healthy 0]:-} ]] || continue
	for kn in $knobs; do
		[[ $kn != 0 && $kn != g* ]] || continue
		[[ -n ${ok[$c $kn]:-} && -n ${ok[healthy $kn]:-} ]] || continue
		what="$c, knob $(name "$kn")"
		hk=$(($(val healthy "$kn" sys_ticks) - hs0))
		[ "$hk" -ge 0 ] || hk=0
		s0=$(val "$c" 0 sys_ticks) s1=$(val "$c" "$kn" sys_ticks)
		ref=$s0 refn=off kref=$(val "$c" 0 wakes)
		g=
		[[ -z ${ok[$c g$kn]:-} ]] || g=g$kn
		if [ -n "$g" ] && [ "$(val "$c" "$g" sys_ticks)" -gt "$s0" ]; then
			ref=$(val "$c" "$g" sys_ticks) refn="g$(name "$kn")"
		fi
		# the kicks beyond those of off and of the global threshold at
		# the same value, whichever kicked more
		kn_w=off
		if [ -n "$g" ] && [ "$(val "$c" "$g" wakes)" -gt "$kref" ]; then
			kref=$(val "$c" "$g" wakes) kn_w="g$(name "$kn")"
		fi
		kx=$(($(val "$c" "$kn" wakes) - kref))
		# a kick storm is not the knob at work: at most twice the most
		# kicks any knob setting added on the healthy device
		if [ "$kmax" -gt 0 ] && [ "$kx" -gt $((2 * kmax)) ]; then
			bad "$what: $kx kicks beyond $kn_w's > $((2 * kmax)) (twice the most a knob setting added on the healthy device, $kmax)"
			kx=$((2 * kmax))
		fi
		# the knob's own cost at work: its healthy cost, which holds its
		# healthy kicks, and its kicks beyond those at a healthy kick's
		# cost (rounded up)
		hx=$(hkicks "$kn")
		x=$((kx > hx ? kx - hx : 0))
		ka=$(((x * cost_s + cost_w - 1) / cost_w))
		own=$((hk + ka)) ownw="the knob's healthy cost $hk"
		if [ "$x" -gt 0 ]; then
			ownw+=" + $x kicks beyond its healthy $hx at $cost_s/$cost_w = $ka"
			[ "$s1" -le "$ref" ] ||
				echo "($what: $kx kicks beyond $kn_w's, $(awk -v s=$((s1 - ref)) -v w="$kx" 'BEGIN { printf "%.3f", s / w }') ticks each beyond $refn's)"
		fi
		bound=$((((ref + own) * 11 + 9) / 10 + 50))
		[ "$s1" -le "$bound" ] ||
			bad "$what: kernel CPU $s1 ticks > $bound (1.1 x ($refn's $ref + $ownw) + 50)"
		e0=$(val "$c" 0 fault_empty) e1=$(val "$c" "$kn" fault_empty)
		[ "$e1" -le $((e0 + secs + 10)) ] ||
			bad "$what: $e1 passes that wrote nothing during the fault > $((e0 + secs + 10)) (off's $e0 + one a second + 10)"
		l0=$(val "$c" 0 log_lines) l1=$(val "$c" "$kn" log_lines)
		lb=$((l0 + 6 * (secs + 10) + 20))
		[ "$l1" -le "$lb" ] ||
			bad "$what: $l1 kernel log records > $lb (off's $l0 + 6 a second of the case + 20)"
		for t in sync_s umount_s; do
			t0=$(val "$c" 0 $t) t1=$(val "$c" "$kn" $t)
			le "$t1" "$(awk -v a="$t0" 'BEGIN { print a + 10 }')" ||
				bad "$what: ${t%_s} took $t1 s, off's $t0 s + 10 s"
		done
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
