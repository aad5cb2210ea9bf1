// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command as a whole, on the fake tree: what it prints, what it writes
 * and its exit status for every documented failure.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "fake.h"
#include "tests.h"

static struct fake fk, old, v61;	/* patched, unpatched kernel, 6.1 */

#define ATTR(bdi) "/sys/devices/virtual/bdi/" bdi "/" BW_ATTR

static int setup(void **state)
{
	(void)state;
	fake_create(&fk, FAKE_PATCHED);
	fake_create(&old, FAKE_612);
	fake_create(&v61, FAKE_61);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_destroy(&fk);
	fake_destroy(&old);
	fake_destroy(&v61);
	return 0;
}

static void reset(const char *bdi)
{
	char path[256];

	xsnprintf(path, sizeof(path), "/sys/devices/virtual/bdi/%s/" BW_ATTR, bdi);
	fake_file(&fk, path, "0\n");
}

static void attr_is(const char *bdi, const char *want)
{
	char path[256], *v;
	int ok;

	xsnprintf(path, sizeof(path), "/sys/devices/virtual/bdi/%s/" BW_ATTR, bdi);
	v = fake_read(&fk, path);
	if (v && strcmp(v, want))
		print_error("%s: '%s', expected '%s'\n", path, v, want);
	ok = v && !strcmp(v, want);
	free(v);
	assert_true(ok);
}

/* cli: run with --sysroot of the patched tree; prints what it said on failure */
#define cli(want, out, err, ...) do {						\
	char *e_ = NULL, **ep_ = (err);						\
	int r_ = run_cli(out, &e_, "--sysroot", fk.root, __VA_ARGS__, NULL);	\
	if (r_ != (want))							\
		print_error("exit %d, expected %d; stderr: %s\n", r_, want, e_);	\
	if (ep_)								\
		*ep_ = e_;							\
	else									\
		free(e_);							\
	assert_int_equal(r_, want);						\
} while (0)

static void help_version_usage(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(run_cli(&out, &err, "--help", NULL), 0);
	assert_non_null(strstr(out, "Exit status:"));
	assert_non_null(strstr(out, "BG-BYTES"));
	free(out), free(err);
	assert_int_equal(run_cli(&out, &err, "--version", NULL), 0);
	assert_non_null(strstr(out, "bdi-writeback "));
	free(out), free(err);
	assert_int_equal(run_cli(NULL, &err, NULL), BW_EXIT_USAGE);
	assert_non_null(strstr(err, "bdi-writeback: no command given"));
	free(err);
	assert_int_equal(run_cli(NULL, &err, "frobnicate", NULL), BW_EXIT_USAGE);
	assert_non_null(strstr(err, "unknown command 'frobnicate'"));
	free(err);
	assert_int_equal(run_cli(NULL, &err, "--bogus", "list", NULL), BW_EXIT_USAGE);
	assert_non_null(strstr(err, "unrecognized option '--bogus'"));
	free(err);
	assert_int_equal(run_cli(NULL, NULL, "set", "8:16", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "get", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "set", "--json", "8:16", "1M", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "auto", "--watch", "--dry-run", "8:16", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "auto", "--interval", "5", "8:16", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "auto", "--seconds", "0", "8:16", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "auto", "--source", "magic", "8:16", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "list", "-o", "BDI,NOPE", NULL), BW_EXIT_USAGE);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", NULL), BW_EXIT_USAGE);
}

#define NOTE_TAIL ", not to the disk's bdi: give a path on the filesystem\n"

static const struct {
	const char *target, *value, *note;
} notes[] = {
	{ "/dev/sdc", "1M", "bdi-writeback: note: 8:32 (/dev/sdc) holds btrfs on /mnt/pool, whose "
	  "dirty pages go to btrfs-1" NOTE_TAIL },
	{ "8:80", "0", "bdi-writeback: note: 8:80 holds bcachefs on /mnt/bcachefs, whose dirty "
	  "pages go to bcachefs-7" NOTE_TAIL },
	/* fuseblk (ntfs-3g): its pages go to MAJ:MIN-fuseblk */
	{ "/dev/sdd1", "0", "bdi-writeback: note: 8:48 (/dev/sdd1) holds fuseblk on /mnt/ntfs, "
	  "whose dirty pages go to 8:49-fuseblk" NOTE_TAIL },
	/* a btrfs whose bdi cannot be found: no note naming nothing */
	{ "8:64", "strict_limit=yes", "" },
	{ "/dev/sdb", "0", "" },	/* xfs: its pages are the disk's */
};

static void set_and_read_back(void **state)
{
	char *out, *err;
	size_t i;

	(void)state;
	reset("8:16");
	cli(0, &out, NULL, "set", "/mnt/data/dir/file.txt", "64M");
	assert_non_null(strstr(out, "8:16 (/mnt/data/dir/file.txt): dirty_background_bytes 0 B -> 64 MiB (67108864)"));
	free(out);
	attr_is("8:16", "67108864\n");
	cli(0, NULL, NULL, "set", "/dev/sdb", "1.5GiB");
	attr_is("8:16", "1610612736\n");
	cli(0, NULL, NULL, "set", "8:16", "0");
	attr_is("8:16", "0\n");
	cli(0, NULL, NULL, "set", "/mnt/pool/x", "16m");
	attr_is("btrfs-1", "16777216\n");
	cli(0, NULL, NULL, "set", "/mnt/nfs/a", "18446744073709551615");
	attr_is("0:52", "18446744073709551615\n");
	/* a disk under a filesystem with a bdi of its own: set, with a note of where pages go */
	for (i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
		cli(0, NULL, &err, "set", notes[i].target, notes[i].value);
		assert_string_equal(err, notes[i].note);
		free(err);
	}
}

static void set_refuses(void **state)
{
	char *err;

	(void)state;
	reset("8:16");
	cli(BW_EXIT_SIZE, NULL, &err, "set", "/mnt/data", "12Q");
	assert_string_equal(err, "bdi-writeback: invalid size '12Q': unknown unit 'Q' "
			    "(use K, M, G, T or KiB, MiB, GiB, TiB)\n");
	free(err);
	cli(BW_EXIT_SIZE, NULL, &err, "set", "/mnt/data", "-1");
	assert_string_equal(err, "bdi-writeback: invalid size '-1': negative\n");
	free(err);
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "/mnt/data", "18446744073709551616");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "/mnt/data", "");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "/mnt/data", "10MB");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "/nonexistent", "1x");	/* size checked first */
	attr_is("8:16", "0\n");						/* nothing written */
	cli(BW_EXIT_NOENT, NULL, &err, "set", "/mnt/data/nope", "1M");
	assert_string_equal(err, "bdi-writeback: /mnt/data/nope: no such bdi, device or path\n");
	free(err);
	cli(BW_EXIT_NOENT, NULL, NULL, "set", "9:99", "1M");
	cli(BW_EXIT_NOENT, NULL, NULL, "set", "/dev/sdz", "1M");
	cli(BW_EXIT_NOBDI, NULL, &err, "set", "/tmp", "1M");
	assert_non_null(strstr(err, "/tmp (tmpfs) has no backing device that writes back"));
	free(err);
	cli(BW_EXIT_NOBDI, NULL, NULL, "set", "/mnt/ram", "1M");
	attr_is("8:16", "0\n");
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void unpatched_kernel(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(run_cli(NULL, &err, "--sysroot", old.root, "set", "/mnt/data", "64M", NULL),
			 BW_EXIT_NOATTR);
	assert_non_null(strstr(err, "/sys/class/bdi/8:16/dirty_background_bytes: no such attribute"));
	assert_non_null(strstr(err, "running kernel (6.12.117-test)"));
	assert_non_null(strstr(err, "not applied"));
	/* and what that kernel has instead */
	assert_non_null(strstr(err, "; it has max_bytes and strict_limit"));
	assert_non_null(strstr(err, "set TARGET max_bytes=SIZE strict_limit=1"));
	assert_int_equal(count_lines(err), 1);
	free(err);
	/* get shows what the kernel has, '-' for what it lacks, and says it once */
	assert_int_equal(run_cli(&out, &err, "--sysroot", old.root, "get", "-nr", "-o",
				 "BDI,BG-BYTES,MAX-BYTES,STRICT", "/dev/sda1", NULL), 0);
	assert_string_equal(out, "8:0 - 1G 0\n");
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "note: no bdi has dirty_background_bytes"));
	assert_non_null(strstr(err, "max_bytes and strict_limit"));
	free(out), free(err);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", old.root, "auto", "8:16", NULL),
			 BW_EXIT_NOATTR);
	/* --dry-run sizes all the same: 16 MiB/s x 2 s */
	assert_int_equal(run_cli(&out, &err, "--sysroot", old.root, "auto", "--dry-run",
				 "/mnt/data", NULL), 0);
	assert_non_null(strstr(out, "would set dirty_background_bytes to 32 MiB (33554432); "
			       "now - (the kernel lacks it)"));
	assert_non_null(strstr(out, "16 MiB/s (16777216 bytes/s), from the kernel's estimate"));
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "max_bytes=SIZE strict_limit=1"));
	free(out), free(err);
	/* the knobs it has can be set */
	assert_int_equal(run_cli(&out, NULL, "--sysroot", old.root, "set", "/mnt/data",
				 "max_bytes=64M", "strict_limit=1", NULL), 0);
	assert_non_null(strstr(out, "8:16 (/mnt/data): strict_limit 0 -> 1\n"));
	free(out);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", old.root, "auto", "--watch", "8:16", NULL),
			 BW_EXIT_NOATTR);
	/* list works, says it once */
	assert_int_equal(run_cli(NULL, &err, "--sysroot", old.root, "list", NULL), 0);
	assert_non_null(strstr(err, "no bdi has dirty_background_bytes"));
	free(err);
}

enum { AS_NOBODY, READ_ONLY };

/*
 * set_apart: "set TARGET V1 [V2]" in a child: AS_NOBODY, since root may
 * write anything (the tree is 0755/0644), or READ_ONLY, with the fake bdi
 * directory mounted read-only in a mount namespace of its own. Its exit
 * status, and *ERR what it said; -1 where READ_ONLY cannot be made.
 */
static int set_apart(int how, char **err, const char *target, const char *v1, const char *v2)
{
	char dir[4096], log[4096], *e = NULL;
	int status;
	pid_t pid;
	FILE *fp;

	xsnprintf(dir, sizeof(dir), "%s", fake_path(&fk, "/sys/devices/virtual/bdi"));
	xsnprintf(log, sizeof(log), "%s/apart.log", fk.root);
	fake_file(&fk, "/apart.log", "");
	chmod(log, 0666);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (how == AS_NOBODY && geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(100);
		if (how == READ_ONLY &&
		    (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		     mount(dir, dir, NULL, MS_BIND, NULL) ||
		     mount(NULL, dir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL)))
			_exit(200);
		status = run_cli(NULL, &e, "--sysroot", fk.root, "set", target, v1, v2, NULL);
		fp = fopen(log, "w");
		if (!fp || fputs(e, fp) < 0 || fclose(fp))
			_exit(101);
		_exit(status);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (how == READ_ONLY && WEXITSTATUS(status) == 200)
		return -1;
	if (err) {
		*err = fake_read(&fk, "/apart.log");
		assert_non_null(*err);
	}
	return WEXITSTATUS(status);
}

#define set_as_nobody(err, target, v1, v2)	set_apart(AS_NOBODY, err, target, v1, v2)

/* knob_is: /sys/devices/virtual/bdi/BDI/KNOB of tree F reads WANT */
static void knob_is(const struct fake *f, const char *bdi, const char *knob, const char *want)
{
	char path[256], *v;
	int ok;

	xsnprintf(path, sizeof(path), "/sys/devices/virtual/bdi/%s/%s", bdi, knob);
	v = fake_read(f, path);
	if (!v || strcmp(v, want))
		print_error("%s: '%s', expected '%s'\n", path, v ? v : "(none)", want);
	ok = v && !strcmp(v, want);
	free(v);
	assert_true(ok);
}

static void knobs(void **state)
{
	char *out, *err;

	(void)state;
	reset("8:16");
	cli(0, &out, NULL, "set", "/mnt/data", "max_bytes=64M", "strict_limit=on",
	    "read_ahead_kb=1M", "dirty_background_bytes=16M", "min_bytes=0");
	assert_string_equal(out,
		"8:16 (/mnt/data): max_bytes 1 GiB -> 64 MiB (67108864)\n"
		"8:16 (/mnt/data): strict_limit 0 -> 1\n"
		"8:16 (/mnt/data): read_ahead_kb 128 (128 KiB) -> 1024 (1 MiB)\n"
		"8:16 (/mnt/data): dirty_background_bytes 0 B -> 16 MiB (16777216)\n"
		"8:16 (/mnt/data): min_bytes 0 B -> 0 B (0)\n");
	free(out);
	/* max_bytes and max_ratio set the same limit: one at a time, as in the file */
	cli(BW_EXIT_USAGE, NULL, &err, "set", "8:16", "max_bytes=64M", "max_ratio=50%");
	assert_non_null(strstr(err, "max_bytes and max_ratio set the same limit: give one"));
	free(err);
	cli(0, &out, NULL, "set", "/mnt/data", "max_ratio=50%");
	assert_string_equal(out, "8:16 (/mnt/data): max_ratio 100% -> 50%\n");
	free(out);
	knob_is(&fk, "8:16", "max_bytes", "67108864\n");
	knob_is(&fk, "8:16", "strict_limit", "1\n");
	knob_is(&fk, "8:16", "max_ratio", "50\n");
	knob_is(&fk, "8:16", "read_ahead_kb", "1024\n");
	attr_is("8:16", "16777216\n");
	cli(0, &out, NULL, "get", "-nr", "-o", "STRICT,MAX-BYTES,MAX-RATIO,READ-AHEAD", "8:16");
	assert_string_equal(out, "1 64M 50% 1M\n");
	free(out);
	cli(0, &out, NULL, "get", "-nrb", "-o", "MAX-RATIO,READ-AHEAD", "8:16");
	assert_string_equal(out, "50 1048576\n");
	free(out);
	cli(0, NULL, NULL, "set", "8:16", "read_ahead_kb=256", "strict_limit=0", "max_ratio=100");
	knob_is(&fk, "8:16", "read_ahead_kb", "256\n");
	knob_is(&fk, "8:16", "strict_limit", "0\n");
	/* bad values: status 7, nothing written, not even the good ones */
	cli(BW_EXIT_SIZE, NULL, &err, "set", "8:16", "max_bytes=1M", "strict_limit=2");
	assert_string_equal(err, "bdi-writeback: invalid strict_limit '2': not 0 or 1 (or on, off, yes, no)\n");
	free(err);
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "max_ratio=101");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "max_ratio=%");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "max_ratio=-1");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "read_ahead_kb=1.5K");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "max_bytes=-1");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "max_bytes=");
	knob_is(&fk, "8:16", "max_bytes", "67108864\n");
	knob_is(&fk, "8:16", "max_ratio", "100\n");
	/* unknown knob, a knob twice, a bare size among several: bad usage */
	cli(BW_EXIT_USAGE, NULL, &err, "set", "8:16", "min_ratio=5");
	assert_non_null(strstr(err, "unknown knob 'min_ratio'"));
	free(err);
	cli(BW_EXIT_USAGE, NULL, NULL, "set", "8:16", "max_bytes=1M", "max_bytes=2M");
	cli(BW_EXIT_USAGE, NULL, NULL, "set", "8:16", "1M", "max_bytes=2M");
	knob_is(&fk, "8:16", "max_bytes", "67108864\n");
	/* 6.1: no strict_limit: status 5, max_ratio offered, nothing written */
	assert_int_equal(run_cli(NULL, &err, "--sysroot", v61.root, "set", "/mnt/data",
				 "max_ratio=20", "strict_limit=1", NULL), BW_EXIT_NOATTR);
	assert_non_null(strstr(err, "/sys/class/bdi/8:16/strict_limit: no such attribute in the "
			       "running kernel (6.12.117-test) (Linux 6.2 and later have it)"));
	free(err);
	knob_is(&v61, "8:16", "max_ratio", "100\n");
	assert_int_equal(run_cli(NULL, &err, "--sysroot", v61.root, "set", "/mnt/data", "1M", NULL),
			 BW_EXIT_NOATTR);
	assert_non_null(strstr(err, "it has max_ratio"));
	assert_non_null(strstr(err, "set TARGET max_ratio=PERCENT"));
	free(err);
	assert_int_equal(run_cli(&out, NULL, "--sysroot", v61.root, "get", "-nr", "-o",
				 "BDI,MIN-BYTES,MAX-BYTES,STRICT,BG-BYTES,MAX-RATIO", "/mnt/data", NULL), 0);
	assert_string_equal(out, "8:16 - - - - 100%\n");
	free(out);
	assert_int_equal(run_cli(&out, NULL, "--sysroot", v61.root, "get", "-J", "-o",
				 "BDI,STRICT", "/mnt/data", NULL), 0);
	assert_non_null(strstr(out, "\"strict\": null"));
	free(out);
}

/* a write that fails puts back the knobs already written */
/* a write that fails puts back the knobs already written */
static void knobs_put_back(void **state)
{
	char p1[4096], p2[4096], *err = NULL;

	(void)state;
	fake_file(&fk, "/sys/devices/virtual/bdi/8:16/max_bytes", "1073741824\n");
	xsnprintf(p1, sizeof(p1), "%s", fake_path(&fk, "/sys/devices/virtual/bdi/8:16/max_bytes"));
	xsnprintf(p2, sizeof(p2), "%s", fake_path(&fk, "/sys/devices/virtual/bdi/8:16/strict_limit"));
	chmod(p1, 0666);
	chmod(p2, 0444);
	assert_int_equal(set_as_nobody(&err, "8:16", "max_bytes=2M", "strict_limit=1"),
			 BW_EXIT_PERM);
	chmod(p1, 0644);
	chmod(p2, 0644);
	knob_is(&fk, "8:16", "max_bytes", "1073741824\n");
	knob_is(&fk, "8:16", "strict_limit", "0\n");
	assert_non_null(strstr(err, "cannot open /sys/class/bdi/8:16/strict_limit for writing"));
	assert_non_null(strstr(err, "8:16: max_bytes put back to 1 GiB"));
	free(err);
}

static void columns_and_sort(void **state)
{
	char *out;

	(void)state;
	cli(0, &out, NULL, "--list-columns");
	assert_non_null(strstr(out, "*BDI"));
	assert_non_null(strstr(out, " MAX-RATIO"));
	assert_non_null(strstr(out, "*STRICT"));
	free(out);
	/* +COL: the default columns and these */
	cli(0, &out, NULL, "get", "-o", "+READ-AHEAD,MAX-RATIO", "/mnt/data");
	assert_non_null(strstr(out, "BDI "));
	assert_non_null(strstr(out, " BG-BYTES "));
	assert_non_null(strstr(out, " READ-AHEAD MAX-RATIO\n"));
	free(out);
	cli(0, &out, NULL, "get", "-nr", "-o", "+BDI", "/mnt/data");	/* once */
	assert_non_null(strstr(out, "8:16 "));
	assert_null(strstr(out + 1, "8:16"));
	free(out);
	cli(BW_EXIT_USAGE, NULL, NULL, "list", "-o", "+NOPE");
	cli(BW_EXIT_USAGE, NULL, NULL, "list", "--sort", "NOPE");
	cli(BW_EXIT_USAGE, NULL, NULL, "set", "--sort", "BDI", "8:16", "1M");
	/* sorting: text, numbers (not their human form), absent first */
	fake_file(&fk, ATTR("8:16"), "2097152\n");
	fake_file(&fk, ATTR("7:0"), "1048576\n");
	fake_file(&fk, ATTR("8:0"), "10485760\n");
	cli(0, &out, NULL, "get", "-nr", "-o", "BDI,BG-BYTES", "-x", "BG-BYTES",
	    "/dev/sda", "/dev/sdb", "/dev/loop0");
	assert_string_equal(out, "7:0 1M\n8:16 2M\n8:0 10M\n");
	free(out);
	cli(0, &out, NULL, "get", "-nr", "-o", "TYPE,BDI", "--sort=type",
	    "/mnt/pool", "/dev/sdb", "/mnt/nfs", "/dev/loop0");
	assert_string_equal(out, "btrfs btrfs-1\ndisk 8:16\nloop 7:0\nnfs 0:52\n");
	free(out);
	assert_int_equal(run_cli(&out, NULL, "--sysroot", v61.root, "get", "-nr", "-o",
				 "BDI,MAX-BYTES", "-x", "MAX-BYTES", "/dev/sdb", "/mnt/pool", NULL), 0);
	assert_string_equal(out, "8:16 -\nbtrfs-1 -\n");
	free(out);
	reset("8:16");
	reset("7:0");
	reset("8:0");
}

/* several targets: each is tried, each failure said, 64 when some failed */
static void several_targets(void **state)
{
	char *out, *err;

	(void)state;
	cli(BW_EXIT_PARTIAL, &out, &err, "get", "-nr", "-o", "BDI", "/dev/sdb", "/nope", "/tmp",
	    "/mnt/nfs");
	assert_string_equal(out, "8:16\n0:52\n");
	assert_string_equal(err, "bdi-writeback: /nope: no such bdi, device or path\n"
			    "bdi-writeback: /tmp: /tmp (tmpfs) has no backing device that writes "
			    "back: its pages are not written to any device\n");
	free(out), free(err);
	cli(BW_EXIT_PARTIAL, &out, NULL, "list", "-nr", "-o", "BDI", "/nope", "/dev/sda");
	assert_string_equal(out, "8:0\n");
	free(out);
	/* all failed: 64 for several, the failure's own status for one */
	cli(BW_EXIT_PARTIAL, &out, NULL, "get", "/nope", "/tmp");
	assert_string_equal(out, "");
	free(out);
	cli(BW_EXIT_NOENT, NULL, NULL, "get", "/nope");
	cli(BW_EXIT_NOBDI, NULL, NULL, "list", "/tmp");
}

static void small_usage(void **state)
{
	char *err;
	FILE *fp;

	(void)state;
	/* a negative number anywhere but set's SIZE is an unknown option */
	cli(BW_EXIT_USAGE, NULL, &err, "get", "-1");
	assert_non_null(strstr(err, "invalid option -- '1'"));
	free(err);
	cli(BW_EXIT_USAGE, NULL, NULL, "list", "-5");
	cli(BW_EXIT_USAGE, NULL, NULL, "auto", "-2", "8:16");
	cli(BW_EXIT_SIZE, NULL, NULL, "set", "8:16", "-1");
	cli(BW_EXIT_SIZE, NULL, NULL, "-r", "set", "8:16", "-1");
	/* --sysroot that is a file: said so */
	fp = fopen(fake_path(&fk, "/afile"), "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(run_cli(NULL, &err, "--sysroot", fake_path(&fk, "/afile"), "list", NULL),
			 BW_EXIT_USAGE);
	assert_non_null(strstr(err, "afile: not a directory"));
	assert_null(strstr(err, "Invalid argument"));
	free(err);
	assert_int_equal(run_cli(NULL, &err, "--sysroot", "/nonexistent/x", "list", NULL),
			 BW_EXIT_USAGE);
	assert_non_null(strstr(err, "sysroot /nonexistent/x: No such file or directory"));
	free(err);
}

static void permission_denied(void **state)
{
	char path[4096], *err;
	int r;

	(void)state;
	reset("8:16");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, ATTR("8:16")));
	chmod(path, 0444);
	assert_int_equal(set_as_nobody(&err, "/mnt/data", "1M", NULL), BW_EXIT_PERM);
	assert_non_null(strstr(err, "Permission denied (root can write it)\n"));
	free(err);
	chmod(path, 0644);
	attr_is("8:16", "0\n");
	/* read-only, as in a sandbox: not a matter of being root */
	r = set_apart(READ_ONLY, &err, "/mnt/data", "1M", NULL);
	if (r < 0) {
		print_message("read-only case not run: no mount namespace here\n");
		return;
	}
	assert_int_equal(r, BW_EXIT_PERM);
	assert_non_null(strstr(err, ": Read-only file system (the file system is read-only here: in a "
			       "sandbox, e.g. a unit, it must be writable: "
			       "ReadWritePaths=/sys/devices/virtual/bdi)\n"));
	assert_null(strstr(err, "root can write it"));
	free(err);
	attr_is("8:16", "0\n");
}

static void get_and_list(void **state)
{
	char *out;

	(void)state;
	reset("8:16");
	cli(0, NULL, NULL, "set", "/mnt/data", "64M");
	cli(0, &out, NULL, "get", "-n", "-r", "-o", "BDI,BG-BYTES", "/srv/bind");
	assert_string_equal(out, "8:16 64M\n");
	free(out);
	cli(0, &out, NULL, "get", "-nrb", "-o", "bg-bytes", "/mnt/data");
	assert_string_equal(out, "67108864\n");
	free(out);
	cli(0, &out, NULL, "list", "-J", "-b");
	assert_non_null(strstr(out, "\"bdi\": \"btrfs-1\""));
	assert_non_null(strstr(out, "\"type\": \"btrfs\""));
	assert_non_null(strstr(out, "\"device\": \"sdc\""));
	assert_non_null(strstr(out, "\"/mnt/pool\", \"/mnt/sub vol\""));
	assert_non_null(strstr(out, "\"bg-bytes\": 67108864"));
	assert_non_null(strstr(out, "\"write-bw\": 16777216"));
	assert_non_null(strstr(out, "\"dirty\": 67108864"));
	assert_non_null(strstr(out, "\"type\": \"nfs\""));
	assert_non_null(strstr(out, "\"device\": \"server:/export\""));
	assert_non_null(strstr(out, "\"type\": \"fuse\""));
	assert_non_null(strstr(out, "\"type\": \"fuseblk\""));
	assert_non_null(strstr(out, "\"device\": \"dm-0 (vg-data)\""));
	assert_non_null(strstr(out, "\"type\": \"loop\""));
	free(out);
	/* a bdi without mounts: an empty array in JSON, not one holding null */
	cli(0, &out, NULL, "get", "-J", "-o", "BDI,MOUNTS", "43:0");
	assert_non_null(strstr(out, "\"mounts\": []"));
	assert_null(strstr(out, "null"));
	free(out);
	/* TYPE and DEVICE from what resolution found */
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI,TYPE,DEVICE", "/mnt/cifs", "/mnt/bcachefs",
	    "/dev/sdf", "/mnt/9p", "/dev/loop0", "ceph-4");
	assert_string_equal(out, "cifs-2 cifs //srv/share\nbcachefs-7 bcachefs /dev/sdf\n8:80 disk sdf\n"
			    "9p-3 9p hostshare\n7:0 loop loop0\nceph-4 ceph \n");
	free(out);
	/* a disk's TYPE from its sysfs directory, not its name */
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI,TYPE,DEVICE", "9:0", "252:0", "43:0",
	    "11:0", "7:1", "253:0", "8:16");
	assert_string_equal(out, "9:0 md md0\n252:0 zram zram0\n43:0 nbd nbd0\n11:0 rom sr0\n"
			    "7:1 loop loop1\n253:0 dm dm-0\\x20(vg-data)\n8:16 disk sdb\n");
	free(out);
	/* bdis in device-number order, the named ones after */
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI");
	assert_string_equal(out, "0:52\n0:60\n7:0\n7:1\n8:0\n8:16\n8:32\n8:48\n8:49-fuseblk\n8:64\n"
			    "8:80\n9:0\n11:0\n43:0\n252:0\n253:0\n9p-3\nafs-6\nbcachefs-7\n"
			    "btrfs-1\nceph-4\nceph-5\ncifs-2\n");
	free(out);
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI,TYPE", "/mnt/loop", "/dev/sda2", "/mnt/loop");
	assert_string_equal(out, "7:0 loop\n8:0 disk\n");
	free(out);
	cli(BW_EXIT_NOBDI, NULL, NULL, "list", "/tmp");
	cli(0, &out, NULL, "list");	/* the table, aligned */
	assert_non_null(strstr(out, "BDI "));
	assert_non_null(strstr(out, "WRITE-BW"));
	assert_non_null(strstr(out, "16M/s"));
	free(out);
}

static void auto_sizes(void **state)
{
	char *out, *err;

	(void)state;
	reset("8:16");
	/* the kernel's estimate for sdb: 16 MiB/s */
	cli(0, &out, NULL, "auto", "--dry-run", "/mnt/data");
	assert_non_null(strstr(out, "would set dirty_background_bytes to 32 MiB (33554432); now 0 B"));
	assert_non_null(strstr(out, "16 MiB/s (16777216 bytes/s), from the kernel's estimate"));
	assert_non_null(strstr(out, "global background threshold now: 195 MiB"));
	free(out);
	attr_is("8:16", "0\n");
	cli(0, &out, NULL, "auto", "/mnt/data", "--seconds", "3");
	assert_non_null(strstr(out, "0 B -> 48 MiB (50331648): 16 MiB/s (the kernel's estimate) x 3 s"));
	free(out);
	attr_is("8:16", "50331648\n");
	cli(0, NULL, NULL, "auto", "/mnt/data", "-s", "0.1");
	attr_is("8:16", "4194304\n");	/* 1.6 MiB: the minimum */
	cli(0, NULL, NULL, "auto", "/mnt/data", "--seconds", "100", "--max", "512M");
	attr_is("8:16", "536870912\n");
	/* bad option values are bad usage, like a bad --seconds */
	cli(BW_EXIT_USAGE, NULL, NULL, "auto", "/mnt/data", "--min", "1G", "--max", "512M");
	cli(BW_EXIT_USAGE, NULL, &err, "auto", "/mnt/data", "--min", "lots");
	assert_string_equal(err, "bdi-writeback: invalid --min 'lots': not a number\n"
			    "Try 'bdi-writeback --help' for more information.\n");
	free(err);
	cli(BW_EXIT_USAGE, NULL, NULL, "auto", "/mnt/data", "--max", "-1");
	cli(BW_EXIT_USAGE, NULL, NULL, "auto", "/mnt/data", "--fallback", "1X");
	cli(BW_EXIT_USAGE, NULL, NULL, "auto", "/mnt/data", "--seconds", "x");
	attr_is("8:16", "536870912\n");
	/* btrfs: its own bdi, idle, the contexts' last estimate (40 MiB/s) */
	cli(0, NULL, NULL, "auto", "/mnt/pool");
	attr_is("btrfs-1", "83886080\n");
	/* a loop device that wrote nothing yet: nothing to go by */
	reset("7:0");
	cli(BW_EXIT_FAILURE, NULL, &err, "auto", "/dev/loop0");
	assert_non_null(strstr(err, "7:0 (/dev/loop0): no kernel estimate for 7:0 yet"));
	free(err);
	cli(0, &out, NULL, "auto", "/dev/loop0", "--fallback", "16M");
	assert_non_null(strstr(out, "0 B -> 16 MiB (16777216): --fallback"));
	free(out);
	attr_is("7:0", "16777216\n");
	cli(0, &out, NULL, "auto", "/dev/loop0", "--fallback", "8M");	/* not 0: kept */
	assert_non_null(strstr(out, "stays 16 MiB"));
	free(out);
	attr_is("7:0", "16777216\n");
	cli(0, &out, NULL, "auto", "--dry-run", "/dev/loop0", "--fallback", "8M");
	assert_non_null(strstr(out, "7:0 (/dev/loop0): would leave dirty_background_bytes at 16 MiB "
			       "(16777216)\n"));
	assert_null(strstr(out, "would set"));
	free(out);
	/* counters: the fake ones do not move, so nothing is measured */
	cli(BW_EXIT_FAILURE, NULL, &err, "auto", "--source", "counters", "--window", "0.1", "8:16");
	assert_non_null(strstr(err, "too little written to measure"));
	free(err);
	/* NFS has no device counters */
	cli(BW_EXIT_FAILURE, NULL, NULL, "auto", "--source", "counters", "/mnt/nfs");
	cli(BW_EXIT_NOBDI, NULL, NULL, "auto", "/tmp");
	cli(BW_EXIT_NOENT, NULL, NULL, "auto", "/nope");
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static int count(const char *haystack, const char *needle)
{
	int n = 0;

	while ((haystack = strstr(haystack, needle))) {
		n++;
		haystack++;
	}
	return n;
}

/* wait_for_n: until the file has TEXT N times, at most 10 s */
static int wait_for_n(const char *file, const char *text, int times)
{
	char buf[65536] = "";
	FILE *fp;
	size_t n;
	int i;

	for (i = 0; i < 200; i++) {
		fp = fopen(file, "r");
		if (fp) {
			n = fread(buf, 1, sizeof(buf) - 1, fp);
			fclose(fp);
			buf[n] = '\0';
			if (count(buf, text) >= times)
				return 1;
		}
		sleep_ms(50);
	}
	print_error("'%s' not %d times in %s:\n%s\n", text, times, file, buf);
	return 0;
}

static int wait_for(const char *file, const char *text)
{
	return wait_for_n(file, text, 1);
}

/* the watcher of a test: stopped after it, whatever happened */
static pid_t watcher;

static int stop_watcher(void **state)
{
	(void)state;
	if (watcher > 0) {
		kill(watcher, SIGKILL);
		waitpid(watcher, NULL, 0);
	}
	watcher = 0;
	return 0;
}

static void watch(void **state)
{
	char log[4096], path[4096];
	int status;
	pid_t pid;
	FILE *fp;

	(void)state;
	reset("8:16");
	xsnprintf(log, sizeof(log), "%s/watch.log", fk.root);
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, "/sys/class/bdi/8:16"));
	watcher = pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fp = freopen(log, "w", stdout);
		if (!fp)
			_exit(100);
		setenv("JOURNAL_STREAM", "1:1", 1);
		_exit(bw_main(7, (char *[]){ "bdi-writeback", "--sysroot", fk.root, "auto", "--watch",
					       "--interval=0.1", "/dev/sdb", NULL }));
	}
	assert_true(wait_for(log, "/dev/sdb: watching bdi 8:16: bandwidth x 2 s within 4 MiB..1 GiB, every 0.100 s"));
	assert_true(wait_for(log, "8:16 (/dev/sdb): 0 B -> 32 MiB (33554432): 16 MiB/s (the kernel's estimate) x 2 s"));
	attr_is("8:16", "33554432\n");
	/* the device goes away... */
	assert_int_equal(rename(path, fake_path(&fk, "/sys/class/bdi/gone")), 0);
	assert_true(wait_for(log, "/dev/sdb: gone ("));
	/* ...and comes back, its knob at 0 again */
	reset("8:16");
	assert_int_equal(rename(fake_path(&fk, "/sys/class/bdi/gone"), path), 0);
	assert_true(wait_for(log, "/dev/sdb: back, bdi 8:16"));
	assert_true(wait_for_n(log, "8:16 (/dev/sdb): 0 B -> 32 MiB", 2));
	attr_is("8:16", "33554432\n");
	/* within the tolerance: left alone; an outside change beyond it: re-sized */
	fake_file(&fk, ATTR("8:16"), "34000000\n");
	sleep_ms(300);
	attr_is("8:16", "34000000\n");
	fake_file(&fk, ATTR("8:16"), "1048576\n");
	assert_true(wait_for(log, "1 MiB -> 32 MiB"));
	kill(pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	watcher = 0;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(wait_for(log, "/dev/sdb: SIGTERM, stopping"));
}

/* start_watch: a watcher of TARGET logging to LOG, every 0.1 s */
static pid_t start_watch(const char *log, const char *target)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(log, "w", stdout))
			_exit(100);
		_exit(bw_main(7, (char *[]){ "bdi-writeback", "--sysroot", fk.root, "auto", "-w",
					       "-i0.1", (char *)target, NULL }));
	}
	return pid;
}

static void stop_watch(pid_t pid, int sig, const char *log)
{
	int status;

	kill(pid, sig);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	watcher = 0;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(wait_for(log, sig == SIGINT ? "SIGINT, stopping" : "SIGTERM, stopping"));
}

static void watch_mount_goes(void **state)
{
	char log[4096], *mi;

	(void)state;
	reset("8:16");
	reset("8:0");
	xsnprintf(log, sizeof(log), "%s/watch2.log", fk.root);
	mi = fake_read(&fk, "/proc/self/mountinfo");
	assert_non_null(mi);
	watcher = start_watch(log, "/mnt/data");
	assert_true(wait_for(log, "/mnt/data: watching bdi 8:16"));
	assert_true(wait_for(log, "0 B -> 32 MiB"));
	/* unmounted: the path now lies on / (sda), which must not be touched */
	fake_file(&fk, "/proc/self/mountinfo",
		  "20 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
	assert_true(wait_for(log, "/mnt/data: gone (/mnt/data is not mounted)"));
	sleep_ms(300);
	attr_is("8:0", "0\n");
	fake_file(&fk, "/proc/self/mountinfo", mi);
	reset("8:16");
	assert_true(wait_for(log, "/mnt/data: back, bdi 8:16"));
	assert_true(wait_for_n(log, "(/mnt/data): 0 B -> 32 MiB", 2));
	stop_watch(watcher, SIGINT, log);
	free(mi);
}

/* mountinfo_without: the fake table less the line of one mount point */
static char *mountinfo_without(const char *mi, const char *line_start)
{
	char *before = strdup(mi), *p;

	assert_non_null(before);
	p = strstr(before, line_start);
	assert_non_null(p);
	memmove(p, strchr(p, '\n') + 1, strlen(strchr(p, '\n') + 1) + 1);
	return before;
}

/*
 * mount_later: the watcher of LOG waits while /mnt/data is not mounted,
 * touching neither disk; then it is mounted (table MI) and found
 */
static void mount_later(const char *log, const char *mi)
{
	assert_true(wait_for(log, "/mnt/data: not there yet (/mnt/data is not mounted); waiting"));
	sleep_ms(400);
	attr_is("8:0", "0\n");
	attr_is("8:16", "0\n");
	fake_file(&fk, "/proc/self/mountinfo", mi);
	assert_true(wait_for(log, "/mnt/data: there, bdi 8:16"));
}

/*
 * A path not mounted yet when the watch starts: nothing is done to the
 * filesystem below (here /, on sda); once mounted, it is sized.
 */
static void watch_not_mounted_yet(void **state)
{
	char log[4096], *mi, *before;

	(void)state;
	reset("8:16");
	reset("8:0");
	xsnprintf(log, sizeof(log), "%s/watch3.log", fk.root);
	mi = fake_read(&fk, "/proc/self/mountinfo");
	assert_non_null(mi);
	/* the same table without /mnt/data */
	before = mountinfo_without(mi, "22 20 8:16 / /mnt/data ");
	fake_file(&fk, "/proc/self/mountinfo", before);
	watcher = start_watch(log, "/mnt/data");
	assert_true(wait_for(log, "/mnt/data: watching what is mounted on /mnt/data: bandwidth x 2 s"));
	mount_later(log, mi);
	assert_true(wait_for(log, "8:16 (/mnt/data): 0 B -> 32 MiB"));
	attr_is("8:16", "33554432\n");
	attr_is("8:0", "0\n");
	stop_watch(watcher, SIGTERM, log);
	/* a directory that is no mount point is waited for the same way */
	xsnprintf(log, sizeof(log), "%s/watch4.log", fk.root);
	watcher = start_watch(log, "/mnt/data/dir/");
	assert_true(wait_for(log, "/mnt/data/dir/: not there yet (/mnt/data/dir is not mounted)"));
	/* and one that does not exist yet (an automount point) */
	stop_watch(watcher, SIGTERM, log);
	xsnprintf(log, sizeof(log), "%s/watch5.log", fk.root);
	watcher = start_watch(log, "/media/stick");
	assert_true(wait_for(log, "/media/stick: not there yet (/media/stick is not mounted)"));
	stop_watch(watcher, SIGTERM, log);
	/* below it a root with no bdi (an initramfs's rootfs): waited for too */
	fake_file(&fk, "/proc/self/mountinfo", "1 0 0:1 / / rw - rootfs rootfs rw\n");
	xsnprintf(log, sizeof(log), "%s/watch6.log", fk.root);
	watcher = start_watch(log, "/mnt/data");
	assert_true(wait_for(log, "/mnt/data: not there yet (/mnt/data is not mounted)"));
	fake_file(&fk, "/proc/self/mountinfo", mi);
	assert_true(wait_for(log, "/mnt/data: there, bdi 8:16"));
	stop_watch(watcher, SIGTERM, log);
	attr_is("8:0", "0\n");
	free(before);
	free(mi);
}

/* start_apply: apply --watch of TARGET with these rules, logging to LOG */
static pid_t start_apply(const char *log, const char *rules, const char *dflt,
			 const char *target)
{
	char conf[4096];
	pid_t pid;

	fake_file(&fk, "/etc/bdi-writeback.conf", rules);
	xsnprintf(conf, sizeof(conf), "%s", fake_path(&fk, "/etc/bdi-writeback.conf"));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(log, "w", stdout))
			_exit(100);
		if (dflt)
			_exit(bw_main(11, (char *[]){ "bdi-writeback", "--sysroot", fk.root, "apply",
						       "-w", "-i0.1", "--config", conf, "--default",
						       (char *)dflt, (char *)target, NULL }));
		_exit(bw_main(9, (char *[]){ "bdi-writeback", "--sysroot", fk.root, "apply", "-w",
					       "-i0.1", "--config", conf, (char *)target, NULL }));
	}
	return pid;
}

/*
 * apply_setup: 8:16 and 8:0 at 0, LOG in the tree; the mount table, and in
 * *BEFORE the same without /mnt/data
 */
static char *apply_setup(char *log, size_t len, const char *name, char **before)
{
	char *mi;

	reset("8:16");
	reset("8:0");
	xsnprintf(log, len, "%s/%s", fk.root, name);
	mi = fake_read(&fk, "/proc/self/mountinfo");
	assert_non_null(mi);
	*before = mountinfo_without(mi, "22 20 8:16 / /mnt/data ");
	return mi;
}

/*
 * apply --watch of a mount point with nothing mounted: the rule is picked
 * from what gets mounted there, never from the filesystem below (/, sda)
 */
static void apply_watch_waits_for_mount(void **state)
{
	char log[4096], *mi, *before;
	int status;

	(void)state;
	mi = apply_setup(log, sizeof(log), "apply1.log", &before);
	fake_file(&fk, "/run/udev/data/b8:0", "E:ID_BUS=ata\n");
	fake_file(&fk, "/proc/self/mountinfo", before);
	watcher = start_apply(log, "mount=/mnt/data -> bytes 48M\nID_BUS=ata -> bytes 9M\n",
			      "auto 2s", "/mnt/data");
	mount_later(log, mi);
	assert_true(wait_for(log, "8:16 (/mnt/data): rule "));
	assert_true(wait_for(log, ".conf:1: mount=/mnt/data -> bytes 48M"));
	assert_true(wait_for(log, "8:16 (/mnt/data): dirty_background_bytes 0 B -> 48 MiB"));
	/* a fixed rule: applied once, and the command ends */
	assert_int_equal(waitpid(watcher, &status, 0), watcher);
	watcher = 0;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	attr_is("8:16", "50331648\n");
	attr_is("8:0", "0\n");
	fake_file(&fk, "/run/udev/data/b8:0", "");
	free(before);
	free(mi);
}

/* the target back after going away: the whole rule again, not only auto */
static void apply_watch_reapplies(void **state)
{
	char log[4096], *mi, *before;

	(void)state;
	mi = apply_setup(log, sizeof(log), "apply2.log", &before);
	fake_file(&fk, "/sys/devices/virtual/bdi/8:16/max_bytes", "1073741824\n");
	watcher = start_apply(log, "mount=/mnt/data -> auto 2s max_bytes 16M\n", NULL, "/mnt/data");
	assert_true(wait_for(log, "8:16 (/mnt/data): max_bytes 1 GiB -> 16 MiB (16777216)"));
	assert_true(wait_for(log, "8:16 (/mnt/data): 0 B -> 32 MiB"));
	fake_file(&fk, "/proc/self/mountinfo", before);
	assert_true(wait_for(log, "/mnt/data: gone (/mnt/data is not mounted)"));
	/* a new mount of the device: its knobs as the kernel starts them */
	fake_file(&fk, "/sys/devices/virtual/bdi/8:16/max_bytes", "1073741824\n");
	reset("8:16");
	fake_file(&fk, "/proc/self/mountinfo", mi);
	assert_true(wait_for(log, "/mnt/data: back, bdi 8:16"));
	assert_true(wait_for_n(log, "8:16 (/mnt/data): max_bytes 1 GiB -> 16 MiB (16777216)", 2));
	assert_true(wait_for_n(log, "8:16 (/mnt/data): 0 B -> 32 MiB", 2));
	stop_watch(watcher, SIGTERM, log);
	attr_is("8:0", "0\n");
	free(before);
	free(mi);
}

/* a /dev TARGET not there yet is waited for, by apply and auto alike */
static void watch_device_not_there(void **state)
{
	char log[4096];

	(void)state;
	xsnprintf(log, sizeof(log), "%s/apply3.log", fk.root);
	watcher = start_apply(log, "bdi=* -> bytes 1M\n", NULL, "/dev/sdz");
	assert_true(wait_for(log, "/dev/sdz: not there yet ("));
	sleep_ms(300);
	stop_watch(watcher, SIGTERM, log);
	xsnprintf(log, sizeof(log), "%s/apply4.log", fk.root);
	watcher = start_watch(log, "/dev/sdz");
	assert_true(wait_for(log, "/dev/sdz: not there yet ("));
	stop_watch(watcher, SIGINT, log);
}

int test_cli(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_version_usage),
		cmocka_unit_test(set_and_read_back),
		cmocka_unit_test(set_refuses),
		cmocka_unit_test(unpatched_kernel),
		cmocka_unit_test(permission_denied),
		cmocka_unit_test(knobs),
		cmocka_unit_test(knobs_put_back),
		cmocka_unit_test(columns_and_sort),
		cmocka_unit_test(several_targets),
		cmocka_unit_test(small_usage),
		cmocka_unit_test(get_and_list),
		cmocka_unit_test(auto_sizes),
		cmocka_unit_test_teardown(watch, stop_watcher),
		cmocka_unit_test_teardown(watch_mount_goes, stop_watcher),
		cmocka_unit_test_teardown(watch_not_mounted_yet, stop_watcher),
		cmocka_unit_test_teardown(apply_watch_waits_for_mount, stop_watcher),
		cmocka_unit_test_teardown(apply_watch_reapplies, stop_watcher),
		cmocka_unit_test_teardown(watch_device_not_there, stop_watcher),
	};

	return cmocka_run_group_tests_name("cli", tests, setup, teardown);
}
