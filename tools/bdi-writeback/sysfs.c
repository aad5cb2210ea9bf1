// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files bdi-writeback reads and writes, all under ctx->root (the
 * --sysroot, "" for the running system), so that the unit tests can hand it
 * a fake /sys, /proc and debugfs.
 *
 * A device number is turned into its whole disk through /sys/dev/block, the
 * way libblkid's blkid_devno_to_wholedisk() does it; libblkid offers no root
 * prefix (lsblk --sysroot uses util-linux's internal path code for the same
 * reason), and the one walk done here is the one the unit tests check.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <libmount.h>

#include "bdiwb.h"

int bw_ctx_init(struct bw_ctx *ctx, const char *sysroot)
{
	char real[PATH_MAX];
	struct stat st;

	memset(ctx, 0, sizeof(*ctx));
	if (!sysroot || !*sysroot)
		return 0;
	if (!realpath(sysroot, real) || stat(real, &st))
		return bw_fail(ctx, BW_EXIT_USAGE, "sysroot %s: %s", sysroot, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bw_fail(ctx, BW_EXIT_USAGE, "sysroot %s: not a directory", sysroot);
	if (strcmp(real, "/") != 0)
		snprintf(ctx->root, sizeof(ctx->root), "%s", real);
	return 0;
}

void bw_ctx_forget_mounts(struct bw_ctx *ctx)
{
	mnt_unref_table(ctx->mounts);
	ctx->mounts = NULL;
	bw_free_names(ctx->bdis, ctx->nbdis);
	ctx->bdis = NULL;
	ctx->nbdis = 0;
}

void bw_ctx_free(struct bw_ctx *ctx)
{
	bw_ctx_forget_mounts(ctx);
}

int bw_fail(struct bw_ctx *ctx, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
	return code;
}

int bw_prefix(struct bw_ctx *ctx, int code, const char *prefix)
{
	char tmp[sizeof(ctx->err)];

	/* cut at the end if need be; no byte past the string is copied */
	if (snprintf(tmp, sizeof(tmp), "%s: %s", prefix, ctx->err) < 0)
		return code;
	memcpy(ctx->err, tmp, strlen(tmp) + 1);
	return code;
}

int bw_path(const struct bw_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(ctx->root);
	int m;

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, ctx->root, n);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

int bw_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		r = read(fd, buf + got, len - 1 - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return err;
}

int bw_read_all(const char *path, char **text)
{
	size_t len = 0, cap = 16384;
	char *buf = malloc(cap), *nb;
	ssize_t r;
	int fd, err = 0;

	*text = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	for (;;) {
		if (len + 1 == cap) {
			nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				err = -ENOMEM;	/* or a file past 64 MiB: not debugfs */
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

/* parse_u64_line: a decimal number and an optional newline, nothing else */
static int parse_u64_line(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*v = x;
	return 0;
}

int bw_read_u64(const char *path, uint64_t *v)
{
	char buf[64];
	int r = bw_read_file(path, buf, sizeof(buf));

	return r ? r : parse_u64_line(buf, v);
}

/* parse_uint: decimal digits, no sign or space, that fit an unsigned int */
static int parse_uint(const char **p, unsigned int *v)
{
	unsigned int x = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT_MAX - (unsigned int)(*s - '0')) / 10)
			return -ERANGE;
		x = x * 10 + (unsigned int)(*s - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

int bw_devno_prefix(const char *s, dev_t *dev, const char **rest)
{
	unsigned int maj, min;

	if (parse_uint(&s, &maj) || *s++ != ':' || parse_uint(&s, &min))
		return -EINVAL;
	*dev = makedev(maj, min);
	if (rest)
		*rest = s;
	return 0;
}

int bw_parse_devno(const char *s, dev_t *dev)
{
	const char *rest;
	dev_t d;

	if (bw_devno_prefix(s, &d, &rest) || (*rest && strcmp(rest, "\n")))
		return -EINVAL;
	*dev = d;
	return 0;
}

int bw_bdi_exists(const struct bw_ctx *ctx, const char *bdi)
{
	char path[PATH_MAX];
	struct stat st;

	if (!*bdi || strchr(bdi, '/') || !strcmp(bdi, ".") || !strcmp(bdi, ".."))
		return 0;
	if (bw_path(ctx, path, sizeof(path), "/sys/class/bdi/%s", bdi))
		return 0;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bw_blockdev_name(const struct bw_ctx *ctx, dev_t dev, char *name, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (bw_path(ctx, path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev)) ||
	    !realpath(path, real))
		return -ENOENT;
	snprintf(name, len, "%s", basename(real));
	return 0;
}

int bw_whole_disk(struct bw_ctx *ctx, dev_t dev, dev_t *disk, char *name, size_t namelen)
{
	char path[PATH_MAX], real[PATH_MAX], buf[64];
	struct stat st;
	size_t n;

	if (bw_path(ctx, path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev)) ||
	    !realpath(path, real))
		return bw_fail(ctx, BW_EXIT_NOENT, "no block device %u:%u in /sys/dev/block",
			       major(dev), minor(dev));
	n = strlen(real);
	if (n + sizeof("/partition") > sizeof(real))
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s: path too long", real);
	memcpy(real + n, "/partition", sizeof("/partition"));
	if (stat(real, &st) != 0) {
		/* not a partition: the device is a disk of its own */
		real[n] = '\0';
		*disk = dev;
		snprintf(name, namelen, "%s", basename(real));
		return 0;
	}
	/* a partition's sysfs directory sits inside its disk's */
	real[n] = '\0';
	*strrchr(real, '/') = '\0';
	if (snprintf(path, sizeof(path), "%s/dev", real) >= (int)sizeof(path) ||
	    bw_read_file(path, buf, sizeof(buf)) || bw_parse_devno(buf, disk))
		return bw_fail(ctx, BW_EXIT_FAILURE, "cannot read the disk of partition %u:%u (%s)",
			       major(dev), minor(dev), path + strlen(ctx->root));
	snprintf(name, namelen, "%s", basename(real));
	return 0;
}

const char *bw_kernel_release(const struct bw_ctx *ctx, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct utsname u;
	char *nl;

	if (!bw_path(ctx, path, sizeof(path), "/proc/sys/kernel/osrelease") &&
	    !bw_read_file(path, buf, len) && *buf) {
		nl = strchr(buf, '\n');
		if (nl)
			*nl = '\0';
		return buf;
	}
	if (uname(&u) == 0)
		snprintf(buf, len, "%s", u.release);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

const struct bw_attr bw_attrs[BW_NATTRS] = {
	[BW_A_BG] = { BW_ATTR, BW_V_BYTES, 1,
		      "the dirty_background_bytes series is not applied" },
	[BW_A_MIN] = { "min_bytes", BW_V_BYTES, 0, "Linux 6.2 and later have it" },
	[BW_A_MAX] = { "max_bytes", BW_V_BYTES, 0, "Linux 6.2 and later have it" },
	[BW_A_MAXRATIO] = { "max_ratio", BW_V_PERCENT, 1, "Linux 2.6.24 and later have it" },
	[BW_A_STRICT] = { "strict_limit", BW_V_BOOL, 1, "Linux 6.2 and later have it" },
	[BW_A_RA] = { "read_ahead_kb", BW_V_KB, 0, "every kernel has it" },
};

int bw_attr_find(const char *name, size_t len)
{
	int a;

	for (a = 0; a < BW_NATTRS; a++)
		if (strlen(bw_attrs[a].name) == len && !strncmp(bw_attrs[a].name, name, len))
			return a;
	return -1;
}

int bw_parse_attr_value(int a, const char *s, uint64_t *v, char *why, size_t whylen)
{
	uint64_t x;
	size_t n;
	int r;

	switch (bw_attrs[a].kind) {
	case BW_V_BYTES:
		return bw_parse_size(s, v, why, whylen);
	case BW_V_KB:
		/* KiB, as the file has it, or a size with a unit: 128, 128K, 1M */
		r = bw_parse_size(s, &x, why, whylen);
		if (r)
			return r;
		if (!s[strspn(s, "0123456789")]) {
			*v = x;
			return 0;
		}
		if (x % 1024) {
			snprintf(why, whylen, "not a whole number of KiB");
			return BW_EXIT_SIZE;
		}
		*v = x / 1024;
		return 0;
	case BW_V_PERCENT:
		n = strspn(s, "0123456789");
		if (!n || n > 3 || (s[n] && strcmp(s + n, "%")) ||
		    (x = strtoull(s, NULL, 10)) > 100) {
			snprintf(why, whylen, "not a percentage (0 to 100)");
			return BW_EXIT_SIZE;
		}
		*v = x;
		return 0;
	case BW_V_BOOL:
		if (!strcmp(s, "1") || !strcmp(s, "on") || !strcmp(s, "yes"))
			*v = 1;
		else if (!strcmp(s, "0") || !strcmp(s, "off") || !strcmp(s, "no"))
			*v = 0;
		else {
			snprintf(why, whylen, "not 0 or 1 (or on, off, yes, no)");
			return BW_EXIT_SIZE;
		}
		return 0;
	}
	return BW_EXIT_SIZE;
}

char *bw_attr_text(int a, uint64_t v, char *buf, size_t len)
{
	char h[32];

	switch (bw_attrs[a].kind) {
	case BW_V_BYTES:
		snprintf(buf, len, "%s", bw_human_iec(v, h, sizeof(h)));
		break;
	case BW_V_KB:
		snprintf(buf, len, "%" PRIu64 " (%s)", v, bw_human_iec(v << 10, h, sizeof(h)));
		break;
	case BW_V_PERCENT:
		snprintf(buf, len, "%" PRIu64 "%%", v);
		break;
	case BW_V_BOOL:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	}
	return buf;
}

int bw_has_attr(const struct bw_ctx *ctx, const char *bdi, int a)
{
	char path[PATH_MAX];

	return !bw_path(ctx, path, sizeof(path), "/sys/class/bdi/%s/%s", bdi, bw_attrs[a].name) &&
	       access(path, F_OK) == 0;
}

const char *bw_instead(const struct bw_ctx *ctx, const char *bdi)
{
	if (bw_has_attr(ctx, bdi, BW_A_MAX) && bw_has_attr(ctx, bdi, BW_A_STRICT))
		return "it has max_bytes and strict_limit, which limit the device's dirty pages "
		       "instead (set TARGET max_bytes=SIZE strict_limit=1)";
	if (bw_has_attr(ctx, bdi, BW_A_MAXRATIO))
		return "it has max_ratio, which limits the device's share of the dirty pages "
		       "instead (set TARGET max_ratio=PERCENT)";
	return "it has no per-device writeback setting";
}

/* attr_path: /sys/class/bdi/BDI/ATTR; fails NOENT or NOATTR */
static int attr_path(struct bw_ctx *ctx, const char *bdi, int a, char *path, size_t len)
{
	char rel[PATH_MAX], rel_buf[128];
	struct stat st;

	if (!bw_bdi_exists(ctx, bdi))
		return bw_fail(ctx, BW_EXIT_NOENT, "no bdi named '%s' in /sys/class/bdi", bdi);
	snprintf(rel, sizeof(rel), "/sys/class/bdi/%s/%s", bdi, bw_attrs[a].name);
	if (bw_path(ctx, path, len, "%s", rel))
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s: path too long", rel);
	if (stat(path, &st) == 0)
		return 0;
	if (errno != ENOENT)
		return 0;	/* the open says why */
	if (a == BW_A_BG)
		return bw_fail(ctx, BW_EXIT_NOATTR,
			       "%s: no such attribute: the running kernel (%s) lacks the per-device "
			       "background writeback threshold (%s); %s",
			       rel, bw_kernel_release(ctx, rel_buf, sizeof(rel_buf)),
			       bw_attrs[a].since, bw_instead(ctx, bdi));
	return bw_fail(ctx, BW_EXIT_NOATTR, "%s: no such attribute in the running kernel (%s) (%s)",
		       rel, bw_kernel_release(ctx, rel_buf, sizeof(rel_buf)), bw_attrs[a].since);
}

static int errno_code(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
	case EROFS:
		return BW_EXIT_PERM;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return BW_EXIT_NOENT;
	case EINVAL:
	case ERANGE:
		return BW_EXIT_SIZE;
	default:
		return BW_EXIT_FAILURE;
	}
}

int bw_get_attr(struct bw_ctx *ctx, const char *bdi, int a, uint64_t *v)
{
	char path[PATH_MAX];
	int r = attr_path(ctx, bdi, a, path, sizeof(path));

	if (r)
		return r;
	r = bw_read_u64(path, v);
	if (r == -EINVAL || r == -ERANGE)
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s: not a number",
			       path + strlen(ctx->root));
	if (r)
		return bw_fail(ctx, errno_code(-r), "cannot read %s: %s",
			       path + strlen(ctx->root), strerror(-r));
	return 0;
}

int bw_set_attr(struct bw_ctx *ctx, const char *bdi, int a, uint64_t v, uint64_t *old,
		uint64_t *back)
{
	char path[PATH_MAX], buf[32];
	const char *shown;
	ssize_t w;
	int fd, r, len;

	r = bw_get_attr(ctx, bdi, a, old);
	if (r)
		return r;
	attr_path(ctx, bdi, a, path, sizeof(path));
	shown = path + strlen(ctx->root);
	/* The whole value in one write(2): sysfs hands ->store() one buffer. */
	len = snprintf(buf, sizeof(buf), "%" PRIu64 "\n", v);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);	/* O_TRUNC: as a shell does */
	if (fd < 0) {
		r = errno;
		/* root may write it, unless the file system is read-only (a sandbox) */
		return bw_fail(ctx, errno_code(r), "cannot open %s for writing: %s%s", shown,
			       strerror(r), r == EROFS ? " (the file system is read-only here: "
			       "in a sandbox, e.g. a unit, it must be writable: "
			       "ReadWritePaths=/sys/devices/virtual/bdi)" :
			       errno_code(r) == BW_EXIT_PERM ? " (root can write it)" : "");
	}
	w = write(fd, buf, (size_t)len);
	r = w < 0 ? errno : 0;
	if (close(fd) != 0 && !r && w == len)
		r = errno;
	if (r == EINVAL || r == ERANGE)
		return bw_fail(ctx, BW_EXIT_SIZE, "the kernel refused %" PRIu64 " for %s: %s",
			       v, shown, strerror(r));
	if (r)
		return bw_fail(ctx, errno_code(r), "cannot write %s: %s", shown, strerror(r));
	if (w != len)
		return bw_fail(ctx, BW_EXIT_FAILURE, "short write to %s (%zd of %d bytes)",
			       shown, w, len);
	r = bw_get_attr(ctx, bdi, a, back);
	if (r)
		return r;
	/* min_bytes, max_bytes and read_ahead_kb are kept in other units */
	if (bw_attrs[a].exact && *back != v)
		return bw_fail(ctx, BW_EXIT_FAILURE, "%s reads back %" PRIu64 " after writing %" PRIu64,
			       shown, *back, v);
	return 0;
}

int bw_get_bg(struct bw_ctx *ctx, const char *bdi, uint64_t *bytes)
{
	return bw_get_attr(ctx, bdi, BW_A_BG, bytes);
}

int bw_set_bg(struct bw_ctx *ctx, const char *bdi, uint64_t bytes, uint64_t *old)
{
	uint64_t back;

	return bw_set_attr(ctx, bdi, BW_A_BG, bytes, old, &back);
}
