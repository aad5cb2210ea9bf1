# Shared by the guest-side benchmark scripts (bench-s*.sh). Sourced.
# shellcheck shell=sh

# bench_init MNT: the bdi holding MNT's dirty pages, its knob file, and the
# global background ratio to come back to between settings.
bench_init() {
	bdi=$(/run/files/fs-bdi.sh "$1") || exit 1
	bdi_dir=/sys/class/bdi/$bdi
	knob=$bdi_dir/dirty_background_bytes
	[ -w "$knob" ] || { echo "$0: $knob missing: kernel without the series?" >&2; exit 1; }
	bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
}

# setting NAME THRESH [CAP]: off (everything at its default), knob (the
# bdi's dirty_background_bytes at THRESH), global (vm.dirty_background_bytes
# at THRESH instead), or the per-bdi limits Linux has had since 6.2:
# limit (strict_limit and max_bytes, sized so that the background writeback
# they start begins at THRESH, see limit_for), limit16 (strict_limit and
# max_bytes 16 MiB: a fixed cap of the kind admins set on USB disks),
# limit-bg2 (as limit, with vm.dirty_background_ratio at 2 and max_bytes
# sized for it: on a kernel that starts at the bdi's background share, the
# same start under a limit ten times higher, room for bursts; the global
# background threshold falls to 2 % for every device), maxbytes (max_bytes
# as for limit, without strict_limit: the flusher's own check,
# wb_over_bg_thresh(), then holds the bdi to THRESH, but only the
# flusher's wake-ups look, every dirty_writeback_centisecs) and knob+limit
# (the knob at THRESH and strict_limit with max_bytes CAP: an early start
# and a cap together).
setting() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
	if [ -w "$bdi_dir/strict_limit" ]; then
		echo 0 >"$bdi_dir/strict_limit"
		echo 100 >"$bdi_dir/max_ratio"
	fi
	case $1 in
	off) ;;
	knob) echo "$2" >"$knob" ;;
	global) echo "$2" >/proc/sys/vm/dirty_background_bytes ;;
	limit) strict "$(limit_for "$2")" ;;
	limit16) strict $((16 << 20)) ;;
	limit-bg2)
		echo 2 >/proc/sys/vm/dirty_background_ratio
		strict "$(limit_for "$2" 2)"
		;;
	maxbytes) max_bytes "$(limit_for "$2")" ;;
	knob+limit)
		[ -n "${3:-}" ] || { echo "$0: knob+limit needs a cap" >&2; exit 1; }
		echo "$2" >"$knob"
		strict "$3"
		;;
	*) echo "$0: unknown setting $1" >&2; exit 1 ;;
	esac
}

# Where a strict_limit bdi's background writeback starts. Kernels with
# "mm: start background writeback based on per-wb threshold for strictlimit
# BDIs" (7.3 has it) start it in balance_dirty_pages() as soon as the bdi
# holds more than its background share, its dirty limit times
# dirty_background_ratio / dirty_ratio. Before (6.2 to 6.12) the kick comes
# only past the bdi's free-run ceiling, halfway between that share and the
# limit, where throttling also begins (or at a flusher wake-up, every
# dirty_writeback_centisecs, that finds the bdi over its share).
case $(uname -r) in
[1-6].*) strict_start=freerun ;;
*) strict_start=share ;;
esac

# limit_for THRESH [BG_RATIO]: the max_bytes whose background start is
# THRESH (max_bytes caps the bdi's dirty limit): THRESH * dirty_ratio /
# dirty_background_ratio where the start is the share (twice THRESH with
# the default ratios), 2 * THRESH * dirty_ratio / (dirty_ratio +
# dirty_background_ratio) where it is the free-run ceiling (4/3 of THRESH).
# (A bdi whose share of recent writeout is smaller than the cap gets a
# lower limit and starts earlier.)
limit_for() {
	lf_d=$(cat /proc/sys/vm/dirty_ratio) lf_b=${2:-$bg_ratio}
	if [ "$strict_start" = share ]; then
		echo $(($1 * lf_d / lf_b))
	else
		echo $((2 * $1 * lf_d / (lf_d + lf_b)))
	fi
}

# max_bytes BYTES: the bdi's max_bytes at BYTES (the kernel keeps it as a
# ratio of the global dirty threshold of the moment)
max_bytes() {
	[ -w "$bdi_dir/strict_limit" ] && [ -w "$bdi_dir/max_bytes" ] ||
		{ echo "$0: no $bdi_dir/strict_limit or max_bytes: a kernel before 6.2?" >&2; exit 1; }
	echo "$1" >"$bdi_dir/max_bytes" || exit 1
}

# settings NAME...: the settings to run, less those that need strict_limit
# and max_bytes (limit..., maxbytes, knob+limit) where the bdi has neither
# (a kernel before 6.2), which it names on stderr
settings() {
	if [ -w "$bdi_dir/strict_limit" ] && [ -w "$bdi_dir/max_bytes" ]; then
		echo "$@"
		return
	fi
	st_keep= st_drop=
	for st_s in "$@"; do
		case $st_s in
		*limit* | maxbytes) st_drop="$st_drop $st_s" ;;
		*) st_keep="$st_keep $st_s" ;;
		esac
	done
	[ -z "$st_drop" ] ||
		echo "$0: no $bdi_dir/strict_limit or max_bytes (a kernel before 6.2): settings not run:$st_drop" >&2
	echo $st_keep
}

# rotate N WORD...: the words, the first N (modulo their count) moved to
# the end: each repetition runs the settings in another order, so that no
# setting always inherits the same one's bandwidth estimate and shares
rotate() {
	rot_n=$(($1 % ($# - 1)))
	shift
	while [ "$rot_n" -gt 0 ]; do
		rot_w=$1
		shift
		set -- "$@" "$rot_w"
		rot_n=$((rot_n - 1))
	done
	echo "$@"
}

# strict BYTES: strict_limit on and max_bytes at BYTES for the bdi
strict() {
	max_bytes "$1"
	echo 1 >"$bdi_dir/strict_limit" || exit 1
}

# setting_desc NAME THRESH [CAP]: what a setting sets, for the console
setting_desc() {
	case $1 in
	limit) echo "strict_limit, max_bytes $(($(limit_for "$2") >> 10)) KiB" ;;
	limit16) echo "strict_limit, max_bytes 16384 KiB" ;;
	limit-bg2) echo "strict_limit, max_bytes $(($(limit_for "$2" 2) >> 10)) KiB, dirty_background_ratio 2" ;;
	maxbytes) echo "max_bytes $(($(limit_for "$2") >> 10)) KiB, no strict_limit" ;;
	knob+limit) echo "knob $(($2 >> 10)) KiB, strict_limit, max_bytes $(($3 >> 10)) KiB" ;;
	off) echo "defaults" ;;
	*) echo "$1 $(($2 >> 10)) KiB" ;;
	esac
}

# warm_up DIR...: give each device a writeout history before measuring.
# A device that has written nothing yet has a share of the global
# background threshold near zero, so whichever setting ran first would
# see its data written back by the first flusher wake-up.
warm_up() {
	for w in "$@"; do
		dd if=/dev/zero of="$w/warm-up" bs=1M count=64 conv=fsync 2>/dev/null
		rm -f "$w/warm-up"
	done
	sync
}

now() { cut -d' ' -f1 /proc/uptime; }

# header FILE COLUMNS...: start a TSV file with its column names
header() {
	f=$1
	shift
	[ -f "$f" ] || (IFS='	'; echo "$*") >"$f"
}

# row FILE VALUES...: one TSV row
row() {
	f=$1
	shift
	(IFS='	'; echo "$*") >>"$f"
}
