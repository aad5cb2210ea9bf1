#!/bin/bash
# upstream test: other bases in make check-full
# One small cell of the benchmarks (S1 on ext4, one repetition, 64 MiB at
# 16 MiB/s, threshold 16 MiB), so that the benchmark scripts keep working:
# every setting produces a row, the knob keeps the device near its
# threshold while without it the device holds much more, and the report
# turns the results into a table.
. "$TOP/scripts/tests/testlib.sh"

out=$CHECKDIR/bench-smoke
rm -rf "$out"
expect_rc 0 "bench.sh -p smoke -c S1 -f ext4" bash "$TOP/scripts/bench.sh" -p smoke -c S1 -f ext4 -o "$out"
tsv=$out/S1-ext4/s1.tsv
rows=$(tail -n +2 "$tsv" 2>/dev/null | wc -l)
[ "$rows" -eq 4 ] && ok "4 result rows (floor, off, knob, global)" || not_ok "$rows result rows in ${tsv#"$TOP"/}, expected 4"
peak() { awk -F'\t' -v s="$1" '$2 == s { print int($8 / 1024) }' "$tsv" 2>/dev/null; }
knob=$(peak knob) off=$(peak off)
if [ -n "$knob" ] && [ "$knob" -le 24 ]; then ok "knob: peak dirty $knob MiB (threshold 16)"; else not_ok "knob: peak dirty '$knob' MiB, expected at most 24 (threshold 16)"; fi
if [ -n "$off" ] && [ "$off" -ge 48 ]; then ok "off: peak dirty $off MiB"; else not_ok "off: peak dirty '$off' MiB, expected at least 48 of the 64 written"; fi
# bench.sh ends with bench-report.sh, which writes the tables next to the results
grep -q '^| ext4 ' "$out/bench-smoke-tables.md" 2>/dev/null &&
	ok "table has an ext4 row" || not_ok "no ext4 row in ${out#"$TOP"/}/bench-smoke-tables.md"
finish
