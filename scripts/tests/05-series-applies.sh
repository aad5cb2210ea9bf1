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

# The upstream series also applies to the pristine upstream tree (the
# .orig.tar.xz of Debian's linux source package, fetched by make setup):
# the files it touches are taken from the tarball and the patches applied
# to them in order.
if [ "$BASE" = "$(sed -n 's/^UPSTREAM_BASE[[:space:]]*:=[[:space:]]*//p' "$TOP/config.mk")" ]; then
	ver=$(sed -n "s/^DEB_VERSION_$BASE[[:space:]]*:=[[:space:]]*//p" "$TOP/config.mk")
	orig=${PRISTINE_TARBALL:-$TOP/build/src/linux_${ver%%-*}.orig.tar.xz}
	if [ -f "$orig" ]; then
		pt=$(mktemp -d)
		files=$(cat "${patches[@]}" | sed -n 's|^--- a/||p' | sort -u)
		top=$(tar -tJf "$orig" | head -n 1 | cut -d/ -f1)
		# shellcheck disable=SC2086
		tar -xJf "$orig" -C "$pt" --strip-components=1 $(printf "$top/%s " $files) 2>"$pt.log"
		n=0
		for p in "${patches[@]}"; do
			git -C "$pt" apply --whitespace=nowarn "$p" >>"$pt.log" 2>&1 || break
			n=$((n + 1))
		done
		if [ "$n" -eq ${#patches[@]} ]; then
			ok "${#patches[@]} patches apply to the pristine upstream tree (${orig##*/})"
		else
			not_ok "patch $((n + 1)) does not apply to the pristine upstream tree (${orig##*/}):"; sed 's/^/    /' "$pt.log"
		fi
		rm -rf "$pt" "$pt.log"
	else
		echo "not checked: the pristine upstream tree (${orig#"$TOP"/} is missing: the archive did not serve it to make setup)"
	fi
fi

for p in "${patches[@]}"; do
	name=$(basename "$p")
	out=$(cd "$tree" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict --quiet --show-types "$p" 2>&1)
	if [ -z "$out" ]; then ok "checkpatch --strict clean: $name"; else not_ok "checkpatch --strict: $name"; printf '%s\n' "$out" | head -n 20 | sed 's/^/    /'; fi
	grep -qxF "Signed-off-by: $ident" "$p" && ok "signed off: $name" || not_ok "no 'Signed-off-by: $ident' in $name"
done
finish
