#!/bin/bash
# bdi-writeback's udev rule, systemd units and sample policy file, on the
# host: the units pass 'systemd-analyze verify' and score below 5 in
# 'systemd-analyze security'; they are not restarted on the exit statuses
# that waiting cannot mend, and a kernel without the attribute is no failure
# of the hot-plug unit (the statuses are read from the tool's headers); the
# rule, run by udevadm in a private mount namespace (its own /dev, /run and
# rules), starts the unit for a disk on "add" and "change" and for nothing
# else; the sample policy file parses. The hot-plug path itself (udevd
# starting the unit) needs a machine with udev and systemd running.
# host test: runs once
. "$TOP/scripts/tests/testlib.sh"

D=$TOP/tools/bdi-writeback
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

make -s -C "$TOP/tools" O="$d/build" "$d/build/bdi-writeback" >"$d/make.log" 2>&1 ||
	{ sed 's/^/  | /' "$d/make.log"; not_ok "bdi-writeback does not build"; finish; }
bw=$d/build/bdi-writeback
mkdir -p "$d/units"
for u in bdi-writeback-watch@.service bdi-writeback-usb@.service; do
	sed "s|@SBINDIR@|$d/build|g" "$D/$u.in" >"$d/units/$u"
done

# code NAME: the value of BW_EXIT_NAME in the tool's headers
code() {
	sed -n "s/^[[:space:]]*\(#define[[:space:]]\+\)\?BW_EXIT_$1[[:space:]=]\+\([0-9]\+\).*/\2/p" \
		"$D/bdiwb.h" "$D/conf.h" | head -1
}
# unit_value FILE KEY: the value of KEY= in FILE (the last one)
unit_value() { sed -n "s/^$2=//p" "$1" | tail -1; }

permanent="$(code USAGE) $(code NOBDI) $(code NOATTR) $(code PERM) $(code SIZE)"
permanent="$permanent $(code AMBIGUOUS) $(code CONFIG)"
got=$(unit_value "$d/units/bdi-writeback-watch@.service" RestartPreventExitStatus)
[ "$got" = "$permanent" ] && ok "watch unit: no restart on exit $got (usage, no bdi, no attribute, permission, size, ambiguous bdi, configuration)" ||
	not_ok "watch unit: RestartPreventExitStatus=$got, expected $permanent"
got=$(unit_value "$d/units/bdi-writeback-usb@.service" SuccessExitStatus)
[ "$got" = "$(code NOATTR)" ] && ok "usb unit: exit $got (kernel without the attribute) is success" ||
	not_ok "usb unit: SuccessExitStatus=$got, expected $(code NOATTR)"
grep -q '^RequiresMountsFor=%f$' "$d/units/bdi-writeback-watch@.service" &&
	ok "watch unit: RequiresMountsFor=%f" || not_ok "watch unit: no RequiresMountsFor=%f"
for u in watch usb; do
	grep -q "^ExecStart=.*/bdi-writeback apply --watch " "$d/units/bdi-writeback-$u@.service" &&
		ok "$u unit runs 'apply --watch'" || not_ok "$u unit does not run 'apply --watch'"
done

if command -v systemd-analyze >/dev/null; then
	# 'systemd-analyze verify' takes a ':' in a file name for a separator:
	# the usb unit is verified with its instance escaped
	for u in 'bdi-writeback-watch@srv-export.service' 'bdi-writeback-usb@8\x3a16.service'; do
		v=$(systemd-analyze verify --man=no "$d/units/$u" 2>&1)
		rc=$?
		[ -n "$v" ] && printf '%s\n' "$v" | sed 's/^/  | /'
		if [ "$rc" -eq 0 ] && [ -z "$v" ]; then ok "systemd-analyze verify $u"; else not_ok "systemd-analyze verify $u"; fi
		s=$(systemd-analyze security --offline=true "$d/units/$u" 2>&1)
		level=$(printf '%s\n' "$s" | sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
		printf '%s\n' "$s" | grep -E '^✗|Overall' | sed 's/^/  | /'
		if [ -n "$level" ] && awk -v l="$level" 'BEGIN { exit !(l < 5) }'; then
			ok "systemd-analyze security $u: $level (below 5)"
		else
			not_ok "systemd-analyze security $u: '${level:-no score}', want below 5"
		fi
	done
else
	echo "systemd-analyze not found: units not verified"
fi

# the sample policy file, and the rule the tool uses without one
expect_rc 0 "sample bdi-writeback.conf parses" "$bw" apply --check --config "$D/bdi-writeback.conf"
n=$(grep -c '^[^#[:space:]].* -> ' "$D/bdi-writeback.conf")
out=$("$bw" apply --check --config "$D/bdi-writeback.conf" 2>&1)
[ "$out" = "$n rule(s) in 1 file(s)" ] && ok "sample: $n active rule(s)" || not_ok "sample: '$out', expected $n rules"

# The rule under udevadm, as root, in a mount namespace of its own: a
# tmpfs on /dev (udevadm test creates nodes and links), on /run (its
# database) and on the rules directories, which hold the system's rules
# and this one.
udevadm=$(command -v udevadm)
rulesdir=/usr/lib/udev/rules.d
if [ -z "$udevadm" ] || [ ! -d "$rulesdir" ] || [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: udev rule under udevadm (needs root, unshare and udev's udevadm)"
	finish
fi
disk=
for s in /sys/block/*; do
	case ${s##*/} in ram* | zram*) continue ;; esac
	[ -r "$s/dev" ] && { disk=$s; break; }
done
if [ -z "$disk" ]; then
	echo "SKIP: udev rule under udevadm (no block device)"
	finish
fi
devno=$(cat "$disk/dev")
mkdir -p "$d/rules"
cp "$rulesdir"/*.rules "$d/rules/"
cp "$D/70-bdi-writeback.rules" "$d/rules/"
# wants ACTION SYSPATH [hidden]: the SYSTEMD_WANTS udevadm test gives
# (hidden: the device's "hidden" attribute reads 1, a file bound over it)
echo 1 >"$d/one"
wants() {
	unshare -m sh -c '
		if [ "$6" = hidden ]; then mount --bind "$7" "$2/hidden" || exit 1; fi
		mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 &&
		mknod -m 600 "/dev/$4" b "${5%:*}" "${5#*:}" &&
		mount -t tmpfs tmpfs /run && mkdir /run/udev &&
		mount --bind "$3" /usr/lib/udev/rules.d &&
		{ [ ! -d /etc/udev/rules.d ] || mount -t tmpfs tmpfs /etc/udev/rules.d; } &&
		"$0" test --action="$1" "$2" 2>/dev/null | sed -n "s/^SYSTEMD_WANTS=//p"
	' "$udevadm" "$1" "$2" "$d/rules" "${2##*/}" "$(cat "$2/dev")" "${3:-}" "$d/one"
}
want="bdi-writeback-usb@$devno.service"
for a in add change; do
	got=$(wants "$a" "$disk")
	case " $got " in
	*" $want "*) ok "udev rule: '$a' of ${disk##*/} ($devno) starts $want" ;;
	*) not_ok "udev rule: '$a' of ${disk##*/}: SYSTEMD_WANTS='$got', expected $want" ;;
	esac
done
if [ -e "$disk/hidden" ]; then
	got=$(wants add "$disk" hidden)
	case $got in
	*bdi-writeback*) not_ok "udev rule: a hidden disk wants '$got'" ;;
	*) ok "udev rule: a hidden disk (NVMe multipath path) starts nothing" ;;
	esac
fi
got=$(wants remove "$disk")
case $got in *bdi-writeback*) not_ok "udev rule: 'remove' wants '$got'" ;; *) ok "udev rule: 'remove' starts nothing" ;; esac
for s in /sys/block/zram* /sys/block/ram* /sys/block/*/*[0-9]; do
	[ -r "$s/dev" ] || continue
	got=$(wants add "$s")
	case $got in
	*bdi-writeback*) not_ok "udev rule: ${s##*/} (memory or a partition) wants '$got'" ;;
	*) ok "udev rule: ${s##*/} (memory or a partition) starts nothing" ;;
	esac
	break
done
finish
