// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small but faithful system tree: SCSI disks with partitions, a loop
 * device, a device-mapper volume, a btrfs filesystem, an NFS and a FUSE
 * mount, fuseblk, tmpfs, ramfs and overlay, a bind mount, a nested mount and
 * an overmount, and the filesystems with a "<type>-N" bdi of their own
 * (super_setup_bdi()): CIFS mounted twice, 9p, AFS, bcachefs on a disk, and
 * two Ceph filesystems. Layout and file formats are those of Linux 6.12.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bdiwb.h"
#include "fake.h"

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fake tree: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

char *fake_path(const struct fake *f, const char *path)
{
	static char buf[PATH_MAX];

	xsnprintf(buf, sizeof(buf), "%s%s", f->root, path);
	return buf;
}

static void mkdir_p(const char *full)
{
	char buf[PATH_MAX], *p;

	xsnprintf(buf, sizeof(buf), "%s", full);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			die("mkdir", buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		die("mkdir", buf);
}

static void parent_dir(const char *full)
{
	char buf[PATH_MAX];

	xsnprintf(buf, sizeof(buf), "%s", full);
	*strrchr(buf, '/') = '\0';
	mkdir_p(buf);
}

void fake_mkdir(const struct fake *f, const char *path)
{
	mkdir_p(fake_path(f, path));
}

/* written whole and renamed into place: a reader never sees half of it */
void fake_file(const struct fake *f, const char *path, const char *content)
{
	char full[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *fp;

	xsnprintf(full, sizeof(full), "%s", fake_path(f, path));
	xsnprintf(tmp, sizeof(tmp), "%s.new", full);
	parent_dir(full);
	fp = fopen(tmp, "w");
	if (!fp)
		die("create", tmp);
	fputs(content, fp);
	if (fclose(fp))
		die("write", tmp);
	chmod(tmp, 0644);
	if (rename(tmp, full))
		die("rename", tmp);
}

void fake_link(const struct fake *f, const char *path, const char *target)
{
	char full[PATH_MAX];

	xsnprintf(full, sizeof(full), "%s", fake_path(f, path));
	parent_dir(full);
	unlink(full);
	if (symlink(target, full))
		die("symlink", full);
}

char *fake_read(const struct fake *f, const char *path)
{
	char buf[65536];
	FILE *fp = fopen(fake_path(f, path), "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return strdup(buf);
}

/* a block device: its sysfs directory, /sys/dev/block and /sys/class/block links */
static void blockdev(const struct fake *f, const char *dir, const char *name, const char *devno,
		     const char *parent)
{
	char p[PATH_MAX], t[PATH_MAX], v[64];

	if (parent)
		xsnprintf(p, sizeof(p), "%s/%s/%s", dir, parent, name);
	else
		xsnprintf(p, sizeof(p), "%s/%s", dir, name);
	xsnprintf(v, sizeof(v), "%s\n", devno);
	xsnprintf(t, sizeof(t), "%s/dev", p);
	fake_file(f, t, v);
	xsnprintf(t, sizeof(t), "%s/stat", p);
	fake_file(f, t, "    1000        0    80000      500     2000        0  1048576     9000        0     4000     9500        0        0        0        0      100       20\n");
	if (parent) {
		xsnprintf(t, sizeof(t), "%s/partition", p);
		fake_file(f, t, "1\n");
	}
	xsnprintf(t, sizeof(t), "/sys/dev/block/%s", devno);
	xsnprintf(v, sizeof(v), "../..%s", p + 4);	/* p starts with /sys */
	fake_link(f, t, v);
	xsnprintf(t, sizeof(t), "/sys/class/block/%s", name);
	fake_link(f, t, v);
}

/* a bdi's directory: 6.1 has no min_bytes, max_bytes or strict_limit */
static void bdi(const struct fake *f, const char *name, int patched)
{
	char p[PATH_MAX], t[PATH_MAX];

	if (patched != FAKE_61) {
		xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/min_bytes", name);
		fake_file(f, p, "0\n");
		xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/max_bytes", name);
		fake_file(f, p, "1073741824\n");
		xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/strict_limit", name);
		fake_file(f, p, "0\n");
	}
	xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/max_ratio", name);
	fake_file(f, p, "100\n");
	xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/read_ahead_kb", name);
	fake_file(f, p, "128\n");
	if (patched == FAKE_PATCHED) {
		xsnprintf(p, sizeof(p), "/sys/devices/virtual/bdi/%s/" BW_ATTR, name);
		fake_file(f, p, "0\n");
	}
	xsnprintf(p, sizeof(p), "/sys/class/bdi/%s", name);
	xsnprintf(t, sizeof(t), "../../devices/virtual/bdi/%s", name);
	fake_link(f, p, t);
}

static const char mountinfo[] =
	"20 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"21 20 0:20 / /tmp rw,nosuid,nodev shared:2 - tmpfs tmpfs rw\n"
	"22 20 8:16 / /mnt/data rw,relatime shared:3 - xfs /dev/sdb rw\n"
	"23 20 0:45 / /mnt/pool rw,relatime shared:4 - btrfs /dev/sdc rw,space_cache=v2,subvolid=5,subvol=/\n"
	"24 20 0:45 /sub /mnt/sub\\040vol rw,relatime shared:5 - btrfs /dev/sdc rw,subvolid=256,subvol=/sub\n"
	"25 20 0:52 / /mnt/nfs rw,relatime shared:6 - nfs4 server:/export rw,vers=4.2\n"
	"26 20 0:60 / /mnt/sshfs rw,nosuid,nodev shared:7 - fuse.sshfs user@host: rw,user_id=0\n"
	"27 20 8:49 / /mnt/ntfs rw,relatime shared:8 - fuseblk /dev/sdd1 rw,user_id=0\n"
	"28 20 7:0 / /mnt/loop rw,relatime shared:9 - ext4 /dev/loop0 rw\n"
	"29 20 253:0 / /mnt/lv rw,relatime shared:10 - ext4 /dev/mapper/vg-data rw\n"
	"30 20 0:21 / /mnt/ram rw,relatime shared:11 - ramfs ramfs rw\n"
	"31 20 8:2 / /home rw,relatime shared:12 - ext4 /dev/sda2 rw\n"
	"32 20 0:70 / /mnt/over rw,relatime shared:13 - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w\n"
	"33 22 0:22 / /mnt/data/scratch rw shared:14 - tmpfs tmpfs rw\n"
	"34 20 8:16 /dir /srv/bind rw,relatime shared:3 - xfs /dev/sdb rw\n"
	"35 20 8:16 / /mnt/stack rw,relatime shared:15 - xfs /dev/sdb rw\n"
	"36 35 0:23 / /mnt/stack rw shared:16 - tmpfs tmpfs rw\n"
	"37 20 0:46 / /mnt/lost rw,relatime shared:17 - btrfs /dev/sde rw\n"
	"38 20 0:80 / /mnt/cifs rw,relatime shared:18 - cifs //srv/share rw,vers=3.1.1\n"
	"39 20 0:80 /sub /srv/share-sub rw,relatime shared:18 - cifs //srv/share rw,vers=3.1.1\n"
	"40 20 0:81 / /mnt/9p rw,relatime shared:19 - 9p hostshare rw,trans=virtio\n"
	"41 20 0:82 / /mnt/ceph1 rw,relatime shared:20 - ceph 10.0.0.1:6789:/ rw,name=admin\n"
	"42 20 0:83 / /mnt/ceph2 rw,relatime shared:21 - ceph 10.0.0.1:6789:/b rw,name=admin\n"
	"43 20 0:84 / /afs rw,relatime shared:22 - afs none rw,dyn\n"
	"44 20 8:80 / /mnt/bcachefs rw,relatime shared:23 - bcachefs /dev/sdf rw\n"
	/* xfs on /mnt/cover, tmpfs on its y, then ext4 over /mnt/cover hiding both */
	"45 20 8:16 / /mnt/cover rw,relatime shared:24 - xfs /dev/sdb rw\n"
	"46 45 0:24 / /mnt/cover/y rw shared:25 - tmpfs tmpfs rw\n"
	"47 45 8:2 / /mnt/cover rw,relatime shared:26 - ext4 /dev/sda2 rw\n"
	/* a name that starts like another mount's */
	"48 20 8:16 / /mnt/data2 rw,relatime shared:27 - xfs /dev/sdb rw\n";

/* debugfs stats as 6.12 with the series prints them (values in kB) */
static const char stats_busy[] =
	"BdiWriteback:             8192 kB\n"
	"BdiReclaimable:          65536 kB\n"
	"BdiDirtyThresh:         400000 kB\n"
	"DirtyThresh:            400000 kB\n"
	"BackgroundThresh:       199680 kB\n"
	"BdiDirtied:             262144 kB\n"
	"BdiWritten:             196608 kB\n"
	"BdiWriteBandwidth:       16384 kBps\n"
	"b_dirty:                     3\n"
	"b_io:                        0\n"
	"b_more_io:                   1\n"
	"b_dirty_time:                0\n"
	"bdi_list:                    1\n"
	"state:                       1\n"
	"BdiBgBytesThresh:            0 kB\n";

static const char stats_idle[] =
	"BdiWriteback:                0 kB\n"
	"BdiReclaimable:              0 kB\n"
	"BdiDirtyThresh:              0 kB\n"
	"DirtyThresh:            400000 kB\n"
	"BackgroundThresh:       199680 kB\n"
	"BdiDirtied:             131072 kB\n"
	"BdiWritten:             131072 kB\n"
	"BdiWriteBandwidth:           0 kBps\n"
	"b_dirty:                     0\n"
	"b_io:                        0\n"
	"b_more_io:                   0\n"
	"b_dirty_time:                0\n"
	"bdi_list:                    1\n"
	"state:                       1\n";

static const char wb_stats_idle[] =
	"WbCgIno:                    1\n"
	"WbWriteback:                0 kB\n"
	"WbReclaimable:              0 kB\n"
	"WbDirtyThresh:              0 kB\n"
	"WbDirtied:             131072 kB\n"
	"WbWritten:             131072 kB\n"
	"WbWriteBandwidth:       40960 kBps\n"
	"b_dirty:                    0\n"
	"b_io:                       0\n"
	"b_more_io:                  0\n"
	"b_dirty_time:               0\n"
	"state:                      1\n"
	"\n";

static const char stats_new[] =
	"BdiWriteback:                0 kB\n"
	"BdiReclaimable:              0 kB\n"
	"BdiDirtyThresh:              0 kB\n"
	"DirtyThresh:            400000 kB\n"
	"BackgroundThresh:       199680 kB\n"
	"BdiDirtied:                  0 kB\n"
	"BdiWritten:                  0 kB\n"
	"BdiWriteBandwidth:           0 kBps\n";

static const char wb_stats_new[] =
	"WbCgIno:                    1\n"
	"WbWritten:                  0 kB\n"
	"WbWriteBandwidth:      102400 kBps\n"
	"\n";

void fake_create(struct fake *f, int patched)
{
	static const char *const dirs[] = {
		"/home/user", "/tmp", "/mnt/data/dir", "/mnt/data/scratch", "/mnt/pool/x",
		"/mnt/sub vol", "/mnt/nfs/a", "/mnt/sshfs", "/mnt/ntfs", "/mnt/loop", "/mnt/lv",
		"/mnt/ram", "/mnt/over", "/srv/bind", "/mnt/stack", "/mnt/lost", "/dev",
		"/sys/fs/btrfs/features", "/mnt/cifs", "/srv/share-sub", "/mnt/9p", "/mnt/ceph1",
		"/mnt/ceph2", "/afs", "/mnt/bcachefs", "/mnt/cover/y", "/mnt/databank",
	};
	const char *scsi = "/sys/devices/pci0000:00/0000:00:10.0/host0/block";
	const char *virt = "/sys/devices/virtual/block";
	size_t i;

	xsnprintf(f->root, sizeof(f->root), "%s/bdiwb-test.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(f->root))
		die("mkdtemp", f->root);
	chmod(f->root, 0755);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		fake_mkdir(f, dirs[i]);
	fake_file(f, "/mnt/data/dir/file.txt", "data\n");
	fake_file(f, "/proc/sys/kernel/osrelease", "6.12.117-test\n");
	fake_file(f, "/proc/self/mountinfo", mountinfo);

	blockdev(f, scsi, "sda", "8:0", NULL);
	blockdev(f, scsi, "sda1", "8:1", "sda");
	blockdev(f, scsi, "sda2", "8:2", "sda");
	blockdev(f, scsi, "sdb", "8:16", NULL);
	blockdev(f, scsi, "sdc", "8:32", NULL);
	blockdev(f, scsi, "sdd", "8:48", NULL);
	blockdev(f, scsi, "sdd1", "8:49", "sdd");
	blockdev(f, scsi, "sde", "8:64", NULL);
	blockdev(f, scsi, "sdf", "8:80", NULL);
	blockdev(f, virt, "loop0", "7:0", NULL);
	fake_file(f, "/sys/devices/virtual/block/loop0/loop/backing_file", "/var/lib/img\n");
	blockdev(f, virt, "dm-0", "253:0", NULL);
	fake_file(f, "/sys/devices/virtual/block/dm-0/dm/name", "vg-data\n");
	/* what each kind of disk has in sysfs */
	blockdev(f, virt, "md0", "9:0", NULL);
	fake_file(f, "/sys/devices/virtual/block/md0/md/level", "raid1\n");
	blockdev(f, virt, "zram0", "252:0", NULL);
	fake_file(f, "/sys/devices/virtual/block/zram0/comp_algorithm", "[lzo-rle] zstd\n");
	blockdev(f, virt, "nbd0", "43:0", NULL);
	blockdev(f, scsi, "sr0", "11:0", NULL);
	fake_file(f, "/sys/devices/pci0000:00/0000:00:10.0/host0/block/sr0/device/type", "5\n");
	blockdev(f, virt, "loop1", "7:1", NULL);	/* not bound: no loop/ */

	bdi(f, "7:0", patched);
	bdi(f, "8:0", patched);
	bdi(f, "8:16", patched);
	bdi(f, "8:32", patched);
	bdi(f, "8:48", patched);
	bdi(f, "8:49-fuseblk", patched);
	bdi(f, "8:64", patched);
	bdi(f, "253:0", patched);
	bdi(f, "btrfs-1", patched);
	bdi(f, "0:52", patched);
	bdi(f, "0:60", patched);
	bdi(f, "8:80", patched);
	bdi(f, "9:0", patched);
	bdi(f, "252:0", patched);
	bdi(f, "43:0", patched);
	bdi(f, "11:0", patched);
	bdi(f, "7:1", patched);
	/* super_setup_bdi(): "<type>-N", N counting every such bdi */
	bdi(f, "cifs-2", patched);
	bdi(f, "9p-3", patched);
	bdi(f, "ceph-4", patched);
	bdi(f, "ceph-5", patched);
	bdi(f, "afs-6", patched);
	bdi(f, "bcachefs-7", patched);

	/* btrfs on sdc; its fsid directory links its bdi and its devices */
	fake_link(f, "/sys/fs/btrfs/3b1f3c5e-7a0d-4e57-9d8a-0c9e4bd1f6a2/bdi",
		  "../../../devices/virtual/bdi/btrfs-1");
	fake_link(f, "/sys/fs/btrfs/3b1f3c5e-7a0d-4e57-9d8a-0c9e4bd1f6a2/devices/sdc",
		  "../../../../devices/pci0000:00/0000:00:10.0/host0/block/sdc");

	fake_file(f, "/sys/kernel/debug/bdi/8:16/stats", stats_busy);
	fake_file(f, "/sys/kernel/debug/bdi/btrfs-1/stats", stats_idle);
	fake_file(f, "/sys/kernel/debug/bdi/btrfs-1/wb_stats", wb_stats_idle);
	fake_file(f, "/sys/kernel/debug/bdi/7:0/stats", stats_new);
	fake_file(f, "/sys/kernel/debug/bdi/7:0/wb_stats", wb_stats_new);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fake_destroy(struct fake *f)
{
	if (f->root[0])
		nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	f->root[0] = '\0';
}

/* capture: run bw_main with fd 1 and 2 going to files */
static char *slurp(FILE *fp)
{
	char *buf;
	long n;

	fflush(fp);
	n = ftell(fp);
	buf = calloc(1, (size_t)n + 1);
	if (!buf)
		abort();
	rewind(fp);
	if (n > 0 && fread(buf, 1, (size_t)n, fp) != (size_t)n)
		abort();
	return buf;
}

int run_cli(char **out, char **err, const char *first, ...)
{
	char *argv[64];
	int argc = 0, r, save1, save2;
	FILE *fo = tmpfile(), *fe = tmpfile();
	const char *a;
	va_list ap;

	if (!fo || !fe)
		abort();
	argv[argc++] = (char *)"bdi-writeback";
	va_start(ap, first);
	for (a = first; a && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	save1 = dup(1);
	save2 = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	r = bw_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	if (out)
		*out = slurp(fo);
	if (err)
		*err = slurp(fe);
	fclose(fo);
	fclose(fe);
	return r;
}
