// SPDX-License-Identifier: GPL-2.0-or-later
/* Sizes and durations: what is accepted, what is refused, what is printed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "tests.h"

static void sizes_accepted(void **state)
{
	static const struct {
		const char *in;
		uint64_t want;
	} cases[] = {
		{ "0", 0 }, { "1", 1 }, { "4096", 4096 }, { "00012", 12 },
		{ "64K", 64ULL << 10 }, { "64k", 64ULL << 10 }, { "64KiB", 64ULL << 10 },
		{ "64kib", 64ULL << 10 }, { "1M", 1ULL << 20 }, { "1MiB", 1ULL << 20 },
		{ "16m", 16ULL << 20 }, { "2G", 2ULL << 30 }, { "2GiB", 2ULL << 30 },
		{ "1T", 1ULL << 40 }, { "1TiB", 1ULL << 40 }, { "1.5M", 3ULL << 19 },
		{ "0.5K", 512 }, { "1.25K", 1280 }, { "1.5GiB", 3ULL << 29 },
		{ "18446744073709551615", UINT64_MAX },
		{ "16777215T", 16777215ULL << 40 },
		{ "67108864", 67108864 },
		/* fractions: exact at every scale, trailing zeros ignored */
		{ "16777215.5T", 18446743523953737728ULL },
		{ "17179869183.5G", 18446744073172680704ULL },
		{ "1.000000000000000000K", 1024 }, { "0.9765625K", 1000 },
		{ "0.00048828125M", 512 }, { "0.000003814697265625T", 4194304 },
		{ "18014398509481983.5K", 18446744073709551104ULL },
		{ "18014398509481983.9990234375K", UINT64_MAX },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		char why[256] = "";

		assert_int_equal(bw_parse_size(cases[i].in, &v, why, sizeof(why)), 0);
		assert_true(v == cases[i].want);
	}
}

static void sizes_refused(void **state)
{
	static const struct {
		const char *in, *why;
	} cases[] = {
		{ "", "empty" }, { "-1", "negative" }, { "-0", "negative" }, { "+1", "not a number" },
		{ " 1", "not a number" }, { "1 ", "unknown unit" }, { "1.5", "fraction of a byte" },
		{ "0.1K", "not a whole number" }, { "1MB", "ambiguous" }, { "1kb", "ambiguous" },
		{ "12Q", "unknown unit 'Q'" }, { "1P", "unknown unit" }, { "1PiB", "unknown unit" },
		{ "1.K", "no digits after" }, { ".5M", "not a number" }, { "1e6", "unknown unit" },
		{ "0x10", "unknown unit" }, { "1Mi", "unknown unit" }, { "1MiBs", "unknown unit" },
		{ "abc", "not a number" }, { "1,5M", "unknown unit" }, { "64M\n", "unknown unit" },
		{ "18446744073709551616", "out of range" }, { "16777216T", "out of range" },
		{ "99999999999999999999999", "out of range" },
		{ "1.0000000000000000001K", "too many decimals" },
		/* the edges of 64 bits: no wrap-around */
		{ "18446744073709551616K", "out of range" },
		{ "16777216.5T", "out of range" }, { "17179869184G", "out of range" },
		{ "18014398509481984K", "out of range" },
		{ "36893488147419103232", "out of range" },
		{ "184467440737095516150", "out of range" },
		{ "16777215.999999999999999999T", "not a whole number" },
		{ "1.00000000000000001T", "not a whole number" },
		{ "0.0009765625", "fraction of a byte" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		char why[256] = "";

		assert_int_equal(bw_parse_size(cases[i].in, &v, why, sizeof(why)), BW_EXIT_SIZE);
		assert_true(v == 12345);	/* untouched */
		assert_non_null(strstr(why, cases[i].why));
	}
	assert_int_equal(bw_parse_size(NULL, NULL, NULL, 0), BW_EXIT_SIZE);
}

/* a x b / c in 64 bits, at the edges */
static void mul_div(void **state)
{
	(void)state;
	assert_true(bw_mul_div(0, 0, 1) == 0);
	assert_true(bw_mul_div(6, 7, 2) == 21);
	assert_true(bw_mul_div(7, 1, 2) == 3);			/* rounded down */
	assert_true(bw_mul_div(UINT64_MAX, UINT64_MAX, UINT64_MAX) == UINT64_MAX);
	assert_true(bw_mul_div(UINT64_MAX, 1000, 1000) == UINT64_MAX);
	assert_true(bw_mul_div(UINT64_MAX, 999, 1000) == 18428297329635842063ULL);
	assert_true(bw_mul_div(UINT64_MAX, 3, 4) == 13835058055282163711ULL);
	assert_true(bw_mul_div(1ULL << 63, 2, 2) == 1ULL << 63);
	assert_true(bw_mul_div(1ULL << 63, 4, 2) == UINT64_MAX);	/* 2^64: saturated */
	assert_true(bw_mul_div(UINT64_MAX, UINT64_MAX, 1) == UINT64_MAX);
	assert_true(bw_mul_div(UINT64_MAX, 2, UINT64_MAX) == 2);
	assert_true(bw_mul_div(0xffffffffULL, 0xffffffffULL, 1) == 0xfffffffe00000001ULL);
	assert_true(bw_mul_div(1, 1, 0) == UINT64_MAX);		/* no division by 0 */
	assert_true(bw_mul_div(3037000500ULL, 3037000500ULL, 3) == 3074457345666750000ULL);
}

static void seconds(void **state)
{
	static const struct {
		const char *in;
		uint64_t ms;
	} ok[] = { { "2", 2000 }, { "0.5", 500 }, { "1.25", 1250 }, { "2s", 2000 },
		   { "0.001", 1 }, { "3600", 3600000 } };
	static const char *const bad[] = { "", "-1", "1.2345", "abc", "1m", ".5", "1.", "2 s", NULL };
	uint64_t ms;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(bw_parse_seconds(ok[i].in, &ms, NULL, 0), 0);
		assert_true(ms == ok[i].ms);
	}
	for (i = 0; bad[i]; i++)
		assert_int_not_equal(bw_parse_seconds(bad[i], &ms, NULL, 0), 0);
}

static void human(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(bw_human(0, b, sizeof(b)), "0");
	assert_string_equal(bw_human(512, b, sizeof(b)), "512B");
	assert_string_equal(bw_human(1024, b, sizeof(b)), "1K");
	assert_string_equal(bw_human(1536, b, sizeof(b)), "1.5K");
	assert_string_equal(bw_human(64ULL << 20, b, sizeof(b)), "64M");
	assert_string_equal(bw_human(5ULL << 28, b, sizeof(b)), "1.3G");	/* 1.25 */
	assert_string_equal(bw_human(UINT64_MAX, b, sizeof(b)), "16E");
	assert_string_equal(bw_human(17870283321406128128ULL, b, sizeof(b)), "15.5E");
	assert_string_equal(bw_human((1ULL << 60) - 1, b, sizeof(b)), "1024P");
	assert_string_equal(bw_human(1023, b, sizeof(b)), "1023B");
	assert_string_equal(bw_human(1126, b, sizeof(b)), "1.1K");
	assert_string_equal(bw_human_iec(0, b, sizeof(b)), "0 B");
	assert_string_equal(bw_human_iec(64ULL << 20, b, sizeof(b)), "64 MiB");
	assert_string_equal(bw_human_iec(3ULL << 29, b, sizeof(b)), "1.5 GiB");
}

int test_size(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_accepted),
		cmocka_unit_test(sizes_refused),
		cmocka_unit_test(mul_div),
		cmocka_unit_test(seconds),
		cmocka_unit_test(human),
	};

	return cmocka_run_group_tests_name("size", tests, NULL, NULL);
}
