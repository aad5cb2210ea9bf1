// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `list` and `get` show about a bdi: what it is, the mounts whose dirty
 * pages it holds, the kernel's counters and its knobs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libmount.h>

#include "bdiwb.h"

int bw_mountmap_build(struct bw_ctx *ctx, struct bw_mountmap *m)
{
	struct libmnt_iter *it;
	struct libmnt_fs *fs;
	size_t cap = 0;
	int r;

	memset(m, 0, sizeof(*m));
	r = bw_load_mounts(ctx);
	if (r)
		return r;
	it = mnt_new_iter(MNT_ITER_FORWARD);
	if (!it)
		return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	while (mnt_table_next_fs(ctx->mounts, it, &fs) == 0) {
		struct bw_mountmap_entry *e;

		if (m->n == cap) {
			cap = cap ? cap * 2 : 32;
			e = realloc(m->e, cap * sizeof(*e));
			if (!e) {
				mnt_free_iter(it);
				bw_mountmap_free(m);
				return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
			}
			m->e = e;
		}
		e = &m->e[m->n++];
		memset(e, 0, sizeof(*e));
		e->target = mnt_fs_get_target(fs);
		e->fstype = mnt_fs_get_fstype(fs);
		e->source = mnt_fs_get_source(fs);
		if (bw_fs_bdi(ctx, fs, e->bdi, sizeof(e->bdi), &e->kind))
			e->bdi[0] = '\0';
	}
	mnt_free_iter(it);
	ctx->err[0] = '\0';
	return 0;
}

void bw_mountmap_free(struct bw_mountmap *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

static int cmp_names(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb, *ra, *rb;
	dev_t x, y;
	int da = bw_devno_prefix(a, &x, &ra) == 0, db = bw_devno_prefix(b, &y, &rb) == 0;

	if (da && db) {
		if (major(x) != major(y))
			return major(x) < major(y) ? -1 : 1;
		if (minor(x) != minor(y))
			return minor(x) < minor(y) ? -1 : 1;
		return strcmp(ra, rb);
	}
	if (da != db)
		return da ? -1 : 1;
	return strcmp(a, b);
}

int bw_list_bdis(struct bw_ctx *ctx, char ***names, size_t *n)
{
	char path[PATH_MAX], **v = NULL, **nv;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (bw_path(ctx, path, sizeof(path), "/sys/class/bdi"))
		return bw_fail(ctx, BW_EXIT_FAILURE, "cannot read /sys/class/bdi: %s",
			       strerror(ENAMETOOLONG));
	d = opendir(path);
	if (!d)
		return bw_fail(ctx, BW_EXIT_FAILURE, "cannot read /sys/class/bdi: %s", strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto oom;
			v = nv;
		}
		v[*n] = strdup(de->d_name);
		if (!v[*n])
			goto oom;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_names);
	*names = v;
	return 0;
oom:
	closedir(d);
	bw_free_names(v, *n);
	*n = 0;
	return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
}

int bw_load_bdis(struct bw_ctx *ctx)
{
	if (ctx->bdis)
		return 0;
	return bw_list_bdis(ctx, &ctx->bdis, &ctx->nbdis);
}

void bw_free_names(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);

	if (n >= len)
		return;
	if (snprintf(buf + n, len - n, "%s%s", n ? sep : "", s) >= (int)(len - n))
		buf[len - 1] = '\0';	/* cut: the column is only informative */
}

/* has: the block device DEV's sysfs directory has FILE */
static int has(struct bw_ctx *ctx, dev_t dev, const char *file)
{
	char path[PATH_MAX];

	return !bw_path(ctx, path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(dev),
			minor(dev), file) && access(path, F_OK) == 0;
}

/* read_line: the first line of a sysfs file, or "" */
static char *read_line(struct bw_ctx *ctx, char *buf, size_t len, dev_t dev, const char *file)
{
	char path[PATH_MAX];

	if (bw_path(ctx, path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(dev), minor(dev),
		    file) || bw_read_file(path, buf, len))
		*buf = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* kind_of_blockdev: what the disk is, as its sysfs directory says */
static void kind_of_blockdev(struct bw_ctx *ctx, dev_t dev, struct bw_info *info)
{
	char name[BW_NAME_MAX], buf[128];
	const char *type = "disk";

	if (bw_blockdev_name(ctx, dev, name, sizeof(name)))
		return;
	snprintf(info->device, sizeof(info->device), "%s", name);
	if (has(ctx, dev, "loop") || major(dev) == 7) {	/* LOOP_MAJOR: unbound too */
		type = "loop";
	} else if (has(ctx, dev, "dm")) {
		type = "dm";
		if (*read_line(ctx, buf, sizeof(buf), dev, "dm/name"))
			snprintf(info->device, sizeof(info->device), "%s (%s)", name, buf);
	} else if (has(ctx, dev, "md") || major(dev) == 9) {	/* MD_MAJOR */
		type = "md";
	} else if (has(ctx, dev, "comp_algorithm")) {
		type = "zram";
	} else if (major(dev) == 43) {		/* NBD_MAJOR */
		type = "nbd";
	} else if (!strcmp(read_line(ctx, buf, sizeof(buf), dev, "device/type"), "5")) {
		type = "rom";			/* TYPE_ROM */
	}
	snprintf(info->type, sizeof(info->type), "%s", type);
}

static int add_btrfs_dev(struct bw_ctx *ctx, const char *fsid, const char *dev, void *arg)
{
	struct bw_info *info = arg;

	(void)ctx;
	(void)fsid;
	append(info->device, sizeof(info->device), ",", dev);
	return 0;
}

/*
 * kind_of: TYPE and DEVICE from what resolution found for the mounts that
 * use the bdi; for a bdi of no mount, from the kernel's naming of it.
 */
static void kind_of(struct bw_ctx *ctx, const char *bdi, const struct bw_mountmap *m,
		    struct bw_info *info)
{
	const struct bw_mountmap_entry *e = NULL;
	char fsid[NAME_MAX + 1], fstype[sizeof(((struct bw_info *)0)->type)];
	const char *rest, *t, *dash;
	size_t i;
	dev_t dev;
	int devno = bw_devno_prefix(bdi, &dev, &rest) == 0;

	for (i = 0; i < m->n && !e; i++)
		if (!strcmp(m->e[i].bdi, bdi))
			e = &m->e[i];
	t = e && e->fstype ? e->fstype : "";
	if (e && e->kind == BW_KIND_DISK && devno) {
		kind_of_blockdev(ctx, dev, info);
	} else if ((e && e->kind == BW_KIND_FUSEBLK) ||
		   (!e && devno && !strcmp(rest, "-fuseblk"))) {
		snprintf(info->type, sizeof(info->type), "fuseblk");
		bw_blockdev_name(ctx, dev, info->device, sizeof(info->device));
	} else if (e && e->kind == BW_KIND_ANON) {
		if (!strncmp(t, "nfs", 3))
			t = "nfs";			/* nfs, nfs4 */
		else if (!strncmp(t, "fuse", 4))
			t = "fuse";			/* fuse, fuse.sshfs... */
		snprintf(info->type, sizeof(info->type), "%s", t);
		snprintf(info->device, sizeof(info->device), "%s", e->source ? e->source : "");
	} else if (bw_fs_own_name(bdi, "btrfs") &&
		   !bw_btrfs_fsid_of_bdi(ctx, bdi, fsid, sizeof(fsid))) {
		snprintf(info->type, sizeof(info->type), "btrfs");
		bw_btrfs_devices(ctx, fsid, add_btrfs_dev, info);
	} else if (e && e->kind == BW_KIND_FS) {
		snprintf(info->type, sizeof(info->type), "%s", t);
		snprintf(info->device, sizeof(info->device), "%s", e->source ? e->source : "");
	} else if (!e && devno && !*rest && major(dev) != 0) {
		kind_of_blockdev(ctx, dev, info);
	} else if (!e && devno && !*rest) {
		snprintf(info->type, sizeof(info->type), "unmounted");
	} else if (!e && (dash = strrchr(bdi, '-')) && dash > bdi) {
		/* super_setup_bdi()'s "<type>-N" */
		snprintf(fstype, sizeof(fstype), "%.*s", (int)(dash - bdi), bdi);
		if (bw_fs_own_name(bdi, fstype))
			snprintf(info->type, sizeof(info->type), "%s", fstype);
	}
	if (!info->type[0])
		snprintf(info->type, sizeof(info->type), "other");
}

static int read_attr(struct bw_ctx *ctx, const char *bdi, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	if (bw_path(ctx, path, sizeof(path), "/sys/class/bdi/%s/%s", bdi, attr))
		return 0;
	return bw_read_u64(path, v) == 0;
}

int bw_info(struct bw_ctx *ctx, const char *bdi, const struct bw_mountmap *m,
	    struct bw_info *info)
{
	struct bw_stats st;
	size_t i, len = 0;
	char *p;

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", bdi);
	if (!bw_bdi_exists(ctx, bdi))
		return bw_fail(ctx, BW_EXIT_NOENT, "no bdi named '%s' in /sys/class/bdi", bdi);
	kind_of(ctx, bdi, m, info);
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].bdi, bdi) && m->e[i].target)
			len += strlen(m->e[i].target) + 1;
	if (len) {
		info->mounts = calloc(1, len);
		if (!info->mounts)
			return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
		for (i = 0, p = info->mounts; i < m->n; i++) {
			if (strcmp(m->e[i].bdi, bdi) || !m->e[i].target)
				continue;
			p += sprintf(p, "%s%s", p == info->mounts ? "" : "\n", m->e[i].target);
		}
	}
	if (bw_read_stats(ctx, bdi, &st) == 0) {
		info->has_stats = 1;
		info->dirty = st.reclaimable_kb * 1024;
		info->writeback = st.writeback_kb * 1024;
		info->has_bw = bw_kernel_estimate(ctx, bdi, &info->bw) == 0;
	}
	for (i = 0; i < BW_NATTRS; i++)
		info->has[i] = read_attr(ctx, bdi, bw_attrs[i].name, &info->val[i]);
	ctx->err[0] = '\0';
	return 0;
}

void bw_info_free(struct bw_info *info)
{
	free(info->mounts);
	info->mounts = NULL;
}
