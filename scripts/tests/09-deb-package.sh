#!/bin/bash
# The Debian package (debian/): scripts/check-deb.sh -n builds it from HEAD
# with its unit tests and lintian finds no error or warning in it;
# DEB_BUILD_OPTIONS=nocheck builds it without the unit tests; tools/Makefile's
# install and uninstall put the files where pkg-config says, or where the
# fallbacks do, and take them away. The install and purge in a chroot
# (piuparts) is test 54, in make check-full: it installs piuparts,
# debootstrap and autopkgtest on the host and fetches a base system from the
# mirror, which CI's run should not depend on.
# host test: runs once
. "$TOP/scripts/tests/testlib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

expect_rc 0 "scripts/check-deb.sh -n" bash "$TOP/scripts/check-deb.sh" -n
lint=$TOP/build/logs/deb-lintian.log
if [ -f "$lint" ] && ! grep -qE '^[EW]: ' "$lint"; then
	ok "lintian: $(grep -cE '^[A-Z]: ' "$lint") tag(s), none an error or a warning"
else
	not_ok "lintian reported errors or warnings (build/logs/deb-lintian.log)"
fi
grep -q '^\[  PASSED  \]' "$TOP/build/logs/deb-build.log" 2>/dev/null &&
	ok "the package build ran the unit tests" || not_ok "the package build ran no unit test"

# nocheck: the same tree, binary only, no unit test built or run
src=$TOP/build/deb/src
if [ -d "$src/debian" ]; then
	(cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$d/nocheck.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && ! grep -q 'test-bdi-writeback\|\[  PASSED  \]' "$d/nocheck.log"; then
		ok "DEB_BUILD_OPTIONS=nocheck builds without the unit tests"
	else
		tail -n 20 "$d/nocheck.log" | sed 's/^/  | /'
		not_ok "DEB_BUILD_OPTIONS=nocheck: exit $rc, or the unit tests were built"
	fi
fi

# install and uninstall with PREFIX=/usr: the directories pkg-config names
udev=$(pkg-config --variable=udevdir udev 2>/dev/null || true)
units=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
files="usr/sbin/bdi-writeback usr/share/man/man8/bdi-writeback.8
	${udev:-/usr/lib/udev}/rules.d/70-bdi-writeback.rules
	${units:-/usr/lib/systemd/system}/bdi-writeback-watch@.service
	${units:-/usr/lib/systemd/system}/bdi-writeback-usb@.service"
make -s -C "$TOP/tools" install PREFIX=/usr DESTDIR="$d/root" >"$d/install.log" 2>&1 ||
	not_ok "make -C tools install PREFIX=/usr: $(tail -n 3 "$d/install.log")"
missing=
for f in $files; do [ -s "$d/root/${f#/}" ] || missing="$missing $f"; done
[ -z "$missing" ] && ok "install PREFIX=/usr: the files in pkg-config's directories (${udev:-no udev.pc}, ${units:-no systemd.pc})" ||
	not_ok "install PREFIX=/usr: missing$missing"
grep -q '^ExecStart=/usr/sbin/bdi-writeback ' "$d/root/${units:-/usr/lib/systemd/system}/bdi-writeback-watch@.service" 2>/dev/null &&
	ok "the units run /usr/sbin/bdi-writeback" || not_ok "the units do not name /usr/sbin/bdi-writeback"
make -s -C "$TOP/tools" uninstall PREFIX=/usr DESTDIR="$d/root" >>"$d/install.log" 2>&1
left=$(find "$d/root" -type f | sed "s|^$d/root||")
[ -z "$left" ] && ok "uninstall removes every file" || not_ok "uninstall left:$left"

# without pkg-config's answers: the merged-/usr fallbacks
make -s -C "$TOP/tools" install PREFIX=/usr DESTDIR="$d/fb" PKG_CONFIG=false >"$d/fb.log" 2>&1
[ -s "$d/fb/usr/lib/udev/rules.d/70-bdi-writeback.rules" ] &&
	[ -s "$d/fb/usr/lib/systemd/system/bdi-writeback-usb@.service" ] &&
	ok "install without pkg-config: /usr/lib/udev/rules.d, /usr/lib/systemd/system" ||
	not_ok "install without pkg-config: $(cd "$d/fb" && find . -type f | tr '\n' ' ')"

# a local install keeps out of the packages' directories
make -s -C "$TOP/tools" install DESTDIR="$d/local" >"$d/local.log" 2>&1
[ -s "$d/local/etc/udev/rules.d/70-bdi-writeback.rules" ] &&
	[ -s "$d/local/usr/local/lib/systemd/system/bdi-writeback-watch@.service" ] &&
	[ -z "$(find "$d/local/lib" "$d/local/usr/lib" 2>/dev/null)" ] &&
	ok "install PREFIX=/usr/local: /etc/udev/rules.d, /usr/local/lib/systemd/system" ||
	not_ok "install PREFIX=/usr/local: $(cd "$d/local" && find . -type f | tr '\n' ' ')"
finish
