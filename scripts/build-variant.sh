#!/bin/bash
# Build a kernel with a planted fault, for showing that a check catches it:
#
#   build-variant.sh BASE rootwb
#       build/kernels/BASE-rootwb.bzImage: the whole series, but the
#       over-threshold check reads the device's root writeback context only
#       (wb_over_bdi_bg_bytes() looks at &wb->bdi->wb). The kselftest's
#       cgroup case must fail on it (check-negative.sh).
#   build-variant.sh BASE parse
#       build/kernels/BASE-parse.bzImage: the whole series, but the
#       attribute's store parses with base 0 (kstrtoull(buf, 0, ...)), so it
#       takes "0x10" and "010", which the ABI rejects. The stress run's
#       bad-input sweep must report wrong answers on it (check-negative.sh).
#   build-variant.sh BASE nostall
#       build/kernels/BASE-nostall.bzImage: the whole series, but a context
#       whose last background pass ended stuck over its threshold is never
#       left alone (wb_bg_bytes_stalled() answers false), as before patch
#       6. The no-progress test (27) must fail on it.
#   build-variant.sh BASE inflight
#       build/kernels/BASE-inflight.bzImage: the whole series, but the
#       over-threshold check counts the pages under writeback with the
#       dirty ones, summed exactly (so a context stays over its threshold
#       for as long as a stalled disk holds its I/O), and a stuck context
#       is never left alone (as nostall). The fault suite's stalled disk
#       must fail on it.
#   build-variant.sh BASE exactsum
#       build/kernels/BASE-exactsum-scale.bzImage: the scale kernel (256
#       possible CPUs, the function profiler), with the count compared as
#       the first version of the series did: summed whenever the threshold
#       is below twice wb_stat_error(). For scale-cost.sh, beside the scale
#       kernel of the series.
#   build-variant.sh BASE uaf
#       build/kernels/BASE-uaf-debug.bzImage: the debug kernel, with a
#       use-after-free in the attribute's store. KASAN must report it and
#       the VM run fail (exit 125) as soon as the attribute is written.
#
# The change is made in the working tree for one incremental build, then
# undone and the kernel rebuilt, so build/obj-BASE[-debug] ends with the
# series (in the config this run asks for: KERNEL_FS). The variant's config
# is kept beside it as build/kernels/NAME.config.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-} variant=${2:-}
[ -n "$base" ] && [ -n "$variant" ] || die "usage: build-variant.sh BASE rootwb|parse|nostall|inflight|exactsum|uaf"
tree=$TOP/build/linux-$base
[ -d "$tree/.git" ] || die "no tree at build/linux-$base; run 'make tree'"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "build/linux-$base has uncommitted changes; commit them first"
# never leave a stuck context alone: wb_bg_bytes_stalled() answers false
unstall() {
	local fn='^static bool wb_bg_bytes_stalled(struct bdi_writeback \*wb)$'
	sed -i "/$fn/{n;s/^{\$/{\n\treturn false;/}" "$tree/$f"
	grep -A2 "$fn" "$tree/$f" | grep -q 'return false;' ||
		die "cannot find wb_bg_bytes_stalled() in build/linux-$base/$f"
}
# the series' over-threshold check, as perl matches it (inflight, exactsum)
over_check='\treturn __percpu_counter_compare\(&wb->stat\[WB_RECLAIMABLE\], thresh,\n\t+WB_STAT_BATCH\) > 0;'
case $variant in
rootwb)
	f=mm/page-writeback.c flavor= name=$base-rootwb
	plant() {
		sed -i '/^static \(inline \)\?bool wb_over_bdi_bg_bytes(struct bdi_writeback \*wb)$/{n;s/^{$/{\n\twb = \&wb->bdi->wb;/}' "$tree/$f"
	}
	;;
parse)
	f=mm/backing-dev.c flavor= name=$base-parse
	plant() {
		sed -i '/^static ssize_t dirty_background_bytes_store(/,/^}$/s/kstrtoull(buf, 10, /kstrtoull(buf, 0, /' "$tree/$f"
	}
	;;
nostall)
	f=mm/page-writeback.c flavor= name=$base-nostall
	plant() {
		unstall
	}
	;;
inflight)
	f=mm/page-writeback.c flavor= name=$base-inflight
	plant() {
		unstall
		perl -0pi -e "s/$over_check/\\treturn wb_stat_sum(wb, WB_RECLAIMABLE) + wb_stat_sum(wb, WB_WRITEBACK) > thresh;/" "$tree/$f"
		grep -q 'wb_stat_sum(wb, WB_WRITEBACK) > thresh;$' "$tree/$f" ||
			die "cannot find the over-threshold check in build/linux-$base/$f"
	}
	;;
exactsum)
	f=mm/page-writeback.c flavor=scale name=$base-exactsum-scale
	plant() {
		perl -0pi -e "s/$over_check/"'\tif (thresh < 2 * wb_stat_error())\n\t\treturn wb_stat_sum(wb, WB_RECLAIMABLE) > thresh;\n\treturn wb_stat(wb, WB_RECLAIMABLE) > thresh;/' "$tree/$f"
	}
	;;
uaf)
	f=$(cd "$tree" && grep -l '^void bdi_set_dirty_background_bytes(' mm/*.c) ||
		die "no bdi_set_dirty_background_bytes() in build/linux-$base/mm"
	flavor=debug name=$base-uaf-debug
	plant() {
		sed -i '/^void bdi_set_dirty_background_bytes(struct backing_dev_info \*bdi, u64 bytes)$/{n;s/^{$/{\n\tu64 *planted = kmalloc(sizeof(*planted), GFP_KERNEL);\n\n\tif (planted) {\n\t\tkfree(planted);\n\t\tbytes |= READ_ONCE(*planted) \& 0;\n\t}/}' "$tree/$f"
	}
	;;
*) die "unknown variant '$variant' (rootwb, parse, nostall, inflight, exactsum or uaf)" ;;
esac
undo() { git -C "$tree" checkout -q -- "$f"; }
trap undo EXIT
plant
git -C "$tree" diff --quiet -- "$f" && die "cannot find where to plant '$variant' in build/linux-$base/$f"
say "planted in $f:"
git -C "$tree" diff -U0 -- "$f" | grep '^+[^+]' | sed 's/^+/    /'
bash "$TOP/scripts/build-kernel.sh" "$base" $flavor || die "the variant does not build"
mkdir -p "$TOP/build/kernels"
cp "$TOP/build/obj-$base${flavor:+-$flavor}/arch/x86/boot/bzImage" "$TOP/build/kernels/$name.bzImage"
cp "$TOP/build/obj-$base${flavor:+-$flavor}/.config" "$TOP/build/kernels/$name.config"
undo
say "the series again in build/obj-$base${flavor:+-$flavor}"
bash "$TOP/scripts/build-kernel.sh" "$base" $flavor || die "the series does not build again"
say "kernel: build/kernels/$name.bzImage"
