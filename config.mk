# The one place that names the project's identity and its kernel bases.

# Identity used for Signed-off-by and as author/committer of series commits.
# Whoever submits the series upstream or into a distro tree re-signs it.
IDENTITY_NAME  := Per-BDI Writeback Project
IDENTITY_EMAIL := bdi-writeback@example.org

# Revision of the series ("1" gives plain [PATCH n/m]).
SERIES_VERSION := 1

# Kernel bases: Debian source package, its pinned version, and the tag of
# the deterministic base commit in build/linux-<base>.
BASES := 6.12 6.1
DEB_VERSION_6.12 := 6.12.117-1~deb12u1
DEB_VERSION_6.1  := 6.1.192-3

# kselftest targets the workbench installs into the guest and whose config
# fragments are merged into the kernel config.
KSELFTEST_TARGETS := bdi
