#!/bin/bash
# Build the Debian package of bdi-writeback and check it: lintian, then
# piuparts (install, remove and purge in a clean chroot of the machine's own
# Debian release; scripts/piuparts/ runs the installed binary in between),
# and with -a the package's autopkgtests (debian/tests/) in such a chroot.
#
#   check-deb.sh [-n] [-a]    -n: build and lintian only, no chroot
#                             -a: also the autopkgtests (about 2 min more)
#
# The package is built from HEAD (git archive into build/deb/src), so the
# working tree is untouched and uncommitted changes are not in it. The
# chroot's base tarball, made with debootstrap from the mirror the machine's
# apt sources already name, is kept in build/deb/ and made again when it is
# older than CHECK_DEB_BASE_DAYS (7) days or missing. Logs of the long steps
# are under build/logs/ (deb-*.log); the packages are left in build/deb/.
#
# Exit status: 0 all passed; 1 usage or environment (not root, no git, no
# mirror); 2 installing the packaging tools or build dependencies failed;
# 3 the package did not build; 4 lintian reported an error or a warning;
# 5 piuparts failed (or the base tarball could not be made); 6 an
# autopkgtest failed.
set -eu
. "$(dirname "$0")/lib.sh"

chroot_test=1 autopkg=0
while getopts na o; do
	case $o in
	n) chroot_test=0 ;;
	a) autopkg=1 ;;
	*) echo "usage: $0 [-n] [-a]" >&2; exit 1 ;;
	esac
done
[ "$chroot_test" = 1 ] || [ "$autopkg" = 0 ] || die "-a needs the chroot: not with -n"

[ "$(id -u)" = 0 ] || die "must run as root (apt-get, piuparts' chroot)"
git -C "$TOP" rev-parse --verify -q HEAD >/dev/null || die "$TOP is not a git work tree with a commit"

out=$TOP/build/deb
logs=$TOP/build/logs
mkdir -p "$out" "$logs"
t_start=$(date +%s)

# fail CODE LOG MSG: stop with CODE after the tail of LOG
fail() {
	local code=$1 log=$2
	shift 2
	[ -f "$log" ] && tail -n 25 "$log" | sed 's/^/  | /' >&2
	echo "$PROG: $*; full log: ${log#"$TOP"/}" >&2
	exit "$code"
}

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'; }

# 1. The packaging tools (idempotent; apt-get update only when something is
# missing).
tools="dpkg-dev debhelper fakeroot lintian"
[ "$chroot_test" = 1 ] && tools="$tools piuparts debootstrap"
[ "$autopkg" = 1 ] && tools="$tools autopkgtest"
missing=
for p in $tools; do installed "$p" || missing="$missing $p"; done
setup_log=$logs/deb-setup.log
: >"$setup_log"
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	say "installing the packaging tools:$missing (log: ${setup_log#"$TOP"/})"
	apt-get update >>"$setup_log" 2>&1 || fail 2 "$setup_log" "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends $missing >>"$setup_log" 2>&1 ||
		fail 2 "$setup_log" "installing$missing failed"
fi

# 2. A clean copy of the committed tree.
src=$out/src
rm -rf "$src" "$out"/bdi-writeback_* "$out"/bdi-writeback-dbgsym_*
mkdir -p "$src"
git -C "$TOP" archive --format=tar HEAD | tar -x -C "$src"
[ -n "$(git -C "$TOP" status --porcelain -- debian tools)" ] &&
	say "note: debian/ or tools/ has uncommitted changes; the package is built from HEAD without them"
version=$(cd "$src" && dpkg-parsechangelog -S Version)
say "building bdi-writeback $version from $(git -C "$TOP" rev-parse --short HEAD) in ${src#"$TOP"/}"

# 3. Its build dependencies, then the source and binary packages.
deps_log=$logs/deb-build-deps.log
if ! (cd "$src" && dpkg-checkbuilddeps) >"$deps_log" 2>&1; then
	say "installing the build dependencies (log: ${deps_log#"$TOP"/})"
	{ apt-get update && apt-get build-dep -y --no-install-recommends "$src"; } >>"$deps_log" 2>&1 ||
		fail 2 "$deps_log" "installing the build dependencies failed"
fi
build_log=$logs/deb-build.log
t0=$(date +%s)
say "dpkg-buildpackage -us -uc (log: ${build_log#"$TOP"/})"
(cd "$src" && dpkg-buildpackage -us -uc) >"$build_log" 2>&1 ||
	fail 3 "$build_log" "the package did not build"
changes=$(ls "$out"/bdi-writeback_"$version"_*.changes)
deb=$(ls "$out"/bdi-writeback_"$version"_*.deb)
grep -q '^\[  PASSED  \]' "$build_log" || case " ${DEB_BUILD_OPTIONS:-} " in
	*" nocheck "*) say "unit tests skipped (DEB_BUILD_OPTIONS=nocheck)" ;;
	*) fail 3 "$build_log" "the build ran no unit test" ;;
	esac
say "built in $(($(date +%s) - t0)) s: $(cd "$out" && ls ./*.deb ./*.dsc | sed 's|^\./||' | tr '\n' ' ')"
dpkg-deb -c "$deb" | awk '{ print "  " $1 " " $6 }'

# 4. lintian on the source and the binary packages. Every tag is shown
# (info, pedantic and experimental ones too); errors and warnings fail. It
# runs as nobody where nobody can read the packages (lintian unpacks what it
# checks and says it should not run as root), else as root.
lint_log=$logs/deb-lintian.log
say "lintian --display-info --display-experimental --pedantic --fail-on error,warning (log: ${lint_log#"$TOP"/})"
as_user=()
if id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null; then
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/nonexistent)
	"${as_user[@]}" test -r "$changes" -a -r "$deb" || as_user=()
fi
set +e
(cd / && "${as_user[@]}" lintian --display-info --display-experimental --pedantic --fail-on error,warning "$changes") >"$lint_log" 2>&1
rc=$?
set -e
sed 's/^/  lintian: /' "$lint_log"
[ -s "$lint_log" ] || echo "  lintian: (no tags)"
[ "$rc" -eq 0 ] || fail 4 "$lint_log" "lintian failed (exit $rc)"
say "lintian: no error or warning"

if [ "$chroot_test" = 0 ]; then
	say "done in $(($(date +%s) - t_start)) s (no chroot test: -n)"
	exit 0
fi

# 5. piuparts: the machine's own release from the mirror its apt sources
# name, as a cached base tarball.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "cannot tell this machine's Debian release from /etc/os-release"
mirror=$(apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
	awk -v r="$codename" '$2 == r { print $1; exit }')
[ -n "$mirror" ] || die "no apt source of this machine serves '$codename'; cannot tell which mirror to use"
base=$out/piuparts-$codename.tar.gz
piu_log=$logs/deb-piuparts.log
: >"$piu_log"
mkdir -p "$out/tmp"
piu=(piuparts --distribution="$codename" --mirror="$mirror main" --tmpdir="$out/tmp"
	--scriptsdir="$src/scripts/piuparts" --log-file="$piu_log")
days=${CHECK_DEB_BASE_DAYS:-7}
if [ -f "$base" ] && [ -n "$(find "$base" -mtime -"$days")" ]; then
	say "piuparts with the cached base ${base#"$TOP"/} (log: ${piu_log#"$TOP"/})"
	piu+=(--basetgz="$base")
else
	# debootstrap of a minimal chroot, saved for the next runs
	say "piuparts, first making the base ${base#"$TOP"/} with debootstrap from $mirror (log: ${piu_log#"$TOP"/})"
	rm -f "$base"
	piu+=(--save="$base.new")
fi
t0=$(date +%s)
set +e
"${piu[@]}" "$changes" >/dev/null 2>&1
rc=$?
set -e
[ -f "$base.new" ] && mv -f "$base.new" "$base"
# What piuparts did: its INFO, WARNING and ERROR lines, and what the custom
# scripts printed (scripts/piuparts/). The commands' own output is in the log.
awk '
	/^[0-9]+m[0-9.]+s [A-Z]+:/ {
		dump = ($2 == "DUMP:" && custom)
		if ($2 != "DUMP:" && $2 != "DEBUG:") custom = 0
		if ($0 ~ /INFO: Running scripts post_install/) custom = 1
		if ($2 != "DEBUG:" && $2 != "DUMP:") { sub(/^[0-9]+m[0-9.]+s /, ""); print "  piuparts: " $0 }
		next
	}
	dump { print "  piuparts:   " $0 }
' "$piu_log"
[ "$rc" -eq 0 ] || fail 5 "$piu_log" "piuparts failed (exit $rc) after $(($(date +%s) - t0)) s"
say "piuparts passed in $(($(date +%s) - t0)) s"

# 6. The autopkgtests, in a chroot unpacked from the same base tarball with
# /proc, /sys and /dev/pts mounted (the unit tests' sanitizers read /proc,
# the smoke test lists /sys/class/bdi); autopkgtest installs the test
# dependencies into it from the mirror. The chroot is removed afterwards.
if [ "$autopkg" = 1 ]; then
	atroot=$out/autopkgtest/root
	ap_log=$logs/deb-autopkgtest.log
	# umount_all: whatever is still mounted below the chroot
	umount_all() {
		local m
		for m in dev/pts sys proc; do
			mountpoint -q "$atroot/$m" 2>/dev/null && { umount "$atroot/$m" || umount -l "$atroot/$m"; }
		done
		return 0
	}
	trap umount_all EXIT
	umount_all
	rm -rf --one-file-system "$out/autopkgtest"
	mkdir -p "$atroot"
	tar -xzf "$base" -C "$atroot"
	mount -t proc proc "$atroot/proc"
	mount -t sysfs sysfs "$atroot/sys"
	mount --bind /dev/pts "$atroot/dev/pts"
	say "autopkgtest in a chroot of ${base#"$TOP"/} (log: ${ap_log#"$TOP"/})"
	t0=$(date +%s)
	set +e
	# run from build/deb: in a folder with a debian/ autopkgtest would take
	# that folder for the source as well
	(cd "$out" && timeout 1200 autopkgtest --output-dir "$out/autopkgtest/out" \
		"${changes%_*.changes}.dsc" "$deb" -- chroot "$atroot") >"$ap_log" 2>&1
	rc=$?
	set -e
	umount_all
	trap - EXIT
	# the summary: one line per test
	summary=$(sed -n '/@@@@ summary/,$p' "$ap_log" | grep -E '^[^ ]+ +(PASS|FAIL|SKIP|FLAKY|BAD|ERROR)' || true)
	printf '%s\n' "${summary:-no summary (see the log)}" | sed 's/^/  autopkgtest: /'
	# exit 0 all passed, 2 some skipped, 8 none could run: only 0 is a pass
	[ "$rc" -eq 0 ] || fail 6 "$ap_log" "autopkgtest failed (exit $rc)"
	findmnt -rn -o TARGET | grep -q "^$atroot/" || rm -rf --one-file-system "$out/autopkgtest/root"
	say "autopkgtest passed in $(($(date +%s) - t0)) s"
fi
say "done in $(($(date +%s) - t_start)) s: packages in ${out#"$TOP"/}"
