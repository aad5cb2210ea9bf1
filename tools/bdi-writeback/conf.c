// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy file: rules that map devices to settings.
 *
 *	# comment
 *	ID_BUS=usb ID_SERIAL!=Samsung_* -> auto 2s
 *	mount=/srv/export fstype=xfs|ext4 -> bytes 64M
 *	bdi=8:16 -> strict_limit 1 max_bytes 16M
 *	bdi=7:* -> ignore
 *
 * One rule per line, matches on the left of "->", actions on the right; the
 * first rule whose every match holds wins. A file is read whole and checked
 * before anything is applied: one bad line and nothing is done, with the
 * file and line in the message.
 *
 * ID_BUS and ID_SERIAL are udev's properties of the device, read from its
 * udev database entry (/run/udev/data/b<MAJ>:<MIN>), which holds them for
 * a unit started by the udev rule, for `udevadm trigger` and for a command
 * run by hand alike.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bdiwb.h"
#include "conf.h"

/*
 * used when neither the file nor any drop-in exists: what the udev rule did
 * before there was a policy file
 */
static const char builtin_rule[] = "ID_BUS=usb -> auto 2s";

static const char *const key_names[BW_NKEYS] = {
	[BW_KEY_ID_BUS] = "ID_BUS",
	[BW_KEY_ID_SERIAL] = "ID_SERIAL",
	[BW_KEY_MOUNT] = "mount",
	[BW_KEY_FSTYPE] = "fstype",
	[BW_KEY_BDI] = "bdi",
};

static const struct knob {
	unsigned int bit;
	const char *name;	/* in the file, and the sysfs attribute */
} knobs[] = {
	{ BW_ACT_IGNORE, "ignore" },
	{ BW_ACT_BYTES, "bytes" },
	{ BW_ACT_AUTO, "auto" },
	{ BW_ACT_STRICT_LIMIT, "strict_limit" },
	{ BW_ACT_MAX_BYTES, "max_bytes" },
	{ BW_ACT_MAX_RATIO, "max_ratio" },
};

#define NKNOBS	(sizeof(knobs) / sizeof(knobs[0]))

/* ---- tokens ------------------------------------------------------------- */

struct tok {
	char *s;
	int quoted;	/* had a quote: "->" in quotes is a value, "" is not empty */
};

struct toks {
	struct tok *t;
	size_t n;
};

static void toks_free(struct toks *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		free(ts->t[i].s);
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}

/* push: append a copy of the word in buf */
static int push(struct toks *ts, const char *buf, int quoted)
{
	struct tok *nt = realloc(ts->t, (ts->n + 1) * sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	ts->t = nt;
	nt[ts->n].s = strdup(buf);
	if (!nt[ts->n].s)
		return -ENOMEM;
	nt[ts->n].quoted = quoted;
	ts->n++;
	return 0;
}

/*
 * tokenize: words separated by blanks; "..." keeps blanks and takes \" and
 * \\ as escapes; a word that starts with '#' ends the line.
 */
static int tokenize(struct bw_ctx *ctx, const char *where, const char *text, struct toks *ts)
{
	const char *p = text;
	char *buf, *o;
	int quoted;

	memset(ts, 0, sizeof(*ts));
	buf = malloc(strlen(text) + 1);
	if (!buf)
		return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		o = buf;
		quoted = 0;
		while (*p && !isspace((unsigned char)*p)) {
			if (*p != '"') {
				*o++ = *p++;
				continue;
			}
			quoted = 1;
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				*o++ = *p;
			}
			if (!*p) {
				free(buf);
				toks_free(ts);
				return bw_fail(ctx, BW_EXIT_CONFIG, "%s: unterminated quote",
					       where);
			}
			p++;
		}
		*o = '\0';
		if (push(ts, buf, quoted)) {
			free(buf);
			toks_free(ts);
			return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
		}
	}
	free(buf);
	return 0;
}

static int is_arrow(const struct tok *t)
{
	return !t->quoted && !strcmp(t->s, "->");
}

/* ---- actions ------------------------------------------------------------ */

static const struct knob *knob_named(const char *name)
{
	size_t i;

	for (i = 0; i < NKNOBS; i++)
		if (!strcmp(knobs[i].name, name))
			return &knobs[i];
	return NULL;
}

static int actions(struct bw_ctx *ctx, struct bw_rule *r, const char *where,
		   const struct tok *t, size_t n)
{
	const struct knob *k;
	char why[256];
	uint64_t v;
	size_t i;

	if (!n)
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: no action after '->' (ignore, bytes, auto, "
			       "strict_limit, max_bytes or max_ratio)", where);
	for (i = 0; i < n; i++) {
		k = t[i].quoted ? NULL : knob_named(t[i].s);
		if (!k)
			return bw_fail(ctx, BW_EXIT_CONFIG, "%s: unknown action '%s' (ignore, bytes, "
				       "auto, strict_limit, max_bytes or max_ratio)",
				       where, t[i].s);
		if (r->actions & k->bit)
			return bw_fail(ctx, BW_EXIT_CONFIG, "%s: '%s' given twice", where, k->name);
		r->actions |= k->bit;
		if (k->bit == BW_ACT_IGNORE)
			continue;
		if (i + 1 == n)
			return bw_fail(ctx, BW_EXIT_CONFIG, "%s: '%s' needs a value",
				       where, k->name);
		i++;
		switch (k->bit) {
		case BW_ACT_BYTES:
		case BW_ACT_MAX_BYTES:
			/* each value is read as set reads the knob's */
			if (bw_parse_attr_value(BW_A_BG, t[i].s, &v, why, sizeof(why)))
				return bw_fail(ctx, BW_EXIT_CONFIG, "%s: invalid size '%s' for %s: %s",
					       where, t[i].s, k->name, why);
			if (k->bit == BW_ACT_BYTES)
				r->bytes = v;
			else
				r->max_bytes = v;
			break;
		case BW_ACT_AUTO:
			if (bw_parse_seconds(t[i].s, &v, why, sizeof(why)))
				return bw_fail(ctx, BW_EXIT_CONFIG, "%s: invalid time '%s' for auto: %s",
					       where, t[i].s, why);
			if (v < 1 || v > 3600000)
				return bw_fail(ctx, BW_EXIT_CONFIG, "%s: invalid time '%s' for auto: "
					       "out of range (0.001 to 3600 s)", where, t[i].s);
			r->auto_ms = v;
			break;
		case BW_ACT_STRICT_LIMIT:
		case BW_ACT_MAX_RATIO:
			if (bw_parse_attr_value(k->bit == BW_ACT_STRICT_LIMIT ? BW_A_STRICT :
						BW_A_MAXRATIO, t[i].s, &v, why, sizeof(why)))
				return bw_fail(ctx, BW_EXIT_CONFIG, "%s: invalid %s '%s': %s",
					       where, k->name, t[i].s, why);
			if (k->bit == BW_ACT_STRICT_LIMIT)
				r->strict_limit = (unsigned int)v;
			else
				r->max_ratio = (unsigned int)v;
			break;
		}
	}
	if ((r->actions & BW_ACT_IGNORE) && r->actions != BW_ACT_IGNORE)
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: 'ignore' goes alone", where);
	if ((r->actions & BW_ACT_BYTES) && (r->actions & BW_ACT_AUTO))
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: 'bytes' and 'auto' both set "
			       BW_ATTR ": give one", where);
	if ((r->actions & BW_ACT_MAX_BYTES) && (r->actions & BW_ACT_MAX_RATIO))
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: 'max_bytes' and 'max_ratio' set the same "
			       "limit: give one", where);
	return 0;
}

int bw_conf_parse_actions(struct bw_ctx *ctx, struct bw_rule *r, const char *where,
			  const char *text)
{
	struct toks ts;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = tokenize(ctx, where, text, &ts);
	if (ret)
		return ret;
	ret = actions(ctx, r, where, ts.t, ts.n);
	toks_free(&ts);
	if (!ret) {
		r->text = strdup(text);
		if (!r->text)
			ret = bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	}
	if (ret)
		bw_rule_free(r);
	return ret;
}

/* ---- rules -------------------------------------------------------------- */

void bw_rule_free(struct bw_rule *r)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		free(r->m[i].glob);
	free(r->m);
	free(r->file);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

static int match_token(struct bw_ctx *ctx, const char *where, const struct tok *t,
		       struct bw_match *m)
{
	const char *eq = strchr(t->s, '=');
	size_t klen;
	int k;

	if (!eq || eq == t->s || (eq == t->s + 1 && t->s[0] == '!'))
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: '%s' is not KEY=PATTERN or KEY!=PATTERN "
			       "(or '->' is missing)", where, t->s);
	m->negate = eq[-1] == '!';
	klen = (size_t)(eq - t->s) - (size_t)m->negate;
	for (k = 0; k < BW_NKEYS; k++)
		if (strlen(key_names[k]) == klen && !strncmp(key_names[k], t->s, klen))
			break;
	if (k == BW_NKEYS)
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: unknown key '%.*s' (ID_BUS, ID_SERIAL, "
			       "mount, fstype or bdi)", where, (int)klen, t->s);
	if (!eq[1] && !t->quoted)
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: empty pattern for %s (write %s=\"\" for an "
			       "empty or missing value)", where, key_names[k], key_names[k]);
	m->key = (enum bw_key)k;
	m->glob = strdup(eq + 1);
	if (!m->glob)
		return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	return 0;
}

static char *trimmed(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

int bw_conf_parse_line(struct bw_ctx *ctx, struct bw_conf *c, const char *file,
		       unsigned int line, const char *text)
{
	char where[PATH_MAX + 16];
	struct bw_rule r, *nr;
	struct toks ts;
	size_t i, arrow;
	int ret;

	snprintf(where, sizeof(where), "%s:%u", file, line);
	ret = tokenize(ctx, where, text, &ts);
	if (ret || !ts.n) {
		toks_free(&ts);
		return ret;
	}
	memset(&r, 0, sizeof(r));
	for (arrow = 0; arrow < ts.n && !is_arrow(&ts.t[arrow]); arrow++)
		;
	if (arrow == ts.n) {
		ret = bw_fail(ctx, BW_EXIT_CONFIG, "%s: no '->': a rule is KEY=PATTERN ... -> "
			      "ACTION [VALUE] ...", where);
		goto out;
	}
	for (i = arrow + 1; i < ts.n; i++)
		if (is_arrow(&ts.t[i])) {
			ret = bw_fail(ctx, BW_EXIT_CONFIG, "%s: more than one '->'", where);
			goto out;
		}
	if (!arrow) {
		ret = bw_fail(ctx, BW_EXIT_CONFIG, "%s: no KEY=PATTERN before '->' (bdi=* matches "
			      "every device)", where);
		goto out;
	}
	r.m = calloc(arrow, sizeof(*r.m));
	if (!r.m) {
		ret = bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
		goto out;
	}
	for (i = 0; i < arrow; i++) {
		ret = match_token(ctx, where, &ts.t[i], &r.m[i]);
		if (ret)
			goto out;
		r.nm++;
	}
	ret = actions(ctx, &r, where, ts.t + arrow + 1, ts.n - arrow - 1);
	if (ret)
		goto out;
	r.file = strdup(file);
	r.line = line;
	r.text = trimmed(text);
	nr = realloc(c->r, (c->n + 1) * sizeof(*nr));
	if (!r.file || !r.text || !nr) {
		if (nr)
			c->r = nr;
		ret = bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
		goto out;
	}
	c->r = nr;
	c->r[c->n++] = r;
	memset(&r, 0, sizeof(r));
out:
	bw_rule_free(&r);
	toks_free(&ts);
	return ret;
}

/* ---- files -------------------------------------------------------------- */

void bw_conf_free(struct bw_conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		bw_rule_free(&c->r[i]);
	free(c->r);
	memset(c, 0, sizeof(*c));
}

int bw_conf_load_file(struct bw_ctx *ctx, struct bw_conf *c, const char *path)
{
	unsigned int line = 0;
	size_t cap = 0;
	char *buf = NULL;
	ssize_t n;
	FILE *fp;
	int r = 0;

	fp = fopen(path, "re");
	if (!fp)
		return bw_fail(ctx, BW_EXIT_CONFIG, "cannot read %s: %s", path, strerror(errno));
	while ((n = getline(&buf, &cap, fp)) >= 0) {
		line++;
		if (memchr(buf, '\0', (size_t)n)) {
			r = bw_fail(ctx, BW_EXIT_CONFIG, "%s:%u: a NUL byte: not a text file",
				    path, line);
			break;
		}
		r = bw_conf_parse_line(ctx, c, path, line, buf);
		if (r)
			break;
	}
	if (!r && ferror(fp))
		r = bw_fail(ctx, BW_EXIT_CONFIG, "cannot read %s: %s", path, strerror(errno));
	free(buf);
	fclose(fp);
	if (!r)
		c->nfiles++;
	return r;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dropins: the *.conf files in DIR, sorted by strcmp(3); none when there is no directory */
static int dropins(struct bw_ctx *ctx, const char *dir, char ***names, size_t *n)
{
	struct dirent *de;
	size_t len, cap = 0;
	char **nn;
	DIR *d;

	*names = NULL;
	*n = 0;
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return bw_fail(ctx, BW_EXIT_CONFIG, "cannot read %s: %s", dir, strerror(errno));
	}
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= 5 || strcmp(de->d_name + len - 5, ".conf"))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nn = realloc(*names, cap * sizeof(*nn));
			if (!nn)
				goto oom;
			*names = nn;
		}
		(*names)[*n] = strdup(de->d_name);
		if (!(*names)[*n])
			goto oom;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_names);
	return 0;
oom:
	closedir(d);
	bw_free_names(*names, *n);
	*names = NULL;
	*n = 0;
	return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
}

int bw_conf_load(struct bw_ctx *ctx, struct bw_conf *c, const char *path, int must_exist)
{
	char dir[PATH_MAX], file[PATH_MAX + NAME_MAX + 2];
	struct stat st;
	char **names;
	size_t i, n;
	int r = 0;

	memset(c, 0, sizeof(*c));
	if (snprintf(dir, sizeof(dir), "%s.d", path) >= (int)sizeof(dir))
		return bw_fail(ctx, BW_EXIT_CONFIG, "%s: path too long", path);
	if (must_exist || stat(path, &st) == 0 || errno != ENOENT)
		r = bw_conf_load_file(ctx, c, path);
	if (!r)
		r = dropins(ctx, dir, &names, &n);
	if (r) {
		bw_conf_free(c);
		return r;
	}
	for (i = 0; i < n && !r; i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, names[i]);
		/*
		 * not files of rules: a directory, /dev/null (a drop-in masked
		 * the systemd way), a dangling link
		 */
		if (stat(file, &st) == 0 ? !S_ISREG(st.st_mode) :
		    errno == ENOENT && lstat(file, &st) == 0 && S_ISLNK(st.st_mode))
			continue;
		r = bw_conf_load_file(ctx, c, file);
	}
	bw_free_names(names, n);
	if (!r && !c->nfiles) {
		r = bw_conf_parse_line(ctx, c, "(built-in default)", 1, builtin_rule);
		c->builtin = 1;
	}
	if (r)
		bw_conf_free(c);
	return r;
}

/* ---- matching ----------------------------------------------------------- */

/* glob_match: VALUE against PATTERN|PATTERN..., shell patterns (fnmatch) */
static int glob_match(const char *glob, const char *value)
{
	const char *p = glob, *bar;
	char alt[512];
	size_t n;

	for (;;) {
		bar = strchrnul(p, '|');
		n = (size_t)(bar - p);
		if (n < sizeof(alt)) {
			memcpy(alt, p, n);
			alt[n] = '\0';
			if (fnmatch(alt, value, 0) == 0)
				return 1;
		}
		if (!*bar)
			return 0;
		p = bar + 1;
	}
}

/*
 * holds: one match, against mount number i for mount and fstype (a rule's
 * mount and fstype are about one and the same mount), against the one value
 * of the other keys. A missing value is "".
 */
static int holds(const struct bw_match *m, const struct bw_props *p, size_t i)
{
	const char *v;

	if (m->key != BW_KEY_MOUNT && m->key != BW_KEY_FSTYPE)
		i = 0;
	v = i < p->n[m->key] && p->v[m->key][i] ? p->v[m->key][i] : "";
	return glob_match(m->glob, v) != m->negate;
}

const struct bw_rule *bw_conf_match(const struct bw_conf *c, const struct bw_props *p)
{
	size_t i, j, k, nmounts = p->n[BW_KEY_MOUNT] ? p->n[BW_KEY_MOUNT] : 1;

	for (i = 0; i < c->n; i++) {
		for (k = 0; k < nmounts; k++) {
			for (j = 0; j < c->r[i].nm && holds(&c->r[i].m[j], p, k); j++)
				;
			if (j == c->r[i].nm)
				return &c->r[i];
		}
	}
	return NULL;
}

const char *bw_conf_builtin_text(void)
{
	return builtin_rule;
}

int bw_conf_builtin_matches(struct bw_ctx *ctx, const struct bw_props *p)
{
	struct bw_conf b = { 0 };
	int m;

	if (bw_conf_parse_line(ctx, &b, "(built-in default)", 1, builtin_rule))
		return 0;
	m = bw_conf_match(&b, p) != NULL;
	bw_conf_free(&b);
	return m;
}

/* ---- a target's properties ---------------------------------------------- */

/* udev_props: ID_BUS and ID_SERIAL from the udev database, "" without */
static void udev_props(struct bw_ctx *ctx, const char *bdi, struct bw_props *p)
{
	char path[PATH_MAX], rest[16], *buf, *line, *nl;
	unsigned int maj, min;

	rest[0] = '\0';
	if (sscanf(bdi, "%u:%u%15s", &maj, &min, rest) < 2 || maj == 0 ||
	    (rest[0] && strcmp(rest, "-fuseblk")))
		return;
	if (bw_path(ctx, path, sizeof(path), "/run/udev/data/b%u:%u", maj, min))
		return;
	buf = malloc(65536);
	if (!buf)
		return;
	if (bw_read_file(path, buf, 65536) == 0) {
		for (line = buf; *line; line = nl) {
			nl = strchrnul(line, '\n');
			if (*nl)
				*nl++ = '\0';
			if (!strncmp(line, "E:ID_BUS=", 9))
				snprintf(p->id_bus, sizeof(p->id_bus), "%s", line + 9);
			else if (!strncmp(line, "E:ID_SERIAL=", 12))
				snprintf(p->id_serial, sizeof(p->id_serial), "%s", line + 12);
		}
	}
	free(buf);
}

static int add_mount(struct bw_props *p, const char *target, const char *fstype)
{
	size_t i = p->n[BW_KEY_MOUNT];

	if (i == BW_CONF_MAX_MOUNTS)
		return 0;
	p->own[p->nown] = strdup(target ? target : "");
	p->own[p->nown + 1] = strdup(fstype ? fstype : "");
	if (!p->own[p->nown] || !p->own[p->nown + 1]) {
		p->nown += 2;
		return -ENOMEM;
	}
	p->v[BW_KEY_MOUNT][i] = p->own[p->nown];
	p->v[BW_KEY_FSTYPE][i] = p->own[p->nown + 1];
	p->nown += 2;
	p->n[BW_KEY_MOUNT]++;
	p->n[BW_KEY_FSTYPE]++;
	return 0;
}

void bw_props_free(struct bw_props *p)
{
	size_t i;

	for (i = 0; i < p->nown; i++)
		free(p->own[i]);
	memset(p, 0, sizeof(*p));
}

int bw_conf_props(struct bw_ctx *ctx, const struct bw_target *t, struct bw_props *p)
{
	struct bw_mountmap mm;
	size_t i;
	int r = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->bdi, sizeof(p->bdi), "%s", t->bdi);
	udev_props(ctx, t->bdi, p);
	p->v[BW_KEY_BDI][0] = p->bdi;
	p->v[BW_KEY_ID_BUS][0] = p->id_bus;
	p->v[BW_KEY_ID_SERIAL][0] = p->id_serial;
	p->n[BW_KEY_BDI] = 1;
	p->n[BW_KEY_ID_BUS] = 1;
	p->n[BW_KEY_ID_SERIAL] = 1;
	/* a path is on one mount; a device or a bdi name: every mount it holds */
	if (t->how == BW_BY_PATH) {
		r = add_mount(p, t->mountpoint, t->fstype);
	} else {
		r = bw_mountmap_build(ctx, &mm);
		if (r) {
			bw_props_free(p);
			return r;
		}
		for (i = 0; i < mm.n && !r; i++)
			if (!strcmp(mm.e[i].bdi, t->bdi))
				r = add_mount(p, mm.e[i].target, mm.e[i].fstype);
		bw_mountmap_free(&mm);
	}
	if (r) {
		bw_props_free(p);
		return bw_fail(ctx, BW_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

/* ---- applying ----------------------------------------------------------- */

int bw_conf_check_attrs(struct bw_ctx *ctx, const char *bdi, const struct bw_rule *r)
{
	char path[PATH_MAX], rel[128];
	const char *attr;
	size_t i;

	for (i = 0; i < NKNOBS; i++) {
		if (!(r->actions & knobs[i].bit) || knobs[i].bit == BW_ACT_IGNORE)
			continue;
		attr = knobs[i].bit & (BW_ACT_BYTES | BW_ACT_AUTO) ? BW_ATTR : knobs[i].name;
		if (bw_path(ctx, path, sizeof(path), "/sys/class/bdi/%s/%s", bdi, attr))
			return bw_fail(ctx, BW_EXIT_FAILURE, "sysroot path too long");
		if (access(path, F_OK) == 0)
			continue;
		if (errno != ENOENT)
			return bw_fail(ctx, BW_EXIT_FAILURE, "%s: %s", path + strlen(ctx->root),
				       strerror(errno));
		bw_kernel_release(ctx, rel, sizeof(rel));
		if (!strcmp(attr, BW_ATTR))
			return bw_fail(ctx, BW_EXIT_NOATTR, "the running kernel (%s) lacks the per-device "
				       "background writeback threshold (series not applied): no %s; "
				       "nothing set", rel, path + strlen(ctx->root));
		return bw_fail(ctx, BW_EXIT_NOATTR, "the running kernel (%s) has no %s (Linux 6.2 and "
			       "later have it); nothing set", rel, path + strlen(ctx->root));
	}
	return 0;
}
