// SPDX-License-Identifier: GPL-2.0
/*
 * fsync-files: open each FILE for writing (no truncation), fsync() it and
 * close it: what a program that needs its data stable asks for. Prints
 * one word per FILE: "ok" or the error's name (EIO, ENOSPC, ...).
 *
 *   fsync-files FILE...
 *
 * Exit 0 when every fsync() and close() succeeded, 1 otherwise, 2 for bad
 * usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fsync-files FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		int fd = open(argv[i], O_WRONLY), e = 0;

		if (fd < 0)
			e = errno;
		else if (fsync(fd))
			e = errno;
		if (fd >= 0 && close(fd) && !e)
			e = errno;
		printf("%s%s", i > 1 ? " " : "", e ? strerrorname_np(e) : "ok");
		if (e)
			rc = 1;
	}
	printf("\n");
	return rc;
}
