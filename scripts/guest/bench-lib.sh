# Shared by the guest-side benchmark scripts (bench-s*.sh). Sourced.
# shellcheck shell=sh

# bench_init MNT: the bdi holding MNT's dirty pages, its knob file, and the
# global background ratio to come back to between settings.
bench_init() {
	bdi=$(/run/files/fs-bdi.sh "$1") || exit 1
	knob=/sys/class/bdi/$bdi/dirty_background_bytes
	[ -w "$knob" ] || { echo "$0: $knob missing: kernel without the series?" >&2; exit 1; }
	bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
}

# setting NAME THRESH: off (everything at its default), knob (the bdi's
# dirty_background_bytes at THRESH) or global (vm.dirty_background_bytes at
# THRESH instead).
setting() {
	echo 0 >"$knob"
	echo "$bg_ratio" >/proc/sys/vm/dirty_background_ratio
	case $1 in
	off) ;;
	knob) echo "$2" >"$knob" ;;
	global) echo "$2" >/proc/sys/vm/dirty_background_bytes ;;
	*) echo "$0: unknown setting $1" >&2; exit 1 ;;
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
