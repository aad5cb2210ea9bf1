#!/bin/bash
# full test: make check-full only
# Small cells of the benchmarks, so that the benchmark scripts keep
# working: S1 on ext4 (one repetition, 64 MiB at 16 MiB/s, threshold
# 16 MiB): every setting produces a row, the knob keeps the device near its
# threshold while without it the device holds much more, and strict_limit
# with max_bytes 16 MiB (limit16) holds it under its limit. S8 on ext4 (two
# bursts of 8 MiB to an 8 MiB/s disk, knob 8 MiB): every setting and phase
# produces a row, and with everything at its default the bursts stay
# unwritten until the fsync. The report turns both into tables, and takes
# nothing from case folders a stopped run left incomplete. A base
# before 6.2 has no strict_limit or max_bytes: there the guest must say it
# leaves the settings that need them out, and the rest must run.
. "$TOP/scripts/tests/testlib.sh"

# limits: 1 where the base has strict_limit and max_bytes (6.2 and later)
limits=0
[ "$(printf '%s\n' "$BASE" 6.2 | sort -V | head -n 1)" = 6.2 ] && limits=1

out=$CHECKDIR/bench-smoke
rm -rf "$out"
expect_rc 0 "bench.sh -p smoke -c 'S1 S8' -f ext4" bash "$TOP/scripts/bench.sh" -p smoke -c "S1 S8" -f ext4 -o "$out"
tsv=$out/S1-ext4/s1.tsv
# the settings run in another order in each repetition: compare sorted
want="floor global knob limit limit-bg2 limit16 maxbytes off"
[ "$limits" = 1 ] || want="floor global knob off"
rows=$(tail -n +2 "$tsv" 2>/dev/null | cut -f2 | LC_ALL=C sort | paste -sd' ')
[ "$rows" = "$want" ] && ok "S1: a row for each setting ($rows)" ||
	not_ok "S1: rows '$rows' in ${tsv#"$TOP"/}, expected $want"
peak() { awk -F'\t' -v s="$1" '$2 == s { print int($8 / 1024) }' "$tsv" 2>/dev/null; }
knob=$(peak knob) off=$(peak off) l16=$(peak limit16)
if [ -n "$knob" ] && [ "$knob" -le 24 ]; then ok "S1 knob: peak dirty $knob MiB (threshold 16)"; else not_ok "S1 knob: peak dirty '$knob' MiB, expected at most 24 (threshold 16)"; fi
if [ -n "$off" ] && [ "$off" -ge 48 ]; then ok "S1 off: peak dirty $off MiB"; else not_ok "S1 off: peak dirty '$off' MiB, expected at least 48 of the 64 written"; fi
if [ "$limits" = 0 ]; then
	# the guest names what it left out; bench.sh records it in meta.txt
	n=$(cat "$out"/S1-ext4/meta.txt "$out"/S8-ext4/meta.txt 2>/dev/null |
		grep -c '^settings left out: .*: settings not run: limit')
	[ "$n" = 2 ] && ok "S1 and S8 on $BASE say they leave the strict_limit and max_bytes settings out" ||
		not_ok "$n of S1 and S8 say they leave the strict_limit and max_bytes settings out, expected 2"
elif [ -n "$l16" ] && [ "$l16" -le 20 ]; then ok "S1 limit16: peak dirty $l16 MiB (max_bytes 16)"; else not_ok "S1 limit16: peak dirty '$l16' MiB, expected at most 20 (max_bytes 16)"; fi
tsv=$out/S8-ext4/s8.tsv
rows=$(tail -n +2 "$tsv" 2>/dev/null | awk -F'\t' '{ print $2 "/" $4 }' | LC_ALL=C sort | paste -sd' ')
want="knob+limit/idle knob+limit/warm knob/idle knob/warm limit-bg2/idle limit-bg2/warm limit/idle limit/warm maxbytes/idle maxbytes/warm off/idle off/warm"
[ "$limits" = 1 ] || want="knob/idle knob/warm off/idle off/warm"
[ "$rows" = "$want" ] && ok "S8: a row for each setting and phase" || not_ok "S8: rows '$rows' in ${tsv#"$TOP"/}, expected $want"
# off, warm: the 16 MiB of bursts, far below the global background
# threshold, are all still unwritten when the fsync begins: the sampling
# of pages dirty or under writeback sees them. (The cell's bursts last
# 0.1 s, too short for its dirty peaks to tell the knob from none: on the
# kernel with the sysfs patch only, the knob's peak was 11 MiB against 7
# with the series; S1 above is the check of the knob.)
off=$(awk -F'\t' '$2 == "off" && $4 == "warm" { print int($13 / 1024) }' "$tsv" 2>/dev/null)
if [ -n "$off" ] && [ "$off" -ge 14 ]; then ok "S8 off: $off MiB of 16 not yet written at the peak"; else not_ok "S8 off: '$off' MiB not yet written at the peak, expected at least 14 of the 16 written"; fi
# bench.sh ends with bench-report.sh, which writes the tables next to the results
grep -q '^| ext4 ' "$out/bench-smoke-tables.md" 2>/dev/null &&
	ok "S1 table has an ext4 row" || not_ok "no ext4 row in ${out#"$TOP"/}/bench-smoke-tables.md"
awk '/^### S8/ { s8 = 1 } s8 && /\| total s \|/ { f = 1 } END { exit !f }' "$out/bench-smoke-tables.md" 2>/dev/null &&
	ok "S8 table has the warm phase's total" || not_ok "no S8 total row in ${out#"$TOP"/}/bench-smoke-tables.md"
# case folders a stopped run left: S1-xfs without anything, S1-btrfs with
# its parameters and plot data but no table, S1-a.partial whole but for
# another kernel line. The report names S1-xfs and S1-btrfs once each,
# and nothing else, takes nothing from any of the three and writes the
# same tables. The copy's folder keeps the name bench-smoke: the plot
# links carry it.
inc=$CHECKDIR/bench-smoke-incomplete n0=$nfail
rm -rf "$inc"
mkdir -p "$inc/results/bench-smoke"
r=$inc/results/bench-smoke
if [ ! -d "$out/S1-ext4" ]; then
	not_ok "no S1-ext4 results in ${out#"$TOP"/} to copy"
elif ! cp -r "$out"/S[0-9]-* "$r/"; then
	not_ok "could not copy ${out#"$TOP"/} to ${inc#"$TOP"/}"
else
	mkdir "$r/S1-xfs" "$r/S1-btrfs"
	cp -r "$r/S1-ext4" "$r/S1-a.partial"
	sed -i 's/^kernel: .*/kernel: not this one/' "$r/S1-a.partial/meta.txt"
	cp -r "$r/S1-a.partial/meta.txt" "$r/S1-a.partial/series" "$r/S1-btrfs/"
	for f in "$r"/S1-btrfs/series/s1-ext4-*; do mv "$f" "${f/s1-ext4-/s1-btrfs-}"; done
	"$TOP/scripts/bench-report.sh" "$r" "$inc" >/dev/null 2>"$inc/err" ||
		not_ok "bench-report.sh on ${r#"$TOP"/}: exit $?: $(tail -n 3 "$inc/err")"
	want="bench-report: ${r#"$TOP"/}/S1-btrfs is incomplete; left out
bench-report: ${r#"$TOP"/}/S1-xfs is incomplete; left out"
	[ "$(cat "$inc/err")" = "$want" ] && ok "report names the two incomplete S1 folders once each, and says nothing else" ||
		not_ok "report's messages on ${r#"$TOP"/}, expected the two lines for S1-btrfs and S1-xfs: $(head -c 400 "$inc/err")"
	d=$(diff <(tail -n +2 "$out/bench-smoke-tables.md") <(tail -n +2 "$inc/bench-smoke-tables.md"))
	[ -z "$d" ] && ok "report takes nothing from the incomplete and partial folders" ||
		not_ok "incomplete or partial folders changed the tables (${inc#"$TOP"/}): $(echo "$d" | head -n 20)"
fi
[ "$nfail" -gt "$n0" ] || rm -rf "$inc"
finish
