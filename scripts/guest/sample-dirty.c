// SPDX-License-Identifier: GPL-2.0
/*
 * sample-dirty: sample the dirty (reclaimable) page cache of bdis, or of
 * each writeback context of one bdi, at a fixed interval until SIGTERM or
 * SIGINT; the benchmarks' guest side uses it where a shell loop would be
 * too slow and too costly (busybox spawning awk 20 times a second under
 * software emulation).
 *
 *   sample-dirty [-i MS] [-o FILE] BDI...    BdiReclaimable of each BDI
 *   sample-dirty [-i MS] [-o FILE] -b BDI... BdiReclaimable and BdiWriteback
 *   sample-dirty [-i MS] [-o FILE] -w BDI    WbReclaimable of each wb of BDI
 *
 * Reads /sys/kernel/debug/bdi/<bdi>/stats (or wb_stats). Each sample is
 * one line: milliseconds since start, then the kB of each BDI (with -b:
 * two numbers, dirty and under writeback; with -w: "cgino:kB" for each
 * writeback context). Built static on the host and
 * copied into the guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static ssize_t slurp(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((size_t)len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

/* The value of the first "label:" line in buf, -1 if none. */
static long long field(const char *buf, const char *label)
{
	const char *p = buf;
	size_t len = strlen(label);

	while (p && *p) {
		if (!strncmp(p, label, len) && p[len] == ':')
			return strtoll(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	const char *out = NULL;
	long long t0, next;
	int interval = 50, per_wb = 0, both = 0, opt, i;
	struct sigaction sa = { .sa_handler = on_signal };
	FILE *f = stdout;

	while ((opt = getopt(argc, argv, "i:o:bw")) != -1) {
		switch (opt) {
		case 'i':
			interval = atoi(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'b':
			both = 1;
			break;
		case 'w':
			per_wb = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || interval <= 0 || (per_wb && (both || argc - optind != 1)))
		goto usage;
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "sample-dirty: %s: %s\n", out, strerror(errno));
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	t0 = next = now_ms();
	while (!stop) {
		char path[512];

		fprintf(f, "%lld", now_ms() - t0);
		for (i = optind; i < argc; i++) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/bdi/%s/%s",
				 argv[i], per_wb ? "wb_stats" : "stats");
			if (slurp(path, buf, sizeof(buf)) < 0) {
				fprintf(stderr, "sample-dirty: %s: %s\n", path, strerror(errno));
				return 1;
			}
			if (!per_wb) {
				fprintf(f, " %lld", field(buf, "BdiReclaimable"));
				if (both)
					fprintf(f, " %lld", field(buf, "BdiWriteback"));
				continue;
			}
			/* one block per wb, each starting with "WbCgIno:" */
			for (char *p = strstr(buf, "WbCgIno:"); p; p = strstr(p + 1, "WbCgIno:"))
				fprintf(f, " %lld:%lld", field(p, "WbCgIno"), field(p, "WbReclaimable"));
		}
		fputc('\n', f);
		next += interval;
		while (!stop && now_ms() < next) {
			struct timespec ts = { .tv_sec = next / 1000, .tv_nsec = next % 1000 * 1000000 };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	fclose(f);
	return 0;
usage:
	fprintf(stderr, "usage: sample-dirty [-i MS] [-o FILE] [-b] BDI... | -w BDI\n");
	return 2;
}
