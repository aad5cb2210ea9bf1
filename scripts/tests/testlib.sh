# Helpers for scripts/tests/*.sh. Sourced.
# shellcheck shell=bash
set -u
nfail=0

ok() { echo "ok: $*"; }
not_ok() { echo "NOT OK: $*"; nfail=$((nfail + 1)); }

# expect_rc RC WHAT CMD...: CMD must exit with RC.
expect_rc() {
	local want=$1 what=$2 rc
	shift 2
	"$@" >/tmp/expect_rc.$$ 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what (exit $rc)"
	else
		not_ok "$what: exit $rc, expected $want"
		sed 's/^/    /' /tmp/expect_rc.$$ | tail -n 20
	fi
	rm -f /tmp/expect_rc.$$
}

finish() { [ "$nfail" -eq 0 ] || { echo "$nfail check(s) failed"; exit 1; }; exit 0; }

VMRUN=$TOP/scripts/vm-run.sh
