/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fake system tree (/sys, /proc, debugfs, /dev, mount points) for --sysroot. */
#ifndef FAKE_H
#define FAKE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct fake {
	char root[PATH_MAX];
};

/* the kernel: 6.12 as it is, with the series, or 6.1 */
enum { FAKE_612 = 0, FAKE_PATCHED = 1, FAKE_61 = 2 };
void fake_create(struct fake *f, int patched);
void fake_destroy(struct fake *f);
void fake_file(const struct fake *f, const char *path, const char *content);
void fake_link(const struct fake *f, const char *path, const char *target);
void fake_mkdir(const struct fake *f, const char *path);
char *fake_read(const struct fake *f, const char *path);	/* malloc'd, NULL if none */
char *fake_path(const struct fake *f, const char *path);	/* static buffer */

/* snprintf that stops the tests rather than cut a path */
#define xsnprintf(buf, len, ...) do {					\
	if (snprintf(buf, len, __VA_ARGS__) >= (int)(len))		\
		abort();						\
} while (0)

/* run bw_main with argv (NULL-terminated), stdout and stderr captured */
int run_cli(char **out, char **err, const char *first, ...);

#endif
