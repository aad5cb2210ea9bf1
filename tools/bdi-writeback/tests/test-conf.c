// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy file: the parser (every error, with its file and line),
 * the order of the files, matching and precedence, and `apply` on the
 * fake tree: what it writes, and that a bad file or a missing attribute
 * writes nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "../conf.h"
#include "fake.h"
#include "tests.h"

static struct fake fk, old;	/* patched, unpatched kernel */

#define BDI_DIR(bdi) "/sys/devices/virtual/bdi/" bdi "/"

static int setup(void **state)
{
	(void)state;
	fake_create(&fk, 1);
	fake_create(&old, 0);
	/* 8:48 as on a kernel before 6.2: no strict_limit */
	if (unlink(fake_path(&fk, BDI_DIR("8:48") "strict_limit")))
		return -1;
	/* udev's database: sdb is a USB stick, sdc a SATA disk */
	fake_file(&fk, "/run/udev/data/b8:16",
		  "S:disk/by-id/usb-SanDisk_Cruzer_4C530001-0:0\n"
		  "I:123456\n"
		  "E:ID_BUS=usb\n"
		  "E:ID_SERIAL=SanDisk_Cruzer_4C530001-0:0\n"
		  "E:ID_TYPE=disk\n"
		  "G:systemd\n");
	fake_file(&fk, "/run/udev/data/b8:32", "E:ID_BUS=ata\nE:ID_SERIAL=WDC_WD40_1234\n");
	fake_file(&old, "/run/udev/data/b8:16", "E:ID_BUS=usb\nE:ID_SERIAL=SanDisk_Cruzer\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_destroy(&fk);
	fake_destroy(&old);
	return 0;
}

/* ---- the parser --------------------------------------------------------- */

static void parses(void **state)
{
	struct bw_ctx ctx = { 0 };
	struct bw_conf c = { 0 };
	const struct bw_rule *r;

	(void)state;
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 1, "\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 2, "   # a comment\n"), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 3,
					    "  ID_BUS=usb ID_SERIAL!=Samsung_* -> auto 2s  # sticks\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 4,
					    "mount=\"/mnt/sub vol\" fstype=xfs|ext4 -> bytes 64M\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 5,
					    "bdi=8:16 -> strict_limit 1 max_bytes 16M\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 6, "bdi=7:*->ignore"), 1 * BW_EXIT_CONFIG);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 7, "bdi=7:* -> ignore"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 8,
					    "ID_SERIAL=\"\" -> max_ratio 50 strict_limit 0\r\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 9, "bdi=\"a\\\"b\\\\\" -> bytes 0"), 0);
	assert_int_equal(c.n, 6);

	r = &c.r[0];
	assert_string_equal(r->file, "f");
	assert_int_equal(r->line, 3);
	assert_string_equal(r->text, "ID_BUS=usb ID_SERIAL!=Samsung_* -> auto 2s  # sticks");
	assert_int_equal(r->nm, 2);
	assert_int_equal(r->m[0].key, BW_KEY_ID_BUS);
	assert_false(r->m[0].negate);
	assert_string_equal(r->m[0].glob, "usb");
	assert_int_equal(r->m[1].key, BW_KEY_ID_SERIAL);
	assert_true(r->m[1].negate);
	assert_string_equal(r->m[1].glob, "Samsung_*");
	assert_int_equal(r->actions, BW_ACT_AUTO);
	assert_int_equal(r->auto_ms, 2000);

	r = &c.r[1];
	assert_int_equal(r->m[0].key, BW_KEY_MOUNT);
	assert_string_equal(r->m[0].glob, "/mnt/sub vol");
	assert_int_equal(r->m[1].key, BW_KEY_FSTYPE);
	assert_string_equal(r->m[1].glob, "xfs|ext4");
	assert_int_equal(r->actions, BW_ACT_BYTES);
	assert_int_equal(r->bytes, 64ULL << 20);

	r = &c.r[2];
	assert_int_equal(r->actions, BW_ACT_STRICT_LIMIT | BW_ACT_MAX_BYTES);
	assert_int_equal(r->strict_limit, 1);
	assert_int_equal(r->max_bytes, 16ULL << 20);

	assert_int_equal(c.r[3].actions, BW_ACT_IGNORE);
	assert_string_equal(c.r[4].m[0].glob, "");
	assert_int_equal(c.r[4].actions, BW_ACT_MAX_RATIO | BW_ACT_STRICT_LIMIT);
	assert_int_equal(c.r[4].max_ratio, 50);
	assert_int_equal(c.r[4].strict_limit, 0);
	assert_string_equal(c.r[5].m[0].glob, "a\"b\\");
	assert_int_equal(c.r[5].actions, BW_ACT_BYTES);
	assert_int_equal(c.r[5].bytes, 0);
	bw_conf_free(&c);

	/* the values set takes, read by the same parser: on/off/yes/no, 50% */
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 1,
					    "bdi=8:16 -> strict_limit yes max_ratio 50%\n"), 0);
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 2, "bdi=8:32 -> strict_limit off\n"), 0);
	assert_int_equal(c.r[0].strict_limit, 1);
	assert_int_equal(c.r[0].max_ratio, 50);
	assert_int_equal(c.r[1].strict_limit, 0);
	assert_int_equal(c.r[1].actions, BW_ACT_STRICT_LIMIT);
	bw_conf_free(&c);
}

static const struct {
	const char *line, *msg;
} bad_lines[] = {
	{ "ID_BUS=usb", "f:7: no '->': a rule is KEY=PATTERN ... -> ACTION [VALUE] ..." },
	{ "bdi=7:*->ignore", "f:7: no '->'" },
	{ "ID_BUS=usb -> bytes 1M -> ignore", "f:7: more than one '->'" },
	{ "-> bytes 1M", "f:7: no KEY=PATTERN before '->' (bdi=* matches every device)" },
	{ "usb -> bytes 1M", "f:7: 'usb' is not KEY=PATTERN or KEY!=PATTERN (or '->' is missing)" },
	{ "=usb -> bytes 1M", "f:7: '=usb' is not KEY=PATTERN" },
	{ "!=usb -> bytes 1M", "f:7: '!=usb' is not KEY=PATTERN" },
	{ "ID_BUS==usb -> bytes 1M", "f:7: invalid" },	/* "=usb" is a pattern: see below */
	{ "id_bus=usb -> bytes 1M", "f:7: unknown key 'id_bus' (ID_BUS, ID_SERIAL, mount, fstype or bdi)" },
	{ "ID_BUS!!=usb -> bytes 1M", "f:7: unknown key 'ID_BUS!'" },
	{ "ID_BUS= -> bytes 1M", "f:7: empty pattern for ID_BUS (write ID_BUS=\"\" for an empty or missing value)" },
	{ "mount=\"/mnt/x -> bytes 1M", "f:7: unterminated quote" },
	{ "ID_BUS=usb ->", "f:7: no action after '->' (ignore, bytes, auto, strict_limit, max_bytes or max_ratio)" },
	{ "ID_BUS=usb -> # nothing", "f:7: no action after '->'" },
	{ "ID_BUS=usb -> size 1M", "f:7: unknown action 'size' (ignore, bytes, auto, strict_limit, max_bytes or max_ratio)" },
	{ "ID_BUS=usb -> \"bytes\" 1M", "f:7: unknown action 'bytes'" },
	{ "ID_BUS=usb -> bytes", "f:7: 'bytes' needs a value" },
	{ "ID_BUS=usb -> bytes 1M bytes 2M", "f:7: 'bytes' given twice" },
	{ "ID_BUS=usb -> bytes 12Q", "f:7: invalid size '12Q' for bytes: unknown unit 'Q'" },
	{ "ID_BUS=usb -> bytes -1", "f:7: invalid size '-1' for bytes: negative" },
	{ "ID_BUS=usb -> max_bytes 16MB", "f:7: invalid size '16MB' for max_bytes" },
	{ "ID_BUS=usb -> auto", "f:7: 'auto' needs a value" },
	{ "ID_BUS=usb -> auto fast", "f:7: invalid time 'fast' for auto: not a number of seconds" },
	{ "ID_BUS=usb -> auto 0", "f:7: invalid time '0' for auto: out of range (0.001 to 3600 s)" },
	{ "ID_BUS=usb -> auto 3601", "f:7: invalid time '3601' for auto: out of range" },
	{ "ID_BUS=usb -> strict_limit 2", "f:7: invalid strict_limit '2': not 0 or 1 (or on, off, yes, no)" },
	{ "ID_BUS=usb -> strict_limit maybe", "f:7: invalid strict_limit 'maybe'" },
	{ "ID_BUS=usb -> max_ratio 101", "f:7: invalid max_ratio '101': not a percentage (0 to 100)" },
	{ "ID_BUS=usb -> max_ratio -1", "f:7: invalid max_ratio '-1'" },
	{ "ID_BUS=usb -> max_ratio 0050", "f:7: invalid max_ratio '0050'" },
	{ "ID_BUS=usb -> ignore bytes 1M", "f:7: 'ignore' goes alone" },
	{ "ID_BUS=usb -> strict_limit 1 ignore", "f:7: 'ignore' goes alone" },
	{ "ID_BUS=usb -> ignore ignore", "f:7: 'ignore' given twice" },
	{ "ID_BUS=usb -> auto 1s bytes 1M", "f:7: 'bytes' and 'auto' both set dirty_background_bytes: give one" },
	{ "ID_BUS=usb -> max_ratio 5 max_bytes 1M", "f:7: 'max_bytes' and 'max_ratio' set the same limit: give one" },
};

static void parse_errors(void **state)
{
	struct bw_ctx ctx = { 0 };
	struct bw_conf c = { 0 };
	size_t i;
	int r;

	(void)state;
	assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", 1, "bdi=* -> bytes 1M"), 0);
	for (i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		ctx.err[0] = '\0';
		r = bw_conf_parse_line(&ctx, &c, "f", 7, bad_lines[i].line);
		/* "ID_BUS==usb" is ID_BUS matching "=usb": a valid rule */
		if (!strcmp(bad_lines[i].line, "ID_BUS==usb -> bytes 1M")) {
			assert_int_equal(r, 0);
			assert_string_equal(c.r[c.n - 1].m[0].glob, "=usb");
			continue;
		}
		if (r != BW_EXIT_CONFIG || strncmp(ctx.err, bad_lines[i].msg, strlen(bad_lines[i].msg)))
			print_error("'%s': %d '%s', expected '%s'\n", bad_lines[i].line, r, ctx.err,
				    bad_lines[i].msg);
		assert_int_equal(r, BW_EXIT_CONFIG);
		assert_true(!strncmp(ctx.err, bad_lines[i].msg, strlen(bad_lines[i].msg)));
	}
	/* nothing was added by a bad line */
	assert_int_equal(c.n, 2);
	bw_conf_free(&c);
}

static void default_actions(void **state)
{
	struct bw_ctx ctx = { 0 };
	struct bw_rule r;

	(void)state;
	assert_int_equal(bw_conf_parse_actions(&ctx, &r, "--default", "auto 1.5"), 0);
	assert_int_equal(r.actions, BW_ACT_AUTO);
	assert_int_equal(r.auto_ms, 1500);
	assert_string_equal(r.text, "auto 1.5");
	bw_rule_free(&r);
	assert_int_equal(bw_conf_parse_actions(&ctx, &r, "--default", "auto 2s bytes 1M"),
			 BW_EXIT_CONFIG);
	assert_string_equal(ctx.err, "--default: 'bytes' and 'auto' both set "
			    "dirty_background_bytes: give one");
	assert_int_equal(bw_conf_parse_actions(&ctx, &r, "--default", ""), BW_EXIT_CONFIG);
}

/* ---- the files ---------------------------------------------------------- */

static void files_in_order(void **state)
{
	struct bw_ctx ctx = { 0 };
	struct bw_conf c;
	char main_file[PATH_MAX];

	(void)state;
	fake_file(&fk, "/etc/order/bw.conf", "# the admin's file\nbdi=1 -> bytes 1\n\nbdi=2 -> bytes 2\n");
	fake_file(&fk, "/etc/order/bw.conf.d/20-b.conf", "bdi=4 -> bytes 4\n");
	fake_file(&fk, "/etc/order/bw.conf.d/10-a.conf", "bdi=3 -> bytes 3\n");
	fake_file(&fk, "/etc/order/bw.conf.d/9-z.conf", "bdi=5 -> bytes 5\n");
	/* not read: hidden, other suffixes, a directory, a dangling link,
	   a drop-in masked with a link to /dev/null */
	fake_file(&fk, "/etc/order/bw.conf.d/.hidden.conf", "bad\n");
	fake_file(&fk, "/etc/order/bw.conf.d/30-c.conf.dpkg-old", "bad\n");
	fake_file(&fk, "/etc/order/bw.conf.d/README", "bad\n");
	fake_file(&fk, "/etc/order/bw.conf.d/.conf", "bad\n");
	fake_mkdir(&fk, "/etc/order/bw.conf.d/40-dir.conf");
	fake_link(&fk, "/etc/order/bw.conf.d/50-gone.conf", "nowhere");
	fake_link(&fk, "/etc/order/bw.conf.d/60-masked.conf", "/dev/null");
	xsnprintf(main_file, sizeof(main_file), "%s", fake_path(&fk, "/etc/order/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, main_file, 1), 0);
	assert_int_equal(c.nfiles, 4);
	assert_false(c.builtin);
	assert_int_equal(c.n, 5);
	/* the main file, then the drop-ins by byte order of their names */
	assert_int_equal(c.r[0].bytes, 1);
	assert_int_equal(c.r[0].line, 2);
	assert_int_equal(c.r[1].bytes, 2);
	assert_int_equal(c.r[1].line, 4);
	assert_int_equal(c.r[2].bytes, 3);
	assert_non_null(strstr(c.r[2].file, "/bw.conf.d/10-a.conf"));
	assert_int_equal(c.r[3].bytes, 4);
	assert_int_equal(c.r[4].bytes, 5);
	assert_non_null(strstr(c.r[4].file, "/bw.conf.d/9-z.conf"));
	bw_conf_free(&c);
}

static void files_missing_and_bad(void **state)
{
	struct bw_ctx ctx = { 0 };
	struct bw_conf c;
	char path[PATH_MAX];

	(void)state;
	/* no file at all: the built-in rule, unless the file was named */
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/none/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), 0);
	assert_true(c.builtin);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.r[0].text, "ID_BUS=usb -> auto 2s");
	assert_string_equal(c.r[0].file, "(built-in default)");
	bw_conf_free(&c);
	assert_int_equal(bw_conf_load(&ctx, &c, path, 1), BW_EXIT_CONFIG);
	assert_non_null(strstr(ctx.err, "/etc/none/bw.conf: No such file or directory"));
	assert_int_equal(c.n, 0);

	/* an empty file: no rules at all, not the built-in one */
	fake_file(&fk, "/etc/empty/bw.conf", "");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/empty/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), 0);
	assert_false(c.builtin);
	assert_int_equal(c.n, 0);
	bw_conf_free(&c);

	/* only drop-ins: they are read, and no built-in rule */
	fake_file(&fk, "/etc/dropins/bw.conf.d/a.conf", "bdi=1 -> ignore\n");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/dropins/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), 0);
	assert_false(c.builtin);
	assert_int_equal(c.n, 1);
	bw_conf_free(&c);

	/* a bad line in a drop-in: its file and line, and no rules at all */
	fake_file(&fk, "/etc/bad/bw.conf", "bdi=1 -> bytes 1\n");
	fake_file(&fk, "/etc/bad/bw.conf.d/10-ok.conf", "bdi=2 -> bytes 2\n");
	fake_file(&fk, "/etc/bad/bw.conf.d/20-bad.conf", "# fine\nbdi=3 -> bytes 3\nbdi=4 -> bytes 4X\n");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/bad/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), BW_EXIT_CONFIG);
	assert_non_null(strstr(ctx.err, "/etc/bad/bw.conf.d/20-bad.conf:3: invalid size '4X' for bytes"));
	assert_int_equal(c.n, 0);
	assert_null(c.r);

	/* unreadable: a directory where the file should be, a NUL byte */
	fake_mkdir(&fk, "/etc/dir/bw.conf");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/dir/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), BW_EXIT_CONFIG);
	assert_non_null(strstr(ctx.err, "cannot read "));
	assert_non_null(strstr(ctx.err, "Is a directory"));
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/nul/bw.conf"));
	fake_mkdir(&fk, "/etc/nul");
	{
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fwrite("bdi=1 -> ignore\nbdi=2\0 -> ignore\n", 1, 33, fp);
		fclose(fp);
	}
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), BW_EXIT_CONFIG);
	assert_non_null(strstr(ctx.err, "/etc/nul/bw.conf:2: a NUL byte: not a text file"));
	/* a drop-in directory that cannot be read */
	fake_file(&fk, "/etc/notdir/bw.conf", "bdi=1 -> ignore\n");
	fake_file(&fk, "/etc/notdir/bw.conf.d", "a file, not a directory\n");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/etc/notdir/bw.conf"));
	assert_int_equal(bw_conf_load(&ctx, &c, path, 0), BW_EXIT_CONFIG);
	assert_non_null(strstr(ctx.err, "/etc/notdir/bw.conf.d: Not a directory"));
}

/* ---- matching ----------------------------------------------------------- */

static const struct bw_rule *match(struct bw_conf *c, const char *bdi, const char *bus,
				   const char *serial, const char *mount, const char *fstype)
{
	struct bw_props p;

	memset(&p, 0, sizeof(p));
	p.v[BW_KEY_BDI][0] = bdi;
	p.v[BW_KEY_ID_BUS][0] = bus;
	p.v[BW_KEY_ID_SERIAL][0] = serial;
	p.n[BW_KEY_BDI] = p.n[BW_KEY_ID_BUS] = p.n[BW_KEY_ID_SERIAL] = 1;
	if (mount) {
		/* "a,b": two mounts */
		static char m[256], f[256];
		char *comma;

		snprintf(m, sizeof(m), "%s", mount);
		snprintf(f, sizeof(f), "%s", fstype);
		p.v[BW_KEY_MOUNT][0] = m;
		p.v[BW_KEY_FSTYPE][0] = f;
		p.n[BW_KEY_MOUNT] = p.n[BW_KEY_FSTYPE] = 1;
		comma = strchr(m, ',');
		if (comma) {
			*comma = '\0';
			p.v[BW_KEY_MOUNT][1] = comma + 1;
			comma = strchr(f, ',');
			*comma = '\0';
			p.v[BW_KEY_FSTYPE][1] = comma + 1;
			p.n[BW_KEY_MOUNT] = p.n[BW_KEY_FSTYPE] = 2;
		}
	}
	return bw_conf_match(c, &p);
}

static void matching(void **state)
{
	static const char *const rules[] = {
		"ID_BUS=usb ID_SERIAL=SanDisk_* -> bytes 1",	/* 1 */
		"ID_BUS=usb ID_SERIAL!=Kingston_* -> bytes 2",	/* 2 */
		"ID_BUS=usb -> bytes 3",			/* 3 */
		"mount=/srv/* fstype=xfs|ext4 -> bytes 4",	/* 4 */
		"mount=/srv/* -> bytes 5",			/* 5 */
		"bdi=7:* -> ignore",				/* 6 */
		"bdi=btrfs-? -> bytes 7",			/* 7 */
		"ID_BUS=\"\" mount!=\"\" -> bytes 8",		/* 8 */
		"bdi=[0-9]*:[0-9]* ID_BUS=?* -> bytes 9",	/* 9 */
	};
	struct bw_ctx ctx = { 0 };
	struct bw_conf c = { 0 };
	const struct bw_rule *r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		assert_int_equal(bw_conf_parse_line(&ctx, &c, "f", (unsigned int)i + 1, rules[i]), 0);

#define LINE(...) ((r = match(&c, __VA_ARGS__)) ? (int)r->line : 0)
	/* the first rule that matches wins, though later ones match too */
	assert_int_equal(LINE("8:16", "usb", "SanDisk_Cruzer", NULL, NULL), 1);
	assert_int_equal(LINE("8:16", "usb", "Generic_Stick", NULL, NULL), 2);
	assert_int_equal(LINE("8:16", "usb", "Kingston_DT", NULL, NULL), 3);
	/* every match of a rule must hold */
	assert_int_equal(LINE("8:32", "ata", "WDC", "/srv/export", "xfs"), 4);
	assert_int_equal(LINE("8:32", "ata", "WDC", "/srv/export", "btrfs"), 5);
	assert_int_equal(LINE("8:32", "ata", "WDC", "/srv/a/b", "ext4"), 4);	/* '*' takes '/' too */
	assert_int_equal(LINE("8:32", "ata", "WDC", "/srvx", "ext4"), 9);
	assert_int_equal(LINE("7:0", "", "", "/mnt/loop", "ext4"), 6);
	assert_int_equal(LINE("btrfs-1", "", "", "/mnt/pool", "btrfs"), 7);
	assert_int_equal(LINE("btrfs-12", "", "", "/mnt/pool", "btrfs"), 8);
	/* a missing property is "": "" matches it, ?* does not */
	assert_int_equal(LINE("0:52", "", "", NULL, NULL), 0);
	assert_int_equal(LINE("8:48", "", "", NULL, NULL), 0);
	assert_int_equal(LINE("8:48", "nvme", "", NULL, NULL), 9);
	/* several mounts: a rule's mount and fstype hold for one of them */
	assert_int_equal(LINE("8:32", "ata", "", "/home,/srv/x", "ext4,btrfs"), 5);
	assert_int_equal(LINE("8:32", "ata", "", "/srv/x,/home", "btrfs,ext4"), 5);
	assert_int_equal(LINE("8:32", "ata", "", "/home,/srv/x", "btrfs,ext4"), 4);
	assert_int_equal(LINE("8:32", "", "", "/home,/data", "ext4,ext4"), 8);
#undef LINE
	/* nothing in the file: nothing matches */
	bw_conf_free(&c);
	assert_null(match(&c, "8:16", "usb", "x", NULL, NULL));
}

/* ---- apply on the fake tree --------------------------------------------- */

static char conf_path[PATH_MAX];

static void policy(struct fake *f, const char *text)
{
	fake_file(f, "/etc/bdi-writeback.conf", text);
	xsnprintf(conf_path, sizeof(conf_path), "%s", fake_path(f, "/etc/bdi-writeback.conf"));
}

static void knob_is(struct fake *f, const char *bdi, const char *knob, const char *want)
{
	char path[256], *v;
	int ok;

	xsnprintf(path, sizeof(path), "/sys/devices/virtual/bdi/%s/%s", bdi, knob);
	v = fake_read(f, path);
	ok = v && !strcmp(v, want);
	if (!ok)
		print_error("%s: '%s', expected '%s'\n", path, v ? v : "(none)", want);
	free(v);
	assert_true(ok);
}

#define apply(f, want, out, err, ...) do {					\
	char *e_ = NULL, **ep_ = (err);						\
	int r_ = run_cli(out, &e_, "--sysroot", (f)->root, "apply",		\
			 "--config", conf_path, __VA_ARGS__, NULL);		\
	if (r_ != (want))							\
		print_error("exit %d, expected %d; stderr: %s\n", r_, want, e_);	\
	if (ep_)								\
		*ep_ = e_;							\
	else									\
		free(e_);							\
	assert_int_equal(r_, want);						\
} while (0)

static void reset_knobs(void)
{
	fake_file(&fk, BDI_DIR("8:16") BW_ATTR, "0\n");
	fake_file(&fk, BDI_DIR("8:16") "strict_limit", "0\n");
	fake_file(&fk, BDI_DIR("8:16") "max_ratio", "100\n");
	fake_file(&fk, BDI_DIR("8:16") "max_bytes", "1073741824\n");
	fake_file(&fk, BDI_DIR("8:32") BW_ATTR, "0\n");
	fake_file(&fk, BDI_DIR("8:32") "strict_limit", "0\n");
}

static void apply_rules(void **state)
{
	char *out, *err;

	(void)state;
	reset_knobs();
	policy(&fk, "# sticks\n"
	       "ID_BUS=usb ID_SERIAL=Kingston* -> ignore\n"
	       "ID_BUS=usb -> bytes 16M strict_limit 1 max_bytes 64M\n"
	       "ID_BUS=ata mount=/mnt/data -> bytes 1M\n"
	       "ID_BUS=ata -> strict_limit 1\n");
	apply(&fk, 0, &out, NULL, "/dev/sdb");
	assert_non_null(strstr(out, "8:16 (/dev/sdb): rule "));
	assert_non_null(strstr(out, "/etc/bdi-writeback.conf:3: ID_BUS=usb -> bytes 16M strict_limit 1 max_bytes 64M\n"));
	assert_non_null(strstr(out, "8:16 (/dev/sdb): max_bytes 1 GiB -> 64 MiB (67108864)\n"));
	assert_non_null(strstr(out, "8:16 (/dev/sdb): strict_limit 0 -> 1\n"));
	assert_non_null(strstr(out, "8:16 (/dev/sdb): dirty_background_bytes 0 B -> 16 MiB (16777216)\n"));
	free(out);
	knob_is(&fk, "8:16", BW_ATTR, "16777216\n");
	knob_is(&fk, "8:16", "strict_limit", "1\n");
	knob_is(&fk, "8:16", "max_bytes", "67108864\n");

	/* sdc holds no mount's pages (its btrfs has a bdi of its own), so
	   mount=/mnt/data does not hold for it */
	apply(&fk, 0, &out, NULL, "8:32");
	assert_non_null(strstr(out, ".conf:5: ID_BUS=ata -> strict_limit 1\n"));
	free(out);
	knob_is(&fk, "8:32", "strict_limit", "1\n");
	knob_is(&fk, "8:32", BW_ATTR, "0\n");

	/* dry run: what it would do, nothing written */
	reset_knobs();
	apply(&fk, 0, &out, NULL, "--dry-run", "/mnt/data/dir");
	assert_non_null(strstr(out, "8:16 (/mnt/data/dir): rule "));
	assert_non_null(strstr(out, "would set strict_limit to 1; now 0\n"));
	assert_non_null(strstr(out, "would set dirty_background_bytes to 16 MiB (16777216); now 0 B\n"));
	free(out);
	knob_is(&fk, "8:16", BW_ATTR, "0\n");
	knob_is(&fk, "8:16", "strict_limit", "0\n");

	/* ignore: the first match, later rules are not looked at */
	fake_file(&fk, "/run/udev/data/b8:16", "E:ID_BUS=usb\nE:ID_SERIAL=Kingston_DT_1\n");
	apply(&fk, 0, &out, &err, "/dev/sdb");
	assert_non_null(strstr(out, ".conf:2: ID_BUS=usb ID_SERIAL=Kingston* -> ignore\n"));
	assert_string_equal(err, "");
	free(out), free(err);
	knob_is(&fk, "8:16", BW_ATTR, "0\n");
	knob_is(&fk, "8:16", "strict_limit", "0\n");
	fake_file(&fk, "/run/udev/data/b8:16", "E:ID_BUS=usb\nE:ID_SERIAL=SanDisk_Cruzer\n");

	/* files exist: the built-in USB rule is not in effect, and apply says so */
	policy(&fk, "ID_BUS=ata -> strict_limit 1\n");
	apply(&fk, 0, &out, &err, "/dev/sdb");
	assert_non_null(strstr(out, "8:16 (/dev/sdb): no rule matches (bdi=8:16 ID_BUS=usb "));
	assert_string_equal(err, "bdi-writeback: note: 8:16 (/dev/sdb): the built-in rule "
			    "'ID_BUS=usb -> auto 2s' is not in effect: configuration files exist "
			    "(add it to one to keep it)\n");
	free(out), free(err);
	knob_is(&fk, "8:16", BW_ATTR, "0\n");
	apply(&fk, 0, &out, &err, "/mnt/nfs/a");	/* not USB: no note */
	assert_string_equal(err, "");
	free(out), free(err);

	/* no rule: nothing done, success; the properties it matched are shown */
	apply(&fk, 0, &out, NULL, "/mnt/nfs/a");
	assert_non_null(strstr(out, "0:52 (/mnt/nfs/a): no rule matches (bdi=0:52 ID_BUS=\"\" "
			       "ID_SERIAL=\"\" mount=/mnt/nfs fstype=nfs4); nothing to do\n"));
	free(out);
	/* unless there is a --default */
	fake_file(&fk, BDI_DIR("0:52") BW_ATTR, "0\n");
	apply(&fk, 0, &out, NULL, "--default", "bytes 2M", "/mnt/nfs/a");
	assert_non_null(strstr(out, "; --default: bytes 2M\n"));
	free(out);
	knob_is(&fk, "0:52", BW_ATTR, "2097152\n");
	/* a knob that has the value already: left as it is */
	fake_file(&fk, BDI_DIR("0:52") BW_ATTR, "0\n");
	apply(&fk, 0, &out, NULL, "--dry-run", "--default", "bytes 0", "/mnt/nfs");
	assert_non_null(strstr(out, "0:52 (/mnt/nfs): would leave dirty_background_bytes at 0 B (0)\n"));
	free(out);
	reset_knobs();
	policy(&fk, "bdi=8:16 -> strict_limit 0 max_ratio 100\n");
	apply(&fk, 0, &out, NULL, "--dry-run", "8:16");
	assert_non_null(strstr(out, "8:16: would leave strict_limit at 0\n"));
	assert_non_null(strstr(out, "8:16: would leave max_ratio at 100%\n"));
	free(out);
}

static void apply_auto(void **state)
{
	char *out;

	(void)state;
	reset_knobs();
	/* 8:16's kernel estimate is 16 MiB/s */
	policy(&fk, "fstype=xfs -> auto 0.5s\n");
	apply(&fk, 0, &out, NULL, "--min", "1M", "/mnt/data/dir/file.txt");
	assert_non_null(strstr(out, ".conf:1: fstype=xfs -> auto 0.5s\n"));
	assert_non_null(strstr(out, "dirty_background_bytes 0 B -> 8 MiB (8388608): 16 MiB/s "
			       "(the kernel's estimate) x 0.500 s"));
	free(out);
	knob_is(&fk, "8:16", BW_ATTR, "8388608\n");
	/* a file named with --config must exist (no built-in rule then) */
	reset_knobs();
	unlink(conf_path);
	{
		char *e_ = NULL;
		int r = run_cli(&out, &e_, "--sysroot", fk.root, "apply", "--config",
				conf_path, "/dev/sdb", NULL);

		assert_int_equal(r, BW_EXIT_CONFIG);
		assert_non_null(strstr(e_, "bdi-writeback: cannot read "));
		free(out), free(e_);
	}
}

static void apply_refuses(void **state)
{
	char *out, *err;

	(void)state;
	reset_knobs();
	/* a bad line anywhere: nothing applied, file:line, status 9 */
	policy(&fk, "ID_BUS=usb -> bytes 16M strict_limit 1\n"
	       "ID_BUS=ata -> max_ratio 150\n");
	apply(&fk, BW_EXIT_CONFIG, &out, &err, "/dev/sdb");
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "bdi-writeback: "));
	assert_non_null(strstr(err, "/etc/bdi-writeback.conf:2: invalid max_ratio '150': "
			       "not a percentage (0 to 100)\n"));
	free(out), free(err);
	knob_is(&fk, "8:16", BW_ATTR, "0\n");
	knob_is(&fk, "8:16", "strict_limit", "0\n");
	/* --check says the same, and applies nothing */
	apply(&fk, BW_EXIT_CONFIG, NULL, &err, "--check");
	assert_non_null(strstr(err, "/etc/bdi-writeback.conf:2: invalid max_ratio '150'"));
	free(err);
	policy(&fk, "ID_BUS=usb -> bytes 16M strict_limit 1\n");
	apply(&fk, 0, &out, &err, "--check");
	assert_string_equal(out, "1 rule(s) in 1 file(s)\n");
	assert_string_equal(err, "bdi-writeback: note: the built-in rule 'ID_BUS=usb -> auto 2s' is "
			    "not in effect: configuration files exist (add it to one to keep it)\n");
	free(out), free(err);
	policy(&fk, "ID_BUS=usb -> bytes 16M\nID_BUS=usb -> auto 2s\n");	/* kept in the file */
	apply(&fk, 0, &out, &err, "--check");
	assert_string_equal(err, "");
	free(out), free(err);
	/* a bad --default */
	apply(&fk, BW_EXIT_USAGE, NULL, &err, "--default", "auto", "/dev/sdb");
	assert_non_null(strstr(err, "bdi-writeback: --default: 'auto' needs a value\n"));
	free(err);
	apply(&fk, BW_EXIT_USAGE, NULL, &err, "--default", "bogus", "/dev/sdb");
	assert_non_null(strstr(err, "--default: unknown action 'bogus'"));
	free(err);

	/* a kernel without the series: the 6.2 knob is not written either */
	policy(&old, "ID_BUS=usb -> strict_limit 1 bytes 16M\n");
	apply(&old, BW_EXIT_NOATTR, &out, &err, "/dev/sdb");
	assert_non_null(strstr(err, "bdi-writeback: the running kernel (6.12.117-test) lacks the "
			       "per-device background writeback threshold (series not applied): no "
			       "/sys/class/bdi/8:16/dirty_background_bytes; nothing set\n"));
	free(out), free(err);
	knob_is(&old, "8:16", "strict_limit", "0\n");
	/* a dry run there still shows what it would do, sizing included */
	apply(&old, 0, &out, &err, "--dry-run", "/dev/sdb");
	assert_non_null(strstr(err, "bdi-writeback: note: the running kernel (6.12.117-test) lacks "));
	assert_non_null(strstr(out, "8:16 (/dev/sdb): would set strict_limit to 1; now 0\n"));
	assert_non_null(strstr(out, "8:16 (/dev/sdb): would set dirty_background_bytes to 16 MiB "
			       "(16777216); now - (the kernel lacks it)\n"));
	free(out), free(err);
	policy(&old, "ID_BUS=usb -> auto 2s\n");
	apply(&old, 0, &out, NULL, "--dry-run", "/dev/sdb");
	assert_non_null(strstr(out, "would set dirty_background_bytes to "));
	assert_non_null(strstr(out, "; now - (the kernel lacks it)\n"));
	assert_non_null(strstr(out, "  x 2 s = "));
	free(out);
	knob_is(&old, "8:16", "strict_limit", "0\n");
	/* but what it has is set */
	policy(&old, "ID_BUS=usb -> strict_limit 1 max_bytes 16M\n");
	apply(&old, 0, NULL, NULL, "/dev/sdb");
	knob_is(&old, "8:16", "strict_limit", "1\n");
	knob_is(&old, "8:16", "max_bytes", "16777216\n");
	/* a kernel before 6.2: no strict_limit on 8:48 */
	policy(&fk, "bdi=8:48 -> max_bytes 16M strict_limit 1\n");
	apply(&fk, BW_EXIT_NOATTR, NULL, &err, "8:48");
	assert_non_null(strstr(err, "has no /sys/class/bdi/8:48/strict_limit (Linux 6.2 and later "
			       "have it); nothing set\n"));
	free(err);
	knob_is(&fk, "8:48", "max_bytes", "1073741824\n");
	/* a write that fails: those written before it are put back */
	fake_file(&fk, BDI_DIR("8:32") "max_bytes", "1073741824\n");
	unlink(fake_path(&fk, BDI_DIR("8:32") "strict_limit"));
	fake_mkdir(&fk, BDI_DIR("8:32") "strict_limit");
	policy(&fk, "bdi=8:32 -> max_bytes 16M strict_limit 1\n");
	apply(&fk, BW_EXIT_FAILURE, &out, &err, "8:32");
	assert_non_null(strstr(out, "8:32: max_bytes 1 GiB -> 16 MiB (16777216)\n"));
	assert_non_null(strstr(err, "/sys/class/bdi/8:32/strict_limit"));
	assert_non_null(strstr(err, "8:32: max_bytes put back to 1 GiB\n"));
	free(out), free(err);
	knob_is(&fk, "8:32", "max_bytes", "1073741824\n");
	rmdir(fake_path(&fk, BDI_DIR("8:32") "strict_limit"));
	fake_file(&fk, BDI_DIR("8:32") "strict_limit", "0\n");

	/* usage */
	apply(&fk, BW_EXIT_USAGE, NULL, &err, "--seconds", "2", "/dev/sdb");
	assert_non_null(strstr(err, "apply takes the time from the rule ('auto S'), not --seconds"));
	free(err);
	apply(&fk, BW_EXIT_USAGE, NULL, NULL, "--check", "/dev/sdb");
	apply(&fk, BW_EXIT_USAGE, NULL, NULL, "--watch", "--dry-run", "/dev/sdb");
	assert_int_equal(run_cli(NULL, NULL, "apply", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "set", "--config", "x", "8:16", "1M", NULL),
			 BW_EXIT_USAGE);
	/* no such target */
	policy(&fk, "bdi=* -> bytes 1M\n");
	apply(&fk, BW_EXIT_NOENT, NULL, NULL, "/dev/nope");
}

int test_conf(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(default_actions),
		cmocka_unit_test(files_in_order),
		cmocka_unit_test(files_missing_and_bad),
		cmocka_unit_test(matching),
		cmocka_unit_test(apply_rules),
		cmocka_unit_test(apply_auto),
		cmocka_unit_test(apply_refuses),
	};

	return cmocka_run_group_tests_name("conf", tests, setup, teardown);
}
