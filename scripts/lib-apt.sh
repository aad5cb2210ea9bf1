# Private apt configurations on the mirror the machine already uses.
# Sourced, not run; the script that sources it defines die().
# shellcheck shell=bash

# machine_release: the Debian release of this machine (bookworm)
machine_release() {
	local codename
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "cannot tell this machine's Debian release from /etc/os-release"
	echo "$codename"
}

# apt_site SUITE: the archive the machine's apt sources take SUITE from
# ("" when they do not name it)
apt_site() {
	apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
		awk -v r="$1" '$2 == r { print $1; exit }'
}

# machine_suites: the suites of the machine's own Debian release that its
# apt sources name (bookworm, bookworm-updates, bookworm-security)
machine_suites() {
	local codename
	codename=$(machine_release) || return 1
	apt-get indextargets --format '$(RELEASE)' 2>/dev/null |
		awk -v r="$codename" '($0 == r || index($0, r "-") == 1) && !seen[$0]++'
}

# private_apt DIR TYPE [SUITE...]: a private apt configuration in DIR whose
# sources.list has a TYPE (deb or deb-src) line for each SUITE (default: the
# machine's own release). A suite the machine's apt sources name comes from
# the archive they take it from (bookworm-security from the security
# archive); any other from the mirror the machine's own release comes from.
# Sets aptopts to the options that use it.
private_apt() {
	local dir=$1 type=$2 codename mirror keyring=/usr/share/keyrings/debian-archive-keyring.gpg s site
	shift 2
	codename=$(machine_release) || exit 1
	# The mirror the machine's own release comes from.
	mirror=$(apt_site "$codename")
	[ -n "$mirror" ] || die "no apt source of this machine serves '$codename'; cannot tell which mirror to use"
	[ -f "$keyring" ] || die "$keyring missing (package debian-archive-keyring)"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	for s in "${@:-$codename}"; do
		site=$(apt_site "$s")
		echo "$type [signed-by=$keyring] ${site:-$mirror} $s main"
	done >"$dir/sources.list"
	aptopts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o APT::Sandbox::User=root)
}
