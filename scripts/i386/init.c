// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the 32-bit guest (scripts/i386-kselftest.sh): there is no shell
 * in it, only this program and the bdi kselftest, both static i386
 * binaries. Mount what the kselftest needs, run it with the console as its
 * output, report its exit status the way the workbench's guest-init does
 * ("@@VM-EXIT-STATUS@@ N") and power off.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void mnt(const char *src, const char *dir, const char *type, const char *opts)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, opts))
		perror(dir);
}

int main(void)
{
	char *const argv[] = { "/dirty_background_bytes", NULL };
	int fd, status = 0;
	pid_t pid;

	mnt("devtmpfs", "/dev", "devtmpfs", NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	mnt("proc", "/proc", "proc", NULL);
	mnt("sysfs", "/sys", "sysfs", NULL);
	mnt("debugfs", "/sys/kernel/debug", "debugfs", NULL);
	mnt("cgroup2", "/sys/fs/cgroup", "cgroup2", NULL);
	mnt("tmpfs", "/tmp", "tmpfs", "mode=1777");
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("guest-init: running the command\n");
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = 1 << 8;
	printf("\n@@VM-EXIT-STATUS@@ %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
