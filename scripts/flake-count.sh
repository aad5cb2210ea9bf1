#!/bin/bash
# How often the kselftest fails on a loaded host: RUNS boots of the series
# kernel, each running the bdi kselftest once, while HOGS busy loops (one
# shell process each, at QEMU's priority) compete with it for the host's CPUs.
#
#   flake-count.sh [-b BASE] [-n RUNS] [-g HOGS] [-k KERNEL]
#
# Prints one line per run (its totals and time) and, at the end, how many
# runs had a failing case and which cases failed. Exit status 0 only if no
# run failed; results under build/flake/BASE/run-N/.
set -u
. "$(dirname "$0")/lib.sh"

base=$(default_base) runs=20 hogs=2 kernel=
while getopts b:n:g:k: o; do
	case $o in
	b) base=$OPTARG ;; n) runs=$OPTARG ;; g) hogs=$OPTARG ;; k) kernel=$OPTARG ;;
	*) die "usage: flake-count.sh [-b BASE] [-n RUNS] [-g HOGS] [-k KERNEL]" ;;
	esac
done
case $runs$hogs in *[!0-9]*) die "RUNS and HOGS are counts, got '$runs' and '$hogs'" ;; esac
[ -n "$kernel" ] || kernel=$TOP/build/obj-$base/arch/x86/boot/bzImage
cpio=$TOP/build/initramfs/kselftest-$base.cpio
[ -f "$kernel" ] || die "no ${kernel#"$TOP"/}; run 'make BASE=$base kernel'"
[ -f "$cpio" ] || die "no ${cpio#"$TOP"/}; run 'make BASE=$base initramfs'"
out=$TOP/build/flake/$base
rm -rf "$out"
mkdir -p "$out"

hog_pids=()
stop_hogs() { [ ${#hog_pids[@]} -eq 0 ] || kill "${hog_pids[@]}" 2>/dev/null; hog_pids=(); }
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM
for _ in $(seq "$hogs"); do
	sh -c 'while :; do :; done' &
	hog_pids+=($!)
done
say "$runs run(s) of the bdi kselftest on ${kernel#"$TOP"/} beside $hogs CPU hog(s) on $(nproc) host CPU(s)"

nbad=0
: >"$out/failed-cases"
for i in $(seq "$runs"); do
	t0=$(date +%s)
	bash "$TOP/scripts/vm-run.sh" -k "$kernel" -q -t 900 -o "$out/run-$i" -i "$cpio" \
		'/kselftest/run_kselftest.sh -c bdi >>bdi.tap 2>&1; cat bdi.tap' >"$out/run-$i.log" 2>&1
	rc=$?
	tap=$out/run-$i/results/bdi.tap
	totals=$(grep -o 'Totals: .*' "$tap" 2>/dev/null | head -n 1)
	bad=$(grep -oE '^(# )+not ok [0-9]+ [a-z_.]+' "$tap" 2>/dev/null | sed 's/.* //')
	verdict=ok
	if [ "$rc" -ne 0 ] || [ -n "$bad" ] || ! printf '%s\n' "$totals" | grep -q 'pass:[1-9][0-9]* fail:0 .*skip:0 error:0'; then
		verdict=FAILED
		nbad=$((nbad + 1))
		printf '%s\n' "$bad" | sed '/^$/d' >>"$out/failed-cases"
	fi
	say "run $i/$runs: $verdict, ${totals:-no totals (see ${out#"$TOP"/}/run-$i.log)}, vm exit $rc, $(($(date +%s) - t0)) s"
done
stop_hogs
say "summary: $nbad of $runs run(s) failed beside $hogs CPU hog(s)$([ -s "$out/failed-cases" ] &&
	echo "; failed cases: $(sort "$out/failed-cases" | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')")"
[ "$nbad" -eq 0 ]
