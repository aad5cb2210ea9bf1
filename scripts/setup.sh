#!/bin/bash
# Install everything the workbench needs, from Debian packages only.
# Idempotent: packages already installed are left alone.
set -u

log=${SETUP_LOG:-build/logs/setup.log}

die() { echo "setup: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install needs it); try: sudo make setup"
command -v apt-get >/dev/null || die "apt-get not found: this workbench needs Debian 12 (bookworm)"

# Kernel sources (6.12 LTS and 6.1 LTS for the backport), kernel build
# dependencies, the emulator and what goes into the guest.
pkgs="linux-source-6.12 linux-source-6.1
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod rsync
	xz-utils python3 python3-ply python3-git git ccache
	qemu-system-x86 busybox-static
	fio xfsprogs e2fsprogs btrfs-progs gnuplot-nox"

# The kernel sources are pinned in config.mk, so that the base commit (and
# its hash) is the same on every machine.
pinned() { sed -n "s/^DEB_VERSION_$1[[:space:]]*:=[[:space:]]*//p" "$(dirname "$0")/../config.mk"; }

missing=
for p in $pkgs; do
	if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed'; then
		case $p in linux-source-*)
			want=$(pinned "${p#linux-source-}")
			have=$(dpkg-query -W -f='${Version}' "$p")
			[ "$have" = "$want" ] ||
				echo "setup: note: $p $have is installed, config.mk pins $want: the base commit will differ"
		esac
	else
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "setup: all packages present"
	exit 0
fi

mkdir -p "$(dirname "$log")"
echo "setup: installing:$missing"
echo "setup: (apt output in $log)"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "apt-get update failed; see $log"
fi
# Pinned kernel sources, when the archive still has that version.
args=
for p in $missing; do
	case $p in linux-source-*)
		want=$(pinned "${p#linux-source-}")
		if apt-cache show "$p=$want" >/dev/null 2>&1; then
			p="$p=$want"
		else
			echo "setup: note: $p $want (pinned in config.mk) is gone from the archive; taking the newest"
		fi
	esac
	args="$args $p"
done
# shellcheck disable=SC2086
if ! apt-get install -y --no-install-recommends $args >>"$log" 2>&1; then
	tail -n 10 "$log" >&2
	die "apt-get install failed; see $log (a package name unknown to apt means this is not Debian 12)"
fi
echo "setup: done"
