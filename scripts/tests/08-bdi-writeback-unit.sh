#!/bin/bash
# bdi-writeback on the host: a warning-free build (-Wall -Wextra -Werror),
# its cmocka unit tests (size parsing, TARGET resolution of every kind
# against a fake /sys, /proc and debugfs, the auto-sizing arithmetic, the
# command's exit statuses, the watcher) run under AddressSanitizer and
# UBSan, the builds distributions make (-m32, clang, FORTIFY=3), its
# manual page, its udev rule and systemd units, and its install.
# host test: runs once
. "$TOP/scripts/tests/testlib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

make -s -C "$TOP/tools" check >"$d/check.log" 2>&1
rc=$?
sed 's/^/  | /' "$d/check.log" | grep -v '^  | \[ \(RUN\|      OK\) ' 
if [ "$rc" -eq 0 ]; then ok "make -C tools check (exit 0)"; else not_ok "make -C tools check: exit $rc"; fi
passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\.$/\1/p' "$d/check.log" | awk '{ n += $1 } END { print n + 0 }')
groups=$(grep -c '^\[==========\] Running' "$d/check.log")
if [ "$passed" -ge 30 ] && ! grep -q 'FAILED' "$d/check.log"; then
	ok "$passed unit tests in $groups groups passed, none failed"
else
	not_ok "$passed unit tests passed (want at least 30, none failed)"
fi
if grep -qE 'Sanitizer|runtime error:' "$d/check.log"; then
	not_ok "sanitizer report in the unit tests"
else
	ok "no AddressSanitizer, LeakSanitizer or UBSan report"
fi

# the builds distributions make: 32-bit, clang, Fedora's and Arch's CFLAGS
make -s -C "$TOP/tools" O="$d/cb" check-build >"$d/check-build.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "make -C tools check-build: -m32, clang, -D_FORTIFY_SOURCE=3 (exit 0)"
else
	sed 's/^/  | /' "$d/check-build.log" | tail -n 30
	not_ok "make -C tools check-build: exit $rc"
fi

man=$TOP/tools/bdi-writeback/bdi-writeback.8
warn=$(groff -man -ww -z "$man" 2>&1)
[ -z "$warn" ] && ok "manual page: no groff warnings" || not_ok "manual page: $warn"

# the install, with the units pointing at the installed binary
expect_rc 0 "make -C tools install" make -s -C "$TOP/tools" install PREFIX="$d/usr" \
	UDEVRULESDIR="$d/rules" SYSTEMDUNITDIR="$d/units"
for f in usr/sbin/bdi-writeback usr/share/man/man8/bdi-writeback.8 rules/70-bdi-writeback.rules \
	units/bdi-writeback-watch@.service units/bdi-writeback-usb@.service; do
	[ -s "$d/$f" ] && ok "installed $f" || not_ok "not installed: $f"
done

# systemd units: systemd-analyze verify loads them as instances; it reports
# what it ignores without failing, so any output is a failure too.
if command -v systemd-analyze >/dev/null; then
	for u in bdi-writeback-watch@srv-export.service bdi-writeback-usb@sdb.service; do
		v=$(systemd-analyze verify --man=no "$d/units/$u" 2>&1)
		rc=$?
		[ -n "$v" ] && printf '%s\n' "$v" | sed 's/^/  | /'
		if [ "$rc" -eq 0 ] && [ -z "$v" ]; then ok "systemd-analyze verify $u"; else not_ok "systemd-analyze verify $u"; fi
	done
else
	echo "systemd-analyze not found: units not verified"
fi

# udev rule: 'udevadm verify' (systemd 253 and later) when there is one;
# Debian 12 has systemd 252, so otherwise every line is checked for the
# rule syntax (KEY[{attr}] OP "value", comma separated) and every GOTO for
# its LABEL.
rules=$d/rules/70-bdi-writeback.rules
if command -v udevadm >/dev/null && udevadm verify --help >/dev/null 2>&1; then
	expect_rc 0 "udevadm verify" udevadm verify "$rules"
else
	bad=$(awk '
		/^[ \t]*(#|$)/ { next }
		{
			line = $0
			while (line != "") {
				if (!match(line, /^[ \t]*[A-Z_]+(\{[^}]+\})?[ \t]*(==|!=|\+=|-=|:=|=)[ \t]*"[^"]*"[ \t]*/)) {
					print FILENAME ":" NR ": " $0; break
				}
				tok = substr(line, 1, RLENGTH)
				if (tok ~ /GOTO/) { sub(/^[^"]*"/, "", tok); sub(/".*/, "", tok); gotos[tok] = NR }
				if (tok ~ /LABEL/) { sub(/^[^"]*"/, "", tok); sub(/".*/, "", tok); labels[tok] = 1 }
				line = substr(line, RLENGTH + 1)
				if (line != "" && !sub(/^,/, "", line)) { print FILENAME ":" NR ": " $0; break }
			}
		}
		END { for (g in gotos) if (!(g in labels)) print FILENAME ":" gotos[g] ": GOTO without LABEL " g }
	' "$rules")
	[ -z "$bad" ] && ok "udev rule: syntax and GOTO/LABEL (no 'udevadm verify' here)" || not_ok "udev rule: $bad"
fi
grep -q 'SYSTEMD_WANTS}+="bdi-writeback-usb@$major:$minor.service"' "$rules" &&
	ok "udev rule starts bdi-writeback-usb@<MAJ:MIN>.service" || not_ok "udev rule does not start the unit"
finish
