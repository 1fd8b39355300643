/*
 * Root and working directory per process (Linux's fs/fs_struct.c).
 *
 * An fs_struct holds a reference to each of its two directories for as
 * long as it names them; users counts the tasks sharing it (CLONE_FS).
 * init_fs serves kernel threads and the boot code: its root and pwd are
 * NULL until the root filesystem is mounted (super.c sets both), and it
 * is never freed.  A process's fs_struct starts as a copy of its
 * parent's, or of init_fs for the first process, which a kernel thread
 * starts.
 */
#include <fs/file.h>
#include <mm/slab.h>
#include <pageturn/sched.h>

struct fs_struct init_fs = {
	.users = 1,
	.umask = 0022,
};

struct fs_struct *current_fs(void)
{
	return current->fs ? current->fs : &init_fs;
}

struct fs_struct *copy_fs_struct(const struct fs_struct *old)
{
	struct fs_struct *fs = kmalloc(sizeof(*fs), GFP_KERNEL);

	if (!fs)
		return NULL;
	if (!old)
		old = &init_fs;
	fs->users = 1;
	fs->umask = old->umask;
	fs->root = old->root;
	fs->pwd = old->pwd;
	if (fs->root)
		ihold(fs->root);
	if (fs->pwd)
		ihold(fs->pwd);
	return fs;
}

void put_fs_struct(struct fs_struct *fs)
{
	if (!fs || --fs->users > 0)
		return;
	if (fs->root)
		iput(fs->root);
	if (fs->pwd)
		iput(fs->pwd);
	kfree(fs);
}
