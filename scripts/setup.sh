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

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
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
# shellcheck disable=SC2086
if ! apt-get install -y --no-install-recommends $missing >>"$log" 2>&1; then
	tail -n 10 "$log" >&2
	die "apt-get install failed; see $log (a package name unknown to apt means this is not Debian 12)"
fi
echo "setup: done"
