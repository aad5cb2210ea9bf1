// SPDX-License-Identifier: GPL-2.0
/*
 * net-hub: one Ethernet segment for QEMU guests on this host, carried over
 * unix datagram sockets in one folder; no network address is used.
 *
 *   net-hub [-b] [-i IDLE] DIR
 *
 * The hub binds DIR/hub.sock. Each guest's QEMU binds a socket of its own
 * in DIR, named guest-NAME.sock, and sends its frames to the hub:
 *
 *   -netdev dgram,id=net0,local.type=unix,local.path=DIR/guest-NAME.sock,
 *           remote.type=unix,remote.path=DIR/hub.sock
 *
 * Every frame the hub receives goes to every guest socket in DIR but the
 * sender's, as on a hub: a guest that has sent nothing yet still gets the
 * others' broadcasts (the hub watches DIR with inotify and reads it again
 * every second). A guest that reads more slowly than the others send gets
 * up to PORT_QUEUE_FRAMES frames (PORT_QUEUE_BYTES) queued in the hub, then
 * the frames for it are dropped, as a congested port drops them.
 *
 * A guest is present while its socket takes frames or while someone holds
 * the flock of DIR/guest-NAME.lock (scripts/vm-run.sh holds it for as long
 * as it runs the guest, boots again included). The hub exits with 0 on
 * SIGTERM, SIGINT or SIGHUP, and once no guest has been present for IDLE
 * seconds (default 10, counted from the start too). It decides to leave
 * while holding the flock of DIR/lock, which whoever starts a guest holds
 * while starting the hub and taking the guest's lock: a guest that joins
 * never finds a hub on its way out.
 *
 * -b: go to the background once the socket is bound: the command then
 * exits 0 and the hub is ready. DIR/hub.pid holds the hub's pid.
 *
 * Exit status: 0 as said; 2 bad usage; 3 a hub already runs on DIR (it
 * holds DIR/hub.lock); 4 the hub cannot be set up (folder, lock, socket,
 * inotify, fork); 5 a fatal error while forwarding. Errors are one line on
 * stderr; on exit the hub prints one line with its counts.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#define EXIT_USAGE	2
#define EXIT_RUNNING	3
#define EXIT_SETUP	4
#define EXIT_FATAL	5

#define MAX_PORTS		256
/* the largest frame QEMU sends or takes (its NET_BUFSIZE) */
#define FRAME_MAX		(4096 + 65536)
#define PORT_QUEUE_FRAMES	1024
#define PORT_QUEUE_BYTES	(1 << 20)
#define RECV_BATCH		64
#define TICK_MS			1000

struct frame {
	size_t len;
	unsigned char data[];
};

struct port {
	char name[NAME_MAX + 1];	/* guest-NAME.sock */
	dev_t dev;			/* the socket file connected to */
	ino_t ino;
	int fd;				/* connected to it; -1: not */
	bool seen;			/* found by the last scan */
	struct frame **q;		/* frames waiting for the guest */
	unsigned int head, count;
	size_t bytes;
	unsigned long long dropped;
};

struct hub {
	const char *dir;
	int dirfd, sock, ino, sig, lock;
	struct port ports[MAX_PORTS];
	unsigned int nports;
	unsigned int present;		/* guests found by the last scan */
	bool full_said;
	unsigned long long in, out, dropped;
};

static unsigned char buf[FRAME_MAX];

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("net-hub: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static bool named(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > 6 + s && !strncmp(name, "guest-", 6) &&
	       !strcmp(name + n - s, suffix);
}

/* DIR/NAME as a socket address; false when it does not fit */
static bool sock_addr(const struct hub *h, const char *name,
		      struct sockaddr_un *sa)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s", h->dir, name);
	return n > 0 && (size_t)n < sizeof(sa->sun_path);
}

static void port_flush_queue(struct port *p)
{
	while (p->count) {
		free(p->q[p->head]);
		p->head = (p->head + 1) % PORT_QUEUE_FRAMES;
		p->count--;
	}
	p->bytes = 0;
}

static void port_close(struct port *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	port_flush_queue(p);
}

/* connect a port to the socket file it names (st: what scan found) */
static void port_connect(struct hub *h, struct port *p, const struct stat *st)
{
	struct sockaddr_un sa;

	port_close(p);
	p->dev = st->st_dev;
	p->ino = st->st_ino;
	if (!sock_addr(h, p->name, &sa))
		return;
	p->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->fd < 0)
		die(EXIT_FATAL, "socket: %s", strerror(errno));
	/* refused: a socket file its guest left behind */
	if (connect(p->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(p->fd);
		p->fd = -1;
	}
}

/*
 * whether the guest still runs: a socket whose guest has closed it says so
 * only when sent to, but connecting to its file again is refused
 */
static void port_check(struct hub *h, struct port *p)
{
	struct sockaddr_un sa;

	if (!sock_addr(h, p->name, &sa) ||
	    connect(p->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		port_close(p);
}

static struct port *port_find(struct hub *h, const char *name)
{
	unsigned int i;

	for (i = 0; i < h->nports; i++)
		if (!strcmp(h->ports[i].name, name))
			return &h->ports[i];
	return NULL;
}

static struct port *port_add(struct hub *h, const char *name)
{
	struct port *p;

	if (h->nports == MAX_PORTS) {
		if (!h->full_said)
			fprintf(stderr, "net-hub: more than %d guests in %s; %s and later ones left out\n",
				MAX_PORTS, h->dir, name);
		h->full_said = true;
		return NULL;
	}
	p = &h->ports[h->nports];
	memset(p, 0, sizeof(*p));
	p->q = calloc(PORT_QUEUE_FRAMES, sizeof(*p->q));
	if (!p->q)
		die(EXIT_FATAL, "out of memory");
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->fd = -1;
	h->nports++;
	return p;
}

/* whether someone holds the flock of DIR/NAME */
static bool lock_held(const struct hub *h, const char *name)
{
	int fd = openat(h->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool held;

	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/*
 * Read DIR: a port for every guest socket (connected again when the file
 * is another socket than before), none for those gone; count the guests
 * present.
 */
static void scan(struct hub *h)
{
	unsigned int i, j, locks = 0, socks = 0;
	struct dirent *e;
	struct port *p;
	struct stat st;
	DIR *d;
	int fd;

	for (i = 0; i < h->nports; i++)
		h->ports[i].seen = false;
	fd = openat(h->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d)
		die(EXIT_FATAL, "cannot read %s: %s", h->dir, strerror(errno));
	while ((e = readdir(d))) {
		if (named(e->d_name, ".lock")) {
			locks += lock_held(h, e->d_name);
			continue;
		}
		if (!named(e->d_name, ".sock") ||
		    fstatat(h->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISSOCK(st.st_mode))
			continue;
		p = port_find(h, e->d_name);
		if (!p)
			p = port_add(h, e->d_name);
		if (!p)
			continue;
		p->seen = true;
		if (p->fd < 0 || p->dev != st.st_dev || p->ino != st.st_ino)
			port_connect(h, p, &st);
		else
			port_check(h, p);
	}
	closedir(d);
	for (i = 0, j = 0; i < h->nports; i++) {
		p = &h->ports[i];
		if (!p->seen) {
			port_close(p);
			free(p->q);
			continue;
		}
		socks += p->fd >= 0;
		if (i != j)
			h->ports[j] = *p;
		j++;
	}
	h->nports = j;
	h->present = locks > socks ? locks : socks;
}

static bool gone(int err)
{
	return err == ECONNREFUSED || err == ENOTCONN || err == ECONNRESET ||
	       err == EPIPE || err == ENOENT;
}

static bool busy(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS;
}

/* a send to a port failed with err: its guest has gone, or a frame is lost */
static void port_error(struct hub *h, struct port *p, int err)
{
	if (gone(err)) {
		port_close(p);
		return;
	}
	fprintf(stderr, "net-hub: sending to %s/%s: %s; frame dropped\n",
		h->dir, p->name, strerror(err));
}

/* send what waits for a port, in order, until the guest takes no more */
static void port_drain(struct hub *h, struct port *p)
{
	struct frame *f;

	while (p->count && p->fd >= 0) {
		f = p->q[p->head];
		if (send(p->fd, f->data, f->len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			if (busy(errno))
				return;
			port_error(h, p, errno);
			if (p->fd < 0)
				return;
		} else {
			h->out++;
		}
		p->head = (p->head + 1) % PORT_QUEUE_FRAMES;
		p->count--;
		p->bytes -= f->len;
		free(f);
	}
}

static void port_queue(struct hub *h, struct port *p, const void *data, size_t len)
{
	struct frame *f;

	if (p->count == PORT_QUEUE_FRAMES || p->bytes + len > PORT_QUEUE_BYTES) {
		p->dropped++;
		h->dropped++;
		return;
	}
	f = malloc(sizeof(*f) + len);
	if (!f)
		die(EXIT_FATAL, "out of memory");
	f->len = len;
	memcpy(f->data, data, len);
	p->q[(p->head + p->count) % PORT_QUEUE_FRAMES] = f;
	p->count++;
	p->bytes += len;
}

static void port_send(struct hub *h, struct port *p, const void *data, size_t len)
{
	if (p->count) {
		port_queue(h, p, data, len);
		return;
	}
	if (send(p->fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
		h->out++;
		return;
	}
	if (busy(errno))
		port_queue(h, p, data, len);
	else
		port_error(h, p, errno);
}

/* every frame waiting on the hub's socket, to every port but the sender's */
static bool receive(struct hub *h)
{
	struct sockaddr_un from;
	bool unknown = false;
	const char *sender;
	socklen_t fromlen;
	unsigned int i, n;
	size_t plen;
	ssize_t len;

	for (n = 0; n < RECV_BATCH; n++) {
		fromlen = sizeof(from);
		len = recvfrom(h->sock, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
			       (struct sockaddr *)&from, &fromlen);
		if (len < 0) {
			if (busy(errno) || errno == EINTR)
				break;
			die(EXIT_FATAL, "receiving on %s/hub.sock: %s", h->dir, strerror(errno));
		}
		h->in++;
		if ((size_t)len > sizeof(buf)) {
			h->dropped++;
			continue;
		}
		/* an unnamed sender is no port; a named one is DIR/NAME */
		sender = "";
		plen = fromlen > offsetof(struct sockaddr_un, sun_path) ?
		       fromlen - offsetof(struct sockaddr_un, sun_path) : 0;
		if (plen && from.sun_path[0]) {
			if (plen > sizeof(from.sun_path) - 1)
				plen = sizeof(from.sun_path) - 1;
			from.sun_path[plen] = '\0';
			sender = strrchr(from.sun_path, '/');
			sender = sender ? sender + 1 : from.sun_path;
			if (named(sender, ".sock") && !port_find(h, sender))
				unknown = true;
		}
		for (i = 0; i < h->nports; i++)
			if (h->ports[i].fd >= 0 && strcmp(h->ports[i].name, sender))
				port_send(h, &h->ports[i], buf, len);
	}
	return unknown;
}

static void write_pid(struct hub *h, pid_t pid)
{
	char s[32];
	int fd, n;

	n = snprintf(s, sizeof(s), "%d\n", (int)pid);
	fd = openat(h->dirfd, "hub.pid", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, s, n) != n)
		die(EXIT_SETUP, "cannot write %s/hub.pid: %s", h->dir, strerror(errno));
	close(fd);
}

static void leave(struct hub *h, const char *why)
{
	unlinkat(h->dirfd, "hub.sock", 0);
	unlinkat(h->dirfd, "hub.pid", 0);
	printf("net-hub: %s: %s; %llu frames in, %llu sent, %llu dropped\n",
	       h->dir, why, h->in, h->out, h->dropped);
	exit(0);
}

/*
 * No guest for the idle time: leave, unless a guest is joining (DIR/lock
 * held) or came since the last scan.
 */
static void idle(struct hub *h)
{
	if (flock(h->lock, LOCK_EX | LOCK_NB) < 0)
		return;
	scan(h);
	if (!h->present)
		leave(h, "no guest left");
	flock(h->lock, LOCK_UN);
}

static void setup(struct hub *h, bool background)
{
	struct sockaddr_un sa;
	sigset_t set;
	pid_t pid;
	int fd;

	h->dirfd = open(h->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->dirfd < 0)
		die(EXIT_SETUP, "cannot open the folder %s: %s", h->dir, strerror(errno));
	fd = openat(h->dirfd, "hub.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die(EXIT_SETUP, "cannot open %s/hub.lock: %s", h->dir, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			die(EXIT_RUNNING, "a hub already runs on %s", h->dir);
		die(EXIT_SETUP, "cannot lock %s/hub.lock: %s", h->dir, strerror(errno));
	}
	h->lock = openat(h->dirfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (h->lock < 0)
		die(EXIT_SETUP, "cannot open %s/lock: %s", h->dir, strerror(errno));

	if (!sock_addr(h, "hub.sock", &sa))
		die(EXIT_SETUP, "%s/hub.sock: path too long for a unix socket (%zu bytes at most)",
		    h->dir, sizeof(sa.sun_path) - 1);
	h->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->sock < 0)
		die(EXIT_SETUP, "socket: %s", strerror(errno));
	/* what a hub that died left (hub.lock is ours) */
	unlinkat(h->dirfd, "hub.sock", 0);
	if (bind(h->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(EXIT_SETUP, "cannot bind %s: %s", sa.sun_path, strerror(errno));

	h->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (h->ino < 0 ||
	    inotify_add_watch(h->ino, h->dir, IN_CREATE | IN_DELETE | IN_MOVED_FROM |
			      IN_MOVED_TO | IN_ONLYDIR) < 0)
		die(EXIT_SETUP, "cannot watch %s: %s", h->dir, strerror(errno));

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		die(EXIT_SETUP, "sigprocmask: %s", strerror(errno));
	h->sig = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (h->sig < 0)
		die(EXIT_SETUP, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);

	if (!background) {
		write_pid(h, getpid());
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		unlinkat(h->dirfd, "hub.sock", 0);
		die(EXIT_SETUP, "fork: %s", strerror(errno));
	}
	if (pid > 0) {
		/* the child holds the same locks and socket: it is the hub */
		write_pid(h, pid);
		_exit(0);
	}
	setsid();
}

static void bad_usage(void)
{
	fputs("usage: net-hub [-b] [-i IDLE_SECONDS] DIR\n", stderr);
	exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
	static struct hub hub = { .dirfd = -1, .sock = -1 };
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct pollfd pfd[3 + MAX_PORTS];
	struct port *pfd_port[3 + MAX_PORTS];
	struct signalfd_siginfo si;
	long long last_present, next_tick, t;
	struct hub *h = &hub;
	bool background = false, rescan;
	unsigned int i, n;
	long idle_s = 10;
	char *end;
	int opt;

	/*
	 * nothing of the caller's but stdin, stdout and stderr: a lock held
	 * here would outlive whoever took it
	 */
	closefrom(3);
	while ((opt = getopt(argc, argv, "bi:")) != -1) {
		switch (opt) {
		case 'b':
			background = true;
			break;
		case 'i':
			errno = 0;
			idle_s = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || idle_s < 1 || idle_s > 86400)
				die(EXIT_USAGE, "bad idle time '%s' (1 to 86400 seconds)", optarg);
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc - 1)
		bad_usage();
	h->dir = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup(h, background);

	scan(h);
	last_present = now_ms();
	next_tick = last_present + TICK_MS;
	for (;;) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = h->sig, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = h->ino, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = h->sock, .events = POLLIN };
		for (i = 0; i < h->nports; i++) {
			if (h->ports[i].fd < 0 || !h->ports[i].count)
				continue;
			pfd_port[n] = &h->ports[i];
			pfd[n++] = (struct pollfd){ .fd = h->ports[i].fd, .events = POLLOUT };
		}
		t = next_tick - now_ms();
		if (poll(pfd, n, t < 0 ? 0 : (int)t) < 0) {
			if (errno == EINTR)
				continue;
			die(EXIT_FATAL, "poll: %s", strerror(errno));
		}
		if (pfd[0].revents && read(h->sig, &si, sizeof(si)) == sizeof(si))
			leave(h, strsignal(si.ssi_signo));

		rescan = false;
		if (pfd[1].revents) {
			while (read(h->ino, ev, sizeof(ev)) > 0)
				;
			rescan = true;
		}
		/* ports first: a scan moves them */
		for (i = 3; i < n; i++)
			if (pfd[i].revents)
				port_drain(h, pfd_port[i]);
		if (rescan)
			scan(h);
		if (pfd[2].revents && receive(h))
			scan(h);

		t = now_ms();
		if (t >= next_tick) {
			next_tick = t + TICK_MS;
			scan(h);
			if (h->present)
				last_present = t;
			else if (t - last_present >= idle_s * 1000)
				idle(h);
		}
	}
}
