#!/bin/bash
# Configure and build the kernel of build/linux-BASE into build/obj-BASE.
#
#   build-kernel.sh BASE [debug|scale]
#
# "debug" builds the same tree with scripts/kernel-debug.config on top
# (KASAN, lockdep, UBSAN, ...) into build/obj-BASE-debug; "scale" with
# scripts/kernel-scale.config (room for 256 CPUs, kprobe events)
# into build/obj-BASE-scale.
#
# The config is tinyconfig plus scripts/kernel.config plus the config of
# each kselftest target in config.mk, plus scripts/kernel-fs.config (XFS,
# btrfs) unless KERNEL_FS=0 (what `make check` sets); it is regenerated every time and only
# replaces the old one when it differs, so nothing rebuilds needlessly.
# Compiles go through ccache.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-} flavor=${2:-}
[ -n "$base" ] || die "usage: build-kernel.sh BASE [debug]"
case $flavor in "" | debug | scale) ;; *) die "unknown kernel flavor '$flavor' (debug or scale)" ;; esac
tree=$TOP/build/linux-$base
name=$base${flavor:+-$flavor}
obj=$TOP/build/obj-$name
logdir=$TOP/build/logs
[ -f "$tree/Makefile" ] || die "no kernel tree at build/linux-$base; run 'make tree' first"
command -v ccache >/dev/null || die "ccache not found; run 'make setup'"

export ARCH=x86_64
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2000"
export KBUILD_BUILD_USER=bdi KBUILD_BUILD_HOST=workbench
use_ccache
jobs=$(nproc)
kmake() { make -C "$tree" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "$@"; }

# make_config: tinyconfig + fragments into $obj/.config. The config is made
# in a scratch build folder so that the real one keeps its .config (and its
# timestamps) unless something changed.
make_config() {
	local scratch=$TOP/build/cfg-$name new l opt val missing
	new=$scratch/.config
	mkdir -p "$scratch"
	rm -f "$scratch/not-in-tree"
	say "configuring: tinyconfig + ${frags[*]#"$TOP"/}"
	{
		make -C "$tree" O="$scratch" HOSTCC="ccache gcc" tinyconfig &&
			"$tree/scripts/kconfig/merge_config.sh" -m -O "$scratch" "$new" "${frags[@]}" &&
			make -C "$tree" O="$scratch" HOSTCC="ccache gcc" olddefconfig
	} >"$logdir/config-$name.log" 2>&1 || die "configuring failed; see build/logs/config-$name.log"

	# Every option the fragments ask for must have survived olddefconfig,
	# but for those this tree's Kconfig does not define (the fragments
	# serve every base: 7.2 has no NFS_V4_1, which it always builds).
	# A later fragment overrides an earlier one (the scale kernel's NR_CPUS):
	# only each option's last value is checked.
	missing=$(cat "${frags[@]}" | grep -E '^CONFIG_[A-Z0-9_]+=' |
		awk -F= '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
			END { for (i = 1; i <= n; i++) print last[order[i]] }' | while IFS= read -r l; do
		opt=${l%%=*} val=${l#*=}
		if ! git -C "$tree" grep -qE "^[[:space:]]*(menu)?config ${opt#CONFIG_}[[:space:]]*$" -- ':(glob)**/Kconfig*'; then
			echo "$l" >>"$scratch/not-in-tree"
		elif [ "$val" = n ]; then
			grep -qE "^$opt=" "$new" && echo "$l"
		else
			grep -qxF "$l" "$new" || echo "$l"
		fi
	done)
	[ -z "$missing" ] || die "the kernel config lost options the fragments ask for (dependencies missing?):
$missing"
	if [ -s "$scratch/not-in-tree" ]; then
		say "not options of this tree, skipped: $(sed 's/=.*//' "$scratch/not-in-tree" | paste -sd' ')"
	fi

	if ! cmp -s "$new" "$obj/.config"; then
		cp "$new" "$obj/.config"
		say "kernel config updated ($(grep -c '=y' "$obj/.config") options built in)"
	fi
	echo "$stamp" >"$obj/.config.stamp"
}

frags=("$TOP/scripts/kernel.config")
# XFS and btrfs (scripts/kernel-fs.config) are in every kernel but those of
# `make check` (KERNEL_FS=0), none of whose tests mounts them
case ${KERNEL_FS:-1} in
1) with_fs=1 ;;
0) with_fs=0 ;;
*) die "KERNEL_FS is 1 (XFS and btrfs in the kernel, the default) or 0 (not), got '$KERNEL_FS'" ;;
esac
[ "$with_fs" = 0 ] || frags+=("$TOP/scripts/kernel-fs.config")
for t in $(cfg KSELFTEST_TARGETS); do
	f=$tree/tools/testing/selftests/$t/config
	[ -f "$f" ] && frags+=("$f")
done
[ -z "$flavor" ] || frags+=("$TOP/scripts/kernel-$flavor.config")

# What the config depends on: the fragments and the tree's Kconfig files
# (their blob hashes from the index, plus any uncommitted change to them).
kconfig_paths=(':(glob)**/Kconfig*' 'arch/x86/configs/' 'kernel/configs/')
stamp=$({
	cat "${frags[@]}"
	git -C "$tree" ls-files -s -- "${kconfig_paths[@]}"
	git -C "$tree" diff HEAD -- "${kconfig_paths[@]}"
} | sha1sum | cut -d' ' -f1)

mkdir -p "$obj" "$logdir"
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.config.stamp" 2>/dev/null)" = "$stamp" ]; then
	say "kernel config is up to date"
else
	make_config
fi

run_logged "$logdir/build-$name.log" "building linux $name bzImage with $jobs jobs" kmake bzImage
say "kernel: ${obj#"$TOP"/}/arch/x86/boot/bzImage"
