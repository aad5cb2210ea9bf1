// SPDX-License-Identifier: GPL-2.0
/*
 * burst-write: write BURSTS bursts of BURST bytes each to FILE as fast as
 * the kernel takes them, in write()s of REC bytes, with GAP_MS of idle
 * between bursts (a client that sends a burst and then waits, a copy to a
 * USB disk in several pieces), then fsync() it. Times every write().
 *
 *   burst-write FILE REC BURST BURSTS GAP_MS
 *
 * Prints one line: "write_s slowest_s p99_ms max_ms fsync_s total_s": the
 * time spent in the bursts (gaps left out), the slowest burst, the 99th
 * percentile and the longest write(), the fsync(), and the whole job from
 * the first write to the end of the fsync. Exit 0, 1 when a write or the
 * fsync fails, 2 for bad usage.
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long long rec, burst, bursts, gap_ms, b, nlat = 0, cap;
	double t0, t_end, tb, w0, w1, write_s = 0, slowest = 0, *lat;
	struct timespec gap;
	char *buf;
	size_t i;
	int fd;

	if (argc != 6 || number(argv[2], &rec) || number(argv[3], &burst) ||
	    number(argv[4], &bursts) || number(argv[5], &gap_ms) ||
	    rec == 0 || rec > (64ULL << 20) || burst == 0 || bursts == 0 ||
	    bursts > 1000 || gap_ms > 3600000) {
		fprintf(stderr, "usage: burst-write FILE REC BURST BURSTS GAP_MS (bytes; REC 1 to 64 MiB, BURSTS 1 to 1000)\n");
		return 2;
	}
	cap = (burst + rec - 1) / rec * bursts;
	buf = malloc(rec);
	lat = calloc(cap, sizeof(*lat));
	if (!buf || !lat) {
		fprintf(stderr, "burst-write: out of memory\n");
		return 1;
	}
	/* not zeros: nothing on the way may take a short cut */
	for (i = 0; i < rec; i++)
		buf[i] = (char)(i * 131 + 7);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "burst-write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	gap.tv_sec = gap_ms / 1000;
	gap.tv_nsec = (gap_ms % 1000) * 1000000;
	t0 = now();
	for (b = 0; b < bursts; b++) {
		unsigned long long done = 0;

		if (b)
			nanosleep(&gap, NULL);
		tb = now();
		while (done < burst) {
			size_t n = burst - done < rec ? burst - done : rec;
			ssize_t w;

			w0 = now();
			w = write(fd, buf, n);
			w1 = now();
			if (w <= 0) {
				fprintf(stderr, "burst-write: write to %s: %s\n", argv[1],
					w < 0 ? strerror(errno) : "wrote nothing");
				return 1;
			}
			/* a short write is timed as a write of its own */
			if (nlat == cap) {
				double *more = realloc(lat, 2 * cap * sizeof(*lat));

				if (!more) {
					fprintf(stderr, "burst-write: out of memory\n");
					return 1;
				}
				lat = more;
				cap *= 2;
			}
			lat[nlat++] = w1 - w0;
			done += w;
		}
		tb = now() - tb;
		write_s += tb;
		if (tb > slowest)
			slowest = tb;
	}
	w0 = now();
	if (fsync(fd)) {
		fprintf(stderr, "burst-write: fsync of %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	t_end = now();
	close(fd);
	qsort(lat, nlat, sizeof(*lat), cmp_double);
	/* the smallest value that at least 99 % of the writes do not exceed */
	i = (nlat * 99 + 99) / 100;
	printf("%.3f %.3f %.3f %.3f %.3f %.3f\n", write_s, slowest,
	       lat[i ? i - 1 : 0] * 1e3, lat[nlat - 1] * 1e3, t_end - w0, t_end - t0);
	return 0;
}
