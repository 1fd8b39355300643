/*
 * Suite "fd": the file side of the process ABI (kernel/fs): descriptor
 * tables and the descriptor calls that take no user pointers (dup, dup2,
 * dup3, fcntl, ioctl's FIOCLEX, lseek, close), symbolic links in path
 * walks, *at() walks from a descriptor, the directory names getcwd
 * returns, pipes (blocking, non-blocking, end of file, broken pipe,
 * poll), devtmpfs with the memory devices, statfs and chmod; making
 * names (symlink, link, mknod) on tmpfs and on the ext2 root with every
 * error; and select, pselect6 and ppoll on pipes.
 *
 * The calls that take user pointers (select's sets and timeouts, the
 * *link* calls) run with the address space, descriptor table and signal
 * actions user_task.h lends the test task for the case.
 *
 * The test task is the boot task, a kernel thread: each case that needs
 * descriptors gives it a table of its own (dup_fd(NULL)) and takes it
 * away at the end.  Symlinks come from "symtest", a read-only filesystem
 * defined here and mounted on /tmp/fd-sym (mount_root mounts the tmpfs on
 * /tmp when tests run): a root with a directory, a file and links of
 * every kind, among them a chain c0 -> c1 -> ... -> c40 -> file, so that
 * c1 needs exactly MAXSYMLINKS links and c0 one too many.  devtmpfs is
 * mounted on /tmp/fd-dev.  Both mounts stay (there is no umount), as the
 * tmpfs suite's /tmp/small does.
 */
#include <asm/uaccess.h>
#include <fs/devfs.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <mm/slab.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/signal.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <pageturn/time.h>
#include <uapi/errno.h>
#include <uapi/ioctls.h>
#include <uapi/magic.h>
#include <uapi/select.h>
#include <uapi/time.h>

#include "user_task.h"

#define SYM_MNT		"/tmp/fd-sym"
#define DEV_MNT		"/tmp/fd-dev"
#define SYM_ROOT_INO	1
#define SYM_DIR_INO	2
#define SYM_FILE_INO	3
#define SYM_CHAIN	40		/* c0 .. c40 */
#define SYM_CHAIN_INO	100		/* c<i> is inode 100 + i */

/* --- symtest: a filesystem of symlinks -------------------------------------------- */

static const struct {
	const char *name;
	const char *target;
} sym_links[] = {
	{ "to_dir", "dir" },
	{ "to_file", "file" },
	{ "abs", "/etc" },
	{ "loop", "loop" },
	{ "dangling", "nothing" },
	{ "to_up", "dir/.." },
	{ "empty", "" },
	{ "deep", "to_dir/../to_file" },
};
#define SYM_LINK_INO(i)	(10 + (i))

static const struct inode_operations sym_dir_iops;
static const struct inode_operations sym_link_iops;
static const struct file_operations sym_dir_fops;

static int sym_read_inode(struct inode *inode)
{
	uint64_t ino = inode->i_ino;

	inode->i_nlink = 1;
	if (ino == SYM_ROOT_INO || ino == SYM_DIR_INO) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &sym_dir_iops;
		inode->i_fop = &sym_dir_fops;
	} else if (ino == SYM_FILE_INO) {
		inode->i_mode = S_IFREG | 0444;
	} else if ((ino >= SYM_LINK_INO(0) && ino < SYM_LINK_INO(ARRAY_SIZE(sym_links))) ||
		   (ino >= SYM_CHAIN_INO && ino <= SYM_CHAIN_INO + SYM_CHAIN)) {
		inode->i_mode = S_IFLNK | 0777;
		inode->i_op = &sym_link_iops;
	} else {
		return -ENOENT;
	}
	return 0;
}

static void sym_evict_inode(struct inode *inode)
{
	(void)inode;
}

static const struct super_operations sym_sops = {
	.read_inode = sym_read_inode,
	.evict_inode = sym_evict_inode,
};

/* "c<number>" in range: the number, else -1. */
static int chain_index(const char *name)
{
	int n = 0;

	if (name[0] != 'c' || !name[1])
		return -1;
	for (name++; *name; name++) {
		if (*name < '0' || *name > '9')
			return -1;
		n = n * 10 + (*name - '0');
	}
	return n <= SYM_CHAIN ? n : -1;
}

static int sym_lookup(struct inode *dir, const char *name, struct inode **res)
{
	size_t i;
	int c;

	if (dir->i_ino == SYM_DIR_INO)
		return strcmp(name, "..") == 0 ? iget(dir->i_sb, SYM_ROOT_INO, res) : -ENOENT;
	if (strcmp(name, "dir") == 0)
		return iget(dir->i_sb, SYM_DIR_INO, res);
	if (strcmp(name, "file") == 0)
		return iget(dir->i_sb, SYM_FILE_INO, res);
	for (i = 0; i < ARRAY_SIZE(sym_links); i++)
		if (strcmp(name, sym_links[i].name) == 0)
			return iget(dir->i_sb, SYM_LINK_INO(i), res);
	c = chain_index(name);
	return c < 0 ? -ENOENT : iget(dir->i_sb, SYM_CHAIN_INO + c, res);
}

static int sym_readlink(struct inode *inode, char *buf, size_t len)
{
	char chain[8];
	const char *target;
	size_t n;

	if (inode->i_ino == SYM_CHAIN_INO + SYM_CHAIN) {
		target = "file";
	} else if (inode->i_ino >= SYM_CHAIN_INO) {
		snprintf(chain, sizeof(chain), "c%u", (unsigned int)(inode->i_ino - SYM_CHAIN_INO + 1));
		target = chain;
	} else {
		target = sym_links[inode->i_ino - SYM_LINK_INO(0)].target;
	}
	n = MIN(strlen(target), len);
	memcpy(buf, target, n);
	return n;
}

/* The root lists "dir" and "file" only: enough for getcwd. */
static int sym_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	static const char *const names[] = { "dir", "file" };

	for (; file->f_pos >= 0 && file->f_pos < 2 && file->f_inode->i_ino == SYM_ROOT_INO;
	     file->f_pos++)
		if (filldir(ctx, names[file->f_pos], strlen(names[file->f_pos]),
			    SYM_DIR_INO + file->f_pos, file->f_pos ? DT_REG : DT_DIR))
			break;
	return 0;
}

static const struct inode_operations sym_dir_iops = { .lookup = sym_lookup };
static const struct inode_operations sym_link_iops = { .readlink = sym_readlink };
static const struct file_operations sym_dir_fops = { .iterate = sym_iterate };

static int sym_fill_super(struct super_block *sb)
{
	sb->s_op = &sym_sops;
	return iget(sb, SYM_ROOT_INO, &sb->s_root);
}

static struct file_system_type sym_fs_type = { .name = "symtest", .mount = sym_fill_super };

/* Mount symtest on SYM_MNT, once per boot. */
static bool sym_mount(struct ktest *t)
{
	static bool mounted;
	int err;

	if (mounted)
		return true;
	KTEST_EXPECT_EQ(t, register_filesystem(&sym_fs_type), 0);
	err = vfs_mkdir(SYM_MNT, 0755);
	KTEST_EXPECT(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, do_mount("none", SYM_MNT, "symtest"), 0);
	mounted = !t->failures;
	return mounted;
}

/* --- helpers ---------------------------------------------------------------------- */

/* Give the test task a descriptor table; fd_end takes it away. */
static void fd_begin(void)
{
	current->files = dup_fd(NULL);
}

static void fd_end(void)
{
	put_files_struct(current->files);
	current->files = NULL;
}

static long st_ino(const char *path, bool follow)
{
	struct kstat st;
	int err = follow ? vfs_stat(path, &st) : vfs_lstat(path, &st);

	return err ? err : (long)st.ino;
}

/* --- cases -------------------------------------------------------------------------- */

KTEST(fd, symlinks)
{
	struct kstat st, etc;
	struct file *f = NULL;
	char buf[64];

	if (!sym_mount(t))
		return;
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_file", true), SYM_FILE_INO);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_file", false), SYM_LINK_INO(1));
	KTEST_EXPECT_EQ(t, vfs_lstat(SYM_MNT "/to_file", &st), 0);
	KTEST_EXPECT(t, S_ISLNK(st.mode));
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_dir", true), SYM_DIR_INO);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_dir/", false), SYM_DIR_INO);	/* a slash follows */
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_dir/..", true), SYM_ROOT_INO);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_file/", true), -ENOTDIR);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/to_up", true), SYM_ROOT_INO);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/deep", true), SYM_FILE_INO);
	/* An absolute target starts again at the root. */
	KTEST_EXPECT_EQ(t, vfs_stat("/etc", &etc), 0);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/abs", true), (long)etc.ino);
	KTEST_EXPECT_EQ(t, vfs_stat(SYM_MNT "/abs/hostname", &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 9);
	KTEST_EXPECT_EQ(t, vfs_stat(SYM_MNT "/to_dir/../abs/../etc/hostname", &st), 0);
	/* Errors. */
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/loop", true), -ELOOP);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/loop/x", false), -ELOOP);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/loop", false), SYM_LINK_INO(3));
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/dangling", true), -ENOENT);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/empty", true), -ENOENT);
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/c1", true), SYM_FILE_INO);	/* 40 links */
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/c0", true), -ELOOP);		/* 41 */
	KTEST_EXPECT_EQ(t, st_ino(SYM_MNT "/c0", false), SYM_CHAIN_INO);
	/* readlink reads the link itself. */
	memset(buf, 0, sizeof(buf));
	KTEST_EXPECT_EQ(t, vfs_readlink(SYM_MNT "/abs", buf, sizeof(buf)), 4);
	KTEST_EXPECT_STREQ(t, buf, "/etc");
	KTEST_EXPECT_EQ(t, vfs_readlink(SYM_MNT "/to_up", buf, 3), 3);
	KTEST_EXPECT_EQ(t, vfs_readlink(SYM_MNT "/file", buf, sizeof(buf)), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_readlink(SYM_MNT "/to_dir/", buf, sizeof(buf)), -EINVAL);
	/* open: O_NOFOLLOW, O_CREAT through a link, O_EXCL on a link. */
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/to_file", O_RDONLY | O_NOFOLLOW, 0, &f), -ELOOP);
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/to_file", O_RDONLY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, f->f_inode->i_ino, SYM_FILE_INO);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/to_dir", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	if (f)
		vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/to_file", O_RDONLY | O_CREAT | O_EXCL, 0644, &f),
			-EEXIST);
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/dangling", O_RDWR | O_CREAT, 0644, &f), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_open(SYM_MNT "/loop", O_RDWR | O_CREAT, 0644, &f), -ELOOP);
	/* unlink and rmdir see the link, not its target. */
	KTEST_EXPECT_EQ(t, vfs_rmdir(SYM_MNT "/to_dir"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_mkdir(SYM_MNT "/dangling", 0755), -EEXIST);
}

KTEST(fd, descriptor_table)
{
	struct files_struct *copy;
	struct file *f = NULL, *g;
	int fd, fd2;

	fd_begin();
	KTEST_EXPECT(t, current->files != NULL);
	if (!current->files)
		return;
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_RDONLY, 0, &f), 0);
	if (!f)
		goto out;
	fd = get_unused_fd_install(get_file(f), 0);	/* the test keeps its own reference */
	KTEST_EXPECT_EQ(t, fd, 0);
	KTEST_EXPECT_EQ(t, sys_dup(fd), 1);
	KTEST_EXPECT_EQ(t, f->f_count, 3);
	KTEST_EXPECT_EQ(t, sys_dup2(fd, 7), 7);
	KTEST_EXPECT_EQ(t, sys_dup2(7, 7), 7);
	KTEST_EXPECT_EQ(t, sys_dup2(5, 5), -EBADF);
	KTEST_EXPECT_EQ(t, sys_dup3(fd, fd, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_dup3(fd, 3, O_CLOEXEC), 3);
	KTEST_EXPECT_EQ(t, sys_dup3(fd, 4, O_RDWR), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_dup3(fd, NR_OPEN, 0), -EBADF);
	KTEST_EXPECT_EQ(t, sys_fcntl(3, F_GETFD, 0), FD_CLOEXEC);
	KTEST_EXPECT_EQ(t, sys_fcntl(7, F_GETFD, 0), 0);
	KTEST_EXPECT_EQ(t, sys_ioctl(7, FIOCLEX, 0), 0);
	KTEST_EXPECT_EQ(t, sys_fcntl(7, F_GETFD, 0), FD_CLOEXEC);
	KTEST_EXPECT_EQ(t, sys_fcntl(7, F_SETFD, 0), 0);
	KTEST_EXPECT_EQ(t, sys_fcntl(7, F_GETFD, 0), 0);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_DUPFD, 5), 5);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_DUPFD_CLOEXEC, 5), 6);
	KTEST_EXPECT_EQ(t, sys_fcntl(6, F_GETFD, 0), FD_CLOEXEC);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_DUPFD, NR_OPEN), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, 9999, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, f->f_count, 7);	/* 0 1 3 5 6 7 and ours */
	/* The status flags: only O_APPEND and O_NONBLOCK change. */
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_GETFL, 0), O_RDONLY);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_SETFL, O_NONBLOCK | O_APPEND | O_RDWR | O_TRUNC), 0);
	KTEST_EXPECT_EQ(t, sys_fcntl(1, F_GETFL, 0), O_NONBLOCK | O_APPEND);
	KTEST_EXPECT_EQ(t, sys_fcntl(fd, F_SETFL, 0), 0);
	/* Shared position. */
	KTEST_EXPECT_EQ(t, sys_lseek(fd, 4, SEEK_SET), 4);
	KTEST_EXPECT_EQ(t, sys_lseek(7, 0, SEEK_CUR), 4);
	KTEST_EXPECT_EQ(t, sys_lseek(7, 0, 99), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_lseek(99, 0, SEEK_SET), -EBADF);
	/* fork's copy shares the files and keeps close-on-exec. */
	copy = dup_fd(current->files);
	KTEST_EXPECT(t, copy != NULL);
	if (copy) {
		KTEST_EXPECT_EQ(t, f->f_count, 13);
		do_close_on_exec(copy);
		KTEST_EXPECT(t, copy->fd[3] == NULL && copy->fd[6] == NULL && copy->fd[7] == f);
		put_files_struct(copy);
		KTEST_EXPECT_EQ(t, f->f_count, 7);
	}
	/* Closing. */
	KTEST_EXPECT_EQ(t, sys_close(1), 0);
	KTEST_EXPECT_EQ(t, sys_close(1), -EBADF);
	KTEST_EXPECT_EQ(t, sys_close(NR_OPEN + 5), -EBADF);
	KTEST_EXPECT_EQ(t, sys_dup(fd), 1);	/* the lowest free again */
	g = fget(1);
	KTEST_EXPECT(t, g == f);
	if (g)
		fput(g);
	KTEST_EXPECT(t, fget(2) == NULL);
	/* Reserved but not installed: skipped by the next reservation. */
	fd2 = get_unused_fd_from(0, 0);
	KTEST_EXPECT_EQ(t, fd2, 2);
	KTEST_EXPECT_EQ(t, get_unused_fd_from(0, 0), 4);
	put_unused_fd(4);
	KTEST_EXPECT_EQ(t, sys_dup2(fd, fd2), -EBUSY);
	put_unused_fd(fd2);
	/* EMFILE. */
	for (fd2 = 0; fd2 < NR_OPEN * 2 && sys_dup(fd) >= 0; fd2++)
		;
	KTEST_EXPECT_EQ(t, sys_dup(fd), -EMFILE);
	KTEST_EXPECT_EQ(t, f->f_count, NR_OPEN + 1);
out:
	fd_end();
	if (f) {
		KTEST_EXPECT_EQ(t, f->f_count, 1);
		vfs_close(f);
	}
}

KTEST(fd, at_walks_and_cwd)
{
	struct inode *inode = NULL;
	struct file *f = NULL;
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	int dfd, ffd;

	if (!buf || !sym_mount(t))
		goto free;
	fd_begin();
	KTEST_EXPECT_EQ(t, vfs_open("/etc", O_RDONLY | O_DIRECTORY, 0, &f), 0);
	dfd = f ? get_unused_fd_install(f, 0) : -1;
	KTEST_EXPECT_EQ(t, vfs_open("/etc/hostname", O_RDONLY, 0, &f), 0);
	ffd = f ? get_unused_fd_install(f, 0) : -1;
	KTEST_EXPECT_EQ(t, path_lookupat(dfd, "hostname", LOOKUP_FOLLOW, &inode), 0);
	if (inode) {
		KTEST_EXPECT_EQ(t, inode->i_size, 9);
		iput(inode);
	}
	inode = NULL;
	KTEST_EXPECT_EQ(t, path_lookupat(ffd, "/etc/hostname", 0, &inode), 0);	/* absolute: dfd unused */
	if (inode)
		iput(inode);
	KTEST_EXPECT_EQ(t, path_lookupat(ffd, "x", 0, &inode), -ENOTDIR);
	KTEST_EXPECT_EQ(t, path_lookupat(99, "x", 0, &inode), -EBADF);
	KTEST_EXPECT_EQ(t, path_lookupat(dfd, "", 0, &inode), -ENOENT);
	inode = NULL;
	KTEST_EXPECT_EQ(t, path_lookupat(ffd, "", LOOKUP_EMPTY, &inode), 0);
	if (inode) {
		KTEST_EXPECT_EQ(t, inode->i_size, 9);
		iput(inode);
	}
	fd_end();

	/* getcwd's names, across mounts and symlinks. */
	KTEST_EXPECT_EQ(t, vfs_chdir("/"), 0);
	KTEST_EXPECT_EQ(t, vfs_dir_path(current_fs()->pwd, buf, PATH_MAX), 1);
	KTEST_EXPECT_STREQ(t, buf, "/");
	KTEST_EXPECT_EQ(t, vfs_chdir("/proc"), 0);
	KTEST_EXPECT_EQ(t, vfs_dir_path(current_fs()->pwd, buf, PATH_MAX), 5);
	KTEST_EXPECT_STREQ(t, buf, "/proc");
	KTEST_EXPECT_EQ(t, vfs_chdir(SYM_MNT "/to_dir"), 0);
	KTEST_EXPECT_EQ(t, vfs_dir_path(current_fs()->pwd, buf, PATH_MAX),
			strlen(SYM_MNT "/dir"));
	KTEST_EXPECT_STREQ(t, buf, SYM_MNT "/dir");
	KTEST_EXPECT_EQ(t, vfs_dir_path(current_fs()->pwd, buf, 5), -ERANGE);
	KTEST_EXPECT_EQ(t, st_ino("..", true), SYM_ROOT_INO);
	KTEST_EXPECT_EQ(t, vfs_chdir("/etc"), 0);
	KTEST_EXPECT_EQ(t, vfs_dir_path(current_fs()->pwd, buf, PATH_MAX), 4);
	KTEST_EXPECT_STREQ(t, buf, "/etc");
	KTEST_EXPECT_EQ(t, vfs_chdir("/"), 0);
free:
	kfree(buf);
}

struct pipe_writer {
	struct file *file;
	bool done;
};

static int late_writer(void *data)
{
	struct pipe_writer *w = data;

	msleep(30);
	vfs_write(w->file, "late", 4);
	vfs_close(w->file);
	w->done = true;
	return 0;
}

KTEST(fd, pipes)
{
	struct file *p[2] = { NULL, NULL };
	struct pipe_writer w = { NULL, false };
	struct task_struct *task;
	struct kstat st;
	char *buf = kmalloc(PIPE_BUF * 20, GFP_KERNEL);
	long n, total;

	if (!buf)
		return;
	KTEST_EXPECT_EQ(t, create_pipe_files(p, O_NONBLOCK), 0);
	if (!p[0])
		goto out;
	KTEST_EXPECT_EQ(t, vfs_fstat(p[0], &st), 0);
	KTEST_EXPECT(t, S_ISFIFO(st.mode));
	KTEST_EXPECT_EQ(t, vfs_llseek(p[0], 0, SEEK_SET), -ESPIPE);
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 10), -EAGAIN);
	KTEST_EXPECT_EQ(t, p[0]->f_op->poll(p[0], NULL), 0);
	KTEST_EXPECT_EQ(t, p[1]->f_op->poll(p[1], NULL), POLLOUT | POLLWRNORM);
	KTEST_EXPECT_EQ(t, vfs_write(p[1], "hello", 5), 5);
	KTEST_EXPECT_EQ(t, p[0]->f_op->poll(p[0], NULL), POLLIN | POLLRDNORM);
	KTEST_EXPECT_EQ(t, vfs_write(p[0], "x", 1), -EBADF);
	KTEST_EXPECT_EQ(t, vfs_read(p[1], buf, 1), -EBADF);
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 3), 3);
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf + 3, 100), 2);
	KTEST_EXPECT(t, memcmp(buf, "hello", 5) == 0);
	/* Fill it: 16 pages, then EAGAIN, and a PIPE_BUF write stays whole. */
	ktest_fill_pattern((uint8_t *)buf, 0, PIPE_BUF * 20);
	for (total = 0; (n = vfs_write(p[1], buf + total, PIPE_BUF)) > 0; total += n)
		;
	KTEST_EXPECT_EQ(t, n, -EAGAIN);
	KTEST_EXPECT_EQ(t, total, 16 * PIPE_BUF);
	KTEST_EXPECT_EQ(t, p[1]->f_op->poll(p[1], NULL), 0);
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf + PIPE_BUF * 16, PIPE_BUF - 1), PIPE_BUF - 1);
	KTEST_EXPECT_EQ(t, vfs_write(p[1], buf, PIPE_BUF), -EAGAIN);
	KTEST_EXPECT_EQ(t, vfs_write(p[1], buf, PIPE_BUF - 1), PIPE_BUF - 1);
	for (total = 0; (n = vfs_read(p[0], buf + PIPE_BUF * 16, PIPE_BUF)) > 0; total += n)
		;
	KTEST_EXPECT_EQ(t, total, 16 * PIPE_BUF - (PIPE_BUF - 1) + PIPE_BUF - 1);
	/* A blocking read is woken by a writer in another task. */
	p[0]->f_flags &= ~O_NONBLOCK;
	w.file = p[1];
	p[1] = NULL;
	task = kthread_create(late_writer, &w, "fd-writer");
	KTEST_EXPECT(t, task != NULL);
	if (task) {
		wake_up_process(task);
		memset(buf, 0, 8);
		KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 8), 4);
		KTEST_EXPECT(t, memcmp(buf, "late", 4) == 0);
		/* Then the writer closes: end of file. */
		KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 8), 0);
		KTEST_EXPECT_EQ(t, p[0]->f_op->poll(p[0], NULL), POLLHUP);
		while (!w.done)
			msleep(5);
	} else {
		vfs_close(w.file);
	}
	vfs_close(p[0]);
	/* The other way round: no readers, EPIPE (and SIGPIPE, which a
	 * kernel thread ignores). */
	KTEST_EXPECT_EQ(t, create_pipe_files(p, 0), 0);
	if (p[0]) {
		vfs_close(p[0]);
		KTEST_EXPECT_EQ(t, vfs_write(p[1], "x", 1), -EPIPE);
		KTEST_EXPECT_EQ(t, p[1]->f_op->poll(p[1], NULL), POLLOUT | POLLWRNORM | POLLERR);
		vfs_close(p[1]);
	}
out:
	kfree(buf);
}

KTEST(fd, devtmpfs_and_attrs)
{
	struct kstatfs sfs;
	struct inode *inode;
	struct file *f = NULL;
	struct kstat st;
	struct iattr attr = { .ia_valid = ATTR_MODE, .ia_mode = 0600 };
	char buf[16];
	int err;

	err = vfs_mkdir(DEV_MNT, 0755);
	KTEST_EXPECT(t, err == 0 || err == -EEXIST);
	if (!err)
		KTEST_EXPECT_EQ(t, do_mount("devtmpfs", DEV_MNT, "devtmpfs"), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(DEV_MNT "/null", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFCHR | 0666);
	KTEST_EXPECT_EQ(t, st.rdev, MKDEV(1, 3));
	KTEST_EXPECT_EQ(t, vfs_stat(DEV_MNT "/urandom", &st), 0);
	KTEST_EXPECT_EQ(t, st.rdev, MKDEV(1, 9));
	KTEST_EXPECT_EQ(t, vfs_stat(DEV_MNT "/nope", &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_open(DEV_MNT "/null", O_RDWR, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 0);
		KTEST_EXPECT_EQ(t, vfs_write(f, "gone", 4), 4);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_open(DEV_MNT "/zero", O_RDONLY, 0, &f), 0);
	if (f) {
		memset(buf, 1, sizeof(buf));
		KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), sizeof(buf));
		KTEST_EXPECT(t, buf[0] == 0 && buf[15] == 0);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_open(DEV_MNT "/full", O_WRONLY, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_write(f, "x", 1), -ENOSPC);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_open(DEV_MNT "/new", O_WRONLY | O_CREAT, 0644, &f), -EACCES);
	/* statfs magics. */
	inode = NULL;
	KTEST_EXPECT_EQ(t, path_lookup("/etc", &inode), 0);
	if (inode) {
		KTEST_EXPECT_EQ(t, vfs_statfs(inode, &sfs), 0);
		KTEST_EXPECT_EQ(t, sfs.f_type, 0xEF53);
		KTEST_EXPECT(t, sfs.f_blocks > 0 && sfs.f_bfree <= sfs.f_blocks);
		iput(inode);
	}
	inode = NULL;
	KTEST_EXPECT_EQ(t, path_lookup("/tmp", &inode), 0);
	if (inode) {
		KTEST_EXPECT_EQ(t, vfs_statfs(inode, &sfs), 0);
		KTEST_EXPECT_EQ(t, sfs.f_type, TMPFS_MAGIC);
		iput(inode);
	}
	/* chmod keeps the type; proc has no setattr. */
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/fd-mode", O_RDWR | O_CREAT | O_EXCL, 0644, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, notify_change(f->f_inode, &attr), 0);
		KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
		KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0600);
		KTEST_EXPECT_EQ(t, f->f_inode->i_mapping != NULL, 1);
		vfs_close(f);
		KTEST_EXPECT_EQ(t, vfs_unlink("/tmp/fd-mode"), 0);
	}
	inode = NULL;
	KTEST_EXPECT_EQ(t, path_lookup("/proc/meminfo", &inode), 0);
	if (inode) {
		KTEST_EXPECT_EQ(t, notify_change(inode, &attr), -EPERM);
		iput(inode);
	}
}

/* --- making names: symlink, link, mknod ------------------------------------------- */

/* base/name in buf. */
static const char *in_dir(char *buf, size_t size, const char *base, const char *name)
{
	snprintf(buf, size, "%s/%s", base, name);
	return buf;
}

struct find_type {
	const char *name;
	int d_type;		/* -1: not listed */
};

static int find_type_filldir(void *ctx, const char *name, unsigned int name_len, uint64_t ino,
			     unsigned int d_type)
{
	struct find_type *f = ctx;

	(void)ino;
	if (name_len == strlen(f->name) && !memcmp(name, f->name, name_len))
		f->d_type = d_type;
	return 0;
}

/* The d_type readdir gives name in directory dir, -1 if it is not there. */
static int listed_type(const char *dir, const char *name)
{
	struct find_type f = { name, -1 };
	struct file *file;

	if (vfs_open(dir, O_RDONLY | O_DIRECTORY, 0, &file))
		return -1;
	vfs_readdir(file, find_type_filldir, &f);
	vfs_close(file);
	return f.d_type;
}

/* symlink, link and mknod in the new directory base, on a filesystem
 * other than other's (for -EXDEV); everything is removed again. */
static void make_names_in(struct ktest *t, const char *base, const char *other)
{
	static const char *const names[] = { "f", "s", "dangling", "slow", "h", "s2", "fifo",
					     "null", "reg" };
	char p1[96], p2[96], buf[128], target[101];
	struct kstat st, st2;
	struct file *f = NULL;
	unsigned int i;

	KTEST_EXPECT_EQ(t, vfs_mkdir(base, 0755), 0);
	in_dir(p1, sizeof(p1), base, "f");
	KTEST_EXPECT_EQ(t, vfs_open(p1, O_RDWR | O_CREAT, 0644, &f), 0);
	if (!f)
		goto out;
	KTEST_EXPECT_EQ(t, vfs_write(f, "data", 4), 4);
	vfs_close(f);

	/* Symbolic links: made, read, followed; lstat sees the link. */
	KTEST_EXPECT_EQ(t, vfs_symlink("f", in_dir(p1, sizeof(p1), base, "s")), 0);
	KTEST_EXPECT_EQ(t, vfs_lstat(p1, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFLNK | 0777);
	KTEST_EXPECT_EQ(t, st.size, 1);
	KTEST_EXPECT_EQ(t, vfs_stat(p1, &st), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(in_dir(p2, sizeof(p2), base, "f"), &st2), 0);
	KTEST_EXPECT_EQ(t, st.ino, st2.ino);
	memset(buf, 0, sizeof(buf));
	KTEST_EXPECT_EQ(t, vfs_readlink(p1, buf, sizeof(buf)), 1);
	KTEST_EXPECT_STREQ(t, buf, "f");
	KTEST_EXPECT_EQ(t, listed_type(base, "s"), DT_LNK);
	memset(target, 'x', 100);
	target[100] = '\0';
	KTEST_EXPECT_EQ(t, vfs_symlink(target, in_dir(p1, sizeof(p1), base, "slow")), 0);
	memset(buf, 0, sizeof(buf));
	KTEST_EXPECT_EQ(t, vfs_readlink(p1, buf, sizeof(buf)), 100);
	KTEST_EXPECT_STREQ(t, buf, target);
	KTEST_EXPECT_EQ(t, vfs_symlink("nothing", in_dir(p1, sizeof(p1), base, "dangling")), 0);
	/* Errors: an existing name (a dangling link too, ".", the root), an
	 * empty target, a trailing slash on a new name. */
	KTEST_EXPECT_EQ(t, vfs_symlink("x", p1), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", in_dir(p1, sizeof(p1), base, "s")), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", base), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", in_dir(p1, sizeof(p1), base, ".")), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", "/"), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_symlink("", in_dir(p1, sizeof(p1), base, "e")), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", in_dir(p1, sizeof(p1), base, "new/")), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_symlink("x", in_dir(p1, sizeof(p1), base, "no/such")), -ENOENT);

	/* Hard links: one inode, two names; a link names the symlink. */
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p1, sizeof(p1), base, "f"),
				    in_dir(p2, sizeof(p2), base, "h")), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(p2, &st), 0);
	KTEST_EXPECT_EQ(t, st.ino, st2.ino);
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, vfs_link(p1, p2), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p1, sizeof(p1), base, "s"),
				    in_dir(p2, sizeof(p2), base, "s2")), 0);
	KTEST_EXPECT_EQ(t, vfs_lstat(p2, &st), 0);
	KTEST_EXPECT(t, S_ISLNK(st.mode));
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, vfs_link(base, in_dir(p2, sizeof(p2), base, "d")), -EPERM);
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p1, sizeof(p1), base, "f"), other), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_link(p1, in_dir(p2, sizeof(p2), base, "new/")), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p1, sizeof(p1), base, "missing"), p2), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p1, sizeof(p1), base, "f/"), p2), -ENOTDIR);
	/* The data stays reachable through the other name. */
	KTEST_EXPECT_EQ(t, vfs_unlink(in_dir(p1, sizeof(p1), base, "f")), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(in_dir(p2, sizeof(p2), base, "h"), &st), 0);
	KTEST_EXPECT_EQ(t, st.nlink, 1);
	KTEST_EXPECT_EQ(t, vfs_open(p2, O_RDONLY, 0, &f), 0);
	if (f) {
		memset(buf, 0, sizeof(buf));
		KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 4);
		KTEST_EXPECT_STREQ(t, buf, "data");
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_stat(in_dir(p1, sizeof(p1), base, "s"), &st), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_link(in_dir(p2, sizeof(p2), base, "h"),
				    in_dir(p1, sizeof(p1), base, "f")), 0);

	/* Nodes: a FIFO (cannot be opened), a character device that opens
	 * its driver, a regular file; the types mknod refuses. */
	KTEST_EXPECT_EQ(t, vfs_mknod(in_dir(p1, sizeof(p1), base, "fifo"), S_IFIFO | 0644, 0), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(p1, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFIFO | 0644);
	KTEST_EXPECT_EQ(t, vfs_open(p1, O_RDONLY, 0, &f), -ENXIO);
	KTEST_EXPECT_EQ(t, listed_type(base, "fifo"), DT_FIFO);
	KTEST_EXPECT_EQ(t, vfs_mknod(in_dir(p1, sizeof(p1), base, "null"), S_IFCHR | 0666,
				     MKDEV(1, 3)), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(p1, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFCHR | 0666);
	KTEST_EXPECT_EQ(t, st.rdev, MKDEV(1, 3));
	KTEST_EXPECT_EQ(t, listed_type(base, "null"), DT_CHR);
	KTEST_EXPECT_EQ(t, vfs_open(p1, O_RDWR, 0, &f), 0);
	if (f) {
		KTEST_EXPECT_EQ(t, vfs_write(f, "gone", 4), 4);
		KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 0);
		vfs_close(f);
	}
	KTEST_EXPECT_EQ(t, vfs_mknod(p1, S_IFCHR | 0666, MKDEV(1, 3)), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_mknod(in_dir(p1, sizeof(p1), base, "reg"), 0640, 0), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(p1, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0640);
	KTEST_EXPECT_EQ(t, listed_type(base, "reg"), DT_REG);
	KTEST_EXPECT_EQ(t, vfs_mknod(in_dir(p1, sizeof(p1), base, "d"), S_IFDIR | 0755, 0), -EPERM);
	KTEST_EXPECT_EQ(t, vfs_mknod(p1, S_IFMT | 0644, 0), -EINVAL);
out:
	for (i = 0; i < ARRAY_SIZE(names); i++)
		KTEST_EXPECT_EQ(t, vfs_unlink(in_dir(p1, sizeof(p1), base, names[i])), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(base), 0);
}

KTEST(fd, symlink_link_mknod)
{
	make_names_in(t, "/tmp/fd-names", "/fd-xdev");
	make_names_in(t, "/fd-names", "/tmp/fd-xdev");
	/* Filesystems without these operations. */
	KTEST_EXPECT_EQ(t, vfs_symlink("x", "/proc/x"), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_link("/proc/meminfo", "/proc/m"), -EACCES);
}

/* --- select, pselect6, ppoll ------------------------------------------------------- */

/* Where the select case keeps its arguments in the user page. */
#define U_IN		0
#define U_OUT		128
#define U_EX		256
#define U_TIME		384	/* a timeval or timespec */
#define U_PACK		416	/* pselect6's sigset_argpack */
#define U_MASK		448
#define U_POLLFD	464

/* Put a set of the given descriptors (-1 ends the list) at off. */
static void put_set(const struct ktest_user *u, unsigned long off, const int *fds)
{
	fd_set set;

	memset(&set, 0, sizeof(set));
	for (; *fds >= 0; fds++)
		set.fds_bits[*fds / __NFDBITS] |= 1ul << (*fds % __NFDBITS);
	copy_to_user(ktest_uptr(u, off), &set, sizeof(set));
}

static unsigned long get_set_word(const struct ktest_user *u, unsigned long off)
{
	unsigned long w = ~0ul;

	copy_from_user(&w, ktest_uptr(u, off), sizeof(w));
	return w;
}

static void put_timeval(const struct ktest_user *u, int64_t sec, long usec)
{
	struct timeval tv = { sec, usec };

	copy_to_user(ktest_uptr(u, U_TIME), &tv, sizeof(tv));
}

static struct timeval get_timeval(const struct ktest_user *u)
{
	struct timeval tv = { -1, -1 };

	copy_from_user(&tv, ktest_uptr(u, U_TIME), sizeof(tv));
	return tv;
}

static void put_timespec(const struct ktest_user *u, int64_t sec, long nsec)
{
	struct timespec ts = { sec, nsec };

	copy_to_user(ktest_uptr(u, U_TIME), &ts, sizeof(ts));
}

static struct timespec get_timespec(const struct ktest_user *u)
{
	struct timespec ts = { -1, -1 };

	copy_from_user(&ts, ktest_uptr(u, U_TIME), sizeof(ts));
	return ts;
}

KTEST(fd, select_pselect6_ppoll)
{
	struct pipe_writer w = { NULL, false };
	struct file *p[2] = { NULL, NULL };
	struct task_struct *task;
	struct ktest_user u;
	void __user *uin, *uout, *uex, *utime;
	struct pollfd pfd;
	struct timeval tv;
	struct timespec ts;
	sigset_t mask;
	char buf[4];
	int rfd, wfd;
	uint64_t j;
	struct {
		const sigset_t *p;
		size_t size;
	} pack;

	if (!ktest_user_begin(t, &u))
		goto out;
	uin = ktest_uptr(&u, U_IN);
	uout = ktest_uptr(&u, U_OUT);
	uex = ktest_uptr(&u, U_EX);
	utime = ktest_uptr(&u, U_TIME);
	KTEST_EXPECT_EQ(t, create_pipe_files(p, O_NONBLOCK), 0);
	if (!p[0])
		goto out;
	rfd = get_unused_fd_install(p[0], 0);
	wfd = get_unused_fd_install(p[1], 0);
	KTEST_EXPECT(t, rfd == 0 && wfd == 1);

	/* An empty pipe: only the write end is ready; the time left is
	 * written back. */
	put_set(&u, U_IN, (int[]){ rfd, -1 });
	put_set(&u, U_OUT, (int[]){ wfd, -1 });
	put_set(&u, U_EX, (int[]){ rfd, wfd, -1 });
	put_timeval(&u, 5, 0);
	KTEST_EXPECT_EQ(t, sys_select(2, uin, uout, uex, utime), 1);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_IN), 0);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_OUT), 1ul << wfd);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_EX), 0);
	tv = get_timeval(&u);
	KTEST_EXPECT(t, tv.tv_sec == 4 || (tv.tv_sec == 5 && tv.tv_usec == 0));
	/* Data: both ends count, one bit each; bits at n and above are
	 * ignored and come back clear; a huge n is cut to the table. */
	KTEST_EXPECT_EQ(t, vfs_write(p[1], "x", 1), 1);
	put_set(&u, U_IN, (int[]){ rfd, 5, -1 });
	put_set(&u, U_OUT, (int[]){ wfd, -1 });
	KTEST_EXPECT_EQ(t, sys_select(2, uin, uout, NULL, NULL), 2);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_IN), 1ul << rfd);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_OUT), 1ul << wfd);
	put_set(&u, U_IN, (int[]){ rfd, -1 });
	KTEST_EXPECT_EQ(t, sys_select(FD_SETSIZE * 4, uin, NULL, NULL, NULL), 1);
	/* Errors: a descriptor not open, n < 0, bad times, bad pointers. */
	put_set(&u, U_IN, (int[]){ rfd, 7, -1 });
	KTEST_EXPECT_EQ(t, sys_select(8, uin, NULL, NULL, NULL), -EBADF);
	KTEST_EXPECT_EQ(t, sys_select(-1, NULL, NULL, NULL, NULL), -EINVAL);
	put_timeval(&u, 0, -1);
	KTEST_EXPECT_EQ(t, sys_select(0, NULL, NULL, NULL, utime), -EINVAL);
	put_timeval(&u, -1, 0);
	KTEST_EXPECT_EQ(t, sys_select(0, NULL, NULL, NULL, utime), -EINVAL);
	KTEST_EXPECT_EQ(t, sys_select(1, (void *)0x10, NULL, NULL, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, sys_select(0, NULL, NULL, NULL, (void *)0x10), -EFAULT);
	/* A tv_usec past a second is carried, as Linux does: -1 s and
	 * 1.03 s is 30 ms, which run out (written back as 0). */
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 1), 1);
	put_set(&u, U_IN, (int[]){ rfd, -1 });
	put_timeval(&u, -1, USEC_PER_SEC + 30000);
	j = jiffies;
	KTEST_EXPECT_EQ(t, sys_select(1, uin, NULL, NULL, utime), 0);
	KTEST_EXPECT(t, jiffies - j >= 3);
	KTEST_EXPECT_EQ(t, get_set_word(&u, U_IN), 0);
	tv = get_timeval(&u);
	KTEST_EXPECT(t, tv.tv_sec == 0 && tv.tv_usec == 0);
	/* Sleeping without a timeout until a writer in another task. */
	w.file = get_file(p[1]);
	task = kthread_create(late_writer, &w, "fd-select");
	KTEST_EXPECT(t, task != NULL);
	if (task) {
		wake_up_process(task);
		put_set(&u, U_IN, (int[]){ rfd, -1 });
		KTEST_EXPECT_EQ(t, sys_select(1, uin, NULL, NULL, NULL), 1);
		KTEST_EXPECT_EQ(t, get_set_word(&u, U_IN), 1ul << rfd);
		while (!w.done)
			msleep(5);
	} else {
		vfs_close(w.file);
	}
	KTEST_EXPECT_EQ(t, vfs_read(p[0], buf, 4), 4);

	/* A pending signal ends a wait (restarted or -EINTR by do_signal);
	 * pselect6's mask blocks it for the call only. */
	KTEST_EXPECT_EQ(t, send_sig(SIGUSR1, current), 0);
	put_set(&u, U_IN, (int[]){ rfd, -1 });
	KTEST_EXPECT_EQ(t, sys_select(1, uin, NULL, NULL, NULL), -ERESTARTNOHAND);
	mask = sigmask(SIGUSR1);
	copy_to_user(ktest_uptr(&u, U_MASK), &mask, sizeof(mask));
	pack.p = ktest_uptr(&u, U_MASK);
	pack.size = sizeof(sigset_t);
	copy_to_user(ktest_uptr(&u, U_PACK), &pack, sizeof(pack));
	put_timespec(&u, 0, 20 * 1000 * 1000);
	KTEST_EXPECT_EQ(t, sys_pselect6(1, uin, NULL, NULL, utime, ktest_uptr(&u, U_PACK)), 0);
	ts = get_timespec(&u);
	KTEST_EXPECT(t, ts.tv_sec == 0 && ts.tv_nsec == 0);
	KTEST_EXPECT_EQ(t, current->blocked, 0);
	KTEST_EXPECT(t, signal_pending(current));
	current->pending = 0;
	pack.size = 4;
	copy_to_user(ktest_uptr(&u, U_PACK), &pack, sizeof(pack));
	KTEST_EXPECT_EQ(t, sys_pselect6(1, uin, NULL, NULL, NULL, ktest_uptr(&u, U_PACK)), -EINVAL);
	put_timespec(&u, 0, NSEC_PER_SEC);
	KTEST_EXPECT_EQ(t, sys_pselect6(1, uin, NULL, NULL, utime, NULL), -EINVAL);
	/* The reader gone: the write end is writable (POLLERR); the writer
	 * gone: the read end is readable (POLLHUP). */
	KTEST_EXPECT_EQ(t, sys_close(rfd), 0);
	put_set(&u, U_OUT, (int[]){ wfd, -1 });
	KTEST_EXPECT_EQ(t, sys_select(2, NULL, uout, NULL, NULL), 1);
	KTEST_EXPECT_EQ(t, sys_close(wfd), 0);
	KTEST_EXPECT_EQ(t, create_pipe_files(p, O_NONBLOCK), 0);
	if (p[0]) {
		rfd = get_unused_fd_install(p[0], 0);
		vfs_close(p[1]);
		put_set(&u, U_IN, (int[]){ rfd, -1 });
		KTEST_EXPECT_EQ(t, sys_select(rfd + 1, uin, NULL, NULL, NULL), 1);
		/* ppoll writes the time left back too. */
		pfd.fd = wfd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		copy_to_user(ktest_uptr(&u, U_POLLFD), &pfd, sizeof(pfd));
		put_timespec(&u, 0, 30 * 1000 * 1000);
		KTEST_EXPECT_EQ(t, sys_ppoll(ktest_uptr(&u, U_POLLFD), 1, utime, NULL, 0), 1);
		copy_from_user(&pfd, ktest_uptr(&u, U_POLLFD), sizeof(pfd));
		KTEST_EXPECT_EQ(t, pfd.revents, POLLNVAL);
		ts = get_timespec(&u);
		KTEST_EXPECT(t, ts.tv_sec == 0 && ts.tv_nsec > 0 && ts.tv_nsec <= 30 * 1000 * 1000);
		pfd.fd = rfd;
		copy_to_user(ktest_uptr(&u, U_POLLFD), &pfd, sizeof(pfd));
		put_timespec(&u, 0, 30 * 1000 * 1000);
		KTEST_EXPECT_EQ(t, sys_ppoll(ktest_uptr(&u, U_POLLFD), 1, utime, NULL, 0), 1);
		copy_from_user(&pfd, ktest_uptr(&u, U_POLLFD), sizeof(pfd));
		KTEST_EXPECT_EQ(t, pfd.revents, POLLHUP);
	}
out:
	ktest_user_end(&u);
}

/* linkat from user space: the flags, AT_EMPTY_PATH and AT_SYMLINK_FOLLOW,
 * and an open file whose last name went (-ENOENT). */
KTEST(fd, linkat_flags)
{
	struct ktest_user u;
	void __user *la, *lb, *ls, *empty;
	struct kstat st, lst;
	struct file *f = NULL;
	int fd;

	if (!ktest_user_begin(t, &u))
		goto out;
	la = ktest_uptr(&u, 0);
	lb = ktest_uptr(&u, 16);
	ls = ktest_uptr(&u, 32);
	empty = ktest_uptr(&u, 48);
	copy_to_user(la, "/tmp/fd-la", 11);
	copy_to_user(lb, "/tmp/fd-lb", 11);
	copy_to_user(ls, "/tmp/fd-ls", 11);
	copy_to_user(empty, "", 1);
	KTEST_EXPECT_EQ(t, vfs_open("/tmp/fd-la", O_RDWR | O_CREAT | O_EXCL, 0644, &f), 0);
	if (!f)
		goto out;
	fd = get_unused_fd_install(f, 0);
	KTEST_EXPECT_EQ(t, sys_symlink(la, ls), 0);
	KTEST_EXPECT_EQ(t, sys_linkat(AT_FDCWD, ls, AT_FDCWD, lb, 0x1), -EINVAL);
	/* AT_SYMLINK_FOLLOW links the target, not the link. */
	KTEST_EXPECT_EQ(t, sys_linkat(AT_FDCWD, ls, AT_FDCWD, lb, AT_SYMLINK_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, vfs_lstat("/tmp/fd-lb", &lst), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/fd-la", &st), 0);
	KTEST_EXPECT_EQ(t, lst.ino, st.ino);
	KTEST_EXPECT_EQ(t, st.nlink, 2);
	KTEST_EXPECT_EQ(t, sys_unlink(lb), 0);
	KTEST_EXPECT_EQ(t, sys_link(ls, lb), 0);
	KTEST_EXPECT_EQ(t, vfs_lstat("/tmp/fd-lb", &lst), 0);
	KTEST_EXPECT(t, S_ISLNK(lst.mode));
	KTEST_EXPECT_EQ(t, sys_unlink(lb), 0);
	/* AT_EMPTY_PATH: the open file itself gets a name... */
	KTEST_EXPECT_EQ(t, sys_linkat(fd, empty, AT_FDCWD, lb, 0), -ENOENT);
	KTEST_EXPECT_EQ(t, sys_linkat(fd, empty, AT_FDCWD, lb, AT_EMPTY_PATH), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/fd-lb", &lst), 0);
	KTEST_EXPECT_EQ(t, lst.ino, st.ino);
	/* ...but not once it has no name left. */
	KTEST_EXPECT_EQ(t, sys_unlink(la), 0);
	KTEST_EXPECT_EQ(t, sys_unlink(lb), 0);
	KTEST_EXPECT_EQ(t, sys_linkat(fd, empty, AT_FDCWD, lb, AT_EMPTY_PATH), -ENOENT);
	KTEST_EXPECT_EQ(t, sys_unlink(ls), 0);
	KTEST_EXPECT_EQ(t, sys_mknod(la, S_IFIFO | 0666, 0), 0);
	KTEST_EXPECT_EQ(t, vfs_stat("/tmp/fd-la", &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFIFO | 0644);	/* umask 022 applied */
	KTEST_EXPECT_EQ(t, sys_unlink(la), 0);
out:
	ktest_user_end(&u);
}
