/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy file: which device gets which setting, without editing udev
 * rules. /etc/bdi-writeback.conf, then /etc/bdi-writeback.conf.d/ *.conf in
 * byte order of their names; one rule per line:
 *
 *	KEY=GLOB [KEY!=GLOB ...] -> ACTION [ARG] [ACTION ARG ...]
 *
 * The first rule whose every match holds wins. bdi-writeback(8), section
 * CONFIGURATION FILE, is the reference.
 */
#ifndef BDIWB_CONF_H
#define BDIWB_CONF_H

#include <stdint.h>

#include "bdiwb.h"

#define BW_EXIT_CONFIG		9	/* malformed or unreadable policy file */
#define BW_CONF_PATH		"/etc/bdi-writeback.conf"
#define BW_CONF_MAX_MOUNTS	64	/* mounts of one bdi matched against */

enum bw_key { BW_KEY_ID_BUS, BW_KEY_ID_SERIAL, BW_KEY_MOUNT, BW_KEY_FSTYPE, BW_KEY_BDI,
	      BW_NKEYS };

/* actions, as bits of bw_rule.actions */
#define BW_ACT_IGNORE		(1u << 0)
#define BW_ACT_BYTES		(1u << 1)
#define BW_ACT_AUTO		(1u << 2)
#define BW_ACT_STRICT_LIMIT	(1u << 3)
#define BW_ACT_MAX_BYTES	(1u << 4)
#define BW_ACT_MAX_RATIO	(1u << 5)

struct bw_match {
	enum bw_key key;
	int negate;		/* KEY!=GLOB */
	char *glob;		/* alternatives separated by '|' */
};

struct bw_rule {
	char *file;		/* where it was read, for messages */
	unsigned int line;
	char *text;		/* the line, trimmed */
	struct bw_match *m;
	size_t nm;
	unsigned int actions;
	uint64_t bytes, auto_ms, max_bytes;
	unsigned int strict_limit, max_ratio;
};

struct bw_conf {
	struct bw_rule *r;
	size_t n;
	unsigned int nfiles;	/* files read */
	int builtin;		/* no file at all: the built-in default */
};

/* what a target is matched against; a missing value is "" */
struct bw_props {
	const char *v[BW_NKEYS][BW_CONF_MAX_MOUNTS];	/* mounts and fstypes: one per mount */
	size_t n[BW_NKEYS];
	char bdi[BW_NAME_MAX], id_bus[128], id_serial[256];
	char *own[2 * BW_CONF_MAX_MOUNTS];		/* mount points, fstypes; malloc'd */
	size_t nown;
};

int bw_conf_parse_line(struct bw_ctx *ctx, struct bw_conf *c, const char *file,
		       unsigned int line, const char *text);
int bw_conf_parse_actions(struct bw_ctx *ctx, struct bw_rule *r, const char *where,
			  const char *text);
int bw_conf_load_file(struct bw_ctx *ctx, struct bw_conf *c, const char *path);
int bw_conf_load(struct bw_ctx *ctx, struct bw_conf *c, const char *path, int must_exist);
void bw_conf_free(struct bw_conf *c);
void bw_rule_free(struct bw_rule *r);

int bw_conf_props(struct bw_ctx *ctx, const struct bw_target *t, struct bw_props *p);
void bw_props_free(struct bw_props *p);
const struct bw_rule *bw_conf_match(const struct bw_conf *c, const struct bw_props *p);
/* the built-in rule, in effect only while no file exists, and whether it matches P */
const char *bw_conf_builtin_text(void);
int bw_conf_builtin_matches(struct bw_ctx *ctx, const struct bw_props *p);

int bw_conf_check_attrs(struct bw_ctx *ctx, const char *bdi, const struct bw_rule *r);

#endif
