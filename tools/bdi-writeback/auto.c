// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How fast a bdi writes, and the threshold that gives.
 *
 * The kernel's own estimate comes from debugfs. In
 * /sys/kernel/debug/bdi/<bdi>/stats, BdiWriteBandwidth is the sum of the
 * estimates of the bdi's writeback contexts that have dirty inodes right
 * now, so it reads 0 on an idle device; wb_stats (6.10 and later) has every
 * context's own estimate (WbWriteBandwidth), which keeps its last value.
 * Until a context has written something (WbWritten, BdiWritten 0) its
 * estimate is only the kernel's starting value (100 MiB/s) and is not used.
 *
 * Without debugfs, the block devices' own counters (/sys/block/<dev>/stat)
 * are sampled twice: bytes written divided by the time the device was busy
 * (io_ticks) is its write speed while it was writing, whatever the load.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "bdiwb.h"

/* field: the number after "Key:" on a line of debugfs stats */
static int field(const char *line, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	const char *p;
	char *end;

	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return 0;
	p = line + n + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno == 0;
}

int bw_parse_stats(const char *text, struct bw_stats *st)
{
	const char *line = text;
	uint64_t v, any = 0;

	memset(st, 0, sizeof(*st));
	while (line && *line) {
		if (field(line, "BdiWriteback", &v))
			st->writeback_kb = v, any++;
		else if (field(line, "BdiReclaimable", &v))
			st->reclaimable_kb = v, any++;
		else if (field(line, "BdiWritten", &v))
			st->written_kb = v, st->have_written = 1, any++;
		else if (field(line, "BdiWriteBandwidth", &v))
			st->bandwidth_kbps = v, st->have_bandwidth = 1, any++;
		else if (field(line, "BackgroundThresh", &v))
			st->bg_thresh_kb = v, st->have_bg_thresh = 1, any++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return any ? 0 : -EINVAL;
}

int bw_parse_wb_stats(const char *text, uint64_t *kbps)
{
	const char *line = text;
	uint64_t v, written = 0, bw = 0, best = 0;
	int have_written = 0, have_bw = 0, found = 0;

	/* blocks of "Wb...:" lines, one per writeback context, blank line between */
	for (;;) {
		int end = !line || !*line || *line == '\n';

		if (end || field(line, "WbCgIno", &v)) {
			if (have_written && have_bw && written > 0 && bw > 0) {
				if (bw > best)
					best = bw;
				found = 1;
			}
			have_written = have_bw = 0;
		}
		if (!line || !*line)
			break;
		if (field(line, "WbWritten", &v))
			written = v, have_written = 1;
		else if (field(line, "WbWriteBandwidth", &v))
			bw = v, have_bw = 1;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!found)
		return -EAGAIN;
	*kbps = best;
	return 0;
}

/* read_debugfs: the whole of /sys/kernel/debug/bdi/BDI/FILE, malloc'd */
static int read_debugfs(struct bw_ctx *ctx, const char *bdi, const char *file, char **text)
{
	char path[PATH_MAX];

	*text = NULL;
	if (bw_path(ctx, path, sizeof(path), "/sys/kernel/debug/bdi/%s/%s", bdi, file))
		return -ENAMETOOLONG;
	return bw_read_all(path, text);
}

int bw_read_stats(struct bw_ctx *ctx, const char *bdi, struct bw_stats *st)
{
	char *text;
	int r = read_debugfs(ctx, bdi, "stats", &text);

	memset(st, 0, sizeof(*st));
	if (r)
		return r;
	r = bw_parse_stats(text, st);
	free(text);
	return r;
}

int bw_kernel_estimate(struct bw_ctx *ctx, const char *bdi, uint64_t *bps)
{
	struct bw_stats st;
	char *text;
	uint64_t kbps;
	int r = bw_read_stats(ctx, bdi, &st);

	if (r == -ENOENT || r == -EACCES || r == -EPERM)
		return bw_fail(ctx, BW_EXIT_FAILURE, "no kernel estimate for %s: cannot read "
			       "/sys/kernel/debug/bdi/%s/stats: %s (is debugfs mounted, are you root?)",
			       bdi, bdi, strerror(-r));
	if (r || !st.have_bandwidth)
		return bw_fail(ctx, BW_EXIT_FAILURE, "no kernel estimate for %s: "
			       "/sys/kernel/debug/bdi/%s/stats has no BdiWriteBandwidth", bdi, bdi);
	if (st.bandwidth_kbps > 0 && st.have_written && st.written_kb > 0) {
		*bps = st.bandwidth_kbps * 1024;
		return 0;
	}
	/* idle: the contexts' own last estimates, one block each: all of them */
	if (read_debugfs(ctx, bdi, "wb_stats", &text) == 0) {
		r = bw_parse_wb_stats(text, &kbps);
		free(text);
		if (r == 0) {
			*bps = kbps * 1024;
			return 0;
		}
	}
	return bw_fail(ctx, BW_EXIT_FAILURE, "no kernel estimate for %s yet: it has written "
		       "nothing since it appeared", bdi);
}

int bw_parse_blkstat(const char *text, uint64_t *wsectors, uint64_t *busy_ms)
{
	uint64_t f[11];
	const char *p = text;
	char *end;
	int i;

	/* read I/Os, merges, sectors, ticks; write I/Os, merges, sectors,
	   ticks; in flight; io_ticks; time in queue; (discard, flush...) */
	for (i = 0; i < 11; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	*wsectors = f[6];
	*busy_ms = f[9];
	return 0;
}

static int sample_one(struct bw_sample *s, const char *name, const char *statpath)
{
	char buf[512];
	int i = s->n;

	if (i == BW_MAX_DEVS)
		return 0;
	if (bw_read_file(statpath, buf, sizeof(buf)) ||
	    bw_parse_blkstat(buf, &s->sectors[i], &s->busy_ms[i]))
		return -EIO;
	if (snprintf(s->dev[i], sizeof(s->dev[i]), "%s", name) >= (int)sizeof(s->dev[i]))
		return -ENAMETOOLONG;
	s->n++;
	return 0;
}

struct sample_arg {
	struct bw_sample *s;
	const char *failed;
};

static int sample_btrfs_dev(struct bw_ctx *ctx, const char *fsid, const char *dev, void *arg)
{
	struct sample_arg *sa = arg;
	char path[PATH_MAX];

	if (bw_path(ctx, path, sizeof(path), "/sys/fs/btrfs/%s/devices/%s/stat", fsid, dev) ||
	    sample_one(sa->s, dev, path)) {
		sa->failed = dev;
		return -EIO;
	}
	return 0;
}

int bw_sample(struct bw_ctx *ctx, const char *bdi, struct bw_sample *s)
{
	char path[PATH_MAX], name[BW_NAME_MAX], fsid[NAME_MAX + 1];
	struct sample_arg sa = { .s = s };
	const char *rest;
	dev_t dev;
	int r;

	memset(s, 0, sizeof(*s));
	if (bw_fs_own_name(bdi, "btrfs")) {
		if (bw_btrfs_fsid_of_bdi(ctx, bdi, fsid, sizeof(fsid)))
			return bw_fail(ctx, BW_EXIT_NOENT, "%s: no btrfs filesystem in /sys/fs/btrfs "
				       "has this bdi", bdi);
		r = bw_btrfs_devices(ctx, fsid, sample_btrfs_dev, &sa);
		if (r && sa.failed)
			return bw_fail(ctx, BW_EXIT_FAILURE, "%s: cannot read the I/O counters "
				       "of its device %s", bdi, sa.failed);
		if (r)
			return bw_fail(ctx, BW_EXIT_NOENT, "%s: cannot read /sys/fs/btrfs/%s/devices: %s",
				       bdi, fsid, strerror(-r));
		if (!s->n)
			return bw_fail(ctx, BW_EXIT_FAILURE, "%s: btrfs filesystem %s lists no devices",
				       bdi, fsid);
		return 0;
	}
	if (!bw_devno_prefix(bdi, &dev, &rest) && major(dev) != 0 &&
	    (!*rest || !strcmp(rest, "-fuseblk"))) {
		if (bw_blockdev_name(ctx, dev, name, sizeof(name)) ||
		    bw_path(ctx, path, sizeof(path), "/sys/dev/block/%u:%u/stat",
			    major(dev), minor(dev)))
			return bw_fail(ctx, BW_EXIT_NOENT, "%s: no block device %u:%u", bdi,
				       major(dev), minor(dev));
		if (sample_one(s, name, path))
			return bw_fail(ctx, BW_EXIT_FAILURE, "%s: cannot read /sys/dev/block/%u:%u/stat",
				       bdi, major(dev), minor(dev));
		return 0;
	}
	return bw_fail(ctx, BW_EXIT_FAILURE, "%s: no block device of its own whose I/O counters "
		       "could be sampled (mount debugfs to use the kernel's estimate)", bdi);
}

int bw_counter_rate(struct bw_ctx *ctx, const struct bw_sample *a, const struct bw_sample *b,
		    uint64_t *bps)
{
	uint64_t sectors = 0, busy = 0;
	char h[32];
	int i;

	if (a->n != b->n || a->n == 0)
		return bw_fail(ctx, BW_EXIT_FAILURE, "its devices changed while sampling");
	for (i = 0; i < a->n; i++) {
		if (strcmp(a->dev[i], b->dev[i]) || b->sectors[i] < a->sectors[i] ||
		    b->busy_ms[i] < a->busy_ms[i])
			return bw_fail(ctx, BW_EXIT_FAILURE, "its devices changed while sampling");
		sectors += b->sectors[i] - a->sectors[i];
		/* devices of one filesystem work in parallel: the longest busy time */
		if (b->busy_ms[i] - a->busy_ms[i] > busy)
			busy = b->busy_ms[i] - a->busy_ms[i];
	}
	if (sectors * 512 < BW_MIN_WRITTEN || busy < BW_MIN_BUSY_MS)
		return bw_fail(ctx, BW_EXIT_FAILURE, "too little written to measure: %s in %" PRIu64
			       " ms of device time (at least %d MiB and %d ms needed)",
			       bw_human_iec(sectors * 512, h, sizeof(h)), busy,
			       (int)(BW_MIN_WRITTEN >> 20), BW_MIN_BUSY_MS);
	*bps = bw_mul_div(sectors, 512 * 1000, busy);
	return 0;
}

uint64_t bw_auto_size(uint64_t bps, const struct bw_auto *a, int *clamped)
{
	uint64_t v = bw_mul_div(bps, a->seconds_ms, 1000), q, r;

	if (a->round > 1) {
		/* to the nearest multiple, half way up; UINT64_MAX if none fits */
		q = v / a->round;
		r = v % a->round;
		if (r >= a->round - a->round / 2)
			q++;
		if (__builtin_mul_overflow(q, a->round, &v))
			v = UINT64_MAX;
	}
	if (clamped)
		*clamped = 0;
	if (v < a->min) {
		v = a->min;
		if (clamped)
			*clamped = -1;
	} else if (v > a->max) {
		v = a->max;
		if (clamped)
			*clamped = 1;
	}
	return v;
}

int bw_should_change(uint64_t cur, uint64_t want, unsigned int tolerance)
{
	uint64_t diff = cur > want ? cur - want : want - cur;

	if (cur == want)
		return 0;
	if (cur == 0)
		return 1;
	/* diff x 100 > cur x tolerance, without overflow */
	return diff > bw_mul_div(cur, tolerance, 100);
}
