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

. "$(dirname "$0")/guest/report-patterns.sh"

found=$(tr -d '\r' <"$1" | grep -E '^\[ *[0-9]+\.[0-9]+\] ' | grep -E "$report_patterns")
if [ -n "$found" ]; then
	printf '%s\n' "$found" | head -n 20
	exit 1
fi
exit 0
