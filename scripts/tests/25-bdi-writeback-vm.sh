#!/bin/bash
# full test: make check-full only
# bdi-writeback in the VM. On the patched kernel, on an ext4 disk, a btrfs
# filesystem (its own bdi), a loop device and a partition, it sets and reads
# back, auto-sizes from the kernel's estimate and from the I/O counters, and
# finds a FUSE mount's own bdi (0:N) and no bdi for a tmpfs, and
# watches through unmount, device removal and SIGTERM/SIGINT; every
# documented failure gives its exit status. On the unpatched kernel
# (build/kernels/BASE-0.bzImage, built by 'make prefixes WITH_BASE=1') it
# must report the missing attribute with exit status 5; that part needs a
# build of the bare base, which make check-full (FULL=1) builds (with
# FULL=1 and no such kernel the test fails); run by hand without FULL=1,
# the test says it did not run that part. The guest
# runs the AddressSanitizer/UBSan build: a report fails the test.
. "$TOP/scripts/tests/testlib.sh"
. "$TOP/scripts/lib.sh"

expect_rc 0 "make -C tools guest" make -s -C "$TOP/tools" guest
# the workbench's guest files in /run/files: stall-fuse, a FUSE daemon
guest_files
cpio=$TOP/build/tools/guest.cpio
disks=(-d 256M:ext4:16M -d 512M:btrfs:16M -d 64M)
cmd='bdi-writeback-vm-test MODE >vm-test.log 2>&1; rc=$?; tail -n 1 vm-test.log; exit $rc'

# vm_test MODE KERNEL: the guest test; its checks are in OUT/results/vm-test.log
vm_test() {
	local out=$CHECKDIR/bdi-writeback-vm-$1 log
	log=$out/results/vm-test.log
	expect_rc 0 "bdi-writeback-vm-test $1 on ${2#"$TOP"/}" "$VMRUN" -k "$2" -q -t 600 -o "$out" \
		-m 2G "${disks[@]}" -i "$cpio" "${GUEST_FILES[@]}" "${cmd/MODE/$1}"
	if [ -f "$log" ]; then
		grep -E '^(== |NOT OK)' "$log" | sed 's/^/  /'
		echo "  $(grep -c '^ok: ' "$log") checks passed, $(grep -c '^NOT OK: ' "$log") failed (${log#"$TOP"/})"
	else
		not_ok "no ${log#"$TOP"/}"
	fi
	if ls "$out"/results/san.* >/dev/null 2>&1; then
		not_ok "sanitizer reports: $(ls "$out"/results/san.*)"
		cat "$out"/results/san.*
	else
		ok "no sanitizer report in the guest"
	fi
}

vm_test patched "$TOP/build/obj-$BASE/arch/x86/boot/bzImage"
unpatched=$TOP/build/kernels/$BASE-0.bzImage
if [ -f "$unpatched" ]; then
	vm_test unpatched "$unpatched"
elif [ "${FULL:-0}" = 1 ]; then
	not_ok "no ${unpatched#"$TOP"/} for the unpatched-kernel part ('make prefixes WITH_BASE=1' builds it)"
else
	echo "not run here: the unpatched-kernel part (make check-full builds ${unpatched#"$TOP"/} and runs it)"
fi
finish
