// SPDX-License-Identifier: GPL-2.0
// guest-pkg: fuse3
/*
 * stall-fuse: a FUSE filesystem whose writes can be stalled, for the
 * no-progress test. It passes every file through to a folder (BACKING) and
 * asks the kernel for the writeback cache, so that written data becomes
 * dirty page cache of the mount's bdi and reaches the daemon as writeback.
 *
 *   stall-fuse BACKING MOUNTPOINT [KBPS]
 *
 * KBPS (default: no limit) makes the daemon a slow device: its WRITE
 * requests are served one at a time, each taking its size / KBPS, so that
 * the kernel's background requests reach the channel's congestion
 * threshold and drain again, as on a slow FUSE mount in normal running.
 *
 * SIGUSR1 stalls writes: every WRITE request then waits until SIGUSR2
 * resumes them. While the daemon holds the kernel's background requests,
 * fuse_writepages() finds the channel congested and skips WB_SYNC_NONE
 * writeback: the context stays over a small threshold whatever background
 * writeback does. The daemon runs in the foreground, multithreaded, until
 * the mount is unmounted or it gets SIGTERM; it prints "stall-fuse:
 * stalled" and "stall-fuse: resumed, N writes held" (the WRITE requests
 * that waited for the resume) as it changes state.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int backing = -1;	/* the backing folder, opened */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t resume = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t stalled;
static unsigned long held;	/* WRITE requests held since the last stall */
static unsigned long kbps;	/* write speed, 0: no limit */
static pthread_mutex_t pace = PTHREAD_MUTEX_INITIALIZER;

/* a path below the mount, as one relative to the backing folder */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	if (conn->capable & FUSE_CAP_WRITEBACK_CACHE)
		conn->want |= FUSE_CAP_WRITEBACK_CACHE;
	cfg->kernel_cache = 1;
	cfg->use_ino = 0;
	return NULL;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	int ret = fi ? fstat(fi->fh, st) : fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW);

	return ret ? -errno : 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct dirent *de;
	DIR *d;
	int fd;

	(void)off, (void)fi, (void)flags;
	fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d)))
		if (fill(buf, de->d_name, NULL, 0, 0))
			break;
	closedir(d);
	return 0;
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	/* the writeback cache reads pages back: never write-only */
	int fd = openat(backing, rel(path), (fi->flags & ~O_ACCMODE) | O_RDWR | O_CREAT, mode);

	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	int flags = fi->flags & ~O_APPEND;
	int fd;

	if ((flags & O_ACCMODE) == O_WRONLY)
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	fd = openat(backing, rel(path), flags);
	if (fd < 0)
		return -errno;
	fi->fh = fd;
	return 0;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	ssize_t n = pread(fi->fh, buf, size, off);

	(void)path;
	return n < 0 ? -errno : (int)n;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	pthread_mutex_lock(&lock);
	if (stalled)
		held++;
	while (stalled)
		pthread_cond_wait(&resume, &lock);
	pthread_mutex_unlock(&lock);
	if (kbps) {
		pthread_mutex_lock(&pace);
		usleep((useconds_t)(size * 1000000ULL / (kbps * 1024)));
		n = pwrite(fi->fh, buf, size, off);
		pthread_mutex_unlock(&pace);
	} else {
		n = pwrite(fi->fh, buf, size, off);
	}
	return n < 0 ? -errno : (int)n;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	int ret;

	if (fi)
		ret = ftruncate(fi->fh, size);
	else {
		int fd = openat(backing, rel(path), O_WRONLY);

		if (fd < 0)
			return -errno;
		ret = ftruncate(fd, size);
		close(fd);
	}
	return ret ? -errno : 0;
}

/* the writeback cache sends the file's times with its last writes */
static int fs_utimens(const char *path, const struct timespec ts[2],
		      struct fuse_file_info *fi)
{
	int ret = fi ? futimens(fi->fh, ts) : utimensat(backing, rel(path), ts, 0);

	return ret ? -errno : 0;
}

static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int ret = fi ? fchmod(fi->fh, mode) : fchmodat(backing, rel(path), mode, 0);

	return ret ? -errno : 0;
}

static int fs_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return 0;
}

static int fs_unlink(const char *path)
{
	return unlinkat(backing, rel(path), 0) ? -errno : 0;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	return (datasync ? fdatasync(fi->fh) : fsync(fi->fh)) ? -errno : 0;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close(fi->fh);
	return 0;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.create = fs_create,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.utimens = fs_utimens,
	.chmod = fs_chmod,
	.flush = fs_flush,
	.unlink = fs_unlink,
	.fsync = fs_fsync,
	.release = fs_release,
};

/* Signals are taken by a thread of their own, which can use the condition. */
static void *signals(void *arg)
{
	sigset_t *set = arg;
	unsigned long n;
	int sig;

	for (;;) {
		if (sigwait(set, &sig))
			continue;
		pthread_mutex_lock(&lock);
		stalled = sig == SIGUSR1;
		if (stalled)
			held = 0;
		else
			pthread_cond_broadcast(&resume);
		n = held;
		pthread_mutex_unlock(&lock);
		if (sig == SIGUSR1)
			fprintf(stderr, "stall-fuse: stalled\n");
		else
			fprintf(stderr, "stall-fuse: resumed, %lu writes held\n", n);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char *args[] = { argv[0], "-f", "-o", "fsname=stall-fuse", NULL, NULL };
	static sigset_t set;
	pthread_t t;

	char *end;

	if (argc == 4) {
		errno = 0;
		kbps = strtoul(argv[3], &end, 10);
		if (errno || end == argv[3] || *end || !kbps || kbps > 1048576) {
			fprintf(stderr, "stall-fuse: bad KBPS '%s' (1 to 1048576)\n", argv[3]);
			return 2;
		}
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: stall-fuse BACKING MOUNTPOINT [KBPS]\n");
		return 2;
	}
	backing = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (backing < 0) {
		fprintf(stderr, "stall-fuse: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* blocked in every thread, taken by signals() alone */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (pthread_create(&t, NULL, signals, &set)) {
		fprintf(stderr, "stall-fuse: cannot start the signal thread\n");
		return 1;
	}
	args[4] = argv[2];
	return fuse_main(5, args, &ops, NULL);
}
