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

offers "list get set auto" ""
offers "set" s
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
[ "$nfail" -eq 0 ]
