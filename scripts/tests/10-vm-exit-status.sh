#!/bin/bash
# upstream test: other bases in make check-full
# A guest command's exit status and its result files come back to the host.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/vm-exit-status
expect_rc 7 "guest 'exit 7' gives 7" \
	"$VMRUN" -b "$BASE" -q -t 300 -o "$out" 'echo hello from the guest >note.txt; exit 7'
if [ "$(cat "$out/results/note.txt" 2>/dev/null)" = "hello from the guest" ]; then
	ok "result file came back"
else
	not_ok "result file did not come back (${out#"$TOP"/}/results/note.txt)"
fi
expect_rc 0 "guest 'true' gives 0" "$VMRUN" -b "$BASE" -q -t 300 -o "$out" true

# A disk of a filesystem the kernel lacks (a kernel of make check
# has no XFS or btrfs) is refused before anything boots, with what to do
fake=$CHECKDIR/vm-exit-status-nofs
mkdir -p "$fake"
: >"$fake/k.bzImage"
printf 'CONFIG_EXT4_FS=y\n# CONFIG_XFS_FS is not set\n' >"$fake/k.config"
msg=$("$VMRUN" -k "$fake/k.bzImage" -q -t 60 -o "$fake/out" -d 64M:xfs true 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && printf '%s\n' "$msg" | grep -q 'has no xfs.*outside make check'; then
	ok "a kernel without XFS is refused an XFS disk (exit 2: $msg)"
else
	not_ok "an XFS disk on a kernel without XFS: exit $rc, '$msg'"
fi
finish
