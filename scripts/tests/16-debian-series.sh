#!/bin/bash
# The series as Debian's kernel maintainers would carry it: in Debian's
# source package of linux-source-BASE at the version config.mk pins, as a
# quilt series after Debian's own patches (scripts/debian-series.sh).
# quilt applies every patch of the series with no reject and no fuzz, and
# it is the last patches quilt applied. Where the mirror does not serve the
# pinned version, the newest version of the same BASE.x it serves (-f),
# said in the log. make check-full also builds the source package with
# dpkg-source -b and checks what it carries (minutes a base: make check
# stops after quilt, -n). When the mirror serves no version of BASE.x at
# all, the test is "not run" (check.sh counts it apart).
# DEB_SRC_VERSION (with one base): another Debian version of it instead.
. "$TOP/scripts/tests/testlib.sh"

pdir=$TOP/patches/v$BASE
work=$TOP/build/debian-src/$BASE
topic=features/all/bdi-dirty-background-bytes
n=$(ls "$pdir"/*.patch 2>/dev/null | grep -vc -- '0000-cover-letter\.patch$')
mkdir -p "$CHECKDIR"
out=$CHECKDIR/debian-series.out
stamp=$CHECKDIR/debian-series.stamp
: >"$stamp"

args=(-f)
[ "${FULL:-0}" = 1 ] || args+=(-n)
bash "$TOP/scripts/debian-series.sh" "${args[@]}" ${DEB_SRC_VERSION:+-V "$DEB_SRC_VERSION"} "$BASE" 2>&1 | tee "$out" | sed -u 's/^/  | /'
rc=${PIPESTATUS[0]}
case $rc in
0)
	ok "scripts/debian-series.sh ${args[*]} ${DEB_SRC_VERSION:+-V $DEB_SRC_VERSION }$BASE (exit 0)"
	grep -m 1 '^debian-series: NOTE: ' "$out" | sed 's/^debian-series: NOTE: /  note: /' || true
	;;
3) not_run "the mirror serves no Debian source package of linux-source-$BASE ($BASE.x): $(grep -m 1 -E 'does not serve|no Debian source package' "$out" | sed 's/^debian-series: //')" ;;
4) not_ok "a patch of patches/v$BASE does not apply in Debian's source package (exit 4)" ;;
*) not_ok "scripts/debian-series.sh $BASE: exit $rc" ;;
esac
[ "$rc" -eq 0 ] || finish

# quilt's word on every patch of the series (scripts/debian-series.sh's report)
report=$work/quilt-report.txt
got=$(grep -c . "$report" 2>/dev/null || true)
bad=$(grep -E 'FAILED|fuzz|does not apply' "$report" 2>/dev/null || true)
if [ "${got:-0}" -ne "$n" ]; then
	not_ok "quilt reported on ${got:-0} of the $n patches of the series"
elif [ -n "$bad" ]; then
	not_ok "quilt applied patches of the series with rejects or fuzz:"; printf '%s\n' "$bad" | sed 's/^/    /'
else
	ok "quilt applied the $n patches of the series after Debian's, none with a reject or fuzz ($(grep -vc '	clean$' "$report") with offsets)"
fi
tree=$(ls -d "$work"/*/debian/.. 2>/dev/null | head -n 1)
if [ -n "$tree" ] && [ "$(grep -c "^$topic/" "$tree/.pc/applied-patches" 2>/dev/null)" = "$n" ] &&
	[ "$(tail -n "$n" "$tree/.pc/applied-patches")" = "$(grep "^$topic/" "$tree/debian/patches/series")" ]; then
	ok "the series is the last $n patches quilt applied"
else
	not_ok "the series is not the last $n patches quilt applied (.pc/applied-patches)"
fi

# the source package dpkg-source -b made in this run (make check-full)
[ "${FULL:-0}" = 1 ] || finish
dsc=$(find "$work/out" -maxdepth 1 -name '*+bdibg*.dsc' -newer "$stamp" 2>/dev/null | head -n 1)
if [ -z "$dsc" ]; then
	not_ok "dpkg-source -b made no .dsc in ${work#"$TOP"/}/out"
else
	ok "dpkg-source -b made ${dsc#"$TOP"/}"
	dtar=$work/out/$(awk '/^Files:/ { f = 1; next } f && /^ / { print $3 } !/^ / { f = 0 }' "$dsc" | grep 'debian\.tar\.')
	carried=$(tar -tf "$dtar" 2>/dev/null | grep -c "^debian/patches/$topic/.*\.patch$")
	[ "$carried" = "$n" ] && ok "its ${dtar##*/} carries the $n patches in debian/patches/$topic/" ||
		not_ok "its ${dtar##*/} carries $carried of the $n patches in debian/patches/$topic/"
fi
finish
