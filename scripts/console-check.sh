#!/bin/bash
# Look for kernel trouble in a guest console log: oops, BUG, WARNING, KASAN,
# UBSAN, lockdep, hung-task and stall reports, panics. Only kernel lines
# (those with a printk timestamp) are looked at, so a test printing the
# word "BUG" does not count.
#
#   console-check.sh LOG     prints each report line; exit 0 clean, 1 found,
#                            2 bad usage or unreadable log
set -u
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: console-check.sh LOG" >&2; exit 2; }
[ -r "$1" ] || { echo "console-check: cannot read $1" >&2; exit 2; }

patterns='Oops|BUG:|WARNING:|KASAN|UBSAN|general protection fault|Kernel panic|'
patterns+='possible (recursive|circular) locking|inconsistent lock state|lockdep|'
patterns+='INFO: task .* blocked for more than|hung_task|detected stall|'
patterns+='soft lockup|hard LOCKUP|kernel BUG at|Unable to handle kernel|'
patterns+='refcount_t:|list_add corruption|list_del corruption'

found=$(tr -d '\r' <"$1" | grep -E '^\[ *[0-9]+\.[0-9]+\] ' | grep -E "$patterns")
if [ -n "$found" ]; then
	printf '%s\n' "$found" | head -n 20
	exit 1
fi
exit 0
