#!/bin/bash
# Turn benchmark results into the tables and plots of
# Documentation/benchmarks.md. Results are data; the tables are made from
# them, never typed.
#
#   bench-report.sh [RESULTS_DIR [OUT_DIR]]
#
# RESULTS_DIR defaults to Documentation/benchmarks/BASE/results/quick (BASE:
# $BASE or the first base of config.mk). Writes OUT_DIR/<profile>-tables.md
# and the PNG plots next to it; OUT_DIR defaults to the folder above
# results/ (Documentation/benchmarks/BASE, which
# Documentation/benchmarks.md links to).
set -u
. "$(dirname "$0")/lib.sh"

res=${1:-$TOP/Documentation/benchmarks/${BASE:-$(default_base)}/results/quick}
[ -d "$res" ] || die "no results in $res; run 'make bench' first"
res=$(cd "$res" && pwd)
profile=$(basename "$res")
docdir=${2:-$(dirname "$(dirname "$res")")}
tables=$docdir/$profile-tables.md
command -v gnuplot >/dev/null || die "gnuplot not found; run 'make setup'"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median / min / max of the values on stdin, one per line
stats() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f %.2f %.2f %d\n", m, v[1], v[NR], NR }'; }

# A column spec is COLUMN[/DIVISOR][@KEY=VALUE...]: the column's values,
# divided by DIVISOR, of the rows whose column KEY is VALUE (every KEY);
# "-" (no value) left out.
# col FILE SETTING SPEC: those values for one setting
col() {
	local spec=${3%%@*} filter= div=1
	[ "$spec" = "$3" ] || filter=${3#*@}
	[ "${spec#*/}" = "$spec" ] || div=${spec#*/}
	awk -F'\t' -v s="$2" -v c="${spec%/*}" -v d="$div" -v filter="$filter" '
		NR == 1 { nf = split(filter, fl, "@")
			for (i = 1; i <= NF; i++) { if ($i == c) k = i; for (j = 1; j <= nf; j++) if (index(fl[j], $i "=") == 1) f[j] = i }
			next }
		$2 != s || $k == "-" { next }
		{ for (j = 1; j <= nf; j++) if ($f[j] != substr(fl[j], index(fl[j], "=") + 1)) next; print $k / d }' "$1"
}

# cell FILE SETTING SPEC: "median [min-max]"
cell() { col "$@" | stats | awk '$1 == "-" { print "-"; next } { printf "%s [%s-%s]", $1, $2, $3 }'; }
# med FILE SETTING SPEC: the median alone
med() { col "$@" | stats | cut -d' ' -f1; }
# cells FILE SPEC SETTING...: the settings' cells, " | "-joined
cells() {
	local f=$1 c=$2 out="" sep=""
	shift 2
	for set in "$@"; do out+="$sep$(cell "$f" "$set" "$c")"; sep=" | "; done
	echo "$out"
}
# ratio FILE SPEC A B: median of setting A over median of setting B, in percent
ratio() { pct "$(med "$1" "$3" "$2")" "$(med "$1" "$4" "$2")"; }
# complete DIR: whether DIR, a case's folder (S1-ext4), holds what the
# report reads: its meta.txt and its table (S7: any of its three). A
# stopped run's *.partial folder never does. The one test of a folder.
complete() {
	local c=${1##*/}
	c=$(echo "${c%%-*}" | tr S s)
	case $1 in *.partial) return 1 ;; esac
	[ -d "$1" ] && [ -f "$1/meta.txt" ] || return 1
	case $c in
	s7) [ -f "$1/s7.tsv" ] || [ -f "$1/s7-devices.tsv" ] || [ -f "$1/s7-cgroups.tsv" ] ;;
	*) [ -f "$1/$c.tsv" ] ;;
	esac
}
# results CASE: "fs tsv bdi" for each filesystem the case has results for
# (S5 has s5-exports.tsv beside s5.tsv; S7 reads its folders itself)
results() {
	local d tsv
	for d in "$res/$1"-*; do
		complete "$d" || continue
		tsv=$d/$(echo "$1" | tr S s).tsv
		echo "${d##*/"$1"-} $tsv $(awk -F'\t' 'NR == 2 { print $3 }' "$tsv")"
	done
}
# incomplete: name, once, each case folder the report leaves out (but a
# stopped run's *.partial, which says so itself)
incomplete() {
	local d
	for d in "$res"/S[0-9]-*; do
		[ -d "$d" ] || continue
		case $d in *.partial) continue ;; esac
		complete "$d" || echo "$PROG: ${d#"$TOP"/} is incomplete; left out" >&2
	done
}
# pct A B: A / B in percent ("-" when either is missing)
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || a == "" || b == "-" || b + 0 == 0) print "-"; else printf "%.1f %%", 100 * a / b }'; }

# meta_lines DIR: the run's parameters, for the text above a table
meta_lines() {
	# the same for every filesystem but for its name
	sed -n 's/^kernel: /Kernel: /p; s/^s[0-9]: /Job: /p; s/^s[0-9] \([a-z]*\): /Job (\1): /p; s/^disk[s]*: /Disks: /p; s/^vm: /VM: /p; s/^repetitions: /Repetitions: /p' "$1/meta.txt" |
		sed -E 's/ (ext4|xfs|btrfs)([ ,])/ FS\2/g; s/$/  /'
	grep -h '^vm.dirty_background\|^global background' "$1/meta.txt" | sed 's/^/Guest: /; s/$/  /'
	# what the guest could not run (strict_limit and max_bytes came in 6.2)
	sed -n 's/^settings left out: .*settings not run: \(.*\)/Not run: \1 (the kernel has no strict_limit or max_bytes; they came in 6.2)  /p' "$1/meta.txt"
	echo
}

# section CASE TITLE: the heading and the run's parameters; prints nothing
# and fails when the case has no results (a run of some cases only)
section() {
	local d
	for d in "$res/$1"-*; do
		complete "$d" && break
		d=
	done
	[ -n "$d" ] || return 1
	echo "### $1: $2"
	echo
	meta_lines "$d"
}

s2_section() {
	local d fs tsv sets others set
	section S2 "a slow and a fast device written at the same time, knob on the slow one" || return 0
	echo "Cells: MiB/s from start to the end of the final fsync, median [min-max]."
	sets=$(present "$(results S2 | head -n 1 | cut -d' ' -f2)" off knob global limit | paste -sd' ')
	others=${sets#off }
	[ "${sets%limit}" = "$sets" ] || echo "limit: strict_limit and max_bytes on the slow device, starting its background writeback at the knob's threshold."
	echo
	echo "| filesystem (knob on) | device$(for set in $sets; do printf ' | %s' "$set"; done)$(for set in $others; do printf ' | %s / off' "$set"; done) |"
	echo "|---|---$(for set in $sets $others; do printf '|---'; done)|"
	results S2 | while read -r fs tsv bdi; do
		for dev in slow fast; do
			echo "| $fs ($bdi) | $dev | $(cells "$tsv" ${dev}_mib_s $sets)$(for set in $others; do printf ' | %s' "$(ratio "$tsv" ${dev}_mib_s "$set" off)"; done) |"
		done
	done
	echo
}

s3_section() {
	local d fs tsv n sets others set
	section S3 "1, 10 and 100 concurrent writers at a limited aggregate rate" || return 0
	echo "Cells: median [min-max]. Throughput: all files' bytes over the time to the end of the"
	echo "last fsync. Extents: filefrag, mean over the files (on XFS also xfs_bmap, below)."
	echo
	sets=$(present "$(results S3 | head -n 1 | cut -d' ' -f2)" off knob global limit | paste -sd' ')
	others=knob
	[ "${sets%limit}" = "$sets" ] || others="knob limit"
	echo "| filesystem (knob on) | writers$(for set in $sets; do printf ' | MiB/s %s' "$set"; done)$(for set in $others; do printf ' | %s / off' "$set"; done)$(for set in $sets; do printf ' | extents %s' "$set"; done)$(for set in $others; do printf ' | %s / off' "$set"; done) |"
	echo "|---|---$(for set in $sets $others $sets $others; do printf '|---'; done)|"
	results S3 | while read -r fs tsv bdi; do
		for n in $(awk -F'\t' 'NR > 1 { print $4 }' "$tsv" | sort -nu); do
			echo "| $fs ($bdi) | $n | $(cells "$tsv" "mib_s@writers=$n" $sets)$(for set in $others; do printf ' | %s' "$(ratio "$tsv" "mib_s@writers=$n" "$set" off)"; done) | $(cells "$tsv" "extents_avg@writers=$n" $sets)$(for set in $others; do printf ' | %s' "$(ratio "$tsv" "extents_avg@writers=$n" "$set" off)"; done) |"
		done
	done
	echo
	results S3 | while read -r fs tsv bdi; do
		[ "$fs" = xfs ] || continue
		echo "Extents per file on XFS, filefrag against xfs_bmap (which lists each extent of the"
		echo "XFS extent map, where filefrag merges physically adjacent ones), median of the means:"
		echo
		echo "| writers$(for set in $sets; do printf ' | filefrag %s' "$set"; done)$(for set in $sets; do printf ' | xfs_bmap %s' "$set"; done) |"
		echo "|---$(for set in $sets $sets; do printf '|---'; done)|"
		for n in $(awk -F'\t' 'NR > 1 { print $4 }' "$tsv" | sort -nu); do
			echo "| $n$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "extents_avg@writers=$n")"; done)$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "bmap_avg@writers=$n")"; done) |"
		done
		echo
	done
	results S3 | while read -r fs tsv bdi; do
		s3_plot "$tsv" "$fs" && echo "![S3 $fs: throughput by writer count]($profile-s3-$fs.png)"
	done
	echo
}

# s3_plot TSV FS: median throughput by writer count, off vs knob vs global
# (and limit, where it ran)
s3_plot() {
	local tsv=$1 fs=$2 set n plots=()
	for set in $(present "$tsv" off knob global limit); do
		for n in $(awk -F'\t' 'NR > 1 { print $4 }' "$tsv" | sort -nu); do
			echo "$n $(med "$tsv" "$set" "mib_s@writers=$n")"
		done >"$tmp/s3-$set.dat"
		plots+=("'$tmp/s3-$set.dat' using 1:2 with linespoints lw 2 title '$set'")
	done
	gnuplot <<-GP
		set terminal png size 800,400
		set output '$docdir/$profile-s3-$fs.png'
		set title 'S3 on $fs: aggregate throughput to the end of the last fsync (median)'
		set xlabel 'writers'
		set ylabel 'MiB/s'
		set logscale x
		set xrange [0.7:150]
		set yrange [0:*]
		set grid
		set key bottom right
		plot $(IFS=,; echo "${plots[*]}")
	GP
}

s4_section() {
	local d fs tsv
	section S4 "the cost with the knob off, small buffered writes at full speed" || return 0
	echo "Cells: CPU seconds per GiB written (all CPUs, from /proc/stat), median [min-max] over all"
	echo "runs; the unpatched kernel and the patched one (knob 0) built with the same config, booted"
	echo "alternately. Patched / unpatched: the ratio of the two boots of each repetition (each"
	echo "boot's median run), median [min-max] over the repetitions."
	echo
	echo "| filesystem (bdi) | CPU busy unpatched | CPU busy patched | patched / unpatched | system unpatched | system patched | patched / unpatched | elapsed s unpatched | elapsed s patched |"
	echo "|---|---|---|---|---|---|---|---|---|"
	results S4 | while read -r fs tsv bdi; do
		echo "| $fs ($bdi) | $(cells "$tsv" busy_s_per_gib unpatched patched) | $(paired "$tsv" busy_s_per_gib) | $(cells "$tsv" sys_s_per_gib unpatched patched) | $(paired "$tsv" sys_s_per_gib) | $(cells "$tsv" elapsed_s unpatched patched) |"
	done
	echo
}

# paired TSV COLUMN: per repetition (boot), the patched boot's median run
# over the unpatched one's, in percent: "median [min-max]"
paired() {
	local b p u out=""
	for b in $(awk -F'\t' 'NR > 1 { print $4 }' "$1" | sort -nu); do
		u=$(med "$1" unpatched "$2@boot=$b") p=$(med "$1" patched "$2@boot=$b")
		awk -v a="$p" -v c="$u" 'BEGIN { if (a != "-" && c != "-" && c + 0 > 0) printf "%.1f\n", 100 * a / c }'
	done | stats | awk '$1 == "-" { print "-"; next } { printf "%.1f %% [%.1f-%.1f %%]", $1, $2, $3 }'
}

# by_size: the words on stdin (4k, 1m, 10m; 100mbit, 1gbit), once each,
# smallest first
by_size() {
	awk '!seen[$0]++ { v = $0 + 0; u = tolower($0); sub(/^[0-9.]+/, "", u)
		m = (u ~ /^k/) ? 1e3 : (u ~ /^m/) ? 1e6 : (u ~ /^g/) ? 1e9 : 1
		print v * m, $0 }' | sort -n | cut -d' ' -f2
}

# s5_wchan DIR FS: s5-exports.tsv with the share of the nfsd threads'
# wchan samples (series/*.wchan, one a line) in each state, in percent:
# w_busy not idle (idle: svc_recv, or process_timeout where the kernel's
# idle nfsd thread sleeps in schedule_timeout(), as 7.3's does), w_bdp in
# balance_dirty_pages(), w_ilock waiting for a file's inode lock in a
# filesystem's write_iter, w_page waiting on a page or buffer bit or for
# the journal
s5_wchan() {
	awk -F'\t' -v OFS='\t' -v d="$1" -v fs="$2" '
	NR == 1 { print $0, "w_busy", "w_bdp", "w_ilock", "w_page"; next }
	{
		f = d "/series/s5-" fs "-exports-" $5 "-" $2 "-" $6 ".wchan"
		n = idle = bdp = il = pg = 0
		while ((getline w < f) > 0) {
			n++
			if (w == "svc_recv" || w == "process_timeout") idle++
			else if (w ~ /^balance_dirty_pages/) bdp++
			else if (w ~ /_write_iter$/) il++
			else if (w ~ /^(folio_wait|wake_bit_function|wake_page_function|jbd2_|__wait_on_buffer|bit_wait)/) pg++
		}
		close(f)
		if (n == 0) print $0, "-", "-", "-", "-"
		else printf "%s\t%.1f\t%.1f\t%.1f\t%.1f\n", $0, 100 * (n - idle) / n, 100 * bdp / n, 100 * il / n, 100 * pg / n
	}' "$1/s5-exports.tsv"
}

s5_section() {
	local d fs tsv bdi rec v l n f cs size disk bound app m sets hdr sep delay
	section S5 "real NFS: the kernel NFS server exporting a throttled disk to client guests" || return 0
	echo "Cells: client-side throughput (MiB/s: all the run's bytes over the time from the first"
	echo "write to the end of the last close, which waits for the COMMIT), median [min-max]."
	echo "Bound: the pipelining bound min(network, disk): the floor (the same job to a tmpfs export"
	echo "of the same server, no disk behind it) when the link is slower than the disk, else the"
	echo "disk's speed. knob: the export's bdi at one second of the disk; global:"
	echo "vm.dirty_background_bytes at the same value; tuned: the NFS server tuning of the seed's"
	echo "review (dirty_background_ratio 5, dirty_ratio 10, dirty_expire_centisecs 1000,"
	echo "dirty_writeback_centisecs 1); limit, where it ran: strict_limit and max_bytes sized so that"
	echo "background writeback starts at the knob's threshold. All on the server; the clients at"
	echo "their defaults."
	echo
	results S5 | while read -r fs tsv bdi; do
		d=${tsv%/*}
		sets=$(present "$tsv" off knob global tuned limit maxbytes | paste -sd' ')
		hdr=$(for set in $sets; do printf ' | %s' "$set"; done)
		sep=$(for set in $sets; do printf '|---'; done)
		size=$(awk -F'\t' 'NR == 2 { print $11 }' "$tsv")
		disk=$(sed -n 's/.*throttled to \([0-9]*\) MiB\/s.*/\1/p' "$d/meta.txt")
		# s5_bound FILTER: min(floor, disk) in MiB/s
		s5_bound() { awk -v f="$(med "$tsv" floor "mib_s$1")" -v b="$disk" 'BEGIN { if (f == "-") print "-"; else printf "%.2f", (f < b ? f : b) }'; }
		l=$(awk -F'\t' 'NR == 2 { print $5 }' "$tsv")
		# a run of the two-exports part alone has no one-client rows
		if [ "$(wc -l <"$tsv")" -le 1 ]; then
			echo "**$fs**: the two-exports part only."
			echo
		else
			echo "**$fs** (export's bdi $bdi), $size MiB per run. Record sizes, NFSv3, one client, $l:"
			echo
			echo "| record | floor$hdr | bound$(for set in $sets; do printf ' | %s / bound' "$set"; done) |"
			echo "|---|---$sep|---$sep|"
			for rec in $(awk -F'\t' -v l="$l" 'NR > 1 && $4 == 3 && $5 == l && $6 == 1 && $9 == 0 { print $7 }' "$tsv" | by_size); do
				f="@vers=3@link=$l@clients=1@rec=$rec@app_mib_s=0"
				bound=$(s5_bound "$f")
				echo "| $rec | $(cells "$tsv" "mib_s$f" floor $sets) | $bound$(for set in $sets; do printf ' | %s' "$(pct "$(med "$tsv" "$set" "mib_s$f")" "$bound")"; done) |"
			done
			echo
			echo "By NFS version and link, 1 MiB records, one client: throughput, the time the close took"
			echo "(the client's last WRITEs and the COMMIT), the mean COMMIT and WRITE round trips the client"
			echo "saw (mountstats; WRITE in runs that recorded it) and the server's peak dirty amount on the export's"
			echo "bdi, median:"
			echo
			echo "| NFS | link | bound MiB/s | metric$hdr |"
			echo "|---|---|---|---$sep|"
			for l in $(awk -F'\t' 'NR > 1 && $7 == "1m" && $6 == 1 && $9 == 0 { print $5 }' "$tsv" | by_size); do
				for v in $(awk -F'\t' -v l="$l" 'NR > 1 && $5 == l && $7 == "1m" && $6 == 1 && $9 == 0 { print $4 }' "$tsv" | sort -u); do
					f="@vers=$v@link=$l@clients=1@rec=1m@app_mib_s=0"
					echo "| v$v | $l | $(s5_bound "$f") | MiB/s$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "mib_s$f")"; done) |"
					echo "| | | | close s$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "close_s$f")"; done) |"
					echo "| | | | COMMIT ms$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "commit_rtt_ms$f")"; done) |"
					! head -n 1 "$tsv" | tr '\t' '\n' | grep -qx write_rtt_ms ||
						echo "| | | | WRITE ms$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "write_rtt_ms$f")"; done) |"
					echo "| | | | peak dirty MiB$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "peak_dirty_kib/1024$f")"; done) |"
					echo "| | | | TCP retransmits$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "retrans$f")"; done) |"
				done
			done
			echo
		fi
		if [ "$(awk -F'\t' 'NR > 1 && $6 > 1' "$tsv" | wc -l)" -gt 0 ]; then
			echo "Clients at once (each its share of the $size MiB to its own file), NFSv3, 1 MiB records, $(awk -F'\t' 'NR == 2 { print $5 }' "$tsv"):"
			echo "aggregate MiB/s, median [min-max], and the server's peak dirty amount, median:"
			echo
			echo "| clients | floor$hdr | knob / off$(set -- $sets; printf ' | peak dirty MiB %s' "$1"; shift; for set in "$@"; do printf ' | %s' "$set"; done) |"
			echo "|---|---$sep|---$sep|"
			l=$(awk -F'\t' 'NR == 2 { print $5 }' "$tsv")
			for n in $(awk -F'\t' -v l="$l" 'NR > 1 && $4 == 3 && $5 == l && $7 == "1m" && $9 == 0 { print $6 }' "$tsv" | sort -nu); do
				f="@vers=3@link=$l@clients=$n@rec=1m@app_mib_s=0"
				echo "| $n | $(cells "$tsv" "mib_s$f" floor $sets) | $(ratio "$tsv" "mib_s$f" knob off)$(for set in $sets; do printf ' | %s' "$(med "$tsv" "$set" "peak_dirty_kib/1024$f")"; done) |"
			done
			echo
		fi
		app=$(awk -F'\t' 'NR > 1 && $9 != 0 { print $9; exit }' "$tsv")
		if [ -n "$app" ]; then
			echo "The client side: one client writes $size MiB at $app MiB/s and closes the file, the server at"
			echo "knob; on the client nothing (off), the knob on the NFS mount's own bdi, or"
			echo "vm.dirty_background_bytes, at $(sed -n 's/.*global knob at \([0-9]*\) bytes.*/\1/p' "$d/meta.txt" | awk '{ printf "%d", $1 / 1048576 }') MiB; median [min-max]:"
			echo
			echo "| metric | client off | client knob | client global |"
			echo "|---|---|---|---|"
			for m in mib_s close_s commit_rtt_ms; do
				echo "| $m$(for cs in client-off client-knob client-global; do printf ' | %s' "$(cell "$tsv" knob "$m@client_setting=$cs@app_mib_s=$app")"; done) |"
			done | sed 's/| mib_s/| MiB\/s/; s/| close_s/| close s/; s/| commit_rtt_ms/| COMMIT ms/'
			echo
		fi
		if [ -f "$d/s5-exports.tsv" ] && [ "$(wc -l <"$d/s5-exports.tsv")" -gt 1 ]; then
			f=$d/s5-exports.tsv
			sets=$(present "$f" alone off knob global tuned limit maxbytes | paste -sd' ')
			echo "Two exports of the server at once, NFSv3, 1 MiB records, $(awk -F'\t' 'NR == 2 { print $5 }' "$f"): one"
			echo "client writes $(awk -F'\t' 'NR == 2 { print $7 }' "$f") MiB to the export of a disk slower than the link (bdi $(awk -F'\t' 'NR == 2 { print $3 }' "$f"), the"
			delay=$(sed -n 's/.*tmpfs export from \([0-9.]*\) s later.*/\1/p' "$d/meta.txt")
			echo "setting on it), another $(awk -F'\t' 'NR == 2 { print $10 }' "$f") MiB to the tmpfs export${delay:+ from $delay s later}"
			echo "(nothing behind it but the server's 8 nfsd threads); each client's MiB/s over its own"
			echo "writes and close, median [min-max]. alone: the tmpfs export's client with the link to"
			echo "itself. The two clients share the link: a setting that slows the disk's client leaves"
			echo "more of it to the other, so a drop against off understates what waiting nfsd threads cost."
			echo
			echo "| metric$(for set in $sets; do printf ' | %s' "$set"; done) |"
			echo "|---$(for set in $sets; do printf '|---'; done)|"
			echo "| slow disk's export MiB/s | $(cells "$f" disk_mib_s $sets) |"
			echo "| tmpfs export MiB/s | $(cells "$f" other_mib_s $sets) |"
			echo "| tmpfs export / off$(for set in $sets; do printf ' | %s' "$(ratio "$f" other_mib_s "$set" off)"; done) |"
			echo "| tmpfs export / alone$(for set in $sets; do printf ' | %s' "$(ratio "$f" other_mib_s "$set" alone)"; done) |"
			echo "| tmpfs export WRITE ms | $(cells "$f" other_write_rtt_ms $sets) |"
			if ls "$d/series/"*-exports-*.wchan >/dev/null 2>&1; then
				f=$tmp/s5-wchan.tsv
				s5_wchan "$d" "$fs" >"$f"
				echo "| nfsd threads busy, % of samples | $(cells "$f" w_busy $sets) |"
				echo "| ... in balance_dirty_pages() | $(cells "$f" w_bdp $sets) |"
				echo "| ... waiting for a file's inode lock | $(cells "$f" w_ilock $sets) |"
				echo "| ... waiting on a page, buffer or the journal | $(cells "$f" w_page $sets) |"
				f=$d/s5-exports.tsv
			fi
			echo "| peak dirty MiB | $(cells "$f" peak_dirty_kib/1024 $sets) |"
			echo
		fi
		s5_plot "$d" "$fs" && echo "![S5 $fs: the server's dirty amount over time]($profile-s5-$fs.png)"
		echo
	done
}

# s5_plot DIR FS: the server's dirty amount over time, NFSv3, one client,
# 1 MiB records on the first link, first repetition, the settings run
s5_plot() {
	local l set f=()
	l=$(awk -F'\t' 'NR == 2 { print $5 }' "$1/s5.tsv")
	for set in off knob global tuned limit maxbytes; do
		[ ! -f "$1/series/s5-$2-v3-$l-1c-1m-$set-client-off-0-1.dirty" ] ||
			f+=("$set=$1/series/s5-$2-v3-$l-1c-1m-$set-client-off-0-1.dirty")
	done
	[ ${#f[@]} -ge 2 ] || return 1
	dirty_plot "$docdir/$profile-s5-$2.png" \
		"S5 on $2: dirty page cache of the server's export while a client writes over NFSv3, $l" "${f[@]}"
}

s6_section() {
	local d fs tsv sets
	section S6 "collateral writeback of a short-lived file on a device that was not tuned" || return 0
	echo "Cells: MiB that reached the untuned disk before the file was deleted, median [min-max]."
	sets=$(present "$(results S6 | head -n 1 | cut -d' ' -f2)" off knob global limit | paste -sd' ')
	[ "${sets%limit}" = "$sets" ] || echo "limit: strict_limit and max_bytes on the other (tuned) device."
	echo
	echo "| filesystem (knob on the other device)$(for set in $sets; do printf ' | %s' "$set"; done) |"
	echo "|---$(for set in $sets; do printf '|---'; done)|"
	results S6 | while read -r fs tsv bdi; do
		echo "| $fs ($bdi) | $(cells "$tsv" written_mib $sets) |"
	done
	echo
}

# present TSV SETTING...: those of the settings that have rows in TSV
present() {
	local f=$1 set
	shift
	# no file (a case with no complete result): nothing, not awk on stdin
	[ -n "$f" ] || return 0
	for set in "$@"; do
		awk -F'\t' -v s="$set" 'NR > 1 && $2 == s { found = 1; exit } END { exit !found }' "$f" && echo "$set"
	done
}

s1_section() {
	local d fs tsv size speed bound floor thr fbound sets set first
	section S1 "data arriving at a fixed rate, then one fsync" || return 0
	echo "Cells: median [min-max] over the repetitions. Bound: for the total, max(floor, size /"
	echo "disk speed), the floor being the same fio job on tmpfs in the same VM; for the fsync,"
	echo "threshold / disk speed, the time to write back what the threshold lets stay dirty."
	first=$(results S1 | head -n 1 | cut -d' ' -f2)
	sets=$(present "$first" off knob global limit limit16 limit-bg2 maxbytes | paste -sd' ')
	if [ "${sets%limit*}" != "$sets" ]; then
		echo "limit: strict_limit and max_bytes sized so that background writeback starts at the"
		echo "knob's threshold (twice it where the kernel starts at the bdi's background share, as"
		echo "7.3 does; 4/3 of it where it starts at the bdi's free-run ceiling, where throttling"
		echo "begins too, as 6.2 to 6.12 do); limit16: strict_limit and max_bytes 16 MiB, a fixed"
		echo "cap of the kind admins set on USB disks; limit-bg2: as limit with"
		echo "vm.dirty_background_ratio at 2 (for every device) and max_bytes sized for that;"
		echo "maxbytes: max_bytes as for limit, without strict_limit."
	fi
	echo
	echo "| filesystem (knob on) | metric | floor$(for set in $sets; do printf ' | %s' "$set"; done) | bound$(for set in $sets; do [ "$set" = off ] || printf ' | %s / bound' "$set"; done) | off / bound |"
	echo "|---|---|---$(for set in $sets; do printf '|---'; done)$(for set in $sets; do printf '|---'; done)|---|"
	results S1 | while read -r fs tsv bdi; do
		d=${tsv%/*}
		size=$(sed -n 's/^s1: \([0-9]*\) MiB at.*/\1/p' "$d/meta.txt")
		speed=$(sed -n 's/.*throttled to \([0-9]*\) MiB\/s.*/\1/p' "$d/meta.txt")
		floor=$(med "$tsv" floor total_s)
		bound=$(awk -v f="$floor" -v s="$size" -v b="$speed" 'BEGIN { x = s / b; printf "%.2f", (f > x ? f : x) }')
		echo "| $fs ($bdi) | total s | $(cells "$tsv" total_s floor $sets) | $bound$(for set in $sets; do [ "$set" = off ] || printf ' | %s' "$(pct "$(med "$tsv" "$set" total_s)" "$bound")"; done) | $(pct "$(med "$tsv" off total_s)" "$bound") |"
		thr=$(sed -n 's/.*threshold \([0-9]*\) bytes.*/\1/p' "$d/meta.txt")
		fbound=$(awk -v t="$thr" -v b="$speed" 'BEGIN { printf "%.2f", t / 1048576 / b }')
		echo "| | fsync s | $(cells "$tsv" fsync_s floor $sets) | $fbound$(for set in $sets; do [ "$set" = off ] || printf ' | %s' "$(pct "$(med "$tsv" "$set" fsync_s)" "$fbound")"; done) | $(pct "$(med "$tsv" off fsync_s)" "$fbound") |"
		echo "| | peak dirty MiB | - | $(cells "$tsv" peak_dirty_kib/1024 $sets) |$(for set in $sets; do printf ' |'; done) |"
	done
	echo
	results S1 | while read -r fs tsv bdi; do
		s1_plot "${tsv%/*}" "$fs" && echo "![S1 $fs: dirty amount over time]($profile-s1-$fs.png)"
	done
	echo
}

# dirty_plot PNG TITLE LABEL=FILE...: dirty time series (uptime_s
# dirty_kib per line), each from its first sample, in one plot; fails when
# a file is missing
dirty_plot() {
	local png=$1 title=$2 a plots=() n=0
	shift 2
	for a in "$@"; do
		[ -f "${a#*=}" ] || return 1
		n=$((n + 1))
		awk 'NR == 1 { t0 = $1 } { printf "%.2f %.2f\n", $1 - t0, $2 / 1024 }' "${a#*=}" >"$tmp/dirty-$n.dat"
		plots+=("'$tmp/dirty-$n.dat' using 1:2 with lines lw 2 title '${a%%=*}'")
	done
	gnuplot <<-GP
		set terminal png size 800,400
		set output '$png'
		set title "$title"
		set xlabel 'seconds'
		set ylabel 'dirty MiB'
		set grid
		set key top left
		plot $(IFS=,; echo "${plots[*]}")
	GP
}

# s1_plot DIR FS: the device's dirty amount over time, first repetition,
# off vs knob vs global (and limit and limit16, where they ran).
s1_plot() {
	dirty_plot "$docdir/$profile-s1-$2.png" \
		"S1 on $2: dirty page cache of the device while the stream arrives, then fsync" \
		off="$1/series/s1-$2-off-1.dirty" knob="$1/series/s1-$2-knob-1.dirty" \
		global="$1/series/s1-$2-global-1.dirty" \
		$(for set in limit limit16 limit-bg2 maxbytes; do [ ! -f "$1/series/s1-$2-$set-1.dirty" ] || echo "$set=$1/series/s1-$2-$set-1.dirty"; done)
}

s7_section() {
	local d fs tsv m t n f bound tgt
	section S7 "precision and cost at scale: many writers, more memory, many devices, many cgroups" || return 0
	echo "Peak and 99th percentile of the device's dirty amount (BdiReclaimable, sampled every"
	echo "50 ms) in MiB, median [min-max] over the repetitions, for the per-device knob and for"
	echo "vm.dirty_background_bytes set to the same value instead (global). Target: peak within"
	echo "1.25 x threshold + 2 MiB. Total: writing and sync, against the bound (the same job on"
	echo "tmpfs, the disk being faster than the arrival rate)."
	echo
	for d in "$res"/S7-*; do
		complete "$d" || continue
		tsv=$d/s7.tsv
		[ -f "$tsv" ] || continue
		fs=${d##*/S7-}
		bdi=$(awk -F'\t' 'NR == 2 { print $3 }' "$tsv")
		echo "| filesystem (bdi) | memory GiB | threshold MiB | writers | peak knob | p99 knob | peak global | p99 global | target | knob peak / target | total knob / bound | total global / bound |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
		for m in $(awk -F'\t' 'NR > 1 { print $4 }' "$tsv" | sort -nu); do
			for t in $(awk -F'\t' 'NR > 1 && $2 != "floor" { print $6 }' "$tsv" | sort -nu); do
				for n in $(awk -F'\t' 'NR > 1 { print $5 }' "$tsv" | sort -nu); do
					f="@mem_mib=$m@writers=$n@thresh=$t"
					bound=$(med "$tsv" floor "total_s@mem_mib=$m@writers=$n")
					tgt=$(awk -v t="$t" 'BEGIN { printf "%.1f", 1.25 * t / 1048576 + 2 }')
					echo "| $fs ($bdi) | $(((m + 512) / 1024)) | $((t >> 20)) | $n | $(cell "$tsv" knob "peak_kib/1024$f") | $(cell "$tsv" knob "p99_kib/1024$f") | $(cell "$tsv" global "peak_kib/1024$f") | $(cell "$tsv" global "p99_kib/1024$f") | $tgt | $(pct "$(med "$tsv" knob "peak_kib/1024$f")" "$tgt") | $(pct "$(med "$tsv" knob "total_s$f")" "$bound") | $(pct "$(med "$tsv" global "total_s$f")" "$bound") |"
				done
			done
		done
		echo
		for t in $(awk -F'\t' 'NR > 1 && $2 != "floor" { print $6 }' "$tsv" | sort -nu); do
			s7_plot "$tsv" "$fs" "$t" && echo "![S7 $fs: peak dirty against writers and memory, threshold $((t >> 20)) MiB]($profile-s7-$fs-$((t >> 20))M.png)"
		done
		echo
	done
	for d in "$res"/S7-*; do
		complete "$d" || continue
		[ -f "$d/s7-devices.tsv" ] || continue
		# the helpers read the setting from the second column: put the
		# devices' kind first
		tsv=$tmp/s7-devices.tsv
		awk 'BEGIN { OFS = "\t" } { print (NR == 1 ? "kind" : "null_blk"), $0 }' "$d/s7-devices.tsv" >"$tsv"
		echo "Many devices: $(sed -n 's/^s7 devices: //p' "$d/meta.txt"). CPU seconds per GiB"
		echo "(all CPUs, /proc/stat) and each device's peak dirty amount (the largest and the median"
		echo "over the devices), median [min-max] over the repetitions:"
		echo
		echo "| setting | elapsed s | CPU busy s/GiB | system s/GiB | peak dirty, largest device, MiB | peak dirty, median device, MiB |"
		echo "|---|---|---|---|---|---|"
		for s in off knob; do
			echo "| $s | $(cells "$tsv" elapsed_s "$s") | $(cells "$tsv" busy_s_per_gib "$s") | $(cells "$tsv" sys_s_per_gib "$s") | $(cells "$tsv" peak_max_kib/1024 "$s") | $(cells "$tsv" peak_median_kib/1024 "$s") |"
		done
		echo
		echo "Knob / off, CPU busy per GiB: $(ratio "$tsv" busy_s_per_gib knob off); system: $(ratio "$tsv" sys_s_per_gib knob off)."
		echo
	done
	for d in "$res"/S7-*; do
		complete "$d" || continue
		tsv=$d/s7-cgroups.tsv
		[ -f "$tsv" ] || continue
		echo "Many cgroups: $(sed -n 's/^s7 cgroups: //p' "$d/meta.txt"). Each writeback context's"
		echo "peak dirty amount (debugfs wb_stats; the largest and the median over the contexts) and"
		echo "the CPU seconds per GiB, median [min-max] over the repetitions:"
		echo
		echo "| filesystem | setting | total s | CPU busy s/GiB | writeback contexts | peak dirty, largest context, MiB | peak dirty, median context, MiB |"
		echo "|---|---|---|---|---|---|---|"
		for s in off knob; do
			echo "| ${d##*/S7-} | $s | $(cells "$tsv" total_s "$s") | $(cells "$tsv" busy_s_per_gib "$s") | $(cells "$tsv" wbs "$s") | $(cells "$tsv" peak_max_kib/1024 "$s") | $(cells "$tsv" peak_median_kib/1024 "$s") |"
		done
		echo
	done
}

# s7_plot TSV FS THRESH: median peak dirty by writer count, a line per
# guest memory size, knob solid and global dashed, and the target
s7_plot() {
	local tsv=$1 fs=$2 t=$3 m n set plots=() dt=1
	for set in knob global; do
		for m in $(awk -F'\t' 'NR > 1 { print $4 }' "$tsv" | sort -nu); do
			for n in $(awk -F'\t' 'NR > 1 { print $5 }' "$tsv" | sort -nu); do
				echo "$n $(med "$tsv" "$set" "peak_kib/1024@mem_mib=$m@writers=$n@thresh=$t")"
			done >"$tmp/s7-$set-$m.dat"
			plots+=("'$tmp/s7-$set-$m.dat' using 1:2 with linespoints lw 2 dt $dt title '$set, $(((m + 512) / 1024)) GiB'")
		done
		dt=2
	done
	plots+=("$(awk -v t="$t" 'BEGIN { printf "%.2f", 1.25 * t / 1048576 + 2 }') with lines lc rgb 'black' dt 3 title 'target'")
	plots+=("$((t >> 20)) with lines lc rgb 'gray' title 'threshold'")
	gnuplot <<-GP
		set terminal png size 800,450
		set output '$docdir/$profile-s7-$fs-$((t >> 20))M.png'
		set title 'S7 on $fs: peak dirty amount of the device, threshold $((t >> 20)) MiB (median)'
		set xlabel 'writers'
		set ylabel 'peak dirty MiB'
		set logscale x
		set xrange [0.7:100]
		set yrange [0:*]
		set grid
		set key outside right
		plot $(IFS=,; echo "${plots[*]}")
	GP
}

s8_section() {
	local d fs tsv bdi sets phase lab m size speed lims
	section S8 "bursts faster than a slow disk, with idle in between, then fsync" || return 0
	echo "Cells: median [min-max] over the repetitions. Bursts: the time the writer spent in its"
	echo "bursts (the idle gaps left out); write(): the 99th percentile and the longest of its"
	echo "64 KiB write()s; total: the first write to the end of the fsync; bound: the data over the"
	echo "disk's speed; peak dirty: the bdi's dirty pages (BdiReclaimable); peak not written: dirty or"
	echo "under writeback (BdiReclaimable and BdiWriteback: what an fsync waits for, what strict_limit counts)."
	echo "warm: right after the disk wrote 32 MiB, its share of the recent writeout near all of it;"
	echo "idle: after it sat idle while another disk wrote, its share near none (a disk just plugged"
	printf '%s' "in). The per-bdi limits follow that share."
	tsv=$(results S8 | head -n 1 | cut -d' ' -f2)
	if [ -n "$(present "$tsv" limit limit-bg2 maxbytes knob+limit)" ]; then
		echo " limit: strict_limit with max_bytes sized so"
		echo "that its background writeback starts where the knob's does (twice the knob's threshold"
		echo "where the kernel starts at the bdi's background share, as 7.3 does; 4/3 of it where it"
		echo "starts at the bdi's free-run ceiling, as 6.2 to 6.12 do); its writers are throttled from"
		echo "the free-run ceiling, halfway between the background share and the limit, which is what"
		echo "bursts larger than the limit meet. limit-bg2: as limit with vm.dirty_background_ratio at"
		echo "2 (for every device) and max_bytes sized for that. maxbytes: max_bytes as for limit,"
		echo "without strict_limit. knob+limit: the knob, and strict_limit with a larger max_bytes as"
		echo "a cap."
	else
		echo
	fi
	echo
	results S8 | while read -r fs tsv bdi; do
		d=${tsv%/*}
		sets=$(present "$tsv" off knob limit limit-bg2 maxbytes knob+limit limit16 | paste -sd' ')
		size=$(sed -n 's/^s8: \([0-9]*\) bursts of \([0-9]*\) MiB.*/\1 \2/p' "$d/meta.txt" | awk '{ print $1 * $2 }')
		speed=$(sed -n 's/^disks: slow .* at \([0-9]*\) MiB\/s, other.*/\1/p' "$d/meta.txt")
		echo "**$fs** (bdi $bdi), $size MiB in all, disk at $speed MiB/s (bound $(awk -v s="$size" -v b="$speed" 'BEGIN { printf "%.1f", s / b }') s):"
		echo
		echo "| phase | metric$(for set in $sets; do printf ' | %s' "$set"; done) |"
		echo "|---|---$(for set in $sets; do printf '|---'; done)|"
		# the bdi's limit and background share at each job's start, where recorded
		lims=
		head -n 1 "$tsv" | grep -q 'share_kib' && lims="limit_kib/1024 share_kib/1024"
		for phase in warm idle; do
			lab=$phase
			for m in write_s slowest_s p99_ms max_ms fsync_s total_s peak_kib/1024 peak_unwritten_kib/1024 $lims; do
				printf '| %s | %s' "$lab" "$m"
				for set in $sets; do printf ' | %s' "$(cell "$tsv" "$set" "$m@phase=$phase")"; done
				echo " |"
				lab=
			done
		done | sed 's/| write_s |/| bursts s |/; s/| slowest_s |/| slowest burst s |/; s/| p99_ms |/| write() p99 ms |/;
			s/| max_ms |/| write() max ms |/; s/| fsync_s |/| fsync s |/; s/| total_s |/| total s |/; s/| peak_kib\/1024 |/| peak dirty MiB |/;
			s/| peak_unwritten_kib\/1024 |/| peak not written MiB |/; s/| limit_kib\/1024 |/| bdi limit at start MiB |/;
			s/| share_kib\/1024 |/| bdi background share at start MiB |/'
		echo
		for phase in warm idle; do
			s8_plot "$d" "$fs" "$phase" "$sets" && echo "![S8 $fs, $phase: dirty amount over time]($profile-s8-$fs-$phase.png)"
		done
		echo
		s8_stacks "$d" "$fs" "$sets"
	done
}

# s8_stacks DIR FS SETS: where a STACKS=1 run found the writer asleep
# (series/*.stacks: "@ time", then its kernel stack, a sample each time it
# was in uninterruptible sleep), each sample counted once, by the first of
# these its stack has: balance_dirty_pages (throttled), a journal write
# access (ext4 updating the inode, e.g. its mtime, while a commit holds the
# buffer), the commit wait of an fsync, the fsync's wait for writeback
s8_stacks() {
	local d=$1 fs=$2 sets=$3 set phase f
	ls "$d/series/"*.stacks >/dev/null 2>&1 || return 0
	echo "Where the writer slept (the run sampled its kernel stack while it was in"
	echo "uninterruptible sleep; the period between samples is the guest's, about 25 ms"
	echo "here): samples by what the stack waits in, all repetitions:"
	echo
	echo "| phase | setting | samples | throttled (balance_dirty_pages) | journal write access (write()) | fsync: journal commit | fsync: writeback | other |"
	echo "|---|---|---|---|---|---|---|---|"
	for phase in warm idle; do
		for set in $sets; do
			ls "$d/series/s8-$fs-$set-$phase"-*.stacks >/dev/null 2>&1 || continue
			cat "$d/series/s8-$fs-$set-$phase"-*.stacks | awk -v p="$phase" -v s="$set" '
			function done_() { if (!n) return; t++; c[k ? k : "other"]++; n = 0; k = "" }
			/^@/ { done_(); n = 1; next }
			{
				if (k != "") next
				if ($0 ~ /balance_dirty_pages/) k = "bdp"
				else if ($0 ~ /jbd2_journal_get_write_access|do_get_write_access/) k = "jwa"
				else if ($0 ~ /jbd2_log_wait_commit|jbd2_complete_transaction/) k = "commit"
				else if ($0 ~ /fdatawait|folio_wait_writeback/) k = "wb"
			}
			END {
				done_()
				printf "| %s | %s | %d | %d | %d | %d | %d | %d |\n", p, s, t, c["bdp"], c["jwa"], c["commit"], c["wb"], c["other"]
			}'
		done
	done
	echo
}

# s8_plot DIR FS PHASE SETS: the slow disk's pages not yet written over
# time, first repetition, each setting (sample-dirty -b's series:
# milliseconds, dirty kB, writeback kB)
s8_plot() {
	local set a=() n=0
	for set in $4; do
		n=$((n + 1))
		[ -f "$1/series/s8-$2-$set-$3-1.dirty" ] || return 1
		awk '{ printf "%.3f %s\n", $1 / 1000, $2 + $3 }' "$1/series/s8-$2-$set-$3-1.dirty" >"$tmp/s8-$n.series"
		a+=("$set=$tmp/s8-$n.series")
	done
	dirty_plot "$docdir/$profile-s8-$2-$3.png" \
		"S8 on $2 ($3): the slow disk's pages not yet written (dirty or under writeback), bursts then fsync" "${a[@]}"
}

mkdir -p "$docdir"
incomplete
{
	echo "<!-- made by scripts/bench-report.sh from ${res#"$TOP"/}; do not edit -->"
	echo
	s1_section
	s2_section
	s3_section
	s4_section
	s5_section
	s6_section
	s7_section
	s8_section
} >"$tables"
say "wrote ${tables#"$TOP"/} and its plots"
