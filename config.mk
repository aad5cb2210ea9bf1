# The one place that names the project's identity and its kernel bases.

# Identity used for Signed-off-by and as author/committer of series commits.
# Whoever submits the series upstream or into a distro tree re-signs it.
IDENTITY_NAME  := Per-BDI Writeback Project
IDENTITY_EMAIL := bdi-writeback@example.org

# Revision of the series ("1" gives plain [PATCH n/m]).
SERIES_VERSION := 2

# Kernel bases: each has its series in patches/v<base>/, its tree in
# build/linux-<base> (Debian's linux-source-<base> at the pinned version,
# committed as a deterministic base), its kernel and initramfs. `make check`
# runs on every base listed here; `make BASE=<base> ...` picks one; the
# first is the default.
BASES := 6.12 7.3 6.1
DEB_VERSION_6.12 := 6.12.117-1~deb12u1
DEB_VERSION_7.3  := 7.3.4-1~bpo13+1
DEB_VERSION_6.1  := 6.1.192-3
# A source package that the machine's own Debian release (bookworm) does not
# carry is fetched from these suites of the same mirror; nothing else is.
DEB_SUITES_7.3   := trixie-backports
# The base whose series is posted upstream (to linux-mm): its export
# addresses the patches to whom scripts/get_maintainer.pl names.
UPSTREAM_BASE := 7.3

# kselftest targets the workbench installs into the guest and whose config
# fragments are merged into the kernel config.
KSELFTEST_TARGETS := bdi
