#!/bin/bash
# The bash completion of bdi-writeback: what it offers at each place.
# Prints "ok: ..." and "NOT OK: ..." lines; exits 1 if any check failed.
set -u	# not -e: completion functions test and fail as they go
# shellcheck source=/dev/null
. "$(dirname "$0")/../bash-completion/bdi-writeback"
nfail=0

# offers WANT WORDS...: completing the last of WORDS offers WANT (in order)
offers() {
	want=$1
	shift
	COMP_WORDS=(bdi-writeback "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_bdi_writeback
	got="${COMPREPLY[*]}"
	if [ "$got" = "$want" ]; then
		echo "ok: '$*' offers '$want'"
	else
		echo "NOT OK: '$*' offers '$got', expected '$want'"
		nfail=$((nfail + 1))
	fi
}

offers "list get set auto apply" ""
offers "set" s
offers "auto apply" a
offers "--config --check" apply --c
offers "--default --dry-run" apply --d
offers "" apply --default ""
offers "--json" list --js
offers "--sysroot --seconds --source" auto --s
offers "BG-BYTES" list -o BG
offers "+READ-AHEAD" list -o +READ
offers "BDI,MAX-BYTES BDI,MAX-RATIO" --sysroot /x list -o BDI,MA
offers "estimate counters" auto --source ""
offers "WRITEBACK WRITE-BW" get --sort WRITE
offers "max_bytes= max_ratio=" set /mnt/x max
offers "strict_limit=" set 8:16 64M str
offers "" auto --min ""
# bdi names, from /sys/class/bdi
if [ -d /sys/class/bdi ] && first=$(cd /sys/class/bdi && printf '%s\n' * | head -n 1) &&
	[ -n "$first" ] && [ "$first" != "*" ]; then
	offers_first() {
		COMP_WORDS=(bdi-writeback "$@")
		COMP_CWORD=$#
		_bdi_writeback
		if [ "${COMPREPLY[0]:-}" = "$first" ]; then
			echo "ok: '$*' offers $first first"
		else
			echo "NOT OK: '$*' offers '${COMPREPLY[*]}', not $first first"
			nfail=$((nfail + 1))
		fi
	}
	offers_first get "$first"
	offers_first set "$first"
	# with bash-completion loaded, "MAJ:" is one word to complete
	bc=/usr/share/bash-completion/bash_completion
	case $first in
	*:*)
		if [ -r "$bc" ]; then
			got=$(bash -c '. "$1"; . "$2"
				COMP_LINE="bdi-writeback get ${3%%:*}:"; COMP_POINT=${#COMP_LINE}
				COMP_WORDS=(bdi-writeback get "${3%%:*}" :); COMP_CWORD=3
				_bdi_writeback; echo "${COMPREPLY[0]:-}"' - "$bc" \
				"$(dirname "$0")/../bash-completion/bdi-writeback" "$first")
			if [ "$got" = "${first#*:}" ]; then
				echo "ok: '${first%%:*}:' completes to $first with bash-completion"
			else
				echo "NOT OK: '${first%%:*}:' offers '$got' with bash-completion"
				nfail=$((nfail + 1))
			fi
		fi ;;
	esac
fi
[ "$nfail" -eq 0 ]
