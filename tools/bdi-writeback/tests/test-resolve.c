// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TARGET resolution against the fake tree: bdi names, device nodes (by
 * their node when the tests run as root, else by the kernel's name),
 * paths on every kind of filesystem, and the failures.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bdiwb.h"
#include "fake.h"
#include "tests.h"

static struct fake fk;

static int setup(void **state)
{
	(void)state;
	fake_create(&fk, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_destroy(&fk);
	return 0;
}

/* expect: TARGET resolves to BDI, found as HOW */
static void expect(const char *target, const char *bdi, enum bw_how how)
{
	struct bw_ctx ctx;
	struct bw_target t;
	int r;

	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	r = bw_resolve(&ctx, target, &t);
	if (r)
		print_error("%s: exit %d: %s\n", target, r, ctx.err);
	assert_int_equal(r, 0);
	assert_string_equal(t.bdi, bdi);
	assert_int_equal(t.how, how);
	bw_ctx_free(&ctx);
}

/* refused: TARGET fails with CODE and a message containing WHY */
static void refused(const char *target, int code, const char *why)
{
	struct bw_ctx ctx;
	struct bw_target t;
	int r;

	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	r = bw_resolve(&ctx, target, &t);
	if (r != code || !strstr(ctx.err, why))
		print_error("%s: exit %d: %s\n", target, r, ctx.err);
	assert_int_equal(r, code);
	assert_non_null(strstr(ctx.err, why));
	bw_ctx_free(&ctx);
}

static void by_name(void **state)
{
	(void)state;
	expect("8:0", "8:0", BW_BY_NAME);
	expect("7:0", "7:0", BW_BY_NAME);
	expect("btrfs-1", "btrfs-1", BW_BY_NAME);
	expect("0:52", "0:52", BW_BY_NAME);
	expect("8:49-fuseblk", "8:49-fuseblk", BW_BY_NAME);
	refused("9:9", BW_EXIT_NOENT, "no such bdi, device or path");
	refused("..", BW_EXIT_NOENT, "");
	refused("", BW_EXIT_NOENT, "empty");
}

static void by_device_name(void **state)
{
	(void)state;
	/* no nodes in the fake /dev: the kernel's names in /sys/class/block */
	expect("/dev/sda", "8:0", BW_BY_DEVICE);
	expect("/dev/sda1", "8:0", BW_BY_DEVICE);	/* a partition: its disk's bdi */
	expect("/dev/sda2", "8:0", BW_BY_DEVICE);
	expect("/dev/sdb", "8:16", BW_BY_DEVICE);
	expect("/dev/sdd1", "8:48", BW_BY_DEVICE);
	expect("/dev/loop0", "7:0", BW_BY_DEVICE);
	expect("/dev/dm-0", "253:0", BW_BY_DEVICE);
	refused("/dev/sdz", BW_EXIT_NOENT, "no such bdi, device or path");
}

static void by_device_node(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();	/* mknod needs root */
	assert_int_equal(mknod(fake_path(&fk, "/dev/sdb1x"), S_IFBLK | 0600, makedev(8, 1)), 0);
	assert_int_equal(mknod(fake_path(&fk, "/dev/loop0x"), S_IFBLK | 0600, makedev(7, 0)), 0);
	assert_int_equal(mknod(fake_path(&fk, "/dev/nullx"), S_IFCHR | 0600, makedev(1, 3)), 0);
	assert_int_equal(mknod(fake_path(&fk, "/dev/orphan"), S_IFBLK | 0600, makedev(8, 200)), 0);
	fake_link(&fk, "/dev/disk/by-label/root", "../../sdb1x");
	expect("/dev/sdb1x", "8:0", BW_BY_DEVICE);
	expect("/dev/disk/by-label/root", "8:0", BW_BY_DEVICE);
	expect("/dev/loop0x", "7:0", BW_BY_DEVICE);
	refused("/dev/nullx", BW_EXIT_NOENT, "not a block device");
	refused("/dev/orphan", BW_EXIT_NOENT, "no block device 8:200");
}

static void by_path(void **state)
{
	(void)state;
	expect("/", "8:0", BW_BY_PATH);			/* ext4 on sda1 */
	expect("/home/user", "8:0", BW_BY_PATH);		/* ext4 on sda2 */
	expect("/mnt/data", "8:16", BW_BY_PATH);		/* xfs on a whole disk */
	expect("/mnt/data/dir/file.txt", "8:16", BW_BY_PATH);
	expect("/mnt/data/dir/../dir/./file.txt", "8:16", BW_BY_PATH);
	expect("/srv/bind", "8:16", BW_BY_PATH);		/* bind mount */
	expect("/mnt/pool", "btrfs-1", BW_BY_PATH);		/* btrfs: its own bdi */
	expect("/mnt/pool/x", "btrfs-1", BW_BY_PATH);
	expect("/mnt/sub vol", "btrfs-1", BW_BY_PATH);	/* subvolume, escaped name */
	expect("/mnt/nfs/a", "0:52", BW_BY_PATH);		/* NFS: the mount's device number */
	expect("/mnt/sshfs", "0:60", BW_BY_PATH);		/* FUSE */
	expect("/mnt/ntfs", "8:49-fuseblk", BW_BY_PATH);	/* fuseblk */
	expect("/mnt/loop", "7:0", BW_BY_PATH);		/* loop device */
	expect("/mnt/lv", "253:0", BW_BY_PATH);		/* device mapper */
}

/* the filesystems whose bdi super_setup_bdi() names "<type>-N" */
static void by_path_fs_own_bdi(void **state)
{
	(void)state;
	expect("/mnt/cifs", "cifs-2", BW_BY_PATH);
	expect("/srv/share-sub", "cifs-2", BW_BY_PATH);	/* its second mount */
	expect("/mnt/9p", "9p-3", BW_BY_PATH);
	expect("/afs", "afs-6", BW_BY_PATH);
	/* bcachefs: its own bdi, not its disk's (8:80), whose number it shows */
	expect("/mnt/bcachefs", "bcachefs-7", BW_BY_PATH);
	expect("/dev/sdf", "8:80", BW_BY_DEVICE);
	/* two Ceph filesystems, two bdis: nothing says which is whose */
	refused("/mnt/ceph1", BW_EXIT_AMBIGUOUS, "cannot tell which of ceph-4, ceph-5 holds");
	refused("/mnt/ceph2", BW_EXIT_AMBIGUOUS, "give the bdi's name");
	expect("ceph-5", "ceph-5", BW_BY_NAME);
}

static void kinds(void **state)
{
	static const struct {
		const char *target;
		enum bw_kind kind;
	} cases[] = {
		{ "/mnt/data", BW_KIND_DISK }, { "/dev/sda1", BW_KIND_DISK },
		{ "/mnt/pool", BW_KIND_FS }, { "/mnt/cifs", BW_KIND_FS },
		{ "/mnt/bcachefs", BW_KIND_FS }, { "/mnt/nfs", BW_KIND_ANON },
		{ "/mnt/sshfs", BW_KIND_ANON }, { "/mnt/ntfs", BW_KIND_FUSEBLK },
		{ "8:16", BW_KIND_DISK }, { "btrfs-1", BW_KIND_FS }, { "cifs-2", BW_KIND_FS },
		{ "0:52", BW_KIND_ANON }, { "8:49-fuseblk", BW_KIND_FUSEBLK },
	};
	struct bw_ctx ctx;
	struct bw_target t;
	size_t i;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(bw_resolve(&ctx, cases[i].target, &t), 0);
		if (t.kind != cases[i].kind)
			print_error("%s: kind %d\n", cases[i].target, t.kind);
		assert_int_equal(t.kind, cases[i].kind);
	}
	bw_ctx_free(&ctx);
}

static void devno_parsing(void **state)
{
	const char *rest;
	dev_t d;

	(void)state;
	assert_int_equal(bw_parse_devno("8:16\n", &d), 0);
	assert_true(d == makedev(8, 16));
	assert_int_equal(bw_parse_devno("259:0", &d), 0);
	assert_true(d == makedev(259, 0));
	assert_int_equal(bw_devno_prefix("8:49-fuseblk", &d, &rest), 0);
	assert_true(d == makedev(8, 49));
	assert_string_equal(rest, "-fuseblk");
	assert_int_equal(bw_parse_devno("8:49-fuseblk", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("8:16x", &d), -EINVAL);
	assert_int_equal(bw_parse_devno(" 8:16", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("-8:16", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("8:+16", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("8:", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("4294967296:0", &d), -EINVAL);
	assert_int_equal(bw_parse_devno("btrfs-1", &d), -EINVAL);
	assert_int_equal(bw_devno_prefix("btrfs-1", &d, &rest), -EINVAL);
}

static void by_path_mount_details(void **state)
{
	struct bw_ctx ctx;
	struct bw_target t;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	assert_int_equal(bw_resolve(&ctx, "/mnt/pool/x", &t), 0);
	assert_string_equal(t.mountpoint, "/mnt/pool");
	assert_int_equal(bw_resolve(&ctx, "/home/user", &t), 0);
	assert_string_equal(t.mountpoint, "/home");
	bw_ctx_free(&ctx);
}

static void without_writeback(void **state)
{
	(void)state;
	refused("/tmp", BW_EXIT_NOBDI, "/tmp (tmpfs) has no backing device");
	refused("/mnt/ram", BW_EXIT_NOBDI, "(ramfs) has no backing device");
	refused("/mnt/over", BW_EXIT_NOBDI, "upper layer");
	refused("/mnt/data/scratch", BW_EXIT_NOBDI, "(tmpfs)");	/* nested mount */
	refused("/mnt/stack", BW_EXIT_NOBDI, "(tmpfs)");		/* overmount: the top one */
}

/* mounts hidden under a later mount are not the path's */
static void hidden_mounts(void **state)
{
	struct bw_ctx ctx;
	struct bw_target t;

	(void)state;
	/* /mnt/cover/y (tmpfs) is hidden by the ext4 over /mnt/cover */
	expect("/mnt/cover/y", "8:0", BW_BY_PATH);
	expect("/mnt/cover", "8:0", BW_BY_PATH);
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	assert_int_equal(bw_resolve(&ctx, "/mnt/cover/y", &t), 0);
	assert_string_equal(t.mountpoint, "/mnt/cover");
	assert_string_equal(t.bdi, "8:0");		/* the ext4's, sda2 */
	/* a directory named like a mount point is not under it */
	assert_int_equal(bw_resolve(&ctx, "/mnt/databank", &t), 0);
	assert_string_equal(t.mountpoint, "/");
	bw_ctx_free(&ctx);
}

static void missing(void **state)
{
	(void)state;
	refused("/mnt/data/missing", BW_EXIT_NOENT, "no such bdi, device or path");
	refused("/mnt/data/dir/file.txt/x", BW_EXIT_NOENT, "");
	refused("/mnt/lost", BW_EXIT_FAILURE, "no filesystem in /sys/fs/btrfs has device /dev/sde");
}

static void whole_disk(void **state)
{
	struct bw_ctx ctx;
	char name[64];
	dev_t disk;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, fk.root), 0);
	assert_int_equal(bw_whole_disk(&ctx, makedev(8, 2), &disk, name, sizeof(name)), 0);
	assert_true(disk == makedev(8, 0));
	assert_string_equal(name, "sda");
	assert_int_equal(bw_whole_disk(&ctx, makedev(7, 0), &disk, name, sizeof(name)), 0);
	assert_true(disk == makedev(7, 0));
	assert_string_equal(name, "loop0");
	assert_int_equal(bw_whole_disk(&ctx, makedev(8, 99), &disk, name, sizeof(name)),
			 BW_EXIT_NOENT);
	bw_ctx_free(&ctx);
}

/* bw_prefix: the message with a prefix, cut to fit, nothing past its end */
static void prefix(void **state)
{
	struct bw_ctx ctx;
	char big[2000];
	size_t n;

	(void)state;
	memset(&ctx, 'Z', sizeof(ctx));
	strcpy(ctx.err, "no such thing");
	assert_int_equal(bw_prefix(&ctx, 3, "/mnt/x"), 3);
	assert_string_equal(ctx.err, "/mnt/x: no such thing");
	n = strlen(ctx.err);
	/* the bytes after the new end are as they were */
	assert_int_equal(ctx.err[n + 1], 'Z');
	assert_int_equal(ctx.err[sizeof(ctx.err) - 1], 'Z');
	/* too long: cut at the buffer's end */
	memset(big, 'p', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(bw_prefix(&ctx, 1, big), 1);
	assert_int_equal(strlen(ctx.err), sizeof(ctx.err) - 1);
	assert_int_equal(ctx.err[0], 'p');
}

static void sysroot_missing(void **state)
{
	struct bw_ctx ctx;

	(void)state;
	assert_int_equal(bw_ctx_init(&ctx, "/nonexistent/sysroot"), BW_EXIT_USAGE);
	assert_int_equal(bw_ctx_init(&ctx, "/"), 0);
	assert_string_equal(ctx.root, "");
}

int test_resolve(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_name),
		cmocka_unit_test(by_device_name),
		cmocka_unit_test(by_device_node),
		cmocka_unit_test(by_path),
		cmocka_unit_test(by_path_fs_own_bdi),
		cmocka_unit_test(kinds),
		cmocka_unit_test(devno_parsing),
		cmocka_unit_test(by_path_mount_details),
		cmocka_unit_test(without_writeback),
		cmocka_unit_test(hidden_mounts),
		cmocka_unit_test(missing),
		cmocka_unit_test(whole_disk),
		cmocka_unit_test(prefix),
		cmocka_unit_test(sysroot_missing),
	};

	return cmocka_run_group_tests_name("resolve", tests, setup, teardown);
}
