#!/bin/bash
# The series as a Debian kernel maintainer carries it: a quilt series in
# Debian's own `linux` source package, on top of Debian's patches.
#
#   debian-series.sh [-n] [-f] [-V VERSION] BASE
#
# Finds the Debian source package that builds linux-source-BASE at the
# version config.mk pins (DEB_VERSION_BASE; -V: another version of it),
# downloads it with apt-get source into build/debian-src/BASE/ (kept: a
# second run downloads nothing), unpacks it with dpkg-source -x, copies
# patches/vBASE/ (not the cover letter) to
# debian/patches/features/all/bdi-dirty-background-bytes/, appends them to
# debian/patches/series, adds a changelog entry, applies the whole series
# with quilt (Debian's patches, then the project's) and builds the source
# package with dpkg-source -b into build/debian-src/BASE/out/. Reports
# every project patch's offsets, fuzz or conflicts and the Debian patches
# that touch the same files. Log: build/logs/debian-series-BASE.log, and
# one per step beside it.
#
# -n: stop after quilt's report, without dpkg-source -b (minutes less; what
# make check runs). -f: when the mirror does not serve the version asked
# for, the newest version of the same upstream series (BASE.x) it does
# serve, said as such.
#
# Exit status: 0 done; 1 a step failed (see its log); 2 bad usage;
# 3 the mirror does not serve that source package at that version;
# 4 a patch of the series does not apply (conflict, or only with fuzz,
# which dpkg-source refuses).
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib-apt.sh"

usage() {
	echo "usage: debian-series.sh [-n] [-f] [-V VERSION] BASE (BASE: $(cfg BASES))" >&2
	exit 2
}
version= nobuild= fallback=
while getopts nfV: o; do
	case $o in
	V) version=$OPTARG ;;
	n) nobuild=1 ;;
	f) fallback=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
base=$1
case " $(cfg BASES) " in *" $base "*) ;; *)
	echo "$PROG: unknown base '$base' (config.mk BASES: $(cfg BASES))" >&2
	exit 2
	;;
esac
pinned=$(cfg "DEB_VERSION_$base")
version=${version:-$pinned}
bin=linux-source-$base
pdir=$TOP/patches/v$base
# Where Debian's kernel team keeps a multi-patch feature that is not in
# this version's upstream: features/ (new functionality; bugfix/ is for
# fixes, debian/ for Debian's own changes), all/ (no architecture of its
# own), and a folder for the topic.
topic=features/all/bdi-dirty-background-bytes
work=$TOP/build/debian-src/$base
dl=$work/dl
out=$work/out
logdir=$TOP/build/logs
log=$logdir/debian-series-$base.log

mapfile -t patches < <(ls "$pdir"/*.patch 2>/dev/null | grep -v -- '0000-cover-letter\.patch$' || true)
[ ${#patches[@]} -gt 0 ] || die "no patches in ${pdir#"$TOP"/}"
[ "$(id -u)" = 0 ] || die "must run as root (apt-get source needs its own package lists: a private apt configuration under build/apt/)"
for c in apt-get dpkg-source quilt; do
	command -v "$c" >/dev/null || die "$c not found; run 'make setup' (packages apt, dpkg-dev, quilt)"
done

mkdir -p "$logdir" "$dl"
exec > >(tee "$log") 2>&1
trap 'say "stopped by a failed command at line $LINENO (exit $?); log: ${log#"$TOP"/}" >&2' ERR
t_all=$(date +%s)
if [ "$version" = "$pinned" ]; then
	say "base $base: the Debian source package of $bin $version (pinned in config.mk)"
else
	say "base $base: the Debian source package of $bin $version (-V; config.mk pins $pinned)"
fi

# served_list: the versions of $src the mirror's index lists, and how to
# choose one
served_list() {
	[ -n "${src:-}" ] || return 0
	say "versions of Debian's $src source package in the mirror's index (not all of them may be served):" >&2
	apt-cache "${aptopts[@]}" madison "$src" 2>/dev/null |
		awk -F'|' '$3 ~ /Sources/ { gsub(/ /, "", $2); sub(/^ +/, "", $3); print "  " $2 "  (" $3 ")" }' >&2
	say "to try the series on another version: scripts/debian-series.sh -V VERSION $base" >&2
}

# source_package: "NAME VERSION" of the source package whose Binary list
# holds $bin at $version, from apt's deb-src index
source_package() {
	apt-cache "${aptopts[@]}" showsrc "$bin" 2>/dev/null | awk -v want="$version" -v bin="$bin" '
		function check() { if (v == want && index("," b ",", "," bin ",")) { print p " " v; found = 1 } }
		/^Package: / { p = $2 }
		/^Version: / { v = $2 }
		/^Binary: / { b = substr($0, 9); inb = 1; next }
		inb && /^ / { b = b $0; next }
		{ inb = 0; gsub(/ /, "", b) }
		/^$/ { check(); p = v = b = "" }
		END { if (!found) check() }' | head -n 1
}

# candidates: the other versions of the base's upstream series (BASE.x)
# whose source package builds $bin, newest first
candidates() {
	apt-cache "${aptopts[@]}" showsrc "$bin" 2>/dev/null | awk -v bin="$bin" '
		/^Version: / { v = $2 }
		/^Binary: / { b = substr($0, 9); inb = 1; next }
		inb && /^ / { b = b $0; next }
		{ inb = 0; gsub(/ /, "", b) }
		/^$/ { if (v != "" && index("," b ",", "," bin ",")) print v; v = b = "" }
		END { if (v != "" && index("," b ",", "," bin ",")) print v }' |
		grep -F -- "$base." | awk -v b="$base." 'index($0, b) == 1 || index($0, ":" b)' |
		grep -vxF -- "$version" | sort -u | sort -rV || true
}

# 1. Which source package, and its files (cached in $dl).
srcfile=$dl/source-package
# The suites config.mk names for the base, or those of the machine's own
# release that its apt sources name.
suites=$(sed -n "s/^DEB_SUITES_$base[[:space:]]*:=[[:space:]]*//p" "$TOP/config.mk")
[ -n "$suites" ] || suites=$(machine_suites)
private_apt "$TOP/build/apt/debian-src-$base" deb-src $suites
updated=

# fetch: the source package of $bin $version in $dl (src and dsc set);
# 3 when the mirror does not serve it (said why), 1 on another failure
fetch() {
	local size
	src= dsc=
	if [ -f "$srcfile" ] && [ "$(cut -d' ' -f2 "$srcfile")" = "$version" ]; then
		src=$(cut -d' ' -f1 "$srcfile")
		dsc=$dl/${src}_${version#*:}.dsc
		if [ -f "$dsc" ] && awk '/^Files:/ { f = 1; next } f && /^ / { print $3; next } { f = 0 }' "$dsc" |
			(cd "$dl" && xargs -r ls >/dev/null 2>&1); then
			say "$src $version: already downloaded in ${dl#"$TOP"/}"
			return 0
		fi
	fi
	if [ -z "$updated" ]; then
		run_logged_rc "$logdir/debian-series-$base-apt.log" "reading the deb-src index of $(echo $suites)" \
			apt-get "${aptopts[@]}" update || die "apt-get update of the deb-src lines failed"
		updated=1
	fi
	read -r src _ < <(source_package) || true
	if [ -z "${src:-}" ]; then
		say "no Debian source package in $(echo $suites) builds $bin $version" >&2
		return 3
	fi
	say "$bin $version is built by the source package '$src'"
	echo "$src $version" >"$srcfile"
	dsc=$dl/${src}_${version#*:}.dsc
	size=$(apt-get "${aptopts[@]}" source --print-uris --download-only "$src=$version" 2>/dev/null |
		awk -F"'" '/^'"'"'/ { split($3, a, " "); s += a[2] } END { printf "%d", s / 1048576 }')
	if ! run_logged_rc "$logdir/debian-series-$base-download.log" \
		"downloading $src $version ($size MiB) into ${dl#"$TOP"/}" \
		env -C "$dl" apt-get "${aptopts[@]}" source --download-only "$src=$version"; then
		if grep -q '404 *Not Found' "$logdir/debian-series-$base-download.log"; then
			say "the mirror lists $src $version in its index but does not serve its files (404 Not Found: $(sed -n 's|^E: Failed to fetch .*/\([^/ ]*\)  *404 .*|\1|p' "$logdir/debian-series-$base-download.log" |
				sed 's/%7[eE]/~/g; s/%2[bB]/+/g' | sort -u | xargs))" >&2
			return 3
		fi
		die "downloading $src $version failed; see build/logs/debian-series-$base-download.log"
	fi
}

frc=0
fetch || frc=$?
if [ "$frc" -eq 3 ] && [ -n "$fallback" ]; then
	asked=$version
	for v in $(candidates); do
		version=$v
		say "-f: trying $bin $version, the newest $base.x in the index not tried yet"
		frc=0
		fetch || frc=$?
		[ "$frc" -eq 3 ] || break
	done
	[ "$frc" -ne 0 ] || say "NOTE: the series is checked on Debian's $src $version, not on $asked, which the mirror does not serve"
	[ "$frc" -eq 0 ] || { version=$asked; say "-f: the mirror serves no version of $bin $base.x" >&2; }
fi
if [ "$frc" -eq 3 ]; then
	served_list
	exit 3
fi
[ -f "$dsc" ] || die "apt-get source gave no ${dsc##*/}; see build/logs/debian-series-$base-download.log"

# 2. Debian's tree, unpacked without Debian's patches: quilt applies them
# and the series. The tree of an earlier run of the same .dsc is reused with
# the series taken off again: removing and unpacking a kernel tree takes
# minutes. $keep holds Debian's series and changelog as unpacked, and the
# checksum of the .dsc they came from.
upver=${version#*:}
upver=${upver%-*}
tree=$work/$src-$upver
keep=$work/debian-state
q() { env -C "$tree" QUILT_PATCHES=debian/patches QUILT_PC=.pc quilt --quiltrc=- "$@"; }
# series_list FILE: the patches a quilt series file names, in order
series_list() { grep -v '^[[:space:]]*\(#\|$\)' "$1" | awk '{ print $1 }' || true; }
reused=
if [ -d "$tree" ] && [ -f "$keep/dsc.sha256" ] && [ "$(sha256sum <"$dsc")" = "$(cat "$keep/dsc.sha256")" ]; then
	ours=$(grep -c "^$topic/" "$tree/.pc/applied-patches" 2>/dev/null || true)
	if [ "${ours:-0}" -eq 0 ] || q pop -q "$ours" >"$logdir/debian-series-$base-pop.log" 2>&1; then
		[ "$(cat "$tree/.pc/applied-patches" 2>/dev/null)" != "$(series_list "$keep/series")" ] || reused=1
	fi
fi
rm -rf "$out"
if [ -n "$reused" ]; then
	cp "$keep/series" "$tree/debian/patches/series"
	cp "$keep/changelog" "$tree/debian/changelog"
	rm -rf "${tree:?}/debian/patches/$topic"
	say "reusing ${tree#"$TOP"/} of an earlier run, Debian's patches applied, the series taken off"
else
	if [ -e "$tree" ] || [ -e "$keep" ]; then
		run_logged "$logdir/debian-series-$base-remove.log" "removing the tree of an earlier run (${tree#"$TOP"/})" \
			rm -rf "$tree" "$keep"
	fi
	run_logged "$logdir/debian-series-$base-unpack.log" "unpacking ${dsc##*/} (dpkg-source -x --skip-patches)" \
		dpkg-source --skip-patches -x "$dsc" "$tree"
	# dpkg-source -x copies the upstream tarball beside the tree; it is in $dl
	rm -f "$work/${src}_$upver".orig.tar.*
	grep -qx '3.0 (quilt)' "$tree/debian/source/format" ||
		die "$src $version is not a '3.0 (quilt)' source package"
	[ ! -e "$tree/debian/patches/$topic" ] || die "$src $version already has debian/patches/$topic"
	mkdir -p "$keep"
	cp "$tree/debian/patches/series" "$tree/debian/changelog" "$keep/"
	sha256sum <"$dsc" >"$keep/dsc.sha256"
fi

# 3. The series in debian/patches/, at the end of Debian's series, under
# its git format-patch names without the revision ("0001-...patch").
mkdir -p "$tree/debian/patches/$topic"
ndeb=$(series_list "$tree/debian/patches/series" | grep -c . || true)
{
	[ -z "$(tail -c 1 "$tree/debian/patches/series")" ] || echo
	echo
	echo "# Per-device background writeback threshold,"
	echo "# /sys/class/bdi/<bdi>/dirty_background_bytes (series v$(cfg SERIES_VERSION))"
	for p in "${patches[@]}"; do
		name=$(basename "$p" | sed 's/^v[0-9]*-//')
		cp "$p" "$tree/debian/patches/$topic/$name"
		echo "$topic/$name"
	done
} >>"$tree/debian/patches/series"
say "${#patches[@]} patches of ${pdir#"$TOP"/} added to debian/patches/$topic/ after Debian's $ndeb"

# A changelog entry: the package now carries the series, under a version
# of its own that sorts after Debian's. Its date is the cover letter's.
newver=$version+bdibg$(cfg SERIES_VERSION)
cover=$(ls "$pdir"/*0000-cover-letter.patch 2>/dev/null | head -n 1 || true)
date=$(sed -n 's/^Date: //p' "${cover:-${patches[0]}}" | head -n 1)
{
	echo "$src ($newver) UNRELEASED; urgency=medium"
	echo
	echo "  * Add a per-device background writeback threshold,"
	echo "    /sys/class/bdi/<bdi>/dirty_background_bytes (series v$(cfg SERIES_VERSION)):"
	for p in "${patches[@]}"; do
		awk '/^Subject: / { s = $0; while ((getline l) > 0 && l ~ /^[ \t]/) s = s l; print s; exit }' "$p" |
			sed 's/^Subject: *\[[^]]*\] *//; s/[ \t][ \t]*/ /g' | fold -s -w 68 | sed 's/ *$//; 1s/^/    - /; 2,$s/^/      /'
	done
	echo
	echo " -- $(cfg IDENTITY_NAME) <$(cfg IDENTITY_EMAIL)>  $(date -R -d "$date")"
	echo
	cat "$tree/debian/changelog"
} >"$tree/debian/changelog.new"
mv "$tree/debian/changelog.new" "$tree/debian/changelog"

# 4. quilt push -a: Debian's patches, then the series.
qlog=$logdir/debian-series-$base-quilt.log
qrc=0
if [ -n "$reused" ]; then
	what="applying the ${#patches[@]} patches of the series with quilt (Debian's $ndeb are applied)"
else
	what="applying Debian's $ndeb patches and the ${#patches[@]} of the series with quilt"
fi
run_logged_rc "$qlog" "$what" q push -a || qrc=$?

# What quilt said about each patch of the series: offsets, fuzz, failed
# hunks. One line a patch: "NAME<TAB>clean" or "NAME<TAB>FILE: #HUNK NOTE,
# ...; FILE: ..." where NOTE is the offset in lines, "fuzz N" or FAILED.
report=$work/quilt-report.txt
awk -v topic="$topic/" '
	function flush(   f, s) {
		if (cur == "") return
		s = ""
		for (k = 1; k <= nf; k++) { f = files[k]; if (hunks[f] != "") s = s (s == "" ? "" : "; ") f ":" hunks[f] }
		if (failed) s = s (s == "" ? "" : "; ") "does not apply"
		print cur "\t" (s == "" ? "clean" : s)
	}
	/^Applying patch / { flush(); cur = ""; nf = 0; failed = 0; delete hunks
		p = $3; sub(/^debian\/patches\//, "", p)
		if (index(p, topic) == 1) cur = substr(p, length(topic) + 1)
		next }
	cur == "" { next }
	/^patching file / { file = $3; if (!(file in hunks)) { files[++nf] = file; hunks[file] = "" } next }
	/^Hunk #[0-9]+ / {
		note = ""
		if (match($0, /offset -?[0-9]+/)) { o = substr($0, RSTART + 7, RLENGTH - 7); note = (o > 0 ? "+" : "") o }
		if (match($0, /with fuzz [0-9]+/)) note = note (note == "" ? "" : " ") substr($0, RSTART + 5, RLENGTH - 5)
		if ($0 ~ /FAILED/) note = "FAILED"
		hunks[file] = hunks[file] (hunks[file] == "" ? " " : ", ") $2 " " note
		next }
	/does not apply/ { failed = 1 }
	END { flush() }' "$qlog" >"$report"
say "the series on Debian's $src $version (by hunk: offset in lines, fuzz, FAILED):"
while IFS=$'\t' read -r name notes; do
	printf '%s:   %-62s %s\n' "$PROG" "$name" "$notes"
done <"$report"

# Debian's patches that touch a file the series touches, in its main series
# and in its featuresets' (debian/patches-rt/, applied after the main series
# for the rt flavour): where a later Debian release may conflict with the
# series or move its hunks.
files=$(cat "${patches[@]}" | sed -n 's|^+++ b/||p' | sort -u)
overlap=$(
	{
		series_list "$keep/series" | sed 's|^|patches/|'
		for fs in "$tree"/debian/patches-*/series; do
			[ -f "$fs" ] || continue
			d=${fs%/series}
			series_list "$fs" | sed "s|^|${d##*/}/|"
		done
	} | while read -r dp; do
		sed -n 's|^+++ [^/[:space:]]*/\([^[:space:]]*\).*|\1|p' "$tree/debian/$dp" 2>/dev/null |
			sort -u | grep -Fxf <(echo "$files") | sed "s|^|debian/$dp |" || true
	done)
fsets=$(cd "$tree/debian" && ls -d patches-* 2>/dev/null | xargs)
if [ -n "$overlap" ]; then
	say "Debian's patches (debian/patches${fsets:+, $fsets}) that touch files of the series:"
	echo "$overlap" | sed "s/^/$PROG:   /"
else
	say "no Debian patch (debian/patches${fsets:+, $fsets}) touches a file of the series"
fi

applied=$(grep -c "^$topic/" "$tree/.pc/applied-patches" 2>/dev/null || true)
applied=${applied:-0}
if [ "$qrc" -ne 0 ]; then
	failed=$(sed -n 's|^Patch \(debian/patches/\)\{0,1\}\(.*\) does not apply.*|\2|p' "$qlog" | head -n 1)
	case $failed in
	"$topic"/*)
		say "CONFLICT: ${failed#"$topic"/} does not apply on Debian's $src $version (after $applied of the series); failed hunks:" >&2
		awk -v p="$failed" '/^Applying patch / { on = index($0, p) > 0 }
			on && /^(patching file|Hunk #[0-9]+ FAILED)/' "$qlog" | sed "s/^/$PROG:   /" >&2
		say "see ${qlog#"$TOP"/}" >&2
		exit 4
		;;
	"") die "quilt push failed (exit $qrc); see ${qlog#"$TOP"/}" ;;
	*) die "Debian's own patch $failed does not apply to its own tree; see ${qlog#"$TOP"/}" ;;
	esac
fi
[ "$applied" -eq ${#patches[@]} ] ||
	die "quilt applied $applied of the ${#patches[@]} patches of the series; see ${qlog#"$TOP"/}"
if grep -q 'fuzz' "$report"; then
	say "the series applies to $src $version only with fuzz, which dpkg-source refuses (it applies with fuzz 0):" >&2
	say "refresh those patches (quilt refresh) in the Debian tree, or the series on this base" >&2
	exit 4
fi

if [ -n "$nobuild" ]; then
	say "-n: no source package built (dpkg-source -b)"
	say "done in $(($(date +%s) - t_all)) s (log: ${log#"$TOP"/})"
	exit 0
fi

# 5. The source package: dpkg-source -b finds the upstream tarball in the
# folder it writes to.
mkdir -p "$out"
for f in "$dl"/"${src}_${upver}".orig*; do ln -sf "$f" "$out/"; done
run_logged_rc "$logdir/debian-series-$base-build.log" "building the source package (dpkg-source -b) into ${out#"$TOP"/}" \
	env -C "$out" dpkg-source -b "$tree" ||
	die "dpkg-source -b failed; see build/logs/debian-series-$base-build.log (a change made by hand in ${tree#"$TOP"/} stays in it: remove build/debian-src/$base to start over)"
newdsc=$out/${src}_${newver#*:}.dsc
[ -f "$newdsc" ] || die "dpkg-source -b made no ${newdsc##*/}; see build/logs/debian-series-$base-build.log"
say "built ${newdsc#"$TOP"/} ($(awk '/^Files:/ { f = 1; next } f && /^ / { print $3 } !/^ / && !/^Files:/ { f = 0 }' "$newdsc" | xargs))"
say "done in $(($(date +%s) - t_all)) s (log: ${log#"$TOP"/})"
