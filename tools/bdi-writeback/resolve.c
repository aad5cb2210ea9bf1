// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TARGET -> the bdi that holds its dirty pages.
 *
 * A bdi name is taken as it is. A block device node gives its disk's bdi
 * (a partition has none of its own). A path gives the bdi of the filesystem
 * it is on, sb->s_bdi: the disk's for a filesystem on one block device, a
 * bdi of the filesystem's own for btrfs (btrfs-N, linked from
 * /sys/fs/btrfs/<fsid>/bdi), for NFS and FUSE ("0:N", the mount's anonymous
 * device number), "MAJ:MIN-fuseblk" for fuseblk, and "<type>-N" for the
 * filesystems that call super_setup_bdi(): CIFS (cifs-N, smb3-N), 9p,
 * Ceph, AFS, bcachefs (whose mounts show its first disk's number).
 * Filesystems whose pages are never written back (tmpfs, ramfs, proc...)
 * have none.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libmount.h>

#include "bdiwb.h"

int bw_load_mounts(struct bw_ctx *ctx)
{
	char path[PATH_MAX];
	int r;

	if (ctx->mounts)
		return 0;
	if (bw_path(ctx, path, sizeof(path), "/proc/self/mountinfo"))
		return bw_fail(ctx, BW_EXIT_FAILURE, "sysroot path too long");
	ctx->mounts = mnt_new_table();
	if (!ctx->mounts)
		return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	r = mnt_table_parse_file(ctx->mounts, path);
	if (r) {
		bw_ctx_forget_mounts(ctx);
		return bw_fail(ctx, BW_EXIT_FAILURE, "cannot read /proc/self/mountinfo: %s",
			       strerror(r < 0 ? -r : EINVAL));
	}
	return 0;
}

/* under: PATH is TARGET or below it */
static int under(const char *path, const char *target)
{
	size_t n = strlen(target);

	if (!strcmp(target, "/"))
		return 1;
	return !strncmp(path, target, n) && (path[n] == '/' || path[n] == '\0');
}

/*
 * find_mount: the mount a canonical path is on, found the way the kernel
 * walks it: from the root mount down through the mounts on it (by their
 * parent's ID, as mountinfo gives them). A mount on the same point as its
 * parent covers it and all mounted below it; otherwise the deepest mount
 * the path is under. So a mount hidden by a later one on a directory above
 * it is not taken for the path's, as a match on the names alone would.
 */
static struct libmnt_fs *find_mount(struct bw_ctx *ctx, const char *path)
{
	struct libmnt_fs *cur = NULL, *child, *next;
	struct libmnt_iter *it;

	if (mnt_table_get_root_fs(ctx->mounts, &cur) || !cur)
		return NULL;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (!it)
		return NULL;
	if (!under(path, mnt_fs_get_target(cur))) {
		mnt_free_iter(it);
		return NULL;
	}
	do {
		next = NULL;
		mnt_reset_iter(it, MNT_ITER_FORWARD);
		while (mnt_table_next_child_fs(ctx->mounts, it, cur, &child) == 0) {
			const char *t = mnt_fs_get_target(child);

			if (!t || !under(path, t))
				continue;
			if (!strcmp(t, mnt_fs_get_target(cur))) {
				next = child;	/* over its parent: covers the rest */
				break;
			}
			if (!next || strlen(t) > strlen(mnt_fs_get_target(next)))
				next = child;
		}
		if (next)
			cur = next;
	} while (next);
	mnt_free_iter(it);
	return cur;
}

/* devnode_devno: the device number of /dev/NAME, from the node or sysfs */
static int devnode_devno(struct bw_ctx *ctx, const char *node, dev_t *dev)
{
	char path[PATH_MAX], buf[64];
	struct stat st;
	const char *name;

	if (!bw_path(ctx, path, sizeof(path), "%s", node) && stat(path, &st) == 0 &&
	    S_ISBLK(st.st_mode)) {
		*dev = st.st_rdev;
		return 0;
	}
	/* No node (a fake tree, a /dev without it): the kernel's name for it. */
	if (strncmp(node, "/dev/", 5) != 0)
		return -ENOENT;
	name = node + 5;
	if (!*name || strchr(name, '/') ||
	    bw_path(ctx, path, sizeof(path), "/sys/class/block/%s/dev", name) ||
	    bw_read_file(path, buf, sizeof(buf)) || bw_parse_devno(buf, dev))
		return -ENOENT;
	return 0;
}

static int read_link_base(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	snprintf(out, len, "%s", basename(buf));
	return 0;
}

int bw_btrfs_devices(struct bw_ctx *ctx, const char *fsid,
		     int (*fn)(struct bw_ctx *ctx, const char *fsid, const char *dev, void *arg),
		     void *arg)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/devices", fsid))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!r && (de = readdir(d)))
		if (de->d_name[0] != '.')
			r = fn(ctx, fsid, de->d_name, arg);
	closedir(d);
	return r;
}

/* is_dev: 1 when device DEV of btrfs FSID has the number *arg */
static int is_dev(struct bw_ctx *ctx, const char *fsid, const char *dev, void *arg)
{
	char path[PATH_MAX], buf[64];
	dev_t d;

	return !bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/devices/%s/dev", fsid, dev) &&
	       !bw_read_file(path, buf, sizeof(buf)) && !bw_parse_devno(buf, &d) &&
	       d == *(dev_t *)arg;
}

/* btrfs_fsid_of_dev: the btrfs filesystem that has device DEV */
static int btrfs_fsid_of_dev(struct bw_ctx *ctx, dev_t dev, char *fsid, size_t len)
{
	char path[PATH_MAX];
	struct dirent *fe;
	DIR *fsd;
	int found = 0;

	if (bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs"))
		return -ENAMETOOLONG;
	fsd = opendir(path);
	if (!fsd)
		return -errno;
	while (!found && (fe = readdir(fsd))) {
		if (fe->d_name[0] == '.' || bw_btrfs_devices(ctx, fe->d_name, is_dev, &dev) != 1)
			continue;
		snprintf(fsid, len, "%s", fe->d_name);
		found = 1;
	}
	closedir(fsd);
	return found ? 0 : -ENOENT;
}

int bw_btrfs_fsid_of_bdi(struct bw_ctx *ctx, const char *bdi, char *fsid, size_t len)
{
	char path[PATH_MAX], name[BW_NAME_MAX];
	struct dirent *fe;
	DIR *fsd;
	int found = 0;

	if (bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs"))
		return -ENAMETOOLONG;
	fsd = opendir(path);
	if (!fsd)
		return -errno;
	while ((fe = readdir(fsd))) {
		if (fe->d_name[0] == '.' ||
		    bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/bdi", fe->d_name) ||
		    read_link_base(path, name, sizeof(name)))
			continue;
		if (!strcmp(name, bdi)) {
			snprintf(fsid, len, "%s", fe->d_name);
			found = 1;
			break;
		}
	}
	closedir(fsd);
	return found ? 0 : -ENOENT;
}

static int btrfs_bdi(struct bw_ctx *ctx, struct libmnt_fs *fs, char *bdi, size_t len)
{
	const char *src = mnt_fs_get_srcpath(fs), *target = mnt_fs_get_target(fs);
	char fsid[NAME_MAX + 1], path[PATH_MAX];
	dev_t dev;

	if (!src || devnode_devno(ctx, src, &dev))
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s (btrfs): cannot tell the device number of '%s'",
			       target, src ? src : "");
	if (btrfs_fsid_of_dev(ctx, dev, fsid, sizeof(fsid)))
		return bw_fail(ctx, BW_EXIT_FAILURE,
			       "%s (btrfs): no filesystem in /sys/fs/btrfs has device %s (%u:%u)",
			       target, src, major(dev), minor(dev));
	if (bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/bdi", fsid) ||
	    read_link_base(path, bdi, len))
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s (btrfs): no /sys/fs/btrfs/%s/bdi link",
			       target, fsid);
	return 0;
}

int bw_fs_own_name(const char *bdi, const char *type)
{
	size_t n = strlen(type);
	const char *p = bdi + n;

	if (!n || strncmp(bdi, type, n) || *p++ != '-' || !*p)
		return 0;
	return strspn(p, "0123456789") == strlen(p);
}

/*
 * superblocks: how many distinct filesystems of TYPE are mounted (one
 * device number each; told apart among the first 64, which is all that
 * matters: whether there is one)
 */
static size_t superblocks(struct bw_ctx *ctx, const char *type)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	dev_t seen[64];
	size_t n = 0, i;

	while (it && mnt_table_next_fs(ctx->mounts, it, &fs) == 0) {
		const char *t = mnt_fs_get_fstype(fs);

		if (!t || strcmp(t, type))
			continue;
		for (i = 0; i < n && i < 64 && seen[i] != mnt_fs_get_devno(fs); i++)
			;
		if (i < n)
			continue;	/* another mount of one counted */
		if (n < 64)
			seen[n] = mnt_fs_get_devno(fs);
		n++;
	}
	mnt_free_iter(it);
	return n;
}

/*
 * fs_own_bdi: a bdi that super_setup_bdi() made for the filesystem, named
 * "<type>-N" (CIFS, 9p, Ceph, AFS, bcachefs...). N is a counter of the
 * kernel's, and nothing in /sys or /proc ties such a bdi to its mount: it
 * is found when it is the only one of its type and one filesystem of that
 * type is mounted. 1: not such a filesystem; 0 or a BW_EXIT_* code.
 */
static int fs_own_bdi(struct bw_ctx *ctx, struct libmnt_fs *fs, const char *type,
		      char *bdi, size_t len)
{
	char list[256] = "";
	size_t i, found = 0, nsb, n;

	if (bw_load_bdis(ctx))
		return 1;
	for (i = 0; i < ctx->nbdis; i++) {
		if (!bw_fs_own_name(ctx->bdis[i], type))
			continue;
		if (!found++)
			snprintf(bdi, len, "%s", ctx->bdis[i]);
		n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", ctx->bdis[i]);
	}
	if (!found)
		return 1;
	nsb = superblocks(ctx, type);
	if (found == 1 && nsb == 1)
		return 0;
	*bdi = '\0';
	return bw_fail(ctx, BW_EXIT_AMBIGUOUS,
		       "%s (%s): cannot tell which of %s holds its pages (%zu %s filesystems "
		       "mounted; the kernel does not say which bdi is whose): give the bdi's name",
		       mnt_fs_get_target(fs), type, list, nsb, type);
}

int bw_fs_bdi(struct bw_ctx *ctx, struct libmnt_fs *fs, char *bdi, size_t len,
	      enum bw_kind *kind)
{
	const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);
	dev_t dev = mnt_fs_get_devno(fs), disk;
	char name[BW_NAME_MAX];
	int r;

	if (!type)
		type = "?";
	*kind = BW_KIND_FS;
	if (!strcmp(type, "btrfs"))
		return btrfs_bdi(ctx, fs, bdi, len);
	/* before the disk: bcachefs has a bdi of its own and its disk's number */
	r = fs_own_bdi(ctx, fs, type, bdi, len);
	if (r != 1)
		return r;
	if (major(dev) != 0) {
		if (!strcmp(type, "fuseblk")) {
			*kind = BW_KIND_FUSEBLK;
			snprintf(bdi, len, "%u:%u-fuseblk", major(dev), minor(dev));
			if (bw_bdi_exists(ctx, bdi))
				return 0;
		}
		*kind = BW_KIND_DISK;
		r = bw_whole_disk(ctx, dev, &disk, name, sizeof(name));
		if (r)
			return r;
		snprintf(bdi, len, "%u:%u", major(disk), minor(disk));
		if (bw_bdi_exists(ctx, bdi))
			return 0;
		return bw_fail(ctx, BW_EXIT_NOBDI, "%s (%s on %s): the disk has no bdi %s",
			       target, type, name, bdi);
	}
	*kind = BW_KIND_ANON;
	snprintf(bdi, len, "%u:%u", major(dev), minor(dev));
	if (bw_bdi_exists(ctx, bdi))
		return 0;
	*bdi = '\0';
	*kind = BW_KIND_NONE;
	if (!strcmp(type, "overlay"))
		return bw_fail(ctx, BW_EXIT_NOBDI,
			       "%s (overlay) has no backing device of its own: its files are written "
			       "back by the upper layer's filesystem; give a path on that", target);
	return bw_fail(ctx, BW_EXIT_NOBDI,
		       "%s (%s) has no backing device that writes back: its pages are not written "
		       "to any device", target, type);
}

static int resolve_device(struct bw_ctx *ctx, const char *target, dev_t dev, struct bw_target *t)
{
	char name[BW_NAME_MAX];
	dev_t disk;
	int r;

	r = bw_whole_disk(ctx, dev, &disk, name, sizeof(name));
	if (r)
		return bw_prefix(ctx, r, target);
	t->how = BW_BY_DEVICE;
	t->kind = BW_KIND_DISK;
	snprintf(t->bdi, sizeof(t->bdi), "%u:%u", major(disk), minor(disk));
	if (!bw_bdi_exists(ctx, t->bdi))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: disk %s has no bdi %s in /sys/class/bdi",
			       target, name, t->bdi);
	return 0;
}

/* full_path: TARGET as a path on this system (under the sysroot if absolute) */
static int full_path(struct bw_ctx *ctx, const char *target, char *full, size_t len)
{
	if (target[0] != '/') {
		snprintf(full, len, "%s", target);
		return 0;
	}
	if (bw_path(ctx, full, len, "%s", target))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: path too long", target);
	return 0;
}

/* inside_root: the canonical form of FULL, as a path under the sysroot */
static int inside_root(struct bw_ctx *ctx, const char *target, const char *full,
		       char *out, size_t len)
{
	char real[PATH_MAX];
	size_t rootlen = strlen(ctx->root);

	if (!realpath(full, real))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: %s", target, strerror(errno));
	if (rootlen && (strncmp(real, ctx->root, rootlen) != 0 ||
			(real[rootlen] != '/' && real[rootlen] != '\0')))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: leads out of the sysroot", target);
	snprintf(out, len, "%s", real[rootlen] ? real + rootlen : "/");
	return 0;
}

/* set_mount: T is the filesystem FS: its mount, its bdi */
static int set_mount(struct bw_ctx *ctx, const char *target, struct libmnt_fs *fs,
		     struct bw_target *t)
{
	int r;

	t->how = BW_BY_PATH;
	snprintf(t->mountpoint, sizeof(t->mountpoint), "%s", mnt_fs_get_target(fs));
	snprintf(t->fstype, sizeof(t->fstype), "%s",
		 mnt_fs_get_fstype(fs) ? mnt_fs_get_fstype(fs) : "?");
	r = bw_fs_bdi(ctx, fs, t->bdi, sizeof(t->bdi), &t->kind);
	if (r)
		return bw_prefix(ctx, r, target);
	return 0;
}

static int resolve_path(struct bw_ctx *ctx, const char *target, struct bw_target *t)
{
	char full[PATH_MAX], inside[PATH_MAX];
	struct libmnt_fs *fs;
	struct stat st;
	dev_t dev;
	int r, e;

	r = full_path(ctx, target, full, sizeof(full));
	if (r)
		return r;
	if (stat(full, &st) != 0) {
		e = errno;
		if (e == ENOENT && devnode_devno(ctx, target, &dev) == 0)
			return resolve_device(ctx, target, dev, t);
		if (e == EACCES)
			return bw_fail(ctx, BW_EXIT_PERM, "%s: %s", target, strerror(e));
		if (e == ENOENT || e == ENOTDIR)
			return bw_fail(ctx, BW_EXIT_NOENT, "%s: no such bdi, device or path", target);
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s: %s", target, strerror(e));
	}
	if (S_ISBLK(st.st_mode))
		return resolve_device(ctx, target, st.st_rdev, t);
	if (S_ISCHR(st.st_mode))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: a character device, not a block device", target);
	r = inside_root(ctx, target, full, inside, sizeof(inside));
	if (!r)
		r = bw_load_mounts(ctx);
	if (r)
		return r;
	fs = find_mount(ctx, inside);
	if (!fs)
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: on no mount in /proc/self/mountinfo", target);
	return set_mount(ctx, target, fs, t);
}

int bw_mount_point_path(struct bw_ctx *ctx, const char *target, char *out, size_t len)
{
	char full[PATH_MAX];
	struct stat st;
	int r;

	r = full_path(ctx, target, full, sizeof(full));
	if (r)
		return r;
	if (stat(full, &st) == 0)
		return inside_root(ctx, target, full, out, len);
	if (errno != ENOENT || target[0] != '/' || strstr(target, "/.") || strstr(target, "//"))
		return bw_fail(ctx, BW_EXIT_NOENT, "%s: %s", target, strerror(errno));
	/* not there yet (an automount point): as given, without a trailing '/' */
	snprintf(out, len, "%s", target);
	while (strlen(out) > 1 && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	return 0;
}

int bw_resolve_mount(struct bw_ctx *ctx, const char *mountpoint, struct bw_target *t)
{
	struct libmnt_fs *fs;
	int r;

	memset(t, 0, sizeof(*t));
	r = bw_load_mounts(ctx);
	if (r)
		return r;
	fs = mnt_table_find_target(ctx->mounts, mountpoint, MNT_ITER_BACKWARD);
	if (!fs)
		return bw_fail(ctx, BW_EXIT_NOENT, "%s is not mounted", mountpoint);
	return set_mount(ctx, mountpoint, fs, t);
}

/* name_kind: whose bdi it is, by the kernel's naming of bdis */
static enum bw_kind name_kind(const char *bdi)
{
	const char *rest;
	dev_t dev;

	if (bw_devno_prefix(bdi, &dev, &rest))
		return BW_KIND_FS;		/* btrfs-N, cifs-N, ... */
	if (!strcmp(rest, "-fuseblk"))
		return BW_KIND_FUSEBLK;
	if (*rest)
		return BW_KIND_NONE;
	return major(dev) ? BW_KIND_DISK : BW_KIND_ANON;
}

int bw_resolve(struct bw_ctx *ctx, const char *target, struct bw_target *t)
{
	memset(t, 0, sizeof(*t));
	if (!*target)
		return bw_fail(ctx, BW_EXIT_NOENT, "empty target");
	if (!strchr(target, '/') && bw_bdi_exists(ctx, target)) {
		t->how = BW_BY_NAME;
		t->kind = name_kind(target);
		snprintf(t->bdi, sizeof(t->bdi), "%s", target);
		return 0;
	}
	return resolve_path(ctx, target, t);
}
