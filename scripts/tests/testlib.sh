# Helpers for scripts/tests/*.sh. Sourced.
# shellcheck shell=bash
set -u
nfail=0

ok() { echo "ok: $*"; }
not_ok() { echo "NOT OK: $*"; nfail=$((nfail + 1)); }

# expect_rc RC WHAT CMD...: CMD must exit with RC. Its output is shown,
# indented, as it runs.
expect_rc() {
	local want=$1 what=$2 rc
	shift 2
	"$@" 2>&1 | sed -u 's/^/  | /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq "$want" ]; then
		ok "$what (exit $rc)"
	else
		not_ok "$what: exit $rc, expected $want"
	fi
}

finish() { [ "$nfail" -eq 0 ] || { echo "$nfail check(s) failed"; exit 1; }; exit 0; }

VMRUN=$TOP/scripts/vm-run.sh
