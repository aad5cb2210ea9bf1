#!/bin/bash
# Install everything the workbench needs, from Debian packages only.
# Idempotent: packages already installed are left alone.
#
# The kernel source of every base in config.mk (BASES) is installed at the
# version config.mk pins (DEB_VERSION_<base>). A base whose source package
# is not in the machine's own Debian release names the suites that carry it
# (DEB_SUITES_<base>, e.g. unstable or trixie-backports): that one package
# is fetched from them with a private apt configuration under build/apt/,
# using the mirror the machine's apt sources already name, and installed
# with apt-get; nothing else on the machine comes from those suites and the
# machine's apt sources are not changed.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
log=${SETUP_LOG:-$top/build/logs/setup.log}

die() { echo "setup: $*" >&2; exit 1; }
. "$top/scripts/lib-apt.sh"

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install needs it); try: sudo make setup"
command -v apt-get >/dev/null || die "apt-get not found: this workbench needs Debian 12 (bookworm)"

# cfg NAME: a value from config.mk ("" when absent)
cfg() { sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "$top/config.mk"; }
bases=$(cfg BASES)
[ -n "$bases" ] || die "config.mk names no BASES"

# Kernel build dependencies, the emulator, what goes into the guest and
# what tools/ builds with (clang too), and what checks its udev rule and
# units.
pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio kmod rsync
	xz-utils python3 python3-ply python3-git git ccache
	qemu-system-x86 busybox-static
	fio xfsprogs e2fsprogs btrfs-progs gnuplot-nox
	pkg-config libmount-dev libsmartcols-dev libcmocka-dev groff-base
	sparse gcc-multilib f2fs-tools libfuse3-dev fuse3 quilt
	nfs-kernel-server nfs-common rpcbind iproute2
	systemd udev clang"

# served PKG=VERSION [APTOPTS...]: apt knows that version (apt-cache show
# exits 0 for an unknown version, printing nothing)
served() { local p=$1; shift; apt-cache "$@" show "$p" 2>/dev/null | grep -q '^Package: '; }

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'; }

missing= extra=
for p in $pkgs; do installed "$p" || missing="$missing $p"; done
for b in $bases; do
	p=linux-source-$b want=$(cfg "DEB_VERSION_$b")
	[ -n "$want" ] || die "config.mk pins no DEB_VERSION_$b for base $b"
	if installed "$p"; then
		have=$(dpkg-query -W -f='${Version}' "$p")
		[ "$have" = "$want" ] && continue
		echo "setup: $p $have is installed, config.mk pins $want: installing $want"
	fi
	if [ -n "$(cfg "DEB_SUITES_$b")" ]; then
		extra="$extra $b"
	else
		missing="$missing $p=$want"
	fi
done

if [ -z "$missing$extra" ]; then
	echo "setup: all packages present"
fi

mkdir -p "$(dirname "$log")"
: >"$log"
export DEBIAN_FRONTEND=noninteractive
apt_install() {
	if ! apt-get install -y --no-install-recommends --allow-downgrades "$@" >>"$log" 2>&1; then
		tail -n 10 "$log" >&2
		die "apt-get install failed; see ${log#"$top"/} (a package name unknown to apt means this is not Debian 12)"
	fi
}

# versions_note PKG APTOPTS...: how to choose another version of PKG
versions_note() {
	local p=$1 b=${1#linux-source-} v
	shift
	v=$(apt-cache "$@" madison "$p" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); gsub(/^ +| +$/, "", $3); print "  " $2 "  (" $3 ")" }')
	if [ -z "$v" ]; then
		echo "setup: the archive serves no $p at all"
	else
		echo "setup: versions of $p the archive serves now:"
		echo "$v"
	fi
	echo "setup: to use one, set DEB_VERSION_$b in config.mk to it and run 'make setup' again;"
	echo "setup: the base commit, its tag and possibly the series (patches/v$b) change with it"
}

if [ -n "$missing" ]; then
	echo "setup: installing:$missing"
	echo "setup: (apt output in ${log#"$top"/})"
	if ! apt-get update >>"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "apt-get update failed; see ${log#"$top"/}"
	fi
	for p in $missing; do
		case $p in linux-source-*=*)
			served "$p" && continue
			echo "setup: ${p%%=*} ${p#*=}, pinned in config.mk, is not in the machine's apt sources" >&2
			versions_note "${p%%=*}" >&2
			exit 1
		esac
	done
	# shellcheck disable=SC2086
	apt_install $missing
fi

# Sources from another suite of the same Debian archive.
for b in $extra; do
	p=linux-source-$b want=$(cfg "DEB_VERSION_$b") suites=$(cfg "DEB_SUITES_$b")
	private_apt "$top/build/apt/$b" deb $suites
	apt_dir=$top/build/apt/$b
	mkdir -p "$apt_dir/debs"
	echo "setup: fetching $p $want from $suites (package lists in ${apt_dir#"$top"/}, apt output in ${log#"$top"/})"
	if ! apt-get "${aptopts[@]}" update >>"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "apt-get update of $suites failed; see ${log#"$top"/}"
	fi
	if ! served "$p=$want" "${aptopts[@]}"; then
		echo "setup: $p $want, pinned in config.mk, is no longer served by $suites" >&2
		versions_note "$p" "${aptopts[@]}" >&2
		exit 1
	fi
	deb=$(apt-cache "${aptopts[@]}" show "$p=$want" | sed -n 's/^Filename: .*\///p' | head -n 1)
	size=$(apt-cache "${aptopts[@]}" show "$p=$want" | sed -n 's/^Size: //p' | head -n 1)
	echo "setup: downloading $deb ($((size >> 20)) MiB)"
	if ! (cd "$apt_dir/debs" && apt-get "${aptopts[@]}" download "$p=$want") >>"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "downloading $p $want failed; see ${log#"$top"/}"
	fi
	# Installed from the file: its dependencies (binutils, xz-utils) come
	# from the machine's own release.
	echo "setup: installing $deb"
	apt_install "$apt_dir/debs/$deb"
	rm -f "$apt_dir/debs/$deb"
done
# The upstream base's pristine tree: the .orig.tar.xz of Debian's `linux`
# source package at the same version (Debian's linux-source carries
# Debian's patches on top of it). The series must apply to both; the
# tarball goes to build/src/ and nothing is unpacked or installed.
ub=$(cfg UPSTREAM_BASE)
uv=$(cfg "DEB_VERSION_$ub")
orig=$top/build/src/linux_${uv%%-*}.orig.tar.xz
if [ -n "$ub" ] && [ ! -f "$orig" ]; then
	suites=$(cfg "DEB_SUITES_$ub")
	private_apt "$top/build/apt/src-$ub" deb-src $suites
	mkdir -p "$top/build/src"
	echo "setup: fetching the pristine upstream tree of $ub: Debian's linux source package $uv (${orig#"$top"/}, apt output in ${log#"$top"/})"
	mkdir -p "$(dirname "$log")"
	if ! apt-get "${aptopts[@]}" update >>"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "apt-get update of the deb-src lines for $ub failed; see ${log#"$top"/}"
	fi
	# Not every mirror serves sources: without them the series is still
	# checked against Debian's linux-source tree, and test 05 says that
	# the pristine tree was not checked.
	if ! (cd "$top/build/src" && apt-get "${aptopts[@]}" source --download-only "linux=$uv") >>"$log" 2>&1; then
		echo "setup: WARNING: the archive did not serve Debian's linux source package $uv ($(grep -o '[0-9][0-9][0-9]  *Not Found' "$log" | head -n 1 || echo 'see the log'));"
		echo "setup: WARNING: the series cannot be checked against the pristine upstream tree (${orig##*/}); see ${log#"$top"/}"
	elif [ ! -f "$orig" ]; then
		echo "setup: WARNING: Debian's linux source package $uv has no ${orig##*/}"
	fi
fi
echo "setup: done"
