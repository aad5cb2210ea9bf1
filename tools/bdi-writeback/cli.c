// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line: list, get, set, auto and apply.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "bdiwb.h"
#include "conf.h"

#ifndef BW_VERSION
#define BW_VERSION "1.0"
#endif

#define PROG "bdi-writeback"

enum {
	COL_BDI, COL_TYPE, COL_DEVICE, COL_MOUNTS, COL_DIRTY, COL_WRITEBACK,
	COL_BW, COL_MIN, COL_MAX, COL_STRICT, COL_BG, COL_MAXRATIO, COL_RA, NCOLS
};

static const struct colinfo {
	const char *name;
	double whint;
	int flags;
	int number;
	int attr;	/* the knob it shows, BW_A_*, or -1 */
	int dflt;	/* in the default set */
	const char *help;
} colinfos[NCOLS] = {
	[COL_BDI] = { "BDI", 0.1, 0, 0, -1, 1,
		"bdi name, as in /sys/class/bdi" },
	[COL_TYPE] = { "TYPE", 0.1, 0, 0, -1, 1,
		"disk, loop, dm, md, btrfs, nfs, fuse, fuseblk, cifs, ..." },
	[COL_DEVICE] = { "DEVICE", 0.15, SCOLS_FL_TRUNC, 0, -1, 1,
		"its block device(s), or the mount's source" },
	[COL_MOUNTS] = { "MOUNTS", 0.2, SCOLS_FL_WRAP, 0, -1, 1,
		"mount points whose dirty pages it holds" },
	[COL_DIRTY] = { "DIRTY", 6, SCOLS_FL_RIGHT, 1, -1, 1,
		"dirty page cache (debugfs BdiReclaimable)" },
	[COL_WRITEBACK] = { "WRITEBACK", 6, SCOLS_FL_RIGHT, 1, -1, 1,
		"under writeback (debugfs BdiWriteback)" },
	[COL_BW] = { "WRITE-BW", 8, SCOLS_FL_RIGHT, 1, -1, 1,
		"the kernel's write bandwidth estimate, per second" },
	[COL_MIN] = { "MIN-BYTES", 6, SCOLS_FL_RIGHT, 1, BW_A_MIN, 1,
		"min_bytes (Linux 6.2 and later)" },
	[COL_MAX] = { "MAX-BYTES", 6, SCOLS_FL_RIGHT, 1, BW_A_MAX, 1,
		"max_bytes (Linux 6.2 and later)" },
	[COL_STRICT] = { "STRICT", 1, SCOLS_FL_RIGHT, 1, BW_A_STRICT, 1,
		"strict_limit: 1 holds the device to its share always (Linux 6.2 and later)" },
	[COL_BG] = { "BG-BYTES", 6, SCOLS_FL_RIGHT, 1, BW_A_BG, 1,
		"dirty_background_bytes (0: off)" },
	[COL_MAXRATIO] = { "MAX-RATIO", 4, SCOLS_FL_RIGHT, 1, BW_A_MAXRATIO, 0,
		"max_ratio, percent of the global dirty limit" },
	[COL_RA] = { "READ-AHEAD", 6, SCOLS_FL_RIGHT, 1, BW_A_RA, 0,
		"read_ahead_kb, as a size" },
};

struct opts {
	const char *sysroot;
	int json, raw, noheadings, bytes;
	int cols[NCOLS], ncols;
	int sort;		/* column to sort by, or -1 */
	struct bw_auto a;
	enum bw_source source;
	uint64_t window_ms, interval_ms, fallback;
	int have_fallback, dry_run, watch;
	const char *config, *policy;	/* apply: --config, --default */
	int check;			/* apply --check */
	unsigned int given;	/* OPTBIT()s of the options on the command line */
};

enum {
	OPT_SYSROOT = 0x100, OPT_MIN, OPT_MAX, OPT_SOURCE, OPT_WINDOW, OPT_DRYRUN,
	OPT_FALLBACK, OPT_TOLERANCE, OPT_CONFIG, OPT_DEFAULT, OPT_CHECK,
};

/* options a command accepts, as bits of the table below */
#define OPTBIT(i)	(1u << (i))
static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'J' },		/* 0 */
	{ "raw", no_argument, NULL, 'r' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "bytes", no_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "seconds", required_argument, NULL, 's' },	/* 5 */
	{ "min", required_argument, NULL, OPT_MIN },
	{ "max", required_argument, NULL, OPT_MAX },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "dry-run", no_argument, NULL, OPT_DRYRUN },	/* 10 */
	{ "fallback", required_argument, NULL, OPT_FALLBACK },
	{ "watch", no_argument, NULL, 'w' },
	{ "interval", required_argument, NULL, 'i' },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },	/* 15 */
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "sort", required_argument, NULL, 'x' },		/* 18 */
	{ "list-columns", no_argument, NULL, 'H' },
	{ "config", required_argument, NULL, OPT_CONFIG },	/* 20 */
	{ "default", required_argument, NULL, OPT_DEFAULT },
	{ "check", no_argument, NULL, OPT_CHECK },		/* 22 */
	{ NULL, 0, NULL, 0 }
};
#define SHORTOPTS	"Jrnbo:s:wi:hVx:H"
#define TABLE_OPTS	(OPTBIT(0) | OPTBIT(1) | OPTBIT(2) | OPTBIT(3) | OPTBIT(4) | \
			 OPTBIT(18))
#define AUTO_OPTS	(OPTBIT(5) | OPTBIT(6) | OPTBIT(7) | OPTBIT(8) | OPTBIT(9) | \
			 OPTBIT(10) | OPTBIT(11))
#define WATCH_OPTS	(OPTBIT(13) | OPTBIT(14))
#define ANY_OPTS	(OPTBIT(15) | OPTBIT(16) | OPTBIT(17))
#define APPLY_OPTS	(OPTBIT(20) | OPTBIT(21) | OPTBIT(22))

static int optbit_of(int c)
{
	int i;

	for (i = 0; longopts[i].name; i++)
		if (longopts[i].val == c)
			return i;
	return -1;
}

static void list_columns(FILE *out)
{
	int i;

	for (i = 0; i < NCOLS; i++)
		fprintf(out, " %c%-10s  %s\n", colinfos[i].dflt ? '*' : ' ', colinfos[i].name,
			colinfos[i].help);
}

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROG " [options] list [TARGET...]\n"
	      " " PROG " [options] get TARGET...\n"
	      " " PROG " [options] set TARGET SIZE | set TARGET KNOB=VALUE...\n"
	      " " PROG " [options] auto TARGET [--seconds S] [--dry-run | --watch]\n"
	      " " PROG " [options] apply [--config FILE] TARGET [--dry-run | --watch]\n"
	      " " PROG " [options] apply [--config FILE] --check\n"
	      "\n"
	      "See and set the per-device background writeback threshold,\n"
	      "/sys/class/bdi/<bdi>/dirty_background_bytes: background writeback of a\n"
	      "device starts once more than this much of its page cache is dirty.\n"
	      "It starts writeback earlier; it never limits or throttles writers.\n"
	      "\n"
	      "TARGET is a bdi name (8:0, btrfs-1, 0:52), a block device (/dev/sdb,\n"
	      "/dev/sdb1: its disk's bdi) or any path on a mounted filesystem (the bdi\n"
	      "that holds the filesystem's dirty pages: btrfs, NFS, FUSE, CIFS, bcachefs\n"
	      "and others have their own).\n"
	      "SIZE is bytes, or a number with K, M, G, T or KiB, MiB, GiB, TiB (x1024).\n"
	      "\n"
	      "Commands:\n"
	      " list               every bdi (or the TARGETs' ones) with its mounts, counters, knobs\n"
	      " get TARGET...      the same for the bdis that hold the TARGETs' dirty pages\n"
	      " set TARGET SIZE    write SIZE to dirty_background_bytes, read it back and\n"
	      "                    compare (0 turns it off)\n"
	      " set TARGET KNOB=VALUE...\n"
	      "                    set the bdi's knobs: dirty_background_bytes, min_bytes,\n"
	      "                    max_bytes (SIZE), max_ratio (0-100), strict_limit (0, 1),\n"
	      "                    read_ahead_kb (KiB, or a SIZE); all checked before any is set\n"
	      " auto TARGET        set the device's write bandwidth x --seconds\n"
	      " apply TARGET       what the first matching rule of the configuration file says\n"
	      "\n"
	      "Output options (list, get):\n"
	      " -J, --json             JSON\n"
	      " -r, --raw              raw, unaligned output\n"
	      " -n, --noheadings       no heading line\n"
	      " -b, --bytes            sizes in bytes\n"
	      " -o, --output LIST      columns to print, e.g. BDI,MOUNTS,BG-BYTES; +LIST adds\n"
	      "                        to the default columns\n"
	      " -x, --sort COL         sort by this column\n"
	      " -H, --list-columns     the columns, and exit\n"
	      "\n"
	      "auto options:\n"
	      " -s, --seconds S        target time: bandwidth x S (default 2; 0.001 to 3600)\n"
	      "     --min SIZE         lower bound (default 4M)\n"
	      "     --max SIZE         upper bound (default 1G)\n"
	      "     --source SRC       estimate: the kernel's (debugfs), counters: the device's\n"
	      "                        /sys/block/<dev>/stat over --window; default: estimate\n"
	      "                        when debugfs is readable, counters otherwise\n"
	      "     --window S         counters' sampling time (default 2)\n"
	      "     --fallback SIZE    set this while the bandwidth cannot be measured\n"
	      "     --dry-run          print what would be set and why, set nothing\n"
	      " -w, --watch            keep re-sizing in the foreground until SIGTERM/SIGINT\n"
	      "                        (a path TARGET is a mount point: what is mounted there,\n"
	      "                        waited for while nothing is)\n"
	      " -i, --interval S       with --watch: seconds between measurements (default 10)\n"
	      "     --tolerance PCT    with --watch: change only when off by more (default 10)\n"
	      "\n"
	      "apply options (and those of auto but --seconds, for 'auto' rules):\n"
	      "     --config FILE      rules from FILE and FILE.d/*.conf\n"
	      "                        (default " BW_CONF_PATH ")\n"
	      "     --default ACTIONS  what to do when no rule matches, e.g. 'auto 2s'\n"
	      "     --check            read the rules, report errors, apply nothing\n"
	      "\n"
	      "Other options:\n"
	      "     --sysroot DIR      read /sys, /proc and /run/udev under DIR (for tests)\n"
	      " -h, --help             this help\n"
	      " -V, --version          version\n"
	      "\n"
	      "Exit status:\n"
	      " 0 success   1 other failure   2 bad usage   3 no such bdi, device or path\n"
	      " 4 filesystem without a writeback device (tmpfs, ramfs...)\n"
	      " 5 kernel without the knob (dirty_background_bytes: series not applied)\n"
	      " 6 permission denied   7 malformed or out-of-range size or value\n"
	      " 8 which of a filesystem type's bdis (cifs-N, ceph-N...) is the target's cannot be told\n"
	      " 9 bad or unreadable configuration file\n"
	      " 64 some of several TARGETs failed (each is reported)\n"
	      "\n"
	      "Columns (* by default; a knob the kernel lacks is shown as '-'):\n", out);
	list_columns(out);
	fputs("\nFor more details see bdi-writeback(8).\n", out);
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help' for more information.\n", stderr);
	return BW_EXIT_USAGE;
}

static int report(struct bw_ctx *ctx, int code)
{
	if (code)
		fprintf(stderr, PROG ": %s\n", ctx->err);
	return code;
}

/* size_arg: the value of a size option; a bad one is bad usage */
static int size_arg(const char *opt, const char *s, uint64_t *v)
{
	char why[256];

	if (bw_parse_size(s, v, why, sizeof(why)))
		return bad_usage("invalid %s '%s': %s", opt, s, why);
	return 0;
}

static int seconds_arg(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *ms)
{
	char why[256];

	if (bw_parse_seconds(s, ms, why, sizeof(why)))
		return bad_usage("invalid %s '%s': %s", opt, s, why);
	if (*ms < lo || *ms > hi)
		return bad_usage("invalid %s '%s': out of range (%" PRIu64 ".%03" PRIu64 " to %" PRIu64 " s)",
				 opt, s, lo / 1000, lo % 1000, hi / 1000);
	return 0;
}

static int column_id(const char *name, size_t len)
{
	int i;

	for (i = 0; i < NCOLS; i++)
		if (strlen(colinfos[i].name) == len && !strncasecmp(colinfos[i].name, name, len))
			return i;
	return -1;
}

static void default_columns(struct opts *o)
{
	int i;

	o->ncols = 0;
	for (i = 0; i < NCOLS; i++)
		if (colinfos[i].dflt)
			o->cols[o->ncols++] = i;
}

/* parse_columns: "A,B" the columns, "+A,B" the default ones and these */
static int parse_columns(struct opts *o, const char *list)
{
	const char *p = list, *end;
	int id, i;

	o->ncols = 0;
	if (*p == '+') {
		default_columns(o);
		p++;
	}
	while (*p) {
		end = strchrnul(p, ',');
		id = column_id(p, (size_t)(end - p));
		if (id < 0)
			return bad_usage("unknown column '%.*s' (see --list-columns)", (int)(end - p), p);
		for (i = 0; i < o->ncols && o->cols[i] != id; i++)
			;
		if (i == o->ncols)
			o->cols[o->ncols++] = id;	/* each column once */
		p = *end ? end + 1 : end;
	}
	if (!o->ncols)
		return bad_usage("no columns given");
	return 0;
}

/*
 * A negative SIZE given to set would be taken for an option by getopt;
 * find it first, so that it is reported as the bad size it is. Anything
 * else that looks like a negative number is left to getopt: an unknown
 * option (bad usage). Arguments of options that take one are skipped.
 */
static int negative_size(int argc, char **argv)
{
	const char *cmd = NULL;
	int i, j, operands = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return 0;
		if (a[0] == '-' && a[1] >= '0' && a[1] <= '9') {
			if (cmd && !strcmp(cmd, "set") && operands == 1) {
				fprintf(stderr, PROG ": invalid size '%s': negative\n", a);
				return BW_EXIT_SIZE;
			}
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (!cmd)
				cmd = a;
			else
				operands++;
		} else if (a[1] == '-' && !strchr(a, '=')) {
			for (j = 0; longopts[j].name; j++)
				if (!strcmp(a + 2, longopts[j].name) &&
				    longopts[j].has_arg == required_argument)
					i++;
		} else if (a[1] != '-') {
			const char *s = strchr(SHORTOPTS, a[strlen(a) - 1]);

			if (s && s[1] == ':' && strlen(a) == 2)
				i++;
		}
	}
	return 0;
}

/* ---- list and get ------------------------------------------------------ */

static void set_cell(struct libscols_line *ln, int n, const char *s)
{
	if (s && *s)
		scols_line_set_data(ln, (size_t)n, s);
}

static void size_cell(const struct opts *o, struct libscols_line *ln, int n, int have,
		      uint64_t v, const char *suffix)
{
	char buf[48], h[40];

	if (!have)
		return;
	if (o->bytes)
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	else
		snprintf(buf, sizeof(buf), "%s%s", bw_human(v, h, sizeof(h)), suffix);
	scols_line_set_data(ln, (size_t)n, buf);
}

/* knob_cell: a knob's value; '-' where the kernel lacks it (null in JSON) */
static void knob_cell(const struct opts *o, struct libscols_line *ln, int n,
		      const struct bw_info *info, int a)
{
	char buf[48];

	if (!info->has[a]) {
		if (!o->json)
			scols_line_set_data(ln, (size_t)n, "-");
		return;
	}
	switch (bw_attrs[a].kind) {
	case BW_V_BYTES:
		size_cell(o, ln, n, 1, info->val[a], "");
		return;
	case BW_V_KB:
		size_cell(o, ln, n, 1, info->val[a] << 10, "");
		return;
	case BW_V_PERCENT:
		snprintf(buf, sizeof(buf), "%" PRIu64 "%s", info->val[a], o->bytes ? "" : "%");
		break;
	case BW_V_BOOL:
		snprintf(buf, sizeof(buf), "%" PRIu64, info->val[a]);
		break;
	}
	scols_line_set_data(ln, (size_t)n, buf);
}

static int add_row(const struct opts *o, struct libscols_table *tb, const struct bw_info *info)
{
	struct libscols_line *ln;
	int i;

	ln = scols_table_new_line(tb, NULL);
	if (!ln)
		return -ENOMEM;
	for (i = 0; i < o->ncols; i++) {
		int c = o->cols[i];

		if (colinfos[c].attr >= 0) {
			knob_cell(o, ln, i, info, colinfos[c].attr);
			continue;
		}
		switch (c) {
		case COL_BDI:
			set_cell(ln, i, info->name);
			break;
		case COL_TYPE:
			set_cell(ln, i, info->type);
			break;
		case COL_DEVICE:
			set_cell(ln, i, info->device);
			break;
		case COL_MOUNTS:
			set_cell(ln, i, info->mounts);
			break;
		case COL_DIRTY:
			size_cell(o, ln, i, info->has_stats, info->dirty, "");
			break;
		case COL_WRITEBACK:
			size_cell(o, ln, i, info->has_stats, info->writeback, "");
			break;
		case COL_BW:
			size_cell(o, ln, i, info->has_bw, info->bw, "/s");
			break;
		}
	}
	return 0;
}

static struct libscols_table *new_table(const struct opts *o)
{
	struct libscols_table *tb = scols_new_table();
	int i;

	if (!tb)
		return NULL;
	scols_table_enable_json(tb, o->json);
	scols_table_enable_raw(tb, o->raw);
	scols_table_enable_noheadings(tb, o->noheadings);
	scols_table_set_name(tb, "bdis");
	for (i = 0; i < o->ncols; i++) {
		const struct colinfo *ci = &colinfos[o->cols[i]];
		int flags = ci->flags;
		struct libscols_column *cl;

		if (o->raw || o->json)
			flags &= ~SCOLS_FL_TRUNC;
		cl = scols_table_new_column(tb, ci->name, ci->whint, flags);
		if (!cl) {
			scols_unref_table(tb);
			return NULL;
		}
		if (o->cols[i] == COL_MOUNTS) {
			if (!o->raw) {
				scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize,
							  scols_wrapnl_nextchunk, NULL);
				scols_column_set_safechars(cl, "\n");
			}
			scols_column_set_json_type(cl, SCOLS_JSON_ARRAY_STRING);
		} else if (ci->number && (o->bytes || ci->attr == BW_A_STRICT)) {
			scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
		}
	}
	return tb;
}

/*
 * print_table: the table on standard output. In JSON, libsmartcols gives a
 * bdi without mounts "[ null ]" for MOUNTS, an array holding one null:
 * that becomes [], an empty one.
 */
static void print_table(const struct opts *o, struct libscols_table *tb)
{
	char *s = NULL, *p, *q, *e;

	if (!o->json || scols_print_table_to_string(tb, &s) || !s) {
		if (!o->json)
			scols_print_table(tb);
		else
			(void)fputs("{}\n", stdout);
		free(s);
		return;
	}
	/* p: printed up to here; q: the next '[' */
	for (p = q = s; (q = strchr(q, '[')); q++) {
		e = q + 1 + strspn(q + 1, " \n");
		if (strncmp(e, "null", 4))
			continue;
		e += 4 + strspn(e + 4, " \n");
		if (*e != ']')
			continue;
		(void)fwrite(p, 1, (size_t)(q - p), stdout);
		(void)fputs("[]", stdout);
		p = e + 1;
		q = e;
	}
	(void)fputs(p, stdout);
	free(s);
}

/* sort_key: what a row is sorted by: a number (absent ones first) or text */
static int sort_key(const struct bw_info *info, int col, uint64_t *v, const char **text)
{
	int a = colinfos[col].attr;

	*text = NULL;
	switch (col) {
	case COL_BDI:
		*text = info->name;
		return 1;
	case COL_TYPE:
		*text = info->type;
		return 1;
	case COL_DEVICE:
		*text = info->device;
		return 1;
	case COL_MOUNTS:
		*text = info->mounts ? info->mounts : "";
		return 1;
	case COL_DIRTY:
		*v = info->dirty;
		return info->has_stats;
	case COL_WRITEBACK:
		*v = info->writeback;
		return info->has_stats;
	case COL_BW:
		*v = info->bw;
		return info->has_bw;
	}
	*v = info->val[a];
	return info->has[a];
}

static int sort_col;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct bw_info *a = pa, *b = pb;
	const char *ta, *tb;
	uint64_t va = 0, vb = 0;
	int ha = sort_key(a, sort_col, &va, &ta), hb = sort_key(b, sort_col, &vb, &tb);

	if (ta)
		return strcmp(ta, tb);
	if (ha != hb)
		return ha - hb;
	return va < vb ? -1 : va > vb;
}

/* print_bdis: a table of the bdis named, sorted by --sort if given */
static int print_bdis(struct bw_ctx *ctx, const struct opts *o, char **bdis, size_t n)
{
	struct libscols_table *tb;
	struct bw_mountmap m;
	struct bw_info *infos;
	size_t i, k = 0;
	int r;

	r = bw_mountmap_build(ctx, &m);
	if (r)
		return report(ctx, r);
	infos = calloc(n ? n : 1, sizeof(*infos));
	tb = new_table(o);
	if (!tb || !infos) {
		free(infos);
		scols_unref_table(tb);
		bw_mountmap_free(&m);
		return report(ctx, bw_fail(ctx, BW_EXIT_FAILURE, "out of memory"));
	}
	for (i = 0; i < n; i++) {
		r = bw_info(ctx, bdis[i], &m, &infos[k]);
		/* a bdi that went away since the directory was read */
		if (r == BW_EXIT_NOENT)
			r = 0;
		else if (r)
			break;
		else
			k++;
	}
	if (!r && o->sort >= 0) {
		sort_col = o->sort;
		qsort(infos, k, sizeof(*infos), cmp_rows);
	}
	for (i = 0; !r && i < k; i++)
		if (add_row(o, tb, &infos[i]))
			r = bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	if (!r)
		print_table(o, tb);
	for (i = 0; i < k; i++)
		bw_info_free(&infos[i]);
	free(infos);
	scols_unref_table(tb);
	bw_mountmap_free(&m);
	return report(ctx, r);
}

/* note_unpatched: on a kernel without the attribute, say so once */
static void note_unpatched(struct bw_ctx *ctx, char **bdis, size_t n)
{
	char rel[128];
	size_t i;

	for (i = 0; i < n; i++)
		if (bw_has_attr(ctx, bdis[i], BW_A_BG))
			return;
	if (n)
		fprintf(stderr, PROG ": note: no bdi has " BW_ATTR ": the running kernel (%s) "
			"lacks the per-device background writeback threshold (series not applied); "
			"%s\n", bw_kernel_release(ctx, rel, sizeof(rel)), bw_instead(ctx, bdis[0]));
}

/*
 * cmd_list: every bdi, or those of the TARGETs. Every target is tried;
 * each one that fails is reported, the others are shown, and the status
 * is its own for one target, BW_EXIT_PARTIAL for some of several.
 */
static int cmd_list(struct bw_ctx *ctx, const struct opts *o, char **targets, int ntargets)
{
	struct bw_target t;
	char **names;
	size_t n, i, j;
	int r, failed = 0, first = 0;

	if (ntargets == 0) {
		r = bw_list_bdis(ctx, &names, &n);
		if (r)
			return report(ctx, r);
		r = print_bdis(ctx, o, names, n);
		if (!r)
			note_unpatched(ctx, names, n);
		bw_free_names(names, n);
		return r;
	}
	names = calloc((size_t)ntargets, sizeof(*names));
	if (!names)
		return report(ctx, bw_fail(ctx, BW_EXIT_FAILURE, "out of memory"));
	for (n = 0, i = 0; i < (size_t)ntargets; i++) {
		r = bw_resolve(ctx, targets[i], &t);
		if (r) {
			report(ctx, r);
			if (!failed++)
				first = r;
			continue;
		}
		for (j = 0; j < n && strcmp(names[j], t.bdi); j++)
			;
		if (j < n)
			continue;
		names[n] = strdup(t.bdi);
		if (!names[n]) {
			bw_free_names(names, n);
			return report(ctx, bw_fail(ctx, BW_EXIT_FAILURE, "out of memory"));
		}
		n++;
	}
	r = n ? print_bdis(ctx, o, names, n) : 0;
	if (!r && n)
		note_unpatched(ctx, names, n);
	bw_free_names(names, n);
	if (r)
		return r;
	if (failed && n)
		return BW_EXIT_PARTIAL;
	return failed ? (ntargets == 1 ? first : BW_EXIT_PARTIAL) : 0;
}

/* ---- set --------------------------------------------------------------- */

static void describe(char *buf, size_t len, const char *target, const struct bw_target *t)
{
	if (t->how == BW_BY_NAME)
		snprintf(buf, len, "%s", t->bdi);
	else
		snprintf(buf, len, "%s (%s)", t->bdi, target);
}

/*
 * note_own_bdi: a disk set by its name or node whose filesystem keeps its
 * dirty pages on a bdi of its own (btrfs, bcachefs, fuseblk): say where
 * they go, when that bdi is known
 */
static void note_own_bdi(struct bw_ctx *ctx, const char *who, const struct bw_target *t)
{
	struct bw_mountmap m;
	struct bw_target d;
	size_t i;

	if (t->kind != BW_KIND_DISK || bw_mountmap_build(ctx, &m))
		return;
	for (i = 0; i < m.n; i++) {
		const struct bw_mountmap_entry *e = &m.e[i];

		if ((e->kind != BW_KIND_FS && e->kind != BW_KIND_FUSEBLK) || !e->bdi[0] ||
		    !e->source || e->source[0] != '/' ||
		    bw_resolve(ctx, e->source, &d) || strcmp(d.bdi, t->bdi))
			continue;
		fprintf(stderr, PROG ": note: %s holds %s on %s, whose dirty pages go to %s, "
			"not to the disk's bdi: give a path on the filesystem\n", who,
			e->fstype, e->target, e->bdi);
		break;
	}
	bw_mountmap_free(&m);
}

/*
 * set_knobs: write VAL[i] to knob ATTR[i], in order, saying what each was
 * and is; when a write fails, it is reported and the knobs written before
 * it are put back. DRY_RUN: say what would be written, write nothing.
 */
static int set_knobs(struct bw_ctx *ctx, const char *bdi, const char *who, const int *attr,
		     const uint64_t *val, int n, int dry_run)
{
	uint64_t old[BW_NATTRS], back;
	char h1[48], h2[48];
	int i, r;

	for (i = 0; i < n; i++) {
		if (dry_run) {
			r = bw_get_attr(ctx, bdi, attr[i], &old[i]);
			if (r)
				snprintf(h2, sizeof(h2), "- (the kernel lacks it)");
			else
				bw_attr_text(attr[i], old[i], h2, sizeof(h2));
			printf("%s: would %s %s %s %s", who, !r && old[i] == val[i] ? "leave" : "set",
			       bw_attrs[attr[i]].name, !r && old[i] == val[i] ? "at" : "to",
			       bw_attr_text(attr[i], val[i], h1, sizeof(h1)));
			if (bw_attrs[attr[i]].kind == BW_V_BYTES)
				printf(" (%" PRIu64 ")", val[i]);
			if (r || old[i] != val[i])
				printf("; now %s", h2);
			putchar('\n');
			continue;
		}
		r = bw_set_attr(ctx, bdi, attr[i], val[i], &old[i], &back);
		if (r) {
			report(ctx, r);
			while (i--)
				if (!bw_set_attr(ctx, bdi, attr[i], old[i], &back, &back))
					fprintf(stderr, PROG ": %s: %s put back to %s\n", who,
						bw_attrs[attr[i]].name,
						bw_attr_text(attr[i], old[i], h1, sizeof(h1)));
			return r;
		}
		printf("%s: %s %s -> %s", who, bw_attrs[attr[i]].name,
		       bw_attr_text(attr[i], old[i], h1, sizeof(h1)),
		       bw_attr_text(attr[i], val[i], h2, sizeof(h2)));
		if (bw_attrs[attr[i]].kind == BW_V_BYTES)
			printf(" (%" PRIu64 ")", val[i]);
		if (back != val[i])
			printf(", reads back %" PRIu64 " (the kernel keeps it in other units)", back);
		putchar('\n');
	}
	return 0;
}

/*
 * cmd_set: SIZE for dirty_background_bytes, or KNOB=VALUE pairs. Every
 * value is checked, the target resolved and every knob found before the
 * first is written; when a write fails, those written are put back.
 */
static int cmd_set(struct bw_ctx *ctx, const char *target, char **args, int nargs)
{
	int attr[BW_NATTRS], i, j, r, n = 0;
	uint64_t val[BW_NATTRS], old;
	char who[PATH_MAX + 80], why[256];
	struct bw_target t;

	for (i = 0; i < nargs; i++) {
		const char *eq = strchr(args[i], '=');
		const char *v = eq ? eq + 1 : args[i];
		int a = eq ? bw_attr_find(args[i], (size_t)(eq - args[i])) : BW_A_BG;

		if (a < 0)
			return bad_usage("unknown knob '%.*s' (dirty_background_bytes, min_bytes, "
					 "max_bytes, max_ratio, strict_limit, read_ahead_kb)",
					 (int)(eq - args[i]), args[i]);
		if (!eq && nargs > 1)
			return bad_usage("give every value as KNOB=VALUE when setting several");
		for (j = 0; j < n; j++)
			if (attr[j] == a)
				return bad_usage("%s given twice", bw_attrs[a].name);
		if (bw_parse_attr_value(a, v, &val[n], why, sizeof(why))) {
			fprintf(stderr, PROG ": invalid %s '%s': %s\n",
				eq ? bw_attrs[a].name : "size", v, why);
			return BW_EXIT_SIZE;
		}
		attr[n++] = a;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (attr[i] == BW_A_MAX && attr[j] == BW_A_MAXRATIO)
				return bad_usage("max_bytes and max_ratio set the same limit: give one");
	r = bw_resolve(ctx, target, &t);
	for (i = 0; !r && i < n; i++)
		r = bw_get_attr(ctx, t.bdi, attr[i], &old);
	if (r)
		return report(ctx, r);
	describe(who, sizeof(who), target, &t);
	r = set_knobs(ctx, t.bdi, who, attr, val, n, 0);
	if (r)
		return r;
	note_own_bdi(ctx, who, &t);
	return 0;
}

/* ---- auto -------------------------------------------------------------- */

struct measure {
	uint64_t bps;
	const char *from;	/* "the kernel's estimate", "the I/O counters of ..." */
	char fromtext[160];
};

static int stats_readable(struct bw_ctx *ctx, const char *bdi)
{
	char path[PATH_MAX];

	return !bw_path(ctx, path, sizeof(path), "/sys/kernel/debug/bdi/%s/stats", bdi) &&
	       access(path, R_OK) == 0;
}

static enum bw_source pick_source(struct bw_ctx *ctx, const struct opts *o, const char *bdi)
{
	if (o->source != BW_SRC_ANY)
		return o->source;
	return stats_readable(ctx, bdi) ? BW_SRC_ESTIMATE : BW_SRC_COUNTERS;
}

static void counters_text(struct measure *m, const struct bw_sample *s)
{
	int i;
	size_t n;

	n = (size_t)snprintf(m->fromtext, sizeof(m->fromtext), "I/O counters of ");
	for (i = 0; i < s->n && n < sizeof(m->fromtext); i++)
		n += (size_t)snprintf(m->fromtext + n, sizeof(m->fromtext) - n, "%s%s",
				      i ? "," : "", s->dev[i]);
	m->from = m->fromtext;
}

static const char *secs(uint64_t ms, char *buf, size_t len)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%" PRIu64 " s", ms / 1000);
	else
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 " s", ms / 1000, ms % 1000);
	return buf;
}

/* sleep_ms: sleep, or return the signal of `set` that came first */
static int sleep_ms(const sigset_t *set, uint64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000 };
	struct timespec end, now;
	int sig;

	if (!set) {
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ts.tv_sec;
	end.tv_nsec += ts.tv_nsec;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		sig = sigtimedwait(set, NULL, &ts);
		if (sig > 0)
			return sig;
		if (errno != EINTR)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return 0;
		ts.tv_sec = end.tv_sec - now.tv_sec;
		ts.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (ts.tv_nsec < 0) {
			ts.tv_sec--;
			ts.tv_nsec += 1000000000L;
		}
	}
}

/* measure_once: one-shot auto: the estimate, or counters over --window */
static int measure_once(struct bw_ctx *ctx, const struct opts *o, const char *bdi,
			struct measure *m)
{
	struct bw_sample a, b;
	char h[32];
	int r;

	if (pick_source(ctx, o, bdi) == BW_SRC_ESTIMATE) {
		m->from = "the kernel's estimate";
		return bw_kernel_estimate(ctx, bdi, &m->bps);
	}
	r = bw_sample(ctx, bdi, &a);
	if (r)
		return r;
	fprintf(stderr, PROG ": %s: sampling the I/O counters of %s for %s\n", bdi, a.dev[0],
		secs(o->window_ms, h, sizeof(h)));
	sleep_ms(NULL, o->window_ms);
	r = bw_sample(ctx, bdi, &b);
	if (r)
		return r;
	counters_text(m, &b);
	return bw_counter_rate(ctx, &a, &b, &m->bps);
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	char stamp[32];
	struct tm tm;
	time_t now;
	va_list ap;

	/* journald stamps lines itself */
	if (!getenv("JOURNAL_STREAM")) {
		now = time(NULL);
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
		printf("%s ", stamp);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void reason(char *buf, size_t len, const struct opts *o, const struct measure *m,
		   int clamped)
{
	char hb[32], hs[32], hl[32];

	snprintf(buf, len, "%s/s (%s) x %s%s%s", bw_human_iec(m->bps, hb, sizeof(hb)), m->from,
		 secs(o->a.seconds_ms, hs, sizeof(hs)),
		 clamped < 0 ? ", raised to the minimum " : clamped > 0 ? ", lowered to the maximum " : "",
		 clamped < 0 ? bw_human_iec(o->a.min, hl, sizeof(hl)) :
		 clamped > 0 ? bw_human_iec(o->a.max, hl, sizeof(hl)) : "");
}

/* decide: the value to set and why; fails when there is nothing to set */
static int decide(struct bw_ctx *ctx, const struct opts *o, int measured, const struct measure *m,
		  uint64_t cur, uint64_t *want, int *clamped, char *why, size_t len)
{
	char h[32];

	*clamped = 0;
	if (measured) {
		*want = bw_auto_size(m->bps, &o->a, clamped);
		reason(why, len, o, m, *clamped);
		return 0;
	}
	if (!o->have_fallback)
		return BW_EXIT_FAILURE;
	if (cur != 0) {
		snprintf(why, len, "bandwidth not measured (%s); keeping %s", ctx->err,
			 bw_human_iec(cur, h, sizeof(h)));
		*want = cur;
		return 0;
	}
	snprintf(why, len, "--fallback: bandwidth not measured (%s)", ctx->err);
	*want = o->fallback;
	return 0;
}

/* dry_run: what auto would set and why; HAVE_CUR 0: the kernel lacks the knob */
static void dry_run(struct bw_ctx *ctx, const struct opts *o, const char *who, const char *bdi,
		    int measured, const struct measure *m, int have_cur, uint64_t cur,
		    uint64_t want, const char *why)
{
	char h1[32], h2[32], h3[32], h4[32];
	struct bw_stats st;
	uint64_t raw;

	if (have_cur && want == cur)
		printf("%s: would leave " BW_ATTR " at %s (%" PRIu64 ")\n", who,
		       bw_human_iec(want, h1, sizeof(h1)), want);
	else
		printf("%s: would set " BW_ATTR " to %s (%" PRIu64 "); now %s\n", who,
		       bw_human_iec(want, h1, sizeof(h1)), want,
		       have_cur ? bw_human_iec(cur, h2, sizeof(h2)) : "- (the kernel lacks it)");
	if (measured) {
		raw = bw_mul_div(m->bps, o->a.seconds_ms, 1000);
		printf("  write bandwidth: %s/s (%" PRIu64 " bytes/s), from %s\n",
		       bw_human_iec(m->bps, h1, sizeof(h1)), m->bps, m->from);
		printf("  x %s = %s, rounded to whole MiB\n", secs(o->a.seconds_ms, h2, sizeof(h2)),
		       bw_human_iec(raw, h3, sizeof(h3)));
		printf("  bounds: %s to %s%s\n", bw_human_iec(o->a.min, h1, sizeof(h1)),
		       bw_human_iec(o->a.max, h4, sizeof(h4)),
		       want == o->a.min && raw < o->a.min ? " (raised to the minimum)" :
		       want == o->a.max && raw > o->a.max ? " (lowered to the maximum)" : "");
	} else {
		printf("  %s\n", why);
	}
	if (bw_read_stats(ctx, bdi, &st) == 0 && st.have_bg_thresh) {
		printf("  global background threshold now: %s%s\n",
		       bw_human_iec(st.bg_thresh_kb * 1024, h1, sizeof(h1)),
		       want >= st.bg_thresh_kb * 1024 ? " (at or above it, this setting starts nothing earlier)" : "");
	}
}

static int cmd_auto(struct bw_ctx *ctx, const struct opts *o, const char *target)
{
	char who[PATH_MAX + 80], why[sizeof(((struct bw_ctx *)0)->err) + 256], h1[32], h2[32];
	struct bw_target t;
	struct measure m = { 0 };
	uint64_t cur = 0, want, old;
	int r, measured, clamped, have_cur = 1;

	r = bw_resolve(ctx, target, &t);
	if (!r)
		r = bw_get_bg(ctx, t.bdi, &cur);
	if (r == BW_EXIT_NOATTR && o->dry_run) {
		/* still worth knowing: the size, and what this kernel offers */
		fprintf(stderr, PROG ": note: %s\n", ctx->err);
		have_cur = 0;
		r = 0;
	}
	if (r)
		return report(ctx, r);
	describe(who, sizeof(who), target, &t);
	measured = measure_once(ctx, o, t.bdi, &m) == 0;
	if (decide(ctx, o, measured, &m, cur, &want, &clamped, why, sizeof(why)))
		return report(ctx, bw_prefix(ctx, BW_EXIT_FAILURE, who));
	if (o->dry_run) {
		dry_run(ctx, o, who, t.bdi, measured, &m, have_cur, cur, want, why);
		return 0;
	}
	if (want == cur && !measured) {
		printf("%s: " BW_ATTR " stays %s: %s\n", who, bw_human_iec(cur, h1, sizeof(h1)), why);
		return 0;
	}
	r = bw_set_bg(ctx, t.bdi, want, &old);
	if (r)
		return report(ctx, r);
	printf("%s: " BW_ATTR " %s -> %s (%" PRIu64 "): %s\n", who, bw_human_iec(old, h1, sizeof(h1)),
	       bw_human_iec(want, h2, sizeof(h2)), want, why);
	return 0;
}

/* ---- auto --watch ------------------------------------------------------ */

/*
 * A path TARGET is a mount point: the watch manages the filesystem mounted
 * there, and waits while none is. It never follows the path to the
 * filesystem below, which is another device. A /dev TARGET not there yet
 * is waited for too.
 *
 * apply --watch picks its rule once the target is there, from what is
 * there. A rule without "auto" is applied once; one with it is applied
 * whole again whenever the target comes back.
 */
struct watch {
	char mountpoint[PATH_MAX];	/* a path TARGET: the mount point */
	char bdi[BW_NAME_MAX];		/* "" while gone */
	int gone;
	int seen;			/* it was there once */
	int have_prev;
	struct bw_sample prev;
	const struct bw_conf *conf;	/* apply --watch: the rules */
	const struct bw_rule *def;	/* and --default, or NULL */
	const struct bw_rule *rule;	/* the rule applied; NULL: none */
	int applied;			/* to what is there now */
	int done;			/* nothing left to watch */
};

static void gone(struct bw_ctx *ctx, struct watch *w, const char *target)
{
	if (!w->gone && w->bdi[0])
		log_line("%s: gone (%s); waiting for it to come back", target, ctx->err);
	else if (!w->gone)
		log_line("%s: not there yet (%s); waiting for it", target, ctx->err);
	w->gone = 1;
	w->have_prev = 0;
	w->applied = 0;
	w->bdi[0] = '\0';
}

/*
 * transient: a failure that waiting may mend (an I/O error, a value the
 * kernel refused) is logged and the watch goes on; a kernel without the
 * attribute or a permission problem ends it.
 */
static int transient(struct bw_ctx *ctx, int r, const char *target)
{
	if (r == BW_EXIT_NOATTR || r == BW_EXIT_PERM)
		return r;
	log_line("%s: %s", target, ctx->err);
	return 0;
}

static void props_text(char *buf, size_t len, const struct bw_props *p)
{
	snprintf(buf, len, "bdi=%s ID_BUS=%s ID_SERIAL=%s mount=%s fstype=%s", p->bdi,
		 p->id_bus[0] ? p->id_bus : "\"\"", p->id_serial[0] ? p->id_serial : "\"\"",
		 p->n[BW_KEY_MOUNT] ? p->v[BW_KEY_MOUNT][0] : "\"\"",
		 p->n[BW_KEY_FSTYPE] ? p->v[BW_KEY_FSTYPE][0] : "\"\"");
}

/*
 * pick_rule: the first rule that matches T, else DEF (NULL: none); SAID
 * tells which and why, NOTE (or "") that the built-in rule would have
 * matched but files exist
 */
static int pick_rule(struct bw_ctx *ctx, const struct bw_conf *conf, const struct bw_rule *def,
		     const struct bw_target *t, const char *who, const struct bw_rule **rule,
		     char *said, size_t len, char *note, size_t notelen)
{
	char what[1024];
	struct bw_props p;
	int r;

	r = bw_conf_props(ctx, t, &p);
	if (r)
		return r;
	*rule = bw_conf_match(conf, &p);
	note[0] = '\0';
	if (!*rule && !conf->builtin && bw_conf_builtin_matches(ctx, &p))
		snprintf(note, notelen, "%s: the built-in rule '%s' is not in effect: configuration "
			 "files exist (add it to one to keep it)", who, bw_conf_builtin_text());
	props_text(what, sizeof(what), &p);
	bw_props_free(&p);
	if (*rule) {
		snprintf(said, len, "%s: rule %s:%u: %s", who, (*rule)->file, (*rule)->line,
			 (*rule)->text);
	} else if (def) {
		*rule = def;
		snprintf(said, len, "%s: no rule matches (%s); --default: %s", who, what, def->text);
	} else {
		snprintf(said, len, "%s: no rule matches (%s); nothing to do", who, what);
	}
	return 0;
}

/*
 * apply_knobs: what RULE sets but "auto", every knob checked before the
 * first is written and those written put back when one fails; reports its
 * own failure. A dry run on a kernel that lacks a knob says so and goes on.
 */
static int apply_knobs(struct bw_ctx *ctx, const struct opts *o, const char *bdi,
		       const char *who, const struct bw_rule *rule)
{
	const struct {
		unsigned int bit;
		int attr;
		uint64_t v;
	} k[] = {
		/* the limit before strict_limit, so that it is never strict on the old one */
		{ BW_ACT_MAX_BYTES, BW_A_MAX, rule->max_bytes },
		{ BW_ACT_MAX_RATIO, BW_A_MAXRATIO, rule->max_ratio },
		{ BW_ACT_STRICT_LIMIT, BW_A_STRICT, rule->strict_limit },
		{ BW_ACT_BYTES, BW_A_BG, rule->bytes },
	};
	int attr[BW_NATTRS], n = 0, r;
	uint64_t val[BW_NATTRS];
	size_t i;

	r = bw_conf_check_attrs(ctx, bdi, rule);
	if (r == BW_EXIT_NOATTR && o->dry_run) {
		fprintf(stderr, PROG ": note: %s\n", ctx->err);
		r = 0;
	}
	if (r)
		return report(ctx, r);
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		if (rule->actions & k[i].bit) {
			attr[n] = k[i].attr;
			val[n++] = k[i].v;
		}
	}
	return set_knobs(ctx, bdi, who, attr, val, n, o->dry_run);
}

/*
 * watch_apply: the rule for what is there now, applied whole. A rule
 * without "auto" has nothing left to watch: it is applied once.
 */
static int watch_apply(struct bw_ctx *ctx, const struct opts *o, struct watch *w,
		       const struct bw_target *t, const char *who, const char *target)
{
	char said[PATH_MAX + 2048], note[PATH_MAX + 256];
	const struct bw_rule *rule;
	int r;

	r = pick_rule(ctx, w->conf, w->def, t, who, &rule, said, sizeof(said), note, sizeof(note));
	if (r)
		return transient(ctx, r, target);
	if (note[0])
		log_line("note: %s", note);
	log_line("%s", said);
	w->applied = 1;
	w->rule = rule && !(rule->actions & BW_ACT_IGNORE) ? rule : NULL;
	if (w->rule) {
		r = apply_knobs(ctx, o, t->bdi, who, w->rule);
		fflush(stdout);
		if (r == BW_EXIT_NOENT) {
			gone(ctx, w, target);
			return 0;
		}
		if (r) {
			w->applied = 0;		/* the whole rule again next time */
			return transient(ctx, r, target);
		}
	}
	if (!w->rule || !(w->rule->actions & BW_ACT_AUTO))
		w->done = 1;
	return 0;
}

/* watch_tick: one measurement; fails only on what waiting cannot mend */
static int watch_tick(struct bw_ctx *ctx, const struct opts *o, const char *target,
		      struct watch *w)
{
	char who[PATH_MAX + 80], why[sizeof(((struct bw_ctx *)0)->err) + 256], h1[32], h2[32];
	struct bw_target t;
	struct bw_sample s;
	struct measure m = { 0 };
	struct opts ao;
	uint64_t cur, want, old;
	int r, measured, clamped;

	/* mounts come and go: read them afresh every time */
	bw_ctx_forget_mounts(ctx);
	if (w->mountpoint[0])
		r = bw_resolve_mount(ctx, w->mountpoint, &t);
	else
		r = bw_resolve(ctx, target, &t);
	if (!r && !w->conf)
		r = bw_get_bg(ctx, t.bdi, &cur);
	if (r == BW_EXIT_NOENT || r == BW_EXIT_NOBDI) {
		gone(ctx, w, target);
		return 0;
	}
	if (r)
		return transient(ctx, r, target);
	if (w->gone || strcmp(w->bdi, t.bdi)) {
		if (w->gone && w->seen)
			log_line("%s: back, bdi %s", target, t.bdi);
		else if (w->gone)
			log_line("%s: there, bdi %s", target, t.bdi);
		else if (w->bdi[0])
			log_line("%s: now bdi %s", target, t.bdi);
		w->gone = 0;
		w->seen = 1;
		w->have_prev = 0;
		w->applied = 0;
		snprintf(w->bdi, sizeof(w->bdi), "%s", t.bdi);
	}
	describe(who, sizeof(who), target, &t);

	if (w->conf) {
		if (!w->applied) {
			r = watch_apply(ctx, o, w, &t, who, target);
			if (r || w->done || !w->applied)
				return r;
		}
		if (!w->rule || !(w->rule->actions & BW_ACT_AUTO))
			return 0;
		ao = *o;
		ao.a.seconds_ms = w->rule->auto_ms;
		o = &ao;
		r = bw_get_bg(ctx, t.bdi, &cur);
		if (r == BW_EXIT_NOENT) {
			gone(ctx, w, target);
			return 0;
		}
		if (r)
			return transient(ctx, r, target);
	}

	if (pick_source(ctx, o, t.bdi) == BW_SRC_ESTIMATE) {
		m.from = "the kernel's estimate";
		measured = bw_kernel_estimate(ctx, t.bdi, &m.bps) == 0;
	} else if (bw_sample(ctx, t.bdi, &s) != 0) {
		w->have_prev = 0;
		measured = 0;
	} else {
		measured = w->have_prev && bw_counter_rate(ctx, &w->prev, &s, &m.bps) == 0;
		if (!w->have_prev)
			bw_fail(ctx, BW_EXIT_FAILURE, "first sample of its I/O counters");
		counters_text(&m, &s);
		w->prev = s;
		w->have_prev = 1;
	}
	if (decide(ctx, o, measured, &m, cur, &want, &clamped, why, sizeof(why)))
		return 0;	/* nothing measured and no fallback: wait */
	if (!bw_should_change(cur, want, measured ? o->a.tolerance : 0))
		return 0;
	r = bw_set_bg(ctx, t.bdi, want, &old);
	if (r == BW_EXIT_NOENT) {
		gone(ctx, w, target);
		return 0;
	}
	if (r)
		return transient(ctx, r, target);
	log_line("%s: %s -> %s (%" PRIu64 "): %s", who, bw_human_iec(old, h1, sizeof(h1)),
		 bw_human_iec(want, h2, sizeof(h2)), want, why);
	return 0;
}

/*
 * watch_run: auto --watch (CONF NULL) and apply --watch; runs until
 * SIGTERM or SIGINT, or what waiting cannot mend
 */
static int watch_run(struct bw_ctx *ctx, const struct opts *o, const char *target,
		     const struct bw_conf *conf, const struct bw_rule *def)
{
	char h1[32], h2[32], h3[32], h4[32];
	struct bw_target t;
	struct watch w;
	sigset_t set, old;
	uint64_t cur;
	int r, sig, there = 1;

	memset(&w, 0, sizeof(w));
	w.conf = conf;
	w.def = def;
	r = bw_resolve(ctx, target, &t);
	/*
	 * a path, there or not yet: the mount point to watch. An absolute
	 * path that did not resolve may lie, unmounted, on a filesystem with
	 * no bdi (the initramfs's rootfs): that is not there yet either.
	 */
	if ((!r && t.how == BW_BY_PATH) ||
	    (r && target[0] == '/' && strncmp(target, "/dev/", 5))) {
		r = bw_mount_point_path(ctx, target, w.mountpoint, sizeof(w.mountpoint));
		if (!r)
			r = bw_resolve_mount(ctx, w.mountpoint, &t);
	}
	/* not mounted (yet), no such device (yet): the first tick says so */
	if (r == BW_EXIT_NOENT && (w.mountpoint[0] || !strncmp(target, "/dev/", 5))) {
		there = 0;
		r = 0;
	}
	if (!r && there && !conf)
		r = bw_get_bg(ctx, t.bdi, &cur);
	if (r)
		return report(ctx, r);
	if (there) {
		w.seen = 1;
		snprintf(w.bdi, sizeof(w.bdi), "%s", t.bdi);
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, &old);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (conf)
		log_line("%s: watching %s%s: its rule applied whenever it is there, every %s",
			 target, there ? "bdi " : w.mountpoint[0] ? "what is mounted on " : "",
			 there ? w.bdi : w.mountpoint[0] ? w.mountpoint : target,
			 secs(o->interval_ms, h4, sizeof(h4)));
	else
		log_line("%s: watching %s%s: bandwidth x %s within %s..%s, every %s%s", target,
			 there ? "bdi " : w.mountpoint[0] ? "what is mounted on " : "",
			 there ? w.bdi : w.mountpoint[0] ? w.mountpoint : target,
			 secs(o->a.seconds_ms, h1, sizeof(h1)),
			 bw_human_iec(o->a.min, h2, sizeof(h2)),
			 bw_human_iec(o->a.max, h3, sizeof(h3)), secs(o->interval_ms, h4, sizeof(h4)),
			 o->source == BW_SRC_COUNTERS ? ", from I/O counters" :
			 o->source == BW_SRC_ESTIMATE ? ", from the kernel's estimate" : "");
	for (;;) {
		r = watch_tick(ctx, o, target, &w);
		if (r) {
			log_line("%s: %s; stopping", target, ctx->err);
			break;
		}
		if (w.done)
			break;
		sig = sleep_ms(&set, o->interval_ms);
		if (sig) {
			log_line("%s: %s, stopping", target, sig == SIGTERM ? "SIGTERM" : "SIGINT");
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r ? report(ctx, r) : 0;
}

static int cmd_watch(struct bw_ctx *ctx, const struct opts *o, const char *target)
{
	return watch_run(ctx, o, target, NULL, NULL);
}

/* ---- apply ------------------------------------------------------------- */

/*
 * cmd_apply: the first rule of the configuration file that matches TARGET,
 * done with what set and auto do. The file is read whole first: a bad line
 * and nothing is done. Every attribute the rule names is checked before the
 * first is written, and those written are put back when one fails.
 */
static int cmd_apply(struct bw_ctx *ctx, const struct opts *o, const char *target)
{
	char who[PATH_MAX + 80], said[PATH_MAX + 2048], note[PATH_MAX + 256];
	const struct bw_rule *rule;
	struct bw_rule def = { 0 };
	struct bw_target t;
	struct bw_conf conf;
	struct opts ao;
	size_t i;
	int r;

	r = bw_conf_load(ctx, &conf, o->config ? o->config : BW_CONF_PATH, !!o->config);
	if (r)
		return report(ctx, r);
	/* a bad option value is bad usage, not a bad file */
	if (o->policy && bw_conf_parse_actions(ctx, &def, "--default", o->policy)) {
		bw_conf_free(&conf);
		return bad_usage("%s", ctx->err);
	}
	if (o->check) {
		if (conf.builtin)
			printf("no configuration file: the built-in rule %s\n", conf.r[0].text);
		else
			printf("%zu rule(s) in %u file(s)\n", conf.n, conf.nfiles);
		for (i = 0; i < conf.n && strcmp(conf.r[i].text, bw_conf_builtin_text()); i++)
			;
		/* files exist, and none has the built-in rule */
		if (!conf.builtin && i == conf.n)
			fprintf(stderr, PROG ": note: the built-in rule '%s' is not in effect: "
				"configuration files exist (add it to one to keep it)\n",
				bw_conf_builtin_text());
		goto out;
	}
	if (o->watch) {
		/* the rule is picked from what is there, once it is */
		r = -watch_run(ctx, o, target, &conf, o->policy ? &def : NULL);
		goto out;
	}
	r = bw_resolve(ctx, target, &t);
	if (r)
		goto out;
	describe(who, sizeof(who), target, &t);
	r = pick_rule(ctx, &conf, o->policy ? &def : NULL, &t, who, &rule, said, sizeof(said),
		      note, sizeof(note));
	if (r)
		goto out;
	if (note[0])
		fprintf(stderr, PROG ": note: %s\n", note);
	printf("%s\n", said);
	if (!rule || (rule->actions & BW_ACT_IGNORE))
		goto out;
	r = -apply_knobs(ctx, o, t.bdi, who, rule);
	if (!r && (rule->actions & BW_ACT_AUTO)) {
		ao = *o;
		ao.a.seconds_ms = rule->auto_ms;
		/* it reports its own failures */
		r = -cmd_auto(ctx, &ao, target);
	}
out:
	bw_rule_free(&def);
	bw_conf_free(&conf);
	if (r < 0)
		return -r;
	return report(ctx, r);
}

/* ---- main -------------------------------------------------------------- */

int bw_main(int argc, char **argv)
{
	static const struct bw_auto defaults = BW_AUTO_DEFAULTS;
	struct opts o = { .a = defaults, .window_ms = 2000, .interval_ms = 10000, .sort = -1 };
	const char *cmd, *columns = NULL, *sort = NULL;
	struct bw_ctx ctx;
	unsigned int allowed;
	int c, i, r, nargs;
	char **args;

	r = negative_size(argc, argv);
	if (r)
		return r;
	optind = 0;	/* glibc: start afresh (bw_main runs more than once in the tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":" SHORTOPTS, longopts, NULL)) != -1) {
		if (c == '?') {
			if (optopt)
				return bad_usage("invalid option -- '%c'", optopt);
			return bad_usage("unrecognized option '%s'", argv[optind - 1]);
		}
		if (c == ':')
			return bad_usage("option '%s' needs an argument", argv[optind - 1]);
		i = optbit_of(c);
		if (i >= 0)
			o.given |= OPTBIT(i);
		switch (c) {
		case 'J':
			o.json = 1;
			break;
		case 'r':
			o.raw = 1;
			break;
		case 'n':
			o.noheadings = 1;
			break;
		case 'b':
			o.bytes = 1;
			break;
		case 'o':
			columns = optarg;
			break;
		case 's':
			r = seconds_arg("--seconds", optarg, 1, 3600000, &o.a.seconds_ms);
			if (r)
				return r;
			break;
		case OPT_MIN:
			r = size_arg("--min", optarg, &o.a.min);
			if (r)
				return r;
			break;
		case OPT_MAX:
			r = size_arg("--max", optarg, &o.a.max);
			if (r)
				return r;
			break;
		case OPT_FALLBACK:
			r = size_arg("--fallback", optarg, &o.fallback);
			if (r)
				return r;
			o.have_fallback = 1;
			break;
		case OPT_SOURCE:
			if (!strcmp(optarg, "estimate"))
				o.source = BW_SRC_ESTIMATE;
			else if (!strcmp(optarg, "counters"))
				o.source = BW_SRC_COUNTERS;
			else
				return bad_usage("invalid --source '%s' (estimate or counters)", optarg);
			break;
		case OPT_WINDOW:
			r = seconds_arg("--window", optarg, 100, 600000, &o.window_ms);
			if (r)
				return r;
			break;
		case OPT_DRYRUN:
			o.dry_run = 1;
			break;
		case 'w':
			o.watch = 1;
			break;
		case 'i':
			r = seconds_arg("--interval", optarg, 100, 86400000, &o.interval_ms);
			if (r)
				return r;
			break;
		case OPT_TOLERANCE: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v > 1000 || optarg[0] == '-' || optarg[0] == '+')
				return bad_usage("invalid --tolerance '%s' (a percentage, 0 to 1000)", optarg);
			o.a.tolerance = (unsigned int)v;
			break;
		}
		case OPT_SYSROOT:
			o.sysroot = optarg;
			break;
		case OPT_CONFIG:
			o.config = optarg;
			break;
		case OPT_DEFAULT:
			o.policy = optarg;
			break;
		case OPT_CHECK:
			o.check = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'x':
			sort = optarg;
			break;
		case 'H':
			list_columns(stdout);
			return 0;
		case 'V':
			printf(PROG " " BW_VERSION "\n");
			return 0;
		}
	}
	if (optind >= argc)
		return bad_usage("no command given (list, get, set, auto or apply)");
	cmd = argv[optind];
	args = argv + optind + 1;
	nargs = argc - optind - 1;

	if (!strcmp(cmd, "list")) {
		allowed = TABLE_OPTS;
	} else if (!strcmp(cmd, "get")) {
		allowed = TABLE_OPTS;
		if (nargs < 1)
			return bad_usage("get takes a TARGET");
	} else if (!strcmp(cmd, "set")) {
		allowed = 0;
		if (nargs < 2)
			return bad_usage("set takes a TARGET and a SIZE (or KNOB=VALUE...)");
	} else if (!strcmp(cmd, "auto")) {
		allowed = AUTO_OPTS | WATCH_OPTS | OPTBIT(12);
		if (nargs != 1)
			return bad_usage("auto takes one TARGET");
		if (o.watch && o.dry_run)
			return bad_usage("--watch and --dry-run do not go together");
		if ((o.given & WATCH_OPTS) && !o.watch)
			return bad_usage("--interval and --tolerance are for --watch");
		if ((o.given & OPTBIT(9)) && o.source == BW_SRC_ESTIMATE)
			return bad_usage("--window is for --source counters");
	} else if (!strcmp(cmd, "apply")) {
		allowed = (AUTO_OPTS & ~OPTBIT(5)) | WATCH_OPTS | OPTBIT(12) | APPLY_OPTS;
		if (o.given & OPTBIT(5))
			return bad_usage("apply takes the time from the rule ('auto S'), not --seconds");
		if (o.check && (nargs || o.watch || o.dry_run))
			return bad_usage("apply --check takes no TARGET, --watch or --dry-run");
		if (!o.check && nargs != 1)
			return bad_usage("apply takes one TARGET");
		if (o.watch && o.dry_run)
			return bad_usage("--watch and --dry-run do not go together");
		if ((o.given & WATCH_OPTS) && !o.watch)
			return bad_usage("--interval and --tolerance are for --watch");
	} else {
		return bad_usage("unknown command '%s' (list, get, set, auto or apply)", cmd);
	}
	allowed |= ANY_OPTS;
	for (i = 0; longopts[i].name; i++)
		if ((o.given & OPTBIT(i)) && !(allowed & OPTBIT(i)))
			return bad_usage("option --%s does not go with %s", longopts[i].name, cmd);
	if (o.a.min > o.a.max)
		return bad_usage("invalid bounds: --min is above --max");
	if (columns) {
		r = parse_columns(&o, columns);
		if (r)
			return r;
	} else {
		default_columns(&o);
	}
	if (sort) {
		o.sort = column_id(sort, strlen(sort));
		if (o.sort < 0)
			return bad_usage("unknown column '%s' for --sort (see --list-columns)", sort);
	}

	r = bw_ctx_init(&ctx, o.sysroot);
	if (r)
		return report(&ctx, r);
	if (!strcmp(cmd, "list"))
		r = cmd_list(&ctx, &o, args, nargs);
	else if (!strcmp(cmd, "get"))
		r = cmd_list(&ctx, &o, args, nargs);
	else if (!strcmp(cmd, "set"))
		r = cmd_set(&ctx, args[0], args + 1, nargs - 1);
	else if (!strcmp(cmd, "apply"))
		r = cmd_apply(&ctx, &o, nargs ? args[0] : NULL);
	else if (o.watch)
		r = cmd_watch(&ctx, &o, args[0]);
	else
		r = cmd_auto(&ctx, &o, args[0]);
	bw_ctx_free(&ctx);
	fflush(stdout);
	return r;
}
