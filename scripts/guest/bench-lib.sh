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
# max_bytes 16 MiB, what distributions' udev rules set on USB disks),
# maxbytes (max_bytes as for limit, without strict_limit: the flusher's
# own check, wb_over_bg_thresh(), then holds the bdi to THRESH, but only
# the flusher's wake-ups look, every dirty_writeback_centisecs) and
# knob+limit (the knob at THRESH and strict_limit with max_bytes CAP: an
# early start and a cap together).
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
	maxbytes) max_bytes "$(limit_for "$2")" ;;
	knob+limit)
		[ -n "${3:-}" ] || { echo "$0: knob+limit needs a cap" >&2; exit 1; }
		echo "$2" >"$knob"
		strict "$3"
		;;
	*) echo "$0: unknown setting $1" >&2; exit 1 ;;
	esac
}

# limit_for THRESH: the max_bytes whose background start is THRESH. With
# strict_limit, balance_dirty_pages() starts background writeback once the
# bdi has more than its background share, which is its dirty limit times
# dirty_background_ratio / dirty_ratio, and max_bytes caps that limit: so
# max_bytes = THRESH * dirty_ratio / dirty_background_ratio, twice THRESH
# with the default ratios. (A bdi whose share of recent writeout is
# smaller than the cap gets a lower limit and starts earlier.)
limit_for() {
	echo $(($1 * $(cat /proc/sys/vm/dirty_ratio) / bg_ratio))
}

# max_bytes BYTES: the bdi's max_bytes at BYTES (the kernel keeps it as a
# ratio of the global dirty threshold of the moment)
max_bytes() {
	[ -w "$bdi_dir/strict_limit" ] && [ -w "$bdi_dir/max_bytes" ] ||
		{ echo "$0: no $bdi_dir/strict_limit or max_bytes: a kernel before 6.2?" >&2; exit 1; }
	echo "$1" >"$bdi_dir/max_bytes" || exit 1
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
