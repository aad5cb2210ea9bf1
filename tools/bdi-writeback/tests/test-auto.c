// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Auto-sizing: debugfs and block-stat parsing, the kernel estimate and the
 * counter rate as the fake tree gives them, and the arithmetic.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "fake.h"
#include "tests.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static struct fake fk;

static int setup(void **state)
{
	(void)state;
	fake_create(&fk, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_destroy(&fk);
	return 0;
}

static void size_arithmetic(void **state)
{
	struct bw_auto a = BW_AUTO_DEFAULTS;	/* 2 s, 4 MiB..1 GiB, MiB steps */
	int clamped = 99;

	(void)state;
	assert_true(bw_auto_size(16 * MiB, &a, &clamped) == 32 * MiB);
	assert_int_equal(clamped, 0);
	/* 16.3 MiB/s x 2 s = 32.6 MiB: to the nearest MiB */
	assert_true(bw_auto_size(16 * MiB + 300 * 1024, &a, NULL) == 33 * MiB);
	/* exactly half a MiB rounds up */
	a.seconds_ms = 1000;
	assert_true(bw_auto_size(20 * MiB + MiB / 2, &a, NULL) == 21 * MiB);
	assert_true(bw_auto_size(20 * MiB + MiB / 2 - 1, &a, NULL) == 20 * MiB);
	/* fractions of a second */
	a.seconds_ms = 500;
	assert_true(bw_auto_size(64 * MiB, &a, NULL) == 32 * MiB);
	a.seconds_ms = 2000;
	/* bounds */
	assert_true(bw_auto_size(1 * MiB, &a, &clamped) == 4 * MiB);
	assert_int_equal(clamped, -1);
	assert_true(bw_auto_size(0, &a, &clamped) == 4 * MiB);
	assert_true(bw_auto_size(10 * GiB, &a, &clamped) == 1 * GiB);
	assert_int_equal(clamped, 1);
	/* no overflow at the extremes */
	a.seconds_ms = 3600000;
	a.max = UINT64_MAX;
	assert_true(bw_auto_size(UINT64_MAX, &a, &clamped) == UINT64_MAX);
	a.seconds_ms = 1000;
	assert_true(bw_auto_size(UINT64_MAX, &a, &clamped) == UINT64_MAX);
	assert_int_equal(clamped, 0);
	/* the nearest MiB above 2^64 - 1 MiB does not fit: saturated */
	assert_true(bw_auto_size(UINT64_MAX - MiB / 2 + 1, &a, NULL) == UINT64_MAX);
	assert_true(bw_auto_size(UINT64_MAX - MiB / 2, &a, NULL) == UINT64_MAX - MiB + 1);
	a.seconds_ms = 3600000;
	/* no rounding: bytes exactly */
	a.seconds_ms = 1500;
	a.round = 0;
	a.min = 0;
	assert_true(bw_auto_size(1000, &a, NULL) == 1500);
}

static void change_or_not(void **state)
{
	(void)state;
	assert_int_equal(bw_should_change(0, 32 * MiB, 10), 1);	/* off: always set */
	assert_int_equal(bw_should_change(32 * MiB, 32 * MiB, 10), 0);
	assert_int_equal(bw_should_change(100, 110, 10), 0);		/* exactly 10 % */
	assert_int_equal(bw_should_change(100, 111, 10), 1);
	assert_int_equal(bw_should_change(100, 90, 10), 0);
	assert_int_equal(bw_should_change(100, 89, 10), 1);
	assert_int_equal(bw_should_change(100, 101, 0), 1);
	assert_int_equal(bw_should_change(UINT64_MAX, 0, 10), 1);
	/* at the top of the range: exactly 10 % is no change, one more is */
	assert_int_equal(bw_should_change(UINT64_MAX, UINT64_MAX - UINT64_MAX / 10, 10), 0);
	assert_int_equal(bw_should_change(UINT64_MAX, UINT64_MAX - UINT64_MAX / 10 - 1, 10), 1);
	assert_int_equal(bw_should_change(UINT64_MAX, 1, 1000), 0);
	assert_int_equal(bw_should_change(1, UINT64_MAX, 1000), 1);
}

static void stats_parsing(void **state)
{
	struct bw_stats st;
	char *text = fake_read(&fk, "/sys/kernel/debug/bdi/8:16/stats");

	(void)state;
	assert_non_null(text);
	assert_int_equal(bw_parse_stats(text, &st), 0);
	assert_true(st.writeback_kb == 8192 && st.reclaimable_kb == 65536);
	assert_true(st.have_written && st.written_kb == 196608);
	assert_true(st.have_bandwidth && st.bandwidth_kbps == 16384);
	assert_true(st.have_bg_thresh && st.bg_thresh_kb == 199680);
	free(text);
	/* lines it does not know are passed over */
	assert_int_equal(bw_parse_stats("BdiWriteback: 0 kB\nBdiBgBytesThresh: 64 kB\n"
					"BdiWriteBandwidth: 7 kBps\n", &st), 0);
	assert_true(st.bandwidth_kbps == 7);
	/* a key that only starts like another, garbage */
	assert_int_equal(bw_parse_stats("BdiWriteBandwidthX: 5\n", &st), -EINVAL);
	assert_int_equal(bw_parse_stats("", &st), -EINVAL);
	assert_int_equal(bw_parse_stats("BdiWriteback: lots\n", &st), -EINVAL);
}

static void wb_stats_parsing(void **state)
{
	uint64_t kbps = 0;

	(void)state;
	/* the largest estimate among contexts that wrote; the unwritten root's 100 MiB/s is not one */
	assert_int_equal(bw_parse_wb_stats(
		"WbCgIno: 1\nWbWritten: 0 kB\nWbWriteBandwidth: 102400 kBps\n\n"
		"WbCgIno: 57\nWbWritten: 4096 kB\nWbWriteBandwidth: 20480 kBps\n\n"
		"WbCgIno: 58\nWbWritten: 8 kB\nWbWriteBandwidth: 10240 kBps\n\n", &kbps), 0);
	assert_true(kbps == 20480);
	assert_int_equal(bw_parse_wb_stats("WbCgIno: 1\nWbWritten: 0 kB\nWbWriteBandwidth: 102400 kBps\n",
					   &kbps), -EAGAIN);
	assert_int_equal(bw_parse_wb_stats("", &kbps), -EAGAIN);
	/* no blank line at the end */
	assert_int_equal(bw_parse_wb_stats("WbCgIno: 1\nWbWritten: 5 kB\nWbWriteBandwidth: 3 kBps", &kbps), 0);
	assert_true(kbps == 3);
}

static void kernel_estimate(void **state)
{
	struct bw_ctx ctx;
	uint64_t bps = 0;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	/* writing now: BdiWriteBandwidth */
	assert_int_equal(bw_kernel_estimate(&ctx, "8:16", &bps), 0);
	assert_true(bps == 16 * MiB);
	/* idle (BdiWriteBandwidth 0): the contexts' last estimates */
	assert_int_equal(bw_kernel_estimate(&ctx, "btrfs-1", &bps), 0);
	assert_true(bps == 40 * MiB);
	/* written nothing yet: no estimate */
	assert_int_equal(bw_kernel_estimate(&ctx, "7:0", &bps), BW_EXIT_FAILURE);
	assert_non_null(strstr(ctx.err, "written nothing"));
	/* no debugfs for it */
	assert_int_equal(bw_kernel_estimate(&ctx, "8:0", &bps), BW_EXIT_FAILURE);
	assert_non_null(strstr(ctx.err, "debugfs"));
	bw_ctx_free(&ctx);
}

/* wb_stats with many cgroups' contexts: read to the end, past 64 KiB */
static void wb_stats_long(void **state)
{
	static const char block[] =
		"WbCgIno:                 %5d\n"
		"WbWriteback:                0 kB\n"
		"WbReclaimable:              0 kB\n"
		"WbDirtyThresh:              0 kB\n"
		"WbDirtied:               4096 kB\n"
		"WbWritten:               4096 kB\n"
		"WbWriteBandwidth:       %5d kBps\n"
		"b_dirty:                    0\n"
		"b_io:                       0\n"
		"b_more_io:                  0\n"
		"b_dirty_time:               0\n"
		"state:                      1\n"
		"\n";
	size_t len = 2000 * (sizeof(block) + 16), n = 0;
	char *text = malloc(len);
	struct bw_ctx ctx;
	uint64_t bps = 0;
	int i;

	(void)state;
	assert_non_null(text);
	/* 2000 contexts at 10 MiB/s, the last at 30 MiB/s */
	for (i = 0; i < 2000; i++)
		n += (size_t)snprintf(text + n, len - n, block, 100 + i, i == 1999 ? 30720 : 10240);
	assert_true(n > 4 * 65536);
	fake_file(&fk, "/sys/kernel/debug/bdi/8:32/wb_stats", text);
	free(text);
	text = fake_read(&fk, "/sys/kernel/debug/bdi/btrfs-1/stats");	/* idle */
	assert_non_null(text);
	fake_file(&fk, "/sys/kernel/debug/bdi/8:32/stats", text);
	free(text);
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	assert_int_equal(bw_kernel_estimate(&ctx, "8:32", &bps), 0);
	assert_true(bps == 30 * MiB);
	bw_ctx_free(&ctx);
}

static void blkstat_parsing(void **state)
{
	uint64_t sect = 0, busy = 0;

	(void)state;
	assert_int_equal(bw_parse_blkstat("    1000        0    80000      500     2000        0  1048576"
					  "     9000        0     4000     9500        0        0        0"
					  "        0      100       20\n", &sect, &busy), 0);
	assert_true(sect == 1048576 && busy == 4000);
	/* 11 fields, as kernels before 4.18 print */
	assert_int_equal(bw_parse_blkstat("1 2 3 4 5 6 7 8 9 10 11\n", &sect, &busy), 0);
	assert_true(sect == 7 && busy == 10);
	assert_int_equal(bw_parse_blkstat("1 2 3 4 5 6 7 8 9 10\n", &sect, &busy), -EINVAL);
	assert_int_equal(bw_parse_blkstat("", &sect, &busy), -EINVAL);
	assert_int_equal(bw_parse_blkstat("1 2 3 x 5 6 7 8 9 10 11", &sect, &busy), -EINVAL);
}

static struct bw_sample one(const char *dev, uint64_t sectors, uint64_t busy)
{
	struct bw_sample s;

	memset(&s, 0, sizeof(s));
	s.n = 1;
	snprintf(s.dev[0], sizeof(s.dev[0]), "%s", dev);
	s.sectors[0] = sectors;
	s.busy_ms[0] = busy;
	return s;
}

static void counter_rate(void **state)
{
	struct bw_ctx ctx;
	struct bw_sample a, b;
	uint64_t bps = 0;

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	/* 64 MiB written in 4 s of device time: 16 MiB/s, however long the window */
	a = one("sdb", 1000, 500);
	b = one("sdb", 1000 + 131072, 4500);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), 0);
	assert_true(bps == 16 * MiB);
	/* too little written, too little busy time */
	b = one("sdb", 1000 + 1024, 4500);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), BW_EXIT_FAILURE);
	assert_non_null(strstr(ctx.err, "too little"));
	b = one("sdb", 1000 + 131072, 550);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), BW_EXIT_FAILURE);
	/* another device, counters that went back (device replaced) */
	b = one("sdc", 1000 + 131072, 4500);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), BW_EXIT_FAILURE);
	b = one("sdb", 10, 4500);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), BW_EXIT_FAILURE);
	/* two devices of one btrfs: bytes add up, busy time is the longest */
	a = one("sdb", 0, 0);
	a.n = 2;
	snprintf(a.dev[1], sizeof(a.dev[1]), "sdc");
	b = a;
	b.sectors[0] = 65536;	/* 32 MiB */
	b.busy_ms[0] = 2000;
	b.sectors[1] = 65536;
	b.busy_ms[1] = 1000;
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), 0);
	assert_true(bps == 32 * MiB);
	/* counters near the top of 64 bits: no wrap-around */
	a = one("sdb", 0, 0);
	b = one("sdb", UINT64_MAX / 512, 1000);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), 0);
	assert_true(bps == UINT64_MAX / 512 * 512);
	b = one("sdb", UINT64_MAX / 512, 100);
	assert_int_equal(bw_counter_rate(&ctx, &a, &b, &bps), 0);
	assert_true(bps == UINT64_MAX);		/* saturated */
}

static void sampling(void **state)
{
	struct bw_ctx ctx;
	struct bw_sample s;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	assert_int_equal(bw_sample(&ctx, "8:16", &s), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.dev[0], "sdb");
	assert_true(s.sectors[0] == 1048576 && s.busy_ms[0] == 4000);
	assert_int_equal(bw_sample(&ctx, "btrfs-1", &s), 0);	/* its device */
	assert_int_equal(s.n, 1);
	assert_string_equal(s.dev[0], "sdc");
	assert_int_equal(bw_sample(&ctx, "8:49-fuseblk", &s), 0);
	assert_string_equal(s.dev[0], "sdd1");
	assert_int_equal(bw_sample(&ctx, "0:52", &s), BW_EXIT_FAILURE);	/* NFS: no device */
	assert_non_null(strstr(ctx.err, "debugfs"));
	assert_int_equal(bw_sample(&ctx, "btrfs-9", &s), BW_EXIT_NOENT);
	bw_ctx_free(&ctx);
}

int test_auto(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(size_arithmetic),
		cmocka_unit_test(change_or_not),
		cmocka_unit_test(stats_parsing),
		cmocka_unit_test(wb_stats_parsing),
		cmocka_unit_test(kernel_estimate),
		cmocka_unit_test(wb_stats_long),
		cmocka_unit_test(blkstat_parsing),
		cmocka_unit_test(counter_rate),
		cmocka_unit_test(sampling),
	};

	return cmocka_run_group_tests_name("auto", tests, setup, teardown);
}
