#!/bin/bash
# The bdi kselftest on a 32-bit kernel: an i386 build of the series (the
# workbench's config without 64BIT, in build/obj-BASE-i386-boot), booted in
# qemu-system-i386 with 1 GiB, running the kselftest as a static i386
# binary under a static i386 /init (scripts/i386/init.c; no shell, so the
# cgroup case, which needs mkfs.ext4, skips). The u64 read-back and the
# page count clamped to ULONG_MAX are code only 32-bit exercises.
#
#   i386-kselftest.sh BASE
#
# Passes when every case but the cgroup one passes, nothing fails and the
# console holds no kernel report. Output in build/check/BASE/i386-kselftest/.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
tree=$TOP/build/linux-$base
obj=$TOP/build/obj-$base-i386-boot
out=$TOP/build/check/$base/i386-kselftest
logdir=$TOP/build/logs
[ -d "$tree" ] || die "no tree at build/linux-$base; run 'make tree'"
command -v qemu-system-i386 >/dev/null || die "qemu-system-i386 not found; run 'make setup'"
echo 'int main(void) { return 0; }' | gcc -m32 -static -x c -o /dev/null - 2>/dev/null ||
	die "gcc cannot build static i386 programs; run 'make setup' (gcc-multilib)"
use_ccache
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2000" KBUILD_BUILD_USER=bdi KBUILD_BUILD_HOST=workbench
mkdir -p "$obj" "$out" "$logdir"
frag=$obj/i386.config
{
	grep -v '^CONFIG_64BIT=' "$TOP/scripts/kernel.config"
	cat "$tree/tools/testing/selftests/bdi/config"
	# the 32-bit time syscalls a 32-bit time_t userland calls (glibc's
	# clock_nanosleep() and nanosleep() among them), as every i386 distro
	# kernel has them; tinyconfig leaves them out (the kselftest sleeps
	# with poll() and does not need them, but the guest should be a usual
	# i386 system)
	echo CONFIG_COMPAT_32BIT_TIME=y
} >"$frag.new"
kmake() { make -C "$tree" O="$obj" ARCH=i386 CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
if ! cmp -s "$frag.new" "$frag" || [ ! -f "$obj/.config" ]; then
	run_logged "$logdir/config-$base-i386-boot.log" "configuring the i386 kernel" bash -c "
		make -C '$tree' O='$obj' ARCH=i386 HOSTCC='ccache gcc' tinyconfig &&
		'$tree/scripts/kconfig/merge_config.sh' -m -O '$obj' '$obj/.config' '$frag.new' &&
		make -C '$tree' O='$obj' ARCH=i386 HOSTCC='ccache gcc' olddefconfig"
	mv "$frag.new" "$frag"
fi
rm -f "$frag.new"
for o in X86_32 COMPAT_32BIT_TIME BLK_DEV_LOOP DEBUG_FS CGROUP_WRITEBACK SERIAL_8250_CONSOLE BLK_DEV_INITRD; do
	grep -qx "CONFIG_$o=y" "$obj/.config" || die "the i386 config lacks CONFIG_$o"
done
run_logged "$logdir/build-$base-i386-boot.log" "building the i386 kernel ($base)" kmake -j"$(nproc)" bzImage
run_logged "$logdir/headers-$base-i386-boot.log" "i386 user headers" kmake headers_install

stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage"/{dev,proc,sys,tmp}
gcc -m32 -static -O2 -Wall -Wextra -Werror -o "$stage/init" "$TOP/scripts/i386/init.c" ||
	die "cannot build the i386 /init"
gcc -m32 -static -O2 -Wall -isystem "$obj/usr/include" -o "$stage/dirty_background_bytes" \
	"$tree/tools/testing/selftests/bdi/dirty_background_bytes.c" || die "cannot build the i386 kselftest"
(cd "$stage" && find . | cpio -o -H newc --quiet -R 0:0) >"$out/initrd.cpio"
rm -rf "$stage"

log=$out/console.log
# (an Intel vendor string: with QEMU's default AMD one, 32-bit Linux warns
# that the CPU combination is not fit for SMP)
say "booting the i386 kernel in qemu-system-i386 (1 GiB, 2 CPUs); console: ${log#"$TOP"/}"
timeout -k 10 1200 qemu-system-i386 -nodefaults -no-user-config -display none -no-reboot \
	-accel tcg,thread=multi -cpu max,vendor=GenuineIntel -smp 2 -m 1G \
	-kernel "$obj/arch/x86/boot/bzImage" -initrd "$out/initrd.cpio" \
	-append "console=ttyS0 panic=-1 printk.time=1 loglevel=5 rdinit=/init" \
	-serial stdio -monitor none </dev/null 2>"$out/qemu.err" | sed -u 's/\r$//' >"$log"
rc=0
grep -E '^(# )?(ok|not ok) [0-9]+ ' "$log" | sed 's/^/    /'
totals=$(grep -o 'Totals: pass:[0-9]* fail:[0-9]* xfail:[0-9]* xpass:[0-9]* skip:[0-9]* error:[0-9]*' "$log" | head -n 1)
say "i386: ${totals:-no totals}"
skipped=$(grep -E '^ok [0-9]+ [a-z_.]+ # SKIP' "$log" | awk '{ print $3 }' | paste -sd' ')
if ! echo "$totals" | grep -qE 'pass:(1[2-9]) fail:0 xfail:0 xpass:0 skip:[01] error:0'; then
	say "FAIL: want at least 12 passed, nothing failed, at most the cgroup case skipped"
	rc=1
elif [ -n "$skipped" ] && [ "$skipped" != wb.cgroup_contexts_held_on_their_own ]; then
	say "FAIL: skipped: $skipped (only the cgroup case may skip here)"
	rc=1
fi
if ! reports=$("$TOP/scripts/console-check.sh" "$log"); then
	say "KERNEL REPORT in the console log:"
	printf '%s\n' "$reports" | sed 's/^/  ! /'
	rc=1
fi
grep -q '^@@VM-EXIT-STATUS@@' "$log" || { say "FAIL: the guest never reported an exit status"; rc=1; }
exit $rc
