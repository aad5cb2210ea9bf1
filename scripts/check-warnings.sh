#!/bin/bash
# W=1 and sparse on what the series touches: the series' kernel C files are
# compiled with `make W=1 C=2` (sparse on each, rebuilt or not) in a build
# folder of their own (build/obj-BASE-w1, the workbench's kernel config),
# and every compiler or sparse warning on a line the series added or
# changed (git diff base..series) is a failure. Warnings on lines the
# series did not touch are counted, not judged: they were there before it.
# A kernel that finds sparse too old (7.2 wants a newer one than Debian
# ships) gets W=1 only, and the summary line says so.
#
#   check-warnings.sh BASE
set -u
. "$(dirname "$0")/lib.sh"

base=${1:-$(default_base)}
tree=$TOP/build/linux-$base
obj=$TOP/build/obj-$base-w1
log=$TOP/build/logs/w1-sparse-$base.log
[ -d "$tree/.git" ] || die "no tree at build/linux-$base; run 'make tree'"
[ -f "$TOP/build/obj-$base/.config" ] || die "no kernel config in build/obj-$base; run 'make kernel'"
command -v sparse >/dev/null || die "sparse not found; run 'make setup'"
use_ccache
from=$(git -C "$tree" describe --tags --abbrev=0 --match 'base-*' series 2>/dev/null) ||
	die "no base-* tag below the series in build/linux-$base"

# what the series touches in the kernel proper (not tools/, not docs)
mapfile -t touched < <(git -C "$tree" diff --name-only "$from" series -- '*.c' '*.h' ':!tools/')
objs=()
for f in "${touched[@]}"; do [[ $f == *.c ]] && objs+=("${f%.c}.o"); done
[ ${#objs[@]} -gt 0 ] || die "the series touches no kernel C file?"

mkdir -p "$obj"
cmp -s "$TOP/build/obj-$base/.config" "$obj/.config" || cp "$TOP/build/obj-$base/.config" "$obj/.config"
run_logged "$log" "W=1 C=2 (sparse) on ${objs[*]} ($base)" \
	make -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" \
	W=1 C=2 "${objs[@]}"

# FILE:LINE of every line the series added or changed
changed=$(for f in "${touched[@]}"; do
	git -C "$tree" diff -U0 "$from" series -- "$f" |
		sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 \3/p' |
		while read -r start n; do
			[ -z "$n" ] && n=1
			for ((l = start; l < start + n; l++)); do echo "$f:$l"; done
		done
done)
warns=$(grep -E '(warning|error):' "$log" | sed 's|^.*/linux-[^/]*/||' | sort -u)
new= old=0
while IFS= read -r w; do
	[ -n "$w" ] || continue
	fl=$(echo "$w" | cut -d: -f1,2)
	if grep -qxF "$fl" <<<"$changed"; then new+="$w"$'\n'; else old=$((old + 1)); fi
done <<<"$(grep -E "^($(IFS='|'; echo "${touched[*]}")):" <<<"$warns")"
if grep -q 'specified, but sparse is not available or not up to date' "$log"; then
	checker="W=1 only: this kernel refuses Debian's sparse $(sparse --version 2>/dev/null) as too old"
else
	checker="W=1 and sparse, $(grep -c '^ *CHECK ' "$log") files checked"
fi
say "$base ($checker): $(wc -l <<<"$changed") lines added or changed in ${#touched[@]} files; warnings on them: $(printf '%s' "$new" | grep -c .); on other lines of those files: $old"
if [ -n "$new" ]; then
	printf '%s' "$new" | sed 's/^/  ! /'
	exit 1
fi
exit 0
