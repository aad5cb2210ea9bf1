// SPDX-License-Identifier: GPL-2.0
/*
 * paced-write: write SIZE bytes to FILE in write()s of REC bytes, at RATE
 * bytes per second (0: as fast as the kernel takes them), then close() it,
 * and print how long the writes and the close took. On NFS the close is
 * where the client sends what it still holds and waits for the COMMIT.
 *
 *   paced-write FILE REC SIZE RATE
 *
 * Prints "write_s close_s" (seconds, three decimals). Exit 0, 1 when a
 * write or the close fails, 2 for bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"

int main(int argc, char **argv)
{
	unsigned long long rec, size, rate, done = 0;
	double t0, t1, t2, due;
	char *buf;
	size_t i;
	int fd;

	if (argc != 5 || number(argv[2], &rec) || number(argv[3], &size) ||
	    number(argv[4], &rate) || rec == 0 || rec > (64ULL << 20)) {
		fprintf(stderr, "usage: paced-write FILE REC SIZE RATE (bytes, bytes/s; REC 1 to 64 MiB)\n");
		return 2;
	}
	buf = malloc(rec);
	if (!buf) {
		fprintf(stderr, "paced-write: no memory for a %llu-byte record\n", rec);
		return 1;
	}
	/* not zeros: nothing on the way may take a short cut */
	for (i = 0; i < rec; i++)
		buf[i] = (char)(i * 131 + 7);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "paced-write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t0 = now();
	while (done < size) {
		size_t n = size - done < rec ? size - done : rec;
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			fprintf(stderr, "paced-write: write to %s: %s\n", argv[1],
				w < 0 ? strerror(errno) : "wrote nothing");
			return 1;
		}
		done += w;
		if (rate) {
			due = t0 + (double)done / rate;
			for (;;) {
				double left = due - now();

				if (left <= 0)
					break;
				usleep((useconds_t)(left * 1e6) + 1);
			}
		}
	}
	t1 = now();
	if (close(fd)) {
		fprintf(stderr, "paced-write: close of %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t2 = now();
	printf("%.3f %.3f\n", t1 - t0, t2 - t1);
	return 0;
}
