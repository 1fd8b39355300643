/*
 * Suite "fd": the file side of the process ABI below the user-copy layer
 * (kernel/fs): descriptor tables and the descriptor calls that take no
 * user pointers (dup, dup2, dup3, fcntl, ioctl's FIOCLEX, lseek, close),
 * symbolic links in path walks, *at() walks from a descriptor, the
 * directory names getcwd returns, pipes (blocking, non-blocking, end of
 * file, broken pipe, poll), devtmpfs with the memory devices, statfs and
 * chmod.
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
#include <fs/devfs.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <mm/slab.h>
#include <pageturn/ktest.h>
#include <pageturn/printk.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/ioctls.h>
#include <uapi/magic.h>

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
