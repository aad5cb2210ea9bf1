#!/bin/bash
# Build build/kernels/BASE-rootwb.bzImage: the whole series, but with the
# over-threshold check looking at the device's root writeback context only
# (wb_over_bdi_bg_bytes() reads &wb->bdi->wb): the kernel the kselftest's
# cgroup case must fail on (check-negative.sh). The change is made in the
# working tree for one incremental build, then undone and the kernel
# rebuilt, so build/obj-BASE ends as it began.
#
#   build-rootwb.sh BASE
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
tree=$TOP/build/linux-$base
f=mm/page-writeback.c
[ -d "$tree/.git" ] || die "no tree at build/linux-$base; run 'make tree'"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "build/linux-$base has uncommitted changes; commit them first"
undo() { git -C "$tree" checkout -q -- "$f"; }
trap undo EXIT
sed -i '/^static inline bool wb_over_bdi_bg_bytes(struct bdi_writeback \*wb)$/{n;s/^{$/{\n\twb = \&wb->bdi->wb;/}' "$tree/$f"
git -C "$tree" diff --quiet -- "$f" && die "cannot find wb_over_bdi_bg_bytes() in build/linux-$base/$f"
say "root-context-only variant: $(git -C "$tree" diff -U0 -- "$f" | grep '^+[^+]')"
bash "$TOP/scripts/build-kernel.sh" "$base" || die "the variant does not build"
mkdir -p "$TOP/build/kernels"
cp "$TOP/build/obj-$base/arch/x86/boot/bzImage" "$TOP/build/kernels/$base-rootwb.bzImage"
undo
say "the series again in build/obj-$base"
bash "$TOP/scripts/build-kernel.sh" "$base" || die "the series does not build again"
say "kernel: build/kernels/$base-rootwb.bzImage"
