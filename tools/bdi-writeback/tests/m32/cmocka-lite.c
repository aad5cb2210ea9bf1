// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The few cmocka entry points test-size.c uses, for a 32-bit run of it
 * where no 32-bit libcmocka is installed (make check-build): the 64-bit
 * arithmetic of size.c, checked on the target that lacks __int128.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

int test_size(void);

static jmp_buf failed;

static void fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	longjmp(failed, 1);
}

void _assert_true(const LargestIntegralType result, const char * const expression,
		  const char * const file, const int line)
{
	if (!result)
		fail_at(file, line, "%s", expression);
}

void _assert_int_equal(const LargestIntegralType a, const LargestIntegralType b,
		       const char * const file, const int line)
{
	if (a != b)
		fail_at(file, line, "%ju != %ju", (uintmax_t)a, (uintmax_t)b);
}

void _assert_int_not_equal(const LargestIntegralType a, const LargestIntegralType b,
			   const char * const file, const int line)
{
	if (a == b)
		fail_at(file, line, "%ju == %ju", (uintmax_t)a, (uintmax_t)b);
}

void _assert_string_equal(const char * const a, const char * const b,
			  const char * const file, const int line)
{
	if (strcmp(a, b))
		fail_at(file, line, "\"%s\" != \"%s\"", a, b);
}

int _cmocka_run_group_tests(const char *group_name, const struct CMUnitTest * const tests,
			    const size_t num_tests, CMFixtureFunction group_setup,
			    CMFixtureFunction group_teardown)
{
	volatile size_t i;	/* kept across longjmp() */
	volatile int nfailed = 0;

	(void)group_setup;
	(void)group_teardown;
	for (i = 0; i < num_tests; i++) {
		if (setjmp(failed)) {
			printf("[  FAILED  ] %s\n", tests[i].name);
			nfailed++;
			continue;
		}
		tests[i].test_func(NULL);
		printf("[       OK ] %s\n", tests[i].name);
	}
	printf("%s (%zu-bit): %zu test(s), %d failed\n", group_name, sizeof(void *) * 8,
	       num_tests, (int)nfailed);
	return nfailed;
}

int main(void)
{
	return test_size() ? 1 : 0;
}
