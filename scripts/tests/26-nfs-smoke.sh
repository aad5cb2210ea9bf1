#!/bin/bash
# NFS smoke test (scripts/guest/nfs-smoke.sh) in one VM: the kernel NFS
# server exports ext4 on a disk throttled to 32 MiB/s, the export's bdi at
# 8 MiB; a client in another network namespace, over a veth pair shaped to
# 100 Mbit, writes 48 MiB over NFSv3 and NFSv4.2 and closes the file. The
# server's dirty amount stays within 6 MiB of the threshold while the data
# arrives, the client sent a COMMIT, and the file read back cold on the
# server has the data's checksum. On a kernel without the writeback hook
# the dirty amount climbs to the file's size and the test fails.
#
# NFS_SMOKE_KERNEL=BZIMAGE boots another kernel (for example the one with
# only the sysfs patch, build/kernels/BASE-1.bzImage).
. "$TOP/scripts/tests/testlib.sh"
. "$TOP/scripts/lib.sh"

out=$CHECKDIR/nfs-smoke
guest_files
kernel=(-b "$BASE")
[ -z "${NFS_SMOKE_KERNEL:-}" ] || kernel=(-k "$NFS_SMOKE_KERNEL")
expect_rc 0 "nfs-smoke.sh in the VM" "$VMRUN" "${kernel[@]}" -q -s '^nfs-smoke' -t 600 -o "$out" \
	-d 1G:ext4:32M "${GUEST_FILES[@]}" \
	'sh /run/files/nfs-smoke.sh /mnt/vdb 8388608 48 100mbit 6'
for v in 3 4.2; do
	line=$(grep -h "^nfs-smoke: NFSv$v: .* written and closed" "$out/console.log" 2>/dev/null | tail -n 1)
	if [ -n "$line" ]; then ok "${line#nfs-smoke: }"; else not_ok "no NFSv$v result in ${out#"$TOP"/}/console.log"; fi
	grep -q "^nfs-smoke: NFSv$v: .* checksum matches" "$out/console.log" 2>/dev/null &&
		ok "NFSv$v: checksum matches on the server" || not_ok "NFSv$v: no matching checksum"
done
finish
