#!/bin/bash
# The kernel tree as a git repository.
#
#   tree.sh init BASE     unpack Debian's linux-source-BASE into build/linux-BASE,
#                         commit it as a deterministic base, tag it and apply
#                         patches/vBASE/*.patch with git am
#   tree.sh export BASE   regenerate patches/vBASE/ from the tree with
#                         git format-patch (cover letter kept)
#
# init never throws away work: commits on the tree that are not in
# patches/ make it stop (FORCE=1 moves them to a backup branch first).
set -u
. "$(dirname "$0")/lib.sh"

cmd=${1:-}
base=${2:-}
[ -n "$cmd" ] && [ -n "$base" ] || die "usage: tree.sh init|export BASE (BASE: $(cfg BASES))"
case " $(cfg BASES) " in *" $base "*) ;; *) die "unknown base '$base' (known: $(cfg BASES))" ;; esac

tree=$TOP/build/linux-$base
pdir=$TOP/patches/v$base
tarball=/usr/src/linux-source-$base.tar.xz
name=$(cfg IDENTITY_NAME)
email=$(cfg IDENTITY_EMAIL)
branch=series
logdir=$TOP/build/logs

# Fixed identity and dates: the same tarball gives the same base commit
# hash on every machine.
base_commit_env() {
	export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
	export GIT_COMMITTER_NAME="Debian linux-source" GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00+0000" GIT_COMMITTER_DATE="2000-01-01T00:00:00+0000"
}

g() { git -C "$tree" "$@"; }

kversion() {
	sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' \
		"$tree/Makefile" | paste -sd.
}

base_tag() { echo "base-$(kversion)"; }

patch_files() { ls "$pdir"/*.patch 2>/dev/null | grep -v '/\(v[0-9]*-\)\?0000-' ; }
cover_file() { ls "$pdir"/*0000-cover-letter.patch 2>/dev/null | head -n 1; }

# patch-ids, one per line, of the series in patches/ and of the tree.
ids_of_patches() {
	local f
	for f in $(patch_files); do git patch-id --stable <"$f" | cut -d' ' -f1; done
}
ids_of_tree() {
	local c
	local id
	for c in $(g rev-list --reverse "$(base_tag)..HEAD"); do
		id=$(g show "$c" | git patch-id --stable | cut -d' ' -f1)
		# An empty commit has no patch-id; it still is work of its own.
		echo "${id:-empty-$c}"
	done
}

make_base() {
	[ -f "$tarball" ] || die "$tarball not found; run 'make setup' (needs linux-source-$base)"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	run_logged "$logdir/unpack-$base.log" "unpacking $(basename "$tarball")" \
		tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	# Debian's tarball ends its .gitignore with a packaging stanza that
	# ignores everything at the top level ("/*"): with it, new files such
	# as the selftest would silently stay out of every commit. The base
	# drops that stanza and nothing else.
	awk '/^# Debian packaging: ignore everything at the top level/ { exit }
		{ line[n++] = $0 }
		END { while (n > 0 && line[n - 1] ~ /^#?$/) n--
		      for (i = 0; i < n; i++) print line[i] }' \
		"$tree.tmp/.gitignore" >"$tree.tmp/.gitignore.new" &&
		mv "$tree.tmp/.gitignore.new" "$tree.tmp/.gitignore"
	(
		cd "$tree.tmp" || exit 1
		base_commit_env
		git init -q -b "$branch" . &&
			git add -f -A . &&
			git commit -q --no-verify -m "Debian linux-source-$base $(sed -n 's/^SUBLEVEL = //p' Makefile | sed "s/^/$base./")" &&
			git tag "base-$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' Makefile | paste -sd.)"
	) >"$logdir/commit-$base.log" 2>&1 || die "committing the base failed; see build/logs/commit-$base.log"
	mv "$tree.tmp" "$tree"
	g config user.name "$name"
	g config user.email "$email"
	g config format.signOff true
	say "base $(base_tag) is $(g rev-parse --short=12 HEAD)"
}

# The cover letter's text lives in the branch description while the tree
# is being worked on: export writes it with --cover-from-description, init
# reads it back from patches/.
cover_to_description() {
	local f
	f=$(cover_file)
	[ -n "$f" ] || return 0
	awk -v who="$name" '
		/^Subject: / && !subj { sub(/^Subject: \[[^]]*\] */, ""); subj = $0; insubj = 1; next }
		insubj && /^ / { sub(/^ /, ""); subj = subj " " $0; next }
		insubj { insubj = 0 }
		!body && subj && /^$/ { body = 1; print subj; print ""; next }
		body && index($0, who " (") == 1 { exit }
		body { print }
	' "$f" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tree/.git/cover.txt"
	g config "branch.$branch.description" "$(cat "$tree/.git/cover.txt")"
}

apply_series() {
	local n
	n=$(patch_files | wc -l)
	[ "$n" -gt 0 ] || { say "no patches in ${pdir#"$TOP"/}: tree is the plain base"; return 0; }
	say "applying $n patches from ${pdir#"$TOP"/}"
	# Committer = author, committer date = author date: re-applying the
	# same patches gives the same commits.
	if ! GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email" \
		g am -q --committer-date-is-author-date $(patch_files) >"$logdir/am-$base.log" 2>&1; then
		g am --abort >/dev/null 2>&1
		cat "$logdir/am-$base.log" >&2
		die "a patch in ${pdir#"$TOP"/} does not apply to $(base_tag); tree left at the base"
	fi
	cover_to_description
}

do_init() {
	if [ ! -d "$tree/.git" ]; then
		make_base
		apply_series
		return
	fi
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "build/linux-$base has uncommitted changes; commit them (and 'make export') or stash them first"
	g rev-parse -q --verify "refs/tags/$(base_tag)" >/dev/null ||
		die "build/linux-$base has no tag $(base_tag); remove it to start over"
	local want have
	want=$(ids_of_patches)
	have=$(ids_of_tree)
	if [ "$want" = "$have" ]; then
		say "build/linux-$base already carries ${pdir#"$TOP"/} ($(echo "$want" | grep -c .) patches)"
		return
	fi
	# Every commit of the tree must be in patches/ before the tree is
	# rebuilt from them; otherwise it holds work that was never exported.
	local id unexported=0
	for id in $have; do
		echo "$want" | grep -qx "$id" || unexported=$((unexported + 1))
	done
	local backup
	backup="backup/$(date +%Y%m%d-%H%M%S)"
	if [ "$unexported" -gt 0 ]; then
		[ "${FORCE:-0}" = 1 ] ||
			die "build/linux-$base has $unexported commit(s) not in ${pdir#"$TOP"/}: run 'make export' to keep them, or FORCE=1 to set them aside on a backup branch"
	fi
	g branch "$backup" HEAD
	say "tree differs from ${pdir#"$TOP"/}; old state kept as branch $backup"
	g checkout -q -B "$branch" "$(base_tag)"
	apply_series
}

do_export() {
	[ -d "$tree/.git" ] || die "no tree at build/linux-$base; run 'make tree' first"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "build/linux-$base has uncommitted changes; commit them first"
	local n v=()
	n=$(g rev-list --count "$(base_tag)..HEAD")
	[ "$n" -gt 0 ] || die "no commits on top of $(base_tag) to export"
	[ "$(cfg SERIES_VERSION)" = 1 ] || v=(-v "$(cfg SERIES_VERSION)")
	g config "branch.$branch.description" >/dev/null ||
		g config "branch.$branch.description" "per-BDI background writeback threshold

*** cover letter text: edit with 'git branch --edit-description' ***"
	local rcpt=()
	if [ "$base" = "$(cfg UPSTREAM_BASE)" ]; then
		mapfile -t rcpt < <(recipients) || die "scripts/get_maintainer.pl failed"
		say "recipients from scripts/get_maintainer.pl: ${#rcpt[@]}"
	fi
	mkdir -p "$pdir"
	rm -f "$pdir"/*.patch
	# The cover letter takes its date from the committer: use the last
	# patch's, so that exporting an unchanged series changes nothing; and
	# the index lines' hashes have a fixed length (git's own choice
	# follows the number of objects in the tree's repository).
	GIT_COMMITTER_DATE=$(g log -1 --format=%aI HEAD) \
		g format-patch -q "${v[@]}" --abbrev=9 --cover-letter --cover-from-description=subject \
		--base="$(base_tag)" --zero-commit --no-signature "${rcpt[@]}" \
		-o "$pdir" "$(base_tag)..HEAD" || die "git format-patch failed"
	say "exported $n patches and a cover letter to ${pdir#"$TOP"/}"
}

# recipients: --to/--cc options for the series as it is posted upstream:
# what the tree's scripts/get_maintainer.pl gives for its patches (MAINTAINERS
# only, not the git history): maintainers in To, reviewers and lists in Cc.
recipients() {
	local tmp
	tmp=$(mktemp -d)
	g format-patch -q -o "$tmp" "$(base_tag)..HEAD" >/dev/null || { rm -rf "$tmp"; return 1; }
	(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --roles --no-rolestats \
		--email --m --r --l --no-s "$tmp"/*.patch) >"$tmp/out" 2>/dev/null || { rm -rf "$tmp"; return 1; }
	# each line ends in its role in brackets: "Name <addr> (maintainer:SECTION)"
	awk '/ \(maintainer:[^()]*\)$/ { sub(/ \([^()]*\)$/, ""); print "--to=" $0; next }
		/ \([^()]*\)$/ { sub(/ \([^()]*\)$/, ""); print "--cc=" $0; next }
		NF { print "--cc=" $0 }' "$tmp/out"
	rm -rf "$tmp"
}

case $cmd in
init) do_init ;;
export) do_export ;;
*) die "unknown command '$cmd' (init or export)" ;;
esac
