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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "fake.h"
#include "tests.h"

static struct fake fk, old;	/* patched, unpatched kernel */

#define ATTR(bdi) "/sys/devices/virtual/bdi/" bdi "/" BW_ATTR

static int setup(void **state)
{
	(void)state;
	fake_create(&fk, 1);
	fake_create(&old, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_destroy(&fk);
	fake_destroy(&old);
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

static void set_and_read_back(void **state)
{
	char *out;

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

static void unpatched_kernel(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(run_cli(NULL, &err, "--sysroot", old.root, "set", "/mnt/data", "64M", NULL),
			 BW_EXIT_NOATTR);
	assert_non_null(strstr(err, "/sys/class/bdi/8:16/dirty_background_bytes: no such attribute"));
	assert_non_null(strstr(err, "running kernel (6.12.117-test)"));
	assert_non_null(strstr(err, "not applied"));
	free(err);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", old.root, "get", "/dev/sda1", NULL),
			 BW_EXIT_NOATTR);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", old.root, "auto", "8:16", NULL),
			 BW_EXIT_NOATTR);
	assert_int_equal(run_cli(NULL, NULL, "--sysroot", old.root, "auto", "--watch", "8:16", NULL),
			 BW_EXIT_NOATTR);
	/* list works, says it once */
	assert_int_equal(run_cli(NULL, &err, "--sysroot", old.root, "list", NULL), 0);
	assert_non_null(strstr(err, "no bdi has dirty_background_bytes"));
	free(err);
}

static void permission_denied(void **state)
{
	char path[4096];
	int status;
	pid_t pid;

	(void)state;
	reset("8:16");
	xsnprintf(path, sizeof(path), "%s", fake_path(&fk, ATTR("8:16")));
	chmod(path, 0444);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* root may write anything: drop to nobody (the tree is 0755/0644) */
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(100);
		_exit(run_cli(NULL, NULL, "--sysroot", fk.root, "set", "/mnt/data", "1M", NULL));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	chmod(path, 0644);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), BW_EXIT_PERM);
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
	/* TYPE and DEVICE from what resolution found */
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI,TYPE,DEVICE", "/mnt/cifs", "/mnt/bcachefs",
	    "/dev/sdf", "/mnt/9p", "/dev/loop0", "ceph-4");
	assert_string_equal(out, "cifs-2 cifs //srv/share\nbcachefs-7 bcachefs /dev/sdf\n8:80 disk sdf\n"
			    "9p-3 9p hostshare\n7:0 loop loop0\nceph-4 ceph \n");
	free(out);
	/* bdis in device-number order, the named ones after */
	cli(0, &out, NULL, "list", "-n", "-r", "-o", "BDI");
	assert_string_equal(out, "0:52\n0:60\n7:0\n8:0\n8:16\n8:32\n8:48\n8:49-fuseblk\n8:64\n8:80\n"
			    "253:0\n9p-3\nafs-6\nbcachefs-7\nbtrfs-1\nceph-4\nceph-5\ncifs-2\n");
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
	cli(BW_EXIT_SIZE, NULL, NULL, "auto", "/mnt/data", "--min", "1G", "--max", "512M");
	cli(BW_EXIT_SIZE, NULL, NULL, "auto", "/mnt/data", "--min", "lots");
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

static void watch_mount_goes(void **state)
{
	char log[4096], *mi;
	int status;
	pid_t pid;

	(void)state;
	reset("8:16");
	xsnprintf(log, sizeof(log), "%s/watch2.log", fk.root);
	mi = fake_read(&fk, "/proc/self/mountinfo");
	assert_non_null(mi);
	watcher = pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(log, "w", stdout))
			_exit(100);
		_exit(bw_main(7, (char *[]){ "bdi-writeback", "--sysroot", fk.root, "auto", "-w",
					       "-i0.1", "/mnt/data/dir", NULL }));
	}
	assert_true(wait_for(log, "0 B -> 32 MiB"));
	/* unmounted: the path now lies on / (sda), which must not be touched */
	fake_file(&fk, "/proc/self/mountinfo",
		  "20 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
	assert_true(wait_for(log, "/mnt/data/dir: gone (/mnt/data is not mounted)"));
	sleep_ms(300);
	attr_is("8:0", "0\n");
	fake_file(&fk, "/proc/self/mountinfo", mi);
	reset("8:16");
	assert_true(wait_for(log, "/mnt/data/dir: back, bdi 8:16"));
	assert_true(wait_for_n(log, "(/mnt/data/dir): 0 B -> 32 MiB", 2));
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	watcher = 0;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(wait_for(log, "SIGINT, stopping"));
	free(mi);
}

int test_cli(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_version_usage),
		cmocka_unit_test(set_and_read_back),
		cmocka_unit_test(set_refuses),
		cmocka_unit_test(unpatched_kernel),
		cmocka_unit_test(permission_denied),
		cmocka_unit_test(get_and_list),
		cmocka_unit_test(auto_sizes),
		cmocka_unit_test_teardown(watch, stop_watcher),
		cmocka_unit_test_teardown(watch_mount_goes, stop_watcher),
	};

	return cmocka_run_group_tests_name("cli", tests, setup, teardown);
}
