# Common helpers for the workbench scripts. Sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=$(basename "$0" .sh)

die() { echo "$PROG: $*" >&2; exit 1; }
say() { echo "$PROG: $*"; }

# cfg NAME: a value from config.mk (the one place for identity and bases).
cfg() {
	local v
	v=$(sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "$TOP/config.mk")
	[ -n "$v" ] || die "config.mk has no value for $1"
	printf '%s\n' "$v"
}

# use_ccache: the ccache settings of every kernel build. Paths below the
# project become relative, so a fresh clone in another folder hits the cache
# of an earlier one. Depend mode takes the headers from the compiler's own
# dependency file (kbuild's -Wp,-MMD) instead of running the preprocessor a
# second time on every miss: a cold fs/xfs took 147 s with it, 213 s without
# and 149 s with no ccache at all (6.12, 2 jobs); it only hits in direct mode.
# Kernel objects are built with -nostdinc and a new gcc is caught by its
# mtime, but the host programs (fixdep, objtool, modpost) list no system
# headers in -MMD's file: after an upgrade of libc6-dev, libelf-dev or
# libssl-dev without a new gcc, run `ccache -C` once.
use_ccache() {
	export CCACHE_BASEDIR=$TOP/build CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
}

# default_base: the first base of config.mk, the one `make` uses unless told
default_base() { cfg BASES | awk '{ print $1 }'; }

# run_logged LOG MSG CMD...: run a long step with its output in LOG and a
# progress line every 30 s (elapsed time and the log's last line); on
# failure, show the log's tail.
run_logged() {
	local rc=0
	run_logged_rc "$@" || rc=$?
	[ "$rc" -eq 0 ] || die "$2 failed (exit $rc); full log: ${1#"$TOP"/}"
}

# run_logged_rc LOG MSG CMD...: run_logged, but a failure returns CMD's exit
# status (after the log's tail) instead of ending the script
run_logged_rc() {
	local log=$1 msg=$2 pid rc=0 t0 now next
	shift 2
	mkdir -p "$(dirname "$log")"
	say "$msg (log: ${log#"$TOP"/})"
	t0=$(date +%s)
	"$@" >"$log" 2>&1 &
	pid=$!
	next=$((t0 + 30))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2 & wait $! 2>/dev/null
		now=$(date +%s)
		if [ "$now" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			printf '%s:   %4d s  %s\n' "$PROG" $((now - t0)) \
				"$(tail -n 1 "$log" | cut -c1-64)"
			next=$((next + 30))
		fi
	done
	wait "$pid" || rc=$?
	if [ "$rc" -ne 0 ]; then
		say "$msg failed after $(($(date +%s) - t0)) s"
		tail -n 25 "$log" | sed 's/^/  | /' >&2
		return "$rc"
	fi
	say "$msg: done in $(($(date +%s) - t0)) s"
}

# median_field FILE PREFIX FIELD: the median of FIELD=value over FILE's
# lines that start with PREFIX; nothing when there is none
median_field() {
	grep -h "^$2" "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$3=//p" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# guest_files: fill GUEST_FILES with vm-run.sh -f options for the guest's
# scripts (scripts/guest/*.sh) and its C helpers, built static (they need no
# library in the guest) into build/guest/ when older than their source.
guest_files() {
	local f bin newest
	GUEST_FILES=()
	for f in "$TOP"/scripts/guest/*.sh; do GUEST_FILES+=(-f "$f"); done
	mkdir -p "$TOP/build/guest"
	for f in "$TOP"/scripts/guest/*.c; do
		bin=$TOP/build/guest/$(basename "$f" .c)
		# "// guest-pkg: NAME": the program links NAME (pkg-config), statically
		pkg=$(sed -n 's|^// guest-pkg: *||p' "$f")
		# rebuilt when older than its source or a header it may include
		newest=$(ls -t "$f" "$TOP"/scripts/guest/*.h 2>/dev/null | head -n 1)
		[ "$bin" -nt "$newest" ] ||
			gcc -static -O2 -Wall -Wextra -Werror ${pkg:+$(pkg-config --cflags "$pkg")} -o "$bin" "$f" \
				${pkg:+$(pkg-config --libs --static "$pkg")} 2>&1 | grep -v "statically linked applications requires at runtime\|in function .fuse_get_module" >&2
		[ "$bin" -nt "$newest" ] ||
			die "cannot build ${bin#"$TOP"/} from ${f#"$TOP"/}"
		GUEST_FILES+=(-f "$bin")
	done
}

# host_prog NAME: print the path of build/host/NAME, a program for the host
# built from scripts/NAME.c when older than its source (into a temporary
# name first: several VM runs may ask for it at once)
host_prog() {
	local src=$TOP/scripts/$1.c bin=$TOP/build/host/$1
	if ! [ "$bin" -nt "$src" ]; then
		mkdir -p "$TOP/build/host"
		gcc -O2 -Wall -Wextra -Werror -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin" || {
			rm -f "$bin.$$"
			echo "$PROG: cannot build ${bin#"$TOP"/} from ${src#"$TOP"/}" >&2
			return 1
		}
	fi
	echo "$bin"
}

# make_disk IMG BYTES FS: a sparse disk image, with an ext4, xfs or btrfs
# filesystem, or none for "-"
make_disk() {
	truncate -s "$2" "$1" || return 1
	case $3 in
	-) ;;
	ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" ;;
	xfs) mkfs.xfs -q -f "$1" ;;
	btrfs) mkfs.btrfs -q -f "$1" >/dev/null ;;
	*) return 1 ;;
	esac
}
