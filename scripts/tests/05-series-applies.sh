#!/bin/bash
# patches/vBASE: a cover letter and patches that apply with git am on the
# base, each checkpatch --strict clean and signed off by the project
# identity.
. "$TOP/scripts/tests/testlib.sh"

tree=$TOP/build/linux-$BASE
pdir=$TOP/patches/v$BASE
ident="$(sed -n 's/^IDENTITY_NAME[[:space:]]*:=[[:space:]]*//p' "$TOP/config.mk") <$(sed -n 's/^IDENTITY_EMAIL[[:space:]]*:=[[:space:]]*//p' "$TOP/config.mk")>"
mapfile -t patches < <(ls "$pdir"/*.patch 2>/dev/null | grep -v -- '-\?0000-cover-letter.patch$')
cover=$(ls "$pdir"/*0000-cover-letter.patch 2>/dev/null)

if [ ${#patches[@]} -eq 0 ]; then not_ok "no patches in patches/v$BASE"; finish; fi
[ -n "$cover" ] && ok "cover letter present" || not_ok "no cover letter in patches/v$BASE"
if grep -q '\*\*\*' "$cover" 2>/dev/null; then not_ok "cover letter still has a *** placeholder ***"; fi

# The upstream series is addressed as it will be posted: every address
# scripts/get_maintainer.pl gives for its patches is in To or Cc.
if [ "$BASE" = "$(sed -n 's/^UPSTREAM_BASE[[:space:]]*:=[[:space:]]*//p' "$TOP/config.mk")" ]; then
	want=$(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --no-rolestats --email --m --r --l --no-s \
		"${patches[@]}" 2>/dev/null | awk 'match($0, /<[^>]*>/) { print substr($0, RSTART + 1, RLENGTH - 2); next } /@/ { print $1 }')
	hdr=$(sed -n '/^To:/,/^$/p' "$cover")
	missing=$(for a in $want; do printf '%s\n' "$hdr" | grep -qF "$a" || echo "$a"; done)
	if [ -z "$want" ]; then not_ok "scripts/get_maintainer.pl gave no address"
	elif [ -n "$missing" ]; then not_ok "cover letter does not address: $(echo $missing)"
	else ok "cover letter addressed to the $(echo "$want" | wc -l) addresses get_maintainer.pl gives"; fi
fi

tag=$(git -C "$tree" describe --tags --abbrev=0 --match 'base-*' 2>/dev/null)
[ -n "$tag" ] || { not_ok "no base tag in build/linux-$BASE"; finish; }
wt=$(mktemp -d "$TOP/build/applies.XXXXXX")
rmdir "$wt"
trap 'git -C "$tree" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt"' EXIT
git -C "$tree" worktree add -q --detach "$wt" "$tag" || { not_ok "cannot make a worktree at $tag"; finish; }
if git -C "$wt" -c user.name=check -c user.email=check@localhost am -q "${patches[@]}" >"$wt.am.log" 2>&1; then
	ok "${#patches[@]} patches apply with git am on $tag"
else
	not_ok "git am on $tag failed:"; sed 's/^/    /' "$wt.am.log"
fi
rm -f "$wt.am.log"

for p in "${patches[@]}"; do
	name=$(basename "$p")
	out=$(cd "$tree" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict --quiet --show-types "$p" 2>&1)
	if [ -z "$out" ]; then ok "checkpatch --strict clean: $name"; else not_ok "checkpatch --strict: $name"; printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'; fi
	grep -qxF "Signed-off-by: $ident" "$p" && ok "signed off: $name" || not_ok "no 'Signed-off-by: $ident' in $name"
done
finish
