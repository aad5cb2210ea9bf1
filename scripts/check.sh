#!/bin/bash
# Run every test of the project: each scripts/tests/[0-9]*.sh is one test, run in
# order with BASE and TOP in its environment; exit 0 is a pass, anything
# else a failure. A test's output goes to build/check/NAME.log and, indented,
# to the terminal. Ends with "N passed, N failed"; exits non-zero on any
# failure.
#
#   check.sh BASE [NAME...]    NAME: run only these tests (file names
#                              without .sh)
set -u
. "$(dirname "$0")/lib.sh"

export BASE=${1:-6.12} TOP
shift || true
logdir=$TOP/build/check
mkdir -p "$logdir"

tests=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		[ -f "$TOP/scripts/tests/$n.sh" ] || die "no test named '$n' in scripts/tests/"
		tests+=("$TOP/scripts/tests/$n.sh")
	done
else
	tests=("$TOP"/scripts/tests/[0-9]*.sh)
fi

passed=0 failed=0 failures=() i=0
t_all=$(date +%s)
for t in "${tests[@]}"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	log=$logdir/$name.log
	say "[$i/${#tests[@]}] $name"
	t0=$(date +%s)
	set -o pipefail
	bash "$t" </dev/null 2>&1 | tee "$log" | sed -u 's/^/    /'
	rc=${PIPESTATUS[0]}
	set +o pipefail
	dt=$(($(date +%s) - t0))
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		say "PASS $name (${dt} s)"
	else
		failed=$((failed + 1))
		failures+=("$name")
		say "FAIL $name (exit $rc, ${dt} s; log: ${log#"$TOP"/})"
	fi
done
say "done in $(($(date +%s) - t_all)) s${failures[*]:+; failed: ${failures[*]}}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
