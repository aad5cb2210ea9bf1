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

# console_reports DIR: count the kernel reports (scripts/console-check.sh)
# in every console.log under DIR, the figure the debug runs report
console_reports() {
	local f n=0 logs=0 lines=0
	while IFS= read -r f; do
		logs=$((logs + 1))
		lines=$((lines + $(wc -l <"$f")))
		n=$((n + $("$TOP/scripts/console-check.sh" "$f" | wc -l)))
	done < <(find "$1" -name console.log 2>/dev/null | sort)
	if [ "$logs" -eq 0 ]; then
		not_ok "no console log under ${1#"$TOP"/}"
	elif [ "$n" -eq 0 ]; then
		ok "kernel reports: 0 in $logs console log(s), $lines lines"
	else
		not_ok "kernel reports: $n line(s) in $logs console log(s)"
	fi
}

finish() { [ "$nfail" -eq 0 ] || { echo "$nfail check(s) failed"; exit 1; }; exit 0; }
# not_run MSG: the test cannot run here for a reason outside the project
# (MSG, its last line); check.sh counts it apart, neither passed nor failed.
# A check that already failed makes it a failure.
not_run() { [ "$nfail" -eq 0 ] || finish; echo "not run: $1"; exit 77; }

VMRUN=$TOP/scripts/vm-run.sh
