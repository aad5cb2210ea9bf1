#!/bin/bash
# Compile the series' C files for 32-bit x86 (i386) and check that they
# need no 64-bit division helpers (__udivdi3 and friends do not exist in
# the kernel): the bytes-to-pages conversion must be a shift.
#
#   check-32bit.sh BASE
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
tree=$TOP/build/linux-$base
obj=$TOP/build/obj-$base-i386
[ -d "$tree" ] || die "no tree at build/linux-$base; run 'make tree'"
use_ccache
files="mm/page-writeback.o mm/backing-dev.o"
frag=$(mktemp)
trap 'rm -f "$frag"' EXIT
# cgroup writeback on, so that its code paths are compiled too.
printf '%s\n' CONFIG_SMP=y CONFIG_BLOCK=y CONFIG_CGROUPS=y CONFIG_MEMCG=y \
	CONFIG_BLK_CGROUP=y CONFIG_CGROUP_WRITEBACK=y CONFIG_DEBUG_FS=y >"$frag"
mkdir -p "$obj"
run_logged "$TOP/build/logs/i386-$base.log" "compiling $files for i386" bash -c "
	make -C '$tree' O='$obj' ARCH=i386 HOSTCC='ccache gcc' tinyconfig &&
	'$tree/scripts/kconfig/merge_config.sh' -m -O '$obj' '$obj/.config' '$frag' &&
	make -C '$tree' O='$obj' ARCH=i386 HOSTCC='ccache gcc' olddefconfig &&
	grep -q '^CONFIG_CGROUP_WRITEBACK=y' '$obj/.config' &&
	make -C '$tree' O='$obj' ARCH=i386 CC='ccache gcc' HOSTCC='ccache gcc' -j$(nproc) $files"
bad=$(cd "$obj" && nm $files | grep -E ' U __(u)?(div|mod)di3$')
[ -z "$bad" ] || die "64-bit division helpers needed on i386: $bad"
say "i386: $files compile warning-free and need no 64-bit division helpers"
grep -E 'warning:' "$TOP/build/logs/i386-$base.log" && die "compiler warnings on i386"
exit 0
