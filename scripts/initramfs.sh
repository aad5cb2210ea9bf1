#!/bin/bash
# Build the guest's initramfs pieces. The kernel unpacks concatenated cpio
# archives in order, so the pieces are built separately and joined per run:
#
#   initramfs.sh base       build/initramfs/base.cpio: busybox, /init and the
#                           host's fio, mkfs.*, filefrag, xfs_io, the NFS
#                           server and client tools and iproute2 with their
#                           shared libraries (built once, reused)
#   initramfs.sh kselftest BASE
#                           build/initramfs/kselftest-BASE.cpio: the kselftest
#                           targets of config.mk, installed by the kernel's own
#                           kselftest-install into /kselftest
set -u
. "$(dirname "$0")/lib.sh"

out=$TOP/build/initramfs
logdir=$TOP/build/logs
mkdir -p "$out" "$logdir"

# Host programs the guest runs, copied with their shared libraries.
host_progs="fio mkfs.ext4 mkfs.xfs mkfs.btrfs mkfs.f2fs btrfs filefrag xfs_io xfs_bmap
	e2fsck xfs_repair timeout
	rpcbind rpc.nfsd rpc.mountd exportfs mount.nfs ip tc"
# What those read from /etc: libtirpc's transports, protocol and service
# names.
host_etc="netconfig protocols services"

mkcpio() { (cd "$1" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet -R 0:0); }

copy_with_libs() {
	local stage=$1 p path lib
	for p in $host_progs; do
		path=$(command -v "$p") || die "$p not found on the host; run 'make setup'"
		cp -L --parents "$path" "$stage"
		for lib in $(ldd "$path" 2>/dev/null | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }'); do
			[ -e "$stage$lib" ] || cp -L --parents "$lib" "$stage"
		done
	done
}

build_base() {
	local stage=$out/base.stage a
	command -v busybox >/dev/null || die "busybox not found; run 'make setup'"
	! ldd "$(command -v busybox)" >/dev/null 2>&1 ||
		die "busybox is not the static one; run 'make setup' (busybox-static)"
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,root,mnt,results,etc}
	cp "$(command -v busybox)" "$stage/bin/busybox"
	# Host programs first, busybox applets where nothing is yet: the
	# kselftest runner needs coreutils' timeout (it passes --foreground).
	copy_with_libs "$stage"
	for a in $(busybox --list-full); do
		[ -e "$stage/$a" ] || [ -L "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
	done
	# xfs_bmap and friends are shell scripts run with /bin/sh -f: busybox sh.
	install -m 0755 "$TOP/scripts/guest-init" "$stage/init"
	for a in $host_etc; do
		[ -f "/etc/$a" ] || die "/etc/$a not found on the host; run 'make setup'"
		cp "/etc/$a" "$stage/etc/"
	done
	# rpcbind drops to the user _rpc
	printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' '_rpc:x:102:65534::/run/rpcbind:/bin/false' \
		'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$stage/etc/passwd"
	printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$stage/etc/group"
	mkcpio "$stage" >"$out/base.cpio.tmp" && mv "$out/base.cpio.tmp" "$out/base.cpio"
	rm -rf "$stage"
	say "built build/initramfs/base.cpio ($(du -m "$out/base.cpio" | cut -f1) MiB)"
}

build_kselftest() {
	local base=$1 tree=$TOP/build/linux-$1 obj=$TOP/build/obj-$1 stage
	stage=$out/kselftest-$base.stage
	[ -d "$tree" ] || die "no kernel tree at build/linux-$base; run 'make tree'"
	rm -rf "$stage"
	mkdir -p "$stage"
	run_logged "$logdir/kselftest-$base.log" "building kselftests ($(cfg KSELFTEST_TARGETS))" \
		make -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc" \
		TARGETS="$(cfg KSELFTEST_TARGETS)" SKIP_TARGETS= \
		KSFT_INSTALL_PATH="$stage/kselftest" kselftest-install
	mkcpio "$stage" >"$out/kselftest-$base.cpio.tmp" &&
		mv "$out/kselftest-$base.cpio.tmp" "$out/kselftest-$base.cpio"
	rm -rf "$stage"
	say "built build/initramfs/kselftest-$base.cpio"
}

case ${1:-} in
base) build_base ;;
kselftest) [ -n "${2:-}" ] || die "usage: initramfs.sh kselftest BASE"; build_kselftest "$2" ;;
*) die "usage: initramfs.sh base | kselftest BASE" ;;
esac
