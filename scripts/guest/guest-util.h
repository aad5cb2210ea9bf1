/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's small C programs (paced-write.c, burst-write.c) share:
 * a monotonic clock in seconds and a strict parser for byte counts.
 */
#ifndef GUEST_UTIL_H
#define GUEST_UTIL_H

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* seconds on the monotonic clock */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a whole decimal number in s (no sign, nothing after it): 0, else 1 */
static inline int number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || *s == '-';
}

#endif
