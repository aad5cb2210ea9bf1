#!/bin/bash
# Run every test of the project on every kernel base given. Each
# scripts/tests/[0-9]*.sh is one test, run in order; exit 0 is a pass,
# 77 "not run" (what it needs from outside the project is missing, its
# last line says what; counted apart and listed at the end), anything else
# a failure. A test whose file has the line
# "# host test: runs once" tests the host side only and runs once, before
# the bases; every other test runs once per base, with BASE, TOP and
# CHECKDIR (build/check/BASE, for its output) in its environment. A test's
# output goes to build/check/[BASE/]NAME.log and, indented, to the
# terminal. Ends with a line per base and "N passed, N failed"; exits
# non-zero on any failure. A test with the line
# "# full test: make check-full only" (what does not fit CI's 90 min on a
# fresh machine: debug kernels, stress, integrity, the tool in the VM, the
# whole fault suite) runs only when FULL=1; naming one without FULL=1 is
# an error. A test with the line
# "# upstream test: other bases in make check-full" (the VM runner's exit
# status, report and timeout tests, the fault suite's short case) runs on UPSTREAM_BASE of config.mk,
# and on the other bases only when FULL=1: what `make check` runs on the
# backports is what can differ there (the series applies and builds, the
# kselftest, NFS, the no-progress test, the warnings), inside CI's time.
#
#   check.sh [-n] "BASE..." [NAME...]    NAME: run only these tests (file
#                                        names without .sh); -n: only check
#                                        that each NAME runs on one of the
#                                        BASEs (what make does before
#                                        building the kernels), run nothing
set -u
. "$(dirname "$0")/lib.sh"

# marked FILE full|upstream|host: whether test FILE carries that marker line
marked() {
	case $2 in
	full) grep -qx '# full test: make check-full only' "$1" ;;
	upstream) grep -qx '# upstream test: other bases in make check-full' "$1" ;;
	host) grep -qx '# host test: runs once' "$1" ;;
	esac
}

names_only=0
if [ "${1:-}" = -n ]; then names_only=1; shift; fi
bases=${1:-$(default_base)}
shift || true
export TOP
for b in $bases; do
	case " $(cfg BASES) " in *" $b "*) ;; *) die "unknown base '$b' (config.mk BASES: $(cfg BASES))" ;; esac
done

tests=()
if [ $# -gt 0 ]; then
	for n in "$@"; do
		[ -f "$TOP/scripts/tests/$n.sh" ] || die "no test named '$n' in scripts/tests/"
		[ "${FULL:-0}" = 1 ] || ! marked "$TOP/scripts/tests/$n.sh" full ||
			die "$n is a test of make check-full only: 'make check-full BASE=... TESTS=$n' builds what it needs"
		if [ "${FULL:-0}" != 1 ] && marked "$TOP/scripts/tests/$n.sh" upstream &&
			[[ " $bases " != *" $(cfg UPSTREAM_BASE) "* ]]; then
			die "$n runs in make check on $(cfg UPSTREAM_BASE) only: 'make check BASE=$(cfg UPSTREAM_BASE) TESTS=$n', or 'make check-full BASE=... TESTS=$n' on another base"
		fi
		tests+=("$TOP/scripts/tests/$n.sh")
	done
else
	tests=("$TOP"/scripts/tests/[0-9]*.sh)
fi
[ "$names_only" = 0 ] || exit 0
host_tests=() base_tests=()
for t in "${tests[@]}"; do
	if [ "${FULL:-0}" != 1 ] && marked "$t" full; then
		continue
	fi
	if marked "$t" host; then host_tests+=("$t"); else base_tests+=("$t"); fi
done

passed=0 failed=0 notrun=0 failures=() faillogs=() notruns=() i=0 summary=()
# counts PASSED FAILED NOTRUN: "P passed, F failed[, N not run]"
counts() { if [ "$3" -gt 0 ]; then echo "$1 passed, $2 failed, $3 not run"; else echo "$1 passed, $2 failed"; fi; }
upstream=$(cfg UPSTREAM_BASE)
# on_base FILE BASE: whether test FILE runs on BASE
on_base() {
	[ "${FULL:-0}" = 1 ] || [ "$2" = "$upstream" ] || ! marked "$1" upstream
}
total=${#host_tests[@]}
for b in $bases; do
	for t in "${base_tests[@]}"; do on_base "$t" "$b" && total=$((total + 1)); done
done
t_all=$(date +%s)

# run_test FILE LOGDIR LABEL: one test; counts it
run_test() {
	local t=$1 name log rc t0 dt
	name=$(basename "$t" .sh)
	log=$2/$name.log
	i=$((i + 1))
	mkdir -p "$2"
	say "[$i/$total] $3$name"
	t0=$(date +%s)
	set -o pipefail
	bash "$t" </dev/null 2>&1 | tee "$log" | sed -u 's/^/    /'
	rc=${PIPESTATUS[0]}
	set +o pipefail
	dt=$(($(date +%s) - t0))
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1)) p=$((p + 1))
		say "PASS $3$name (${dt} s)"
	elif [ "$rc" -eq 77 ]; then
		# not run: something outside the project is missing (the test's
		# last line says what); neither a pass nor a failure
		notrun=$((notrun + 1)) n=$((n + 1))
		notruns+=("$3$name: $(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | sed 's/^not run: //')")
		say "NOT RUN $3$name (${dt} s; log: ${log#"$TOP"/})"
	else
		failed=$((failed + 1)) f=$((f + 1))
		failures+=("$3$name")
		faillogs+=("$log")
		say "FAIL $3$name (exit $rc, ${dt} s; log: ${log#"$TOP"/})"
	fi
}

if [ ${#host_tests[@]} -gt 0 ]; then
	p=0 f=0 n=0
	for t in "${host_tests[@]}"; do BASE= CHECKDIR=$TOP/build/check run_test "$t" "$TOP/build/check" "host: "; done
	summary+=("host: $(counts "$p" "$f" "$n")")
fi
if [ ${#base_tests[@]} -gt 0 ]; then
	for b in $bases; do
		p=0 f=0 n=0 t0=$(date +%s)
		export BASE=$b CHECKDIR=$TOP/build/check/$b
		for t in "${base_tests[@]}"; do on_base "$t" "$b" && run_test "$t" "$CHECKDIR" "$b: "; done
		summary+=("$b: $(counts "$p" "$f" "$n") ($(($(date +%s) - t0)) s)")
	done
fi
# what failed, again at the end, where a CI page that keeps only the tail
# of the output still shows it
for k in "${!failures[@]}"; do
	say "why ${failures[$k]} failed (from ${faillogs[$k]#"$TOP"/}):"
	grep -E 'NOT OK|not ok|FAIL|Expected|Totals:|error|timed out|SKIP' "${faillogs[$k]}" | tail -n 12 | sed 's/^/    /'
done
for k in "${!notruns[@]}"; do
	say "not run: ${notruns[$k]}"
done
say "done in $(($(date +%s) - t_all)) s${failures[*]:+; failed: ${failures[*]}}"
printf '%s\n' "${summary[@]}"
counts "$passed" "$failed" "$notrun"
[ "$failed" -eq 0 ]
