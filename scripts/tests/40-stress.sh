#!/bin/bash
# full test: make check-full only
# The stress run (scripts/stress.sh) for 60 s on the patched kernel: the
# bad-input sweep gives no wrong answer, the attribute always reads back a
# value some writer wrote, loop devices, unmounts and cgroups cycle, every
# file reads back as written, and the console holds no kernel report.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/stress
expect_rc 0 "stress.sh -t 60" "$TOP/scripts/stress.sh" -b "$BASE" -t 60 -o "$out"
sum=$(grep -h '^stress: summary:' "$out/console.log" 2>/dev/null | tail -n 1)
if [ -z "$sum" ]; then
	not_ok "no summary line in ${out#"$TOP"/}/console.log"
else
	ok "${sum#stress: summary: }"
	num() { echo "$sum" | sed -n "s/.*$1 \([0-9]*\).*/\1/p"; }
	[ "$(num 'inputs swept')" -ge 5000 ] 2>/dev/null && ok "at least 5000 inputs swept" ||
		not_ok "fewer than 5000 inputs swept"
	for what in 'loop cycles' 'umount cycles' 'cgroup cycles'; do
		[ "$(num "$what")" -ge 1 ] 2>/dev/null && ok "$what: $(num "$what")" || not_ok "no $what"
	done
	[ "$(num 'files verified')" -ge 3 ] 2>/dev/null && ok "files verified: $(num 'files verified')" ||
		not_ok "fewer than 3 files verified"
	[ "$(num wrong)" = 0 ] && ok "nothing wrong" || not_ok "wrong answers: $(num wrong)"
fi
finish
