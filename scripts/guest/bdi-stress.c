// SPDX-License-Identifier: GPL-2.0
/*
 * bdi-stress: drive /sys/class/bdi/<bdi>/dirty_background_bytes hard, in
 * the workbench guest.
 *
 *   bdi-stress sweep [-n N] [-s SEED] BDI
 *       Write every input of a fixed list and N generated ones (default
 *       5000) to BDI's file. Each is judged against the ABI's rule (an
 *       unsigned decimal, an optional leading '+' and one trailing newline;
 *       EINVAL for anything else, ERANGE beyond 2^64 - 1): an accepted
 *       input must read back as its value, a rejected one must fail with
 *       the right error and leave the old value.
 *   bdi-stress attr [-t SECS] [-p PROCS] [-s SEED]
 *       PROCS processes (default 4) for SECS seconds (default 30): each
 *       picks a bdi from /sys/class/bdi (which changes as devices come and
 *       go), writes a valid value (0, small, huge, all of the form
 *       k * 65521 + 4660) or a malformed one, and reads back. A read must
 *       give 0 or a value of that form: one that some writer wrote.
 *   bdi-stress loops [-t SECS] [-s SEED] DIR
 *       Loop devices created, attached (autoclear) to a file in DIR,
 *       written (buffered) with their knob set, closed with dirty pages
 *       (which detaches them once the pages are written) and removed, for
 *       SECS seconds: each cycle registers and unregisters a bdi. The data
 *       written must be in the backing file afterwards.
 *
 * Each mode prints one summary line with its counts. Exit status: 0 when
 * everything was as expected, 1 when something was not, 2 for bad usage
 * or when the test could not run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KNOB		"dirty_background_bytes"
#define BDI_CLASS	"/sys/class/bdi"
#define TAG_MOD		65521ULL
#define TAG		4660ULL
#define LOOP_MIB	32
#define LOOP_WRITE_MIB	8
#define MAX_PROCS	32

static const char *prog = "bdi-stress";
static uint64_t rng_state;

static void usage(void)
{
	fprintf(stderr,
		"usage: %s sweep [-n N] [-s SEED] BDI\n"
		"       %s attr [-t SECS] [-p PROCS] [-s SEED]\n"
		"       %s loops [-t SECS] [-s SEED] DIR\n", prog, prog, prog);
	exit(2);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* xorshift64*: reproducible from -s SEED */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int rnd_below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long parse_num(const char *s, const char *what, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max)
		die("bad %s '%s' (1 to %ld)", what, s, max);
	return v;
}

/* write @len bytes of @buf to @path at once: 0 or -errno */
static int write_attr(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = n < 0 ? -errno : ((size_t)n == len ? 0 : -EIO);
	close(fd);
	return err;
}

/* read @path as an unsigned decimal with a newline: 0 or -errno */
static int read_attr(const char *path, unsigned long long *val)
{
	char buf[64], *end;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n"))
		return -EBADMSG;
	return 0;
}

/*
 * The ABI's rule: an optional '+', decimal digits, an optional '\n', and
 * nothing else; ERANGE as soon as the digits overflow 64 bits (before
 * anything after them is looked at, as kstrtoull() does).
 */
static int model(const char *s, size_t len, unsigned long long *val)
{
	unsigned long long v = 0;
	size_t i = 0, digits = 0;
	int overflow = 0;

	if (i < len && s[i] == '+')
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		unsigned int d = s[i] - '0';

		if (v > (ULLONG_MAX - d) / 10)
			overflow = 1;
		v = v * 10 + d;
	}
	if (overflow)
		return -ERANGE;
	if (!digits)
		return -EINVAL;
	if (i < len && s[i] == '\n')
		i++;
	if (i != len)
		return -EINVAL;
	*val = v;
	return 0;
}

static const char *const fixed_inputs[] = {
	"0", "1", "4095", "4096", "4097", "+0", "+4096", "007", "0\n", "+1\n",
	"18446744073709551615", "18446744073709551615\n", "+18446744073709551615",
	"000000000000000000000000000018446744073709551615",
	"18446744073709551616", "18446744073709551620", "99999999999999999999",
	"184467440737095516150", "99999999999999999999x",
	"\n", "+", "+\n", "-", "-0", "-1", "--1", "++1", "+-1", " 1", "1 ",
	"\t1", "1\t", "1\n\n", "1\r\n", "\n1", "0x10", "0X10", "010x", "1e3",
	"1k", "1K", "1M", "1G", "1.0", ".5", "1,000", "1_000", "one", "abc",
	"4096 ", " 4096\n", "4096\n ", "0b101", "0o7", "infinity", "NaN",
};

/* a generated input: mostly near the rule's edges, some random bytes */
static size_t gen_input(char *buf, size_t size)
{
	static const char *const pre[] = { "", "", "", "+", "-", " ", "++", "\t", "0x", "\n" };
	static const char *const post[] = { "", "", "", "\n", "\n\n", " ", "k", "x", ".5",
					    "\r\n", " \n", "\t", "+", "-1" };
	static const char alphabet[] = "0123456789+- \n\txkKMG.,_e";
	size_t len = 0, i, n;

	if (rnd_below(8) == 0) {
		n = 1 + rnd_below(24);
		for (i = 0; i < n; i++)
			buf[len++] = alphabet[rnd_below(sizeof(alphabet) - 1)];
		return len;
	}
	len = snprintf(buf, size, "%s", pre[rnd_below(sizeof(pre) / sizeof(pre[0]))]);
	switch (rnd_below(4)) {
	case 0:	/* around 2^64 */
		len += snprintf(buf + len, size - len, "%s%llu%u",
				rnd_below(3) ? "" : "000", 1844674407370955161ULL,
				rnd_below(10));
		break;
	case 1:	/* any 64-bit value */
		len += snprintf(buf + len, size - len, "%llu", (unsigned long long)rnd());
		break;
	case 2:	/* long digit runs */
		n = rnd_below(30);
		for (i = 0; i < n && len < size - 1; i++)
			buf[len++] = '0' + rnd_below(10);
		break;
	default: /* small */
		len += snprintf(buf + len, size - len, "%u", rnd_below(1u << 24));
		break;
	}
	len += snprintf(buf + len, size - len, "%s", post[rnd_below(sizeof(post) / sizeof(post[0]))]);
	return len;
}

static void show(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0, i;

	for (i = 0; i < len && o + 5 < size; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c < 32 || c > 126)
			o += snprintf(out + o, size - o, "\\x%02x", c);
		else
			out[o++] = c;
	}
	out[o] = '\0';
}

/* one input of the sweep: 0 as expected, 1 not */
static int sweep_one(const char *path, const char *in, size_t len, unsigned long *acc,
		     unsigned long *einval, unsigned long *erange)
{
	unsigned long long before, after, want;
	char shown[160];
	int ret, exp;

	if (read_attr(path, &before))
		die("cannot read %s", path);
	exp = model(in, len, &want);
	ret = write_attr(path, in, len);
	if (read_attr(path, &after))
		die("cannot read %s", path);
	if (!exp) {
		(*acc)++;
	} else {
		want = before;
		if (exp == -EINVAL)
			(*einval)++;
		else
			(*erange)++;
	}
	if (ret == exp && after == want)
		return 0;
	show(in, len, shown, sizeof(shown));
	printf("sweep: WRONG: \"%s\": write %s (want %s), reads back %llu (want %llu)\n",
	       shown, ret ? strerror(-ret) : "ok", exp ? strerror(-exp) : "ok", after, want);
	return 1;
}

static int do_sweep(int argc, char **argv)
{
	unsigned long n = 5000, i, acc = 0, einval = 0, erange = 0, wrong = 0, tried = 0;
	unsigned long long orig, v = 0;
	char path[PATH_MAX], buf[96];
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		switch (opt) {
		case 'n': n = parse_num(optarg, "count", 10000000); break;
		case 's': rng_state = parse_num(optarg, "seed", LONG_MAX); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	snprintf(path, sizeof(path), BDI_CLASS "/%s/" KNOB, argv[optind]);
	ret = read_attr(path, &orig);
	if (ret)
		die("cannot read %s: %s (a kernel without the series?)", path, strerror(-ret));

	if (write_attr(path, "12345", 5))
		die("cannot write %s", path);
	for (i = 0; i < sizeof(fixed_inputs) / sizeof(fixed_inputs[0]); i++, tried++)
		wrong += sweep_one(path, fixed_inputs[i], strlen(fixed_inputs[i]), &acc, &einval, &erange);
	for (i = 0; i < n; i++, tried++) {
		size_t len;

		do	/* an empty write does not reach the attribute: below */
			len = gen_input(buf, sizeof(buf));
		while (!len);

		wrong += sweep_one(path, buf, len, &acc, &einval, &erange);
	}
	/* an empty write changes nothing */
	if (read_attr(path, &orig) == 0) {
		ret = write_attr(path, "", 0);

		if (ret || read_attr(path, &v) || v != orig) {
			printf("sweep: WRONG: an empty write: %s, reads back %llu (was %llu)\n",
			       ret ? strerror(-ret) : "ok", v, orig);
			wrong++;
		}
		tried++;
	}
	write_attr(path, "0", 1);
	printf("sweep: %s: %lu inputs tried: %lu accepted, %lu EINVAL, %lu ERANGE, 1 empty; %lu wrong\n",
	       argv[optind], tried, acc, einval, erange, wrong);
	return wrong ? 1 : 0;
}

/* the bdis of /sys/class/bdi now */
static int list_bdis(char names[][NAME_MAX + 1], int max)
{
	DIR *d = opendir(BDI_CLASS);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(names[n++], NAME_MAX + 1, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

static unsigned long long tagged_value(void)
{
	unsigned long long r;

	switch (rnd_below(4)) {
	case 0:
		return 0;
	case 1:	/* small: a few pages to a few MiB */
		return rnd_below(100) * TAG_MOD + TAG;
	case 2:	/* huge */
		r = ULLONG_MAX - rnd_below(1000) * TAG_MOD;
		return r - r % TAG_MOD + TAG - TAG_MOD;
	default:
		r = rnd();
		r -= r % TAG_MOD;
		return r + TAG < r ? r - TAG_MOD + TAG : r + TAG;
	}
}

struct attr_counts {
	unsigned long writes, bad_writes, reads, gone, wrong;
};

static void attr_worker(double end, struct attr_counts *c)
{
	char names[256][NAME_MAX + 1], path[PATH_MAX], buf[96];
	unsigned long long v;
	int n = 0, ret, exp;
	size_t len;

	while (now_s() < end) {
		if (!n || !rnd_below(50))
			n = list_bdis(names, 256);
		if (!n)
			continue;
		snprintf(path, sizeof(path), BDI_CLASS "/%s/" KNOB, names[rnd_below(n)]);
		if (rnd_below(3)) {
			len = snprintf(buf, sizeof(buf), "%llu%s", tagged_value(),
				       rnd_below(2) ? "\n" : "");
			ret = write_attr(path, buf, len);
			if (ret == -ENOENT || ret == -ENODEV) {
				c->gone++;
			} else if (ret) {
				printf("attr: WRONG: writing %.*s to %s: %s\n", (int)(len - 1), buf,
				       path, strerror(-ret));
				c->wrong++;
			}
			c->writes++;
		} else {
			do
				len = gen_input(buf, sizeof(buf));
			while (!len || !model(buf, len, &v));
			exp = model(buf, len, &v);
			ret = write_attr(path, buf, len);
			if (ret == -ENOENT || ret == -ENODEV) {
				c->gone++;
			} else if (ret != exp) {
				printf("attr: WRONG: a malformed input to %s: %s (want %s)\n",
				       path, ret ? strerror(-ret) : "accepted", strerror(-exp));
				c->wrong++;
			}
			c->bad_writes++;
		}
		ret = read_attr(path, &v);
		if (ret == -ENOENT || ret == -ENODEV) {
			c->gone++;
		} else if (ret) {
			printf("attr: WRONG: reading %s: %s\n", path, strerror(-ret));
			c->wrong++;
		} else if (v && v % TAG_MOD != TAG) {
			printf("attr: WRONG: %s reads back %llu, which no writer wrote\n", path, v);
			c->wrong++;
		}
		c->reads++;
	}
}

static int do_attr(int argc, char **argv)
{
	struct attr_counts *c, sum = { 0 };
	int procs = 4, secs = 30, opt, i, status, failed = 0;
	unsigned long long seed;
	pid_t pid;

	rng_state = 1;
	while ((opt = getopt(argc, argv, "t:p:s:")) != -1) {
		switch (opt) {
		case 't': secs = parse_num(optarg, "seconds", 86400); break;
		case 'p': procs = parse_num(optarg, "process count", MAX_PROCS); break;
		case 's': rng_state = parse_num(optarg, "seed", LONG_MAX); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	c = mmap(NULL, sizeof(*c) * procs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	memset(c, 0, sizeof(*c) * procs);
	seed = rng_state;
	for (i = 0; i < procs; i++) {
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			rng_state = seed * 1000003 + i + 1;
			setvbuf(stdout, NULL, _IOLBF, 0);
			attr_worker(now_s() + secs, &c[i]);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	for (i = 0; i < procs; i++) {
		sum.writes += c[i].writes;
		sum.bad_writes += c[i].bad_writes;
		sum.reads += c[i].reads;
		sum.gone += c[i].gone;
		sum.wrong += c[i].wrong;
	}
	printf("attr: %d processes, %d s: %lu writes, %lu malformed writes, %lu reads, "
	       "%lu on a bdi that had gone, %lu wrong, %d process(es) died\n",
	       procs, secs, sum.writes, sum.bad_writes, sum.reads, sum.gone, sum.wrong, failed);
	return sum.wrong || failed ? 1 : 0;
}

static void fill(unsigned char *buf, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		memcpy(buf + i, &seed, 8);
	}
}

static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

/* one cycle: 0 done, 1 data lost, -1 could not (counted, not fatal) */
static int loop_cycle(int ctl, const char *file, unsigned char *buf, unsigned char *back,
		      uint64_t seed)
{
	struct loop_config cfg = { 0 };
	char dev[64], knob[PATH_MAX], val[32];
	size_t chunk = 1 << 20, off;
	int n, lfd, bfd, tries, ret = 0;

	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (n < 0)
		return -1;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	for (tries = 0; (lfd = open(dev, O_RDWR)) < 0 && tries < 100; tries++)
		usleep(10000);
	if (lfd < 0)
		return -1;
	bfd = open(file, O_RDWR);
	if (bfd < 0) {
		close(lfd);
		return -1;
	}
	/* detached at the last close, after the page cache is written */
	cfg.fd = bfd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg)) {
		close(bfd);
		close(lfd);
		return -1;
	}
	snprintf(knob, sizeof(knob), "/sys/block/loop%d/bdi/" KNOB, n);
	/* 1 to 4 MiB, of the form the attr mode checks for */
	snprintf(val, sizeof(val), "%llu", (16 + rnd_below(48)) * TAG_MOD + TAG);
	write_attr(knob, val, strlen(val));
	for (off = 0; off < LOOP_WRITE_MIB << 20; off += chunk) {
		fill(buf, chunk, seed + off);
		if (pwrite(lfd, buf, chunk, off) != (ssize_t)chunk) {
			ret = -1;
			break;
		}
	}
	/* close with the pages still dirty: the last close writes them */
	close(lfd);
	for (tries = 0; ioctl(ctl, LOOP_CTL_REMOVE, n) && tries < 200; tries++)
		usleep(10000);
	if (ret == 0) {
		for (off = 0; off < LOOP_WRITE_MIB << 20; off += chunk) {
			fill(buf, chunk, seed + off);
			if (pread(bfd, back, chunk, off) != (ssize_t)chunk ||
			    memcmp(buf, back, chunk)) {
				printf("loops: WRONG: loop%d lost data at %zu MiB\n", n, off >> 20);
				ret = 1;
				break;
			}
		}
	}
	close(bfd);
	return ret;
}

static int do_loops(int argc, char **argv)
{
	unsigned long cycles = 0, failed = 0, lost = 0;
	unsigned char *buf, *back;
	char file[PATH_MAX];
	int secs = 30, opt, ctl, fd, ret;

	rng_state = 1;
	while ((opt = getopt(argc, argv, "t:s:")) != -1) {
		switch (opt) {
		case 't': secs = parse_num(optarg, "seconds", 86400); break;
		case 's': rng_state = parse_num(optarg, "seed", LONG_MAX); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	snprintf(file, sizeof(file), "%s/bdi-stress-loop.img", argv[optind]);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, LOOP_MIB << 20))
		die("cannot make %s: %s", file, strerror(errno));
	close(fd);
	ctl = open("/dev/loop-control", O_RDWR);
	if (ctl < 0)
		die("/dev/loop-control: %s", strerror(errno));
	buf = malloc(1 << 20);
	back = malloc(1 << 20);
	if (!buf || !back)
		die("out of memory");
	signal(SIGALRM, on_alarm);
	alarm(secs);
	while (!stop) {
		ret = loop_cycle(ctl, file, buf, back, rnd());
		if (ret < 0)
			failed++;
		else if (ret > 0)
			lost++;
		else
			cycles++;
	}
	unlink(file);
	printf("loops: %d s: %lu create/attach/write/detach/remove cycles, %lu incomplete, %lu lost data\n",
	       secs, cycles, failed, lost);
	return lost || !cycles ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage();
	rng_state = 1;
	if (!strcmp(argv[1], "sweep"))
		return do_sweep(argc - 1, argv + 1);
	if (!strcmp(argv[1], "attr"))
		return do_attr(argc - 1, argv + 1);
	if (!strcmp(argv[1], "loops"))
		return do_loops(argc - 1, argv + 1);
	usage();
	return 2;
}
