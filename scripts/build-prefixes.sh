#!/bin/bash
# Build the kernel at every prefix of the series in build/linux-BASE
# (the bare base too with WITH_BASE=1: a full rebuild), oldest first, and keep each bzImage as
# build/kernels/BASE-N.bzImage (N patches applied), with its config in
# build/kernels/BASE-N.config. Shows that every prefix
# builds and gives the partial kernels the negative tests boot (BASE-1 is
# the kernel with only the sysfs patch). The tree goes back to its branch
# at the end. The struct change is in patch 1, so after the first build
# each step recompiles only the .c files that differ. PREFIXES="1 2" builds
# only those prefixes (what check-negative boots), not every one.
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-}
[ -n "$base" ] || die "usage: build-prefixes.sh BASE"
tree=$TOP/build/linux-$base
[ -d "$tree/.git" ] || die "no tree at build/linux-$base; run 'make tree'"
g() { git -C "$tree" "$@"; }
[ -z "$(g status --porcelain --untracked-files=no)" ] ||
	die "build/linux-$base has uncommitted changes; commit them first"
branch=$(g symbolic-ref --short HEAD) || die "build/linux-$base is not on a branch"
tag=base-$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' \
	"$tree/Makefile" | paste -sd.)
mkdir -p "$TOP/build/kernels"

n=-1
[ "${WITH_BASE:-0}" = 1 ] || n=0
for c in $([ "$n" = -1 ] && g rev-parse "$tag^{commit}"; g rev-list --reverse "$tag..$branch"); do
	n=$((n + 1))
	if [ -n "${PREFIXES:-}" ] && ! case " $PREFIXES " in *" $n "*) true ;; *) false ;; esac; then
		continue
	fi
	say "prefix $n: $(g log -1 --format=%s "$c")"
	g checkout -q --detach "$c" || die "cannot check out $c"
	if ! bash "$TOP/scripts/build-kernel.sh" "$base"; then
		g checkout -q "$branch"
		die "the series does not build with $n patch(es) applied"
	fi
	cp "$TOP/build/obj-$base/arch/x86/boot/bzImage" "$TOP/build/kernels/$base-$n.bzImage"
	cp "$TOP/build/obj-$base/.config" "$TOP/build/kernels/$base-$n.config"
done
g checkout -q "$branch"
if [ -n "${PREFIXES:-}" ]; then
	say "prefixes $PREFIXES build; kernels in build/kernels/$base-N.bzImage"
else
	say "all $n prefixes build; kernels in build/kernels/$base-1..$n.bzImage"
fi
