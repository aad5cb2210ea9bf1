// SPDX-License-Identifier: GPL-2.0-or-later
/* The unit tests of bdi-writeback, one cmocka group per part. */
#include "tests.h"

int main(void)
{
	int failed = 0;

	failed += test_size();
	failed += test_resolve();
	failed += test_auto();
	failed += test_cli();
	failed += test_conf();
	return failed ? 1 : 0;
}
