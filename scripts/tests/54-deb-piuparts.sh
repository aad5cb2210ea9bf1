#!/bin/bash
# The Debian package installed, run, removed and purged in a clean chroot of
# the machine's Debian release: scripts/check-deb.sh -a builds it from HEAD,
# lintian, then piuparts (scripts/piuparts/ checks the installed files and
# runs the binary; nothing may be left after the purge), then the package's
# autopkgtests (debian/tests/) in another such chroot. The chroot's base
# tarball is made with debootstrap on the first run and kept in build/deb/
# for a week; a first run took 90 s here, 22 s of it debootstrap (longer
# from a slower mirror).
# host test: runs once
# full test: make check-full only
. "$TOP/scripts/tests/testlib.sh"

expect_rc 0 "scripts/check-deb.sh -a" bash "$TOP/scripts/check-deb.sh" -a
lint=$TOP/build/logs/deb-lintian.log
if [ -f "$lint" ] && ! grep -qE '^[EW]: ' "$lint"; then
	ok "lintian: no error or warning"
else
	not_ok "lintian reported errors or warnings (build/logs/deb-lintian.log)"
fi
piu=$TOP/build/logs/deb-piuparts.log
grep -q 'PASS: Installation and purging test\.' "$piu" 2>/dev/null &&
	ok "piuparts: PASS: Installation and purging test." || not_ok "piuparts: no install and purge pass (build/logs/deb-piuparts.log)"
grep -q 'bdi-writeback: installed files present, the binary runs' "$piu" 2>/dev/null &&
	ok "in the chroot: the installed files are there and the binary runs" ||
	not_ok "the check of the installed package did not run or failed (build/logs/deb-piuparts.log)"
grep -q 'PASS: All tests\.' "$piu" 2>/dev/null &&
	ok "piuparts: PASS: All tests." || not_ok "piuparts did not pass (build/logs/deb-piuparts.log)"
ap=$TOP/build/logs/deb-autopkgtest.log
for t in unit-tests smoke; do
	grep -qE "^$t +PASS" "$ap" 2>/dev/null && ok "autopkgtest $t: PASS" ||
		not_ok "autopkgtest $t did not pass (build/logs/deb-autopkgtest.log)"
done
finish
