#!/bin/bash
# The kernel's own documentation checks pass on what the series adds:
# scripts/kernel-doc -Wall on every C file and header the series touches,
# and the ABI validator (tools/docs/get_abi.py, scripts/get_abi.py or
# scripts/get_abi.pl, whichever the base has) on Documentation/ABI. Each
# is run on the base and on the base plus the series; the series must add
# no warning, and the ABI tool must find the new entry.
. "$TOP/scripts/tests/testlib.sh"

tree=$TOP/build/linux-$BASE
pdir=$TOP/patches/v$BASE
mapfile -t patches < <(ls "$pdir"/*.patch 2>/dev/null | grep -v -- '-\?0000-cover-letter.patch$')
[ ${#patches[@]} -gt 0 ] || { not_ok "no patches in patches/v$BASE"; finish; }
tag=$(git -C "$tree" describe --tags --abbrev=0 --match 'base-*' 2>/dev/null)
[ -n "$tag" ] || { not_ok "no base tag in build/linux-$BASE"; finish; }

wt=$(mktemp -d "$TOP/build/docs.XXXXXX")
rmdir "$wt"
trap 'git -C "$tree" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt" "$wt".*' EXIT
git -C "$tree" worktree add -q --detach "$wt" "$tag" || { not_ok "cannot make a worktree at $tag"; finish; }

# The C files and headers the series touches (that exist after it).
files=$(cat "${patches[@]}" | sed -n 's|^+++ b/||p' | grep -E '\.[ch]$' | grep -v '^tools/' | sort -u)

# kdoc OUT: kernel-doc warnings for $files that exist, line numbers dropped
kdoc() {
	local f have=()
	for f in $files; do [ -f "$wt/$f" ] && have+=("$f"); done
	[ ${#have[@]} -gt 0 ] || { : >"$1"; return; }
	(cd "$wt" && PATH=/usr/bin:/bin:$PATH scripts/kernel-doc -none -Wall "${have[@]}" 2>&1) |
		sed -E 's/:[0-9]+/:/' | sort -u >"$1"
}
abi_tool() {
	if [ -f "$wt/tools/docs/get_abi.py" ]; then echo "python3 tools/docs/get_abi.py"
	elif [ -f "$wt/scripts/get_abi.py" ]; then echo "python3 scripts/get_abi.py"
	else echo "perl scripts/get_abi.pl"; fi
}
# abi OUT: the validator's warnings, line numbers dropped
abi() { (cd "$wt" && $(abi_tool) validate 2>&1) | sed -E 's/:[0-9]+/:/g' | sort >"$1"; }

kdoc "$wt.kdoc-base"
abi "$wt.abi-base"
if ! git -C "$wt" -c user.name=check -c user.email=check@localhost am -q "${patches[@]}" >"$wt.am" 2>&1; then
	not_ok "the series does not apply on $tag"; sed 's/^/    /' "$wt.am"; finish
fi
kdoc "$wt.kdoc-series"
abi "$wt.abi-series"

new=$(comm -13 "$wt.kdoc-base" "$wt.kdoc-series")
if [ -z "$new" ]; then
	ok "kernel-doc -Wall: no new warning in $(echo "$files" | wc -w) files ($(echo $files))"
else
	not_ok "kernel-doc -Wall warns on what the series adds:"; printf '%s\n' "$new" | sed 's/^/    /'
fi
new=$(comm -13 "$wt.abi-base" "$wt.abi-series")
if [ -z "$new" ]; then
	ok "$(abi_tool | cut -d' ' -f2) validate: no new warning"
else
	not_ok "$(abi_tool | cut -d' ' -f2) validate warns on what the series adds:"; printf '%s\n' "$new" | sed 's/^/    /'
fi
if (cd "$wt" && $(abi_tool) search 'class/bdi/<bdi>/dirty_background_bytes' 2>&1) |
	grep -q 'Defined on file(s):.*sysfs-class-bdi'; then
	ok "the ABI tool finds /sys/class/bdi/<bdi>/dirty_background_bytes in sysfs-class-bdi"
else
	not_ok "the ABI tool does not find /sys/class/bdi/<bdi>/dirty_background_bytes"
fi
finish
