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
		if (bw_fs_bdi(ctx, fs, e->bdi, sizeof(e->bdi)))
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

/* devno_name: "MAJ:MIN" (rest empty) or "MAJ:MIN-suffix" */
static int devno_name(const char *s, unsigned int *maj, unsigned int *min, const char **rest)
{
	int n = 0;

	if (sscanf(s, "%u:%u%n", maj, min, &n) != 2 || n == 0)
		return 0;
	*rest = s + n;
	return 1;
}

static int cmp_names(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb, *ra, *rb;
	unsigned int ma, na, mb, nb;
	int da = devno_name(a, &ma, &na, &ra), db = devno_name(b, &mb, &nb, &rb);

	if (da && db) {
		if (ma != mb)
			return ma < mb ? -1 : 1;
		if (na != nb)
			return na < nb ? -1 : 1;
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
	if (bw_path(ctx, path, sizeof(path), "/sys/class/bdi") || !(d = opendir(path)))
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

static void kind_of_blockdev(struct bw_ctx *ctx, const char *name, struct bw_info *info)
{
	char path[PATH_MAX], buf[128], *nl;

	snprintf(info->device, sizeof(info->device), "%s", name);
	if (!strncmp(name, "loop", 4)) {
		snprintf(info->type, sizeof(info->type), "loop");
	} else if (!strncmp(name, "dm-", 3)) {
		snprintf(info->type, sizeof(info->type), "dm");
		if (!bw_path(ctx, path, sizeof(path), "/sys/class/block/%s/dm/name", name) &&
		    !bw_read_file(path, buf, sizeof(buf)) && *buf) {
			nl = strchr(buf, '\n');
			if (nl)
				*nl = '\0';
			snprintf(info->device, sizeof(info->device), "%s (%s)", name, buf);
		}
	} else if (!strncmp(name, "md", 2)) {
		snprintf(info->type, sizeof(info->type), "md");
	} else if (!strncmp(name, "nbd", 3)) {
		snprintf(info->type, sizeof(info->type), "nbd");
	} else if (!strncmp(name, "zram", 4)) {
		snprintf(info->type, sizeof(info->type), "zram");
	} else if (!strncmp(name, "sr", 2)) {
		snprintf(info->type, sizeof(info->type), "rom");
	} else {
		snprintf(info->type, sizeof(info->type), "disk");
	}
}

static void kind_of(struct bw_ctx *ctx, const char *bdi, const struct bw_mountmap *m,
		    struct bw_info *info)
{
	char name[BW_NAME_MAX], fsid[NAME_MAX + 1], path[PATH_MAX];
	unsigned int maj, min;
	const char *rest;
	struct dirent *de;
	size_t i;
	DIR *d;

	if (!strncmp(bdi, "btrfs-", 6)) {
		snprintf(info->type, sizeof(info->type), "btrfs");
		if (bw_btrfs_fsid_of_bdi(ctx, bdi, fsid, sizeof(fsid)) ||
		    bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/devices", fsid) ||
		    !(d = opendir(path)))
			return;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				append(info->device, sizeof(info->device), ",", de->d_name);
		closedir(d);
		return;
	}
	if (devno_name(bdi, &maj, &min, &rest) && maj != 0 &&
	    bw_blockdev_name(ctx, makedev(maj, min), name, sizeof(name)) == 0) {
		if (!strcmp(rest, "-fuseblk")) {
			snprintf(info->type, sizeof(info->type), "fuseblk");
			snprintf(info->device, sizeof(info->device), "%s", name);
		} else if (!*rest) {
			kind_of_blockdev(ctx, name, info);
		}
		return;
	}
	if (devno_name(bdi, &maj, &min, &rest) && maj == 0 && !*rest) {
		for (i = 0; i < m->n; i++) {
			const char *t = m->e[i].fstype ? m->e[i].fstype : "";

			if (strcmp(m->e[i].bdi, bdi))
				continue;
			if (!strncmp(t, "nfs", 3))
				t = "nfs";
			else if (!strncmp(t, "fuse", 4))
				t = "fuse";
			snprintf(info->type, sizeof(info->type), "%s", t);
			snprintf(info->device, sizeof(info->device), "%s",
				 m->e[i].source ? m->e[i].source : "");
			return;
		}
		snprintf(info->type, sizeof(info->type), "unmounted");
		return;
	}
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
	info->has_min = read_attr(ctx, bdi, "min_bytes", &info->min);
	info->has_max = read_attr(ctx, bdi, "max_bytes", &info->max);
	info->has_bg = read_attr(ctx, bdi, BW_ATTR, &info->bg);
	ctx->err[0] = '\0';
	return 0;
}

void bw_info_free(struct bw_info *info)
{
	free(info->mounts);
	info->mounts = NULL;
}
