// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loopctl add|remove N: create or delete /dev/loopN through
 * /dev/loop-control, so that the VM test can make a block device (and its
 * bdi) go away and come back. busybox losetup only attaches and detaches.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long req;
	char *end;
	long n;
	int fd, r;

	if (argc != 3 || (strcmp(argv[1], "add") && strcmp(argv[1], "remove"))) {
		fprintf(stderr, "usage: loopctl add|remove N\n");
		return 2;
	}
	n = strtol(argv[2], &end, 10);
	if (*end || n < 0 || n > 1048575) {
		fprintf(stderr, "loopctl: bad loop number '%s'\n", argv[2]);
		return 2;
	}
	req = strcmp(argv[1], "add") ? LOOP_CTL_REMOVE : LOOP_CTL_ADD;
	fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "loopctl: /dev/loop-control: %s\n", strerror(errno));
		return 1;
	}
	r = ioctl(fd, req, n);
	if (r < 0) {
		fprintf(stderr, "loopctl: %s loop%ld: %s\n", argv[1], n, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
