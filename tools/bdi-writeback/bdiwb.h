/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bdi-writeback: see, set and size the per-device background writeback
 * threshold, /sys/class/bdi/<bdi>/dirty_background_bytes.
 *
 * Every function that can fail returns 0 or one of the BW_EXIT_* codes below
 * and leaves a one-line message (without the program name) in ctx->err. The
 * codes are the command's exit statuses; bdi-writeback(8) documents them.
 */
#ifndef BDIWB_H
#define BDIWB_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct libmnt_table;
struct libmnt_fs;

enum {
	BW_EXIT_OK = 0,
	BW_EXIT_FAILURE = 1,	/* anything else: I/O error, read-back mismatch,
				   bandwidth not measurable */
	BW_EXIT_USAGE = 2,	/* bad command line */
	BW_EXIT_NOENT = 3,	/* no such bdi, device or path */
	BW_EXIT_NOBDI = 4,	/* filesystem without a writeback device */
	BW_EXIT_NOATTR = 5,	/* kernel without the knob (dirty_background_bytes...) */
	BW_EXIT_PERM = 6,	/* permission denied */
	BW_EXIT_SIZE = 7,	/* malformed or out-of-range size */
	BW_EXIT_AMBIGUOUS = 8,	/* several bdis could be the filesystem's */
	BW_EXIT_PARTIAL = 64,	/* some of several targets failed */
};

#define BW_ATTR		"dirty_background_bytes"
#define BW_MAX_DEVS	16	/* block devices under one bdi that we sample */
#define BW_NAME_MAX	64

struct bw_ctx {
	char root[PATH_MAX];		/* "" or the --sysroot, no trailing '/' */
	struct libmnt_table *mounts;	/* mountinfo, loaded on first use */
	char **bdis;			/* /sys/class/bdi, loaded on first use */
	size_t nbdis;
	char err[1024];			/* message of the last failure */
};

int bw_ctx_init(struct bw_ctx *ctx, const char *sysroot);
void bw_ctx_forget_mounts(struct bw_ctx *ctx);	/* and the bdis: read afresh */
void bw_ctx_free(struct bw_ctx *ctx);
int bw_fail(struct bw_ctx *ctx, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int bw_prefix(struct bw_ctx *ctx, int code, const char *prefix);

/* size.c: sizes and durations on the command line, sizes on output */
int bw_parse_size(const char *s, uint64_t *bytes, char *why, size_t whylen);
uint64_t bw_mul_div(uint64_t a, uint64_t b, uint64_t c);	/* saturates */
int bw_parse_seconds(const char *s, uint64_t *ms, char *why, size_t whylen);
char *bw_human(uint64_t bytes, char *buf, size_t len);		/* "64M", "1.5G" */
char *bw_human_iec(uint64_t bytes, char *buf, size_t len);	/* "64 MiB" */

/* sysfs.c: files under the root */
int bw_path(const struct bw_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int bw_read_file(const char *path, char *buf, size_t len);	/* 0 or -errno */
int bw_read_all(const char *path, char **text);	/* the whole file, malloc'd */
int bw_read_u64(const char *path, uint64_t *v);			/* 0 or -errno */
int bw_parse_devno(const char *s, dev_t *dev);			/* "MAJ:MIN\n" */
int bw_devno_prefix(const char *s, dev_t *dev, const char **rest);	/* "MAJ:MIN..." */
int bw_bdi_exists(const struct bw_ctx *ctx, const char *bdi);
int bw_whole_disk(struct bw_ctx *ctx, dev_t dev, dev_t *disk, char *name, size_t namelen);
int bw_blockdev_name(const struct bw_ctx *ctx, dev_t dev, char *name, size_t len);
const char *bw_kernel_release(const struct bw_ctx *ctx, char *buf, size_t len);
/* the per-bdi knobs this tool shows and sets */
enum { BW_A_BG, BW_A_MIN, BW_A_MAX, BW_A_MAXRATIO, BW_A_STRICT, BW_A_RA, BW_NATTRS };
enum bw_vkind { BW_V_BYTES, BW_V_KB, BW_V_PERCENT, BW_V_BOOL };

struct bw_attr {
	const char *name;	/* /sys/class/bdi/<bdi>/<name> */
	enum bw_vkind kind;
	int exact;		/* reads back as written */
	const char *since;	/* which kernels have it */
};

extern const struct bw_attr bw_attrs[BW_NATTRS];

int bw_attr_find(const char *name, size_t len);
int bw_parse_attr_value(int a, const char *s, uint64_t *v, char *why, size_t whylen);
char *bw_attr_text(int a, uint64_t v, char *buf, size_t len);
int bw_has_attr(const struct bw_ctx *ctx, const char *bdi, int a);
const char *bw_instead(const struct bw_ctx *ctx, const char *bdi);
int bw_get_attr(struct bw_ctx *ctx, const char *bdi, int a, uint64_t *v);
int bw_set_attr(struct bw_ctx *ctx, const char *bdi, int a, uint64_t v, uint64_t *old,
		uint64_t *back);
int bw_get_bg(struct bw_ctx *ctx, const char *bdi, uint64_t *bytes);
int bw_set_bg(struct bw_ctx *ctx, const char *bdi, uint64_t bytes, uint64_t *old);

/* resolve.c: which bdi holds a TARGET's dirty pages */
enum bw_how { BW_BY_NAME, BW_BY_DEVICE, BW_BY_PATH };

/* whose bdi it is */
enum bw_kind {
	BW_KIND_NONE,
	BW_KIND_DISK,		/* a block device's: MAJ:MIN */
	BW_KIND_FS,		/* the filesystem's own: btrfs-N, cifs-N, ... */
	BW_KIND_ANON,		/* NFS, FUSE: 0:N, the mount's device number */
	BW_KIND_FUSEBLK,	/* MAJ:MIN-fuseblk */
};

struct bw_target {
	char bdi[BW_NAME_MAX];
	enum bw_how how;
	enum bw_kind kind;
	char mountpoint[PATH_MAX];	/* BW_BY_PATH: the mount it is on */
	char fstype[64];		/* BW_BY_PATH: what is mounted there */
};

int bw_load_mounts(struct bw_ctx *ctx);
int bw_resolve(struct bw_ctx *ctx, const char *target, struct bw_target *t);
/* a mount point: the canonical path (it may not exist yet), what is on it */
int bw_mount_point_path(struct bw_ctx *ctx, const char *target, char *out, size_t len);
int bw_resolve_mount(struct bw_ctx *ctx, const char *mountpoint, struct bw_target *t);
int bw_load_bdis(struct bw_ctx *ctx);
int bw_fs_bdi(struct bw_ctx *ctx, struct libmnt_fs *fs, char *bdi, size_t len,
	      enum bw_kind *kind);
int bw_fs_own_name(const char *bdi, const char *type);	/* "<type>-N" */
int bw_btrfs_devices(struct bw_ctx *ctx, const char *fsid,
		     int (*fn)(struct bw_ctx *ctx, const char *fsid, const char *dev, void *arg),
		     void *arg);
int bw_btrfs_fsid_of_bdi(struct bw_ctx *ctx, const char *bdi, char *fsid, size_t len);

/* info.c: what `list` shows about one bdi */
struct bw_info {
	char name[BW_NAME_MAX];
	char type[32];		/* disk, loop, dm, md, btrfs, nfs, fuse, ... */
	char device[256];	/* sda, dm-0 (vg-root), server:/export, ... */
	char *mounts;		/* mount points, '\n' between them; malloc'd */
	int has_stats;		/* debugfs readable */
	uint64_t dirty, writeback;	/* bytes */
	int has_bw;		/* the kernel has a measured bandwidth */
	uint64_t bw;		/* bytes/s */
	int has[BW_NATTRS];	/* the kernel has the knob */
	uint64_t val[BW_NATTRS];
};

/* every mount and the bdi that holds its dirty pages ("" for none) */
struct bw_mountmap {
	size_t n;
	struct bw_mountmap_entry {
		char bdi[BW_NAME_MAX];
		enum bw_kind kind;
		const char *target, *fstype, *source;	/* owned by ctx->mounts */
	} *e;
};

int bw_mountmap_build(struct bw_ctx *ctx, struct bw_mountmap *m);
void bw_mountmap_free(struct bw_mountmap *m);
int bw_list_bdis(struct bw_ctx *ctx, char ***names, size_t *n);
void bw_free_names(char **names, size_t n);
int bw_info(struct bw_ctx *ctx, const char *bdi, const struct bw_mountmap *m,
	    struct bw_info *info);
void bw_info_free(struct bw_info *info);

/* auto.c: bandwidth and the size it gives */
struct bw_stats {
	int have_bandwidth, have_written, have_bg_thresh;
	uint64_t writeback_kb, reclaimable_kb, written_kb, bandwidth_kbps;
	uint64_t bg_thresh_kb;
};

int bw_parse_stats(const char *text, struct bw_stats *st);
int bw_parse_wb_stats(const char *text, uint64_t *kbps);
int bw_read_stats(struct bw_ctx *ctx, const char *bdi, struct bw_stats *st);

enum bw_source { BW_SRC_ANY, BW_SRC_ESTIMATE, BW_SRC_COUNTERS };

int bw_kernel_estimate(struct bw_ctx *ctx, const char *bdi, uint64_t *bps);

struct bw_sample {
	int n;
	char dev[BW_MAX_DEVS][BW_NAME_MAX];
	uint64_t sectors[BW_MAX_DEVS];	/* sectors written */
	uint64_t busy_ms[BW_MAX_DEVS];	/* io_ticks: time with I/O in flight */
};

int bw_parse_blkstat(const char *text, uint64_t *wsectors, uint64_t *busy_ms);
int bw_sample(struct bw_ctx *ctx, const char *bdi, struct bw_sample *s);
int bw_counter_rate(struct bw_ctx *ctx, const struct bw_sample *a,
		    const struct bw_sample *b, uint64_t *bps);

#define BW_MIN_BUSY_MS		100		/* less busy time: no estimate */
#define BW_MIN_WRITTEN		(1ULL << 20)	/* fewer bytes: no estimate */

struct bw_auto {
	uint64_t seconds_ms;	/* target time */
	uint64_t min, max;	/* bounds, bytes */
	uint64_t round;		/* granularity, bytes */
	unsigned int tolerance;	/* --watch: percent change that counts */
};

#define BW_AUTO_DEFAULTS { .seconds_ms = 2000, .min = 4ULL << 20, \
			   .max = 1ULL << 30, .round = 1ULL << 20, .tolerance = 10 }

uint64_t bw_auto_size(uint64_t bps, const struct bw_auto *a, int *clamped);
int bw_should_change(uint64_t cur, uint64_t want, unsigned int tolerance);

/* cli.c */
int bw_main(int argc, char **argv);

#endif
