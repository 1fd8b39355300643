/*
 * System V shared memory (Linux's ipc/shm.c, with ipc/util.c's id table):
 * shmget, shmat, shmdt and shmctl.
 *
 * A segment (struct shmid_kernel) is a tmpfs file with no name
 * (shmem_file_setup, mm/shmem.c) plus its ipc64_perm and times.  It is
 * found by id: the slot index in shm_segs[] plus seq * SEQ_MULTIPLIER,
 * where seq counts segments made, so an id that outlives its segment
 * does not name the next one put in the same slot.  A key other than
 * IPC_PRIVATE names at most one live segment.
 *
 * Attaching (shmat) maps a file of its own (shm_file_operations, whose
 * private_data is the segment and whose inode is the segment's) MAP_SHARED
 * at the address asked for or one mmap picks.  Its mmap gives the VMA
 * shm_vm_ops, and from then on the VMA code calls shm_open and shm_close
 * for every VMA that maps it: the first one, the pieces of a split and a
 * fork's copies.  So shm_nattch is the number of VMAs mapping the segment,
 * as Linux's.
 *
 * A segment's states:
 *
 *   live        in shm_segs[], its key findable by shmget
 *   destroyed   IPC_RMID set SHM_DEST and made its key IPC_PRIVATE; it
 *               stays in shm_segs[] (shmctl and shmat still reach it by
 *               id, as in Linux) until shm_nattch is 0, when shm_destroy
 *               takes it out, drops its file and frees it.
 *
 * Invariant: a segment is freed only when shm_nattch is 0 and SHM_DEST is
 * set, so a VMA's vm_file->private_data stays valid for as long as the
 * VMA exists.  Code that sleeps while it holds a segment pointer (shmat's
 * mmap allocates) keeps it alive by counting itself in shm_nattch around
 * the sleep, as Linux's do_shmat does; shmctl copies to and from user
 * memory (which may sleep on a fault) only before it looks the segment up
 * or after it is done with it.
 *
 * SHM_LOCK makes the segment's mapping unevictable (shmem_lock): pages
 * that enter it from then on go on the unevictable list, are never
 * scanned, and count in Unevictable; pages already resident stay on the
 * anon lists until reclaim meets them (shrink_page_list culls them),
 * which without swap happens only under lru=single, as in Linux 2.6.28.
 * SHM_UNLOCK clears that and scan_mapping_unevictable_pages moves the
 * pages back to the anon lists (unevictable_pgs_rescued).
 *
 * Every process is root, so permissions are kept and reported but never
 * refuse anything (Linux's CAP_IPC_OWNER and CAP_IPC_LOCK).  There is one
 * IPC namespace and no /proc/sysvipc.  One CPU, no preemption: nothing
 * here changes under another task except across a sleep.
 */
#include <asm/uaccess.h>
#include <drivers/rtc.h>
#include <fs/file.h>
#include <fs/fs.h>
#include <fs/vfs.h>
#include <mm/mm.h>
#include <mm/mmap.h>
#include <mm/shmem.h>
#include <mm/slab.h>
#include <mm/swap.h>
#include <pageturn/sched.h>
#include <pageturn/syscalls.h>
#include <uapi/errno.h>
#include <uapi/mman.h>
#include <uapi/shm.h>

#define SEQ_MULTIPLIER	32768		/* Linux's IPCMNI: ids are idx + seq * this */
#define SEQ_MAX		(INT32_MAX / SEQ_MULTIPLIER)

struct shmid_kernel {
	struct ipc64_perm shm_perm;
	int id;
	struct file *shm_file;		/* the tmpfs file, held */
	unsigned long shm_nattch;	/* VMAs mapping it (and a shmat in progress) */
	size_t shm_segsz;
	int64_t shm_atim, shm_dtim, shm_ctim;
	int shm_cprid, shm_lprid;
};

static struct shmid_kernel *shm_segs[SHMMNI];
static int shm_in_use;			/* segments in shm_segs[] */
static int shm_max_idx = -1;		/* the highest slot in use */
static unsigned int shm_seq;		/* the next seq */
static uint64_t shm_tot;		/* pages of all segments' sizes */

static unsigned long seg_pages(size_t size)
{
	return (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

static struct shmid_kernel *shm_obtain(int id)
{
	struct shmid_kernel *shp;

	if (id < 0 || id % SEQ_MULTIPLIER >= SHMMNI)
		return NULL;
	shp = shm_segs[id % SEQ_MULTIPLIER];
	return shp && shp->id == id ? shp : NULL;
}

static struct shmid_kernel *shm_find_key(int32_t key)
{
	int i;

	for (i = 0; i <= shm_max_idx; i++)
		if (shm_segs[i] && shm_segs[i]->shm_perm.key == key)
			return shm_segs[i];
	return NULL;
}

/* Take shp out of the table, drop its file (its pages go with the last
 * reference) and free it.  Only when shm_nattch is 0.  Called from
 * shm_close, which may not sleep: this fput is never the inode's last
 * reference there, since the closing VMA's attach file still holds one,
 * so no eviction (truncate_inode_pages) runs here from a VMA's close. */
static void shm_destroy(struct shmid_kernel *shp)
{
	int idx = shp->id % SEQ_MULTIPLIER;

	shm_segs[idx] = NULL;
	shm_in_use--;
	while (shm_max_idx >= 0 && !shm_segs[shm_max_idx])
		shm_max_idx--;
	shm_tot -= seg_pages(shp->shm_segsz);
	if (shp->shm_perm.mode & SHM_LOCKED)
		shmem_lock(shp->shm_file, 0);
	fput(shp->shm_file);
	kfree(shp);
}

/* shm_nattch went down: free shp if it was the last attach of a removed
 * segment (Linux's shm_may_destroy). */
static void shm_may_destroy(struct shmid_kernel *shp)
{
	if (shp->shm_nattch == 0 && (shp->shm_perm.mode & SHM_DEST))
		shm_destroy(shp);
}

/* ---- attaches: the VMAs ------------------------------------------------- */

static struct shmid_kernel *vma_shm(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

static void shm_open(struct vm_area_struct *vma)
{
	struct shmid_kernel *shp = vma_shm(vma);

	shp->shm_nattch++;
	shp->shm_atim = (int64_t)ktime_get_real_seconds();
	shp->shm_lprid = current->tgid;
}

static void shm_close(struct vm_area_struct *vma)
{
	struct shmid_kernel *shp = vma_shm(vma);

	shp->shm_nattch--;
	shp->shm_dtim = (int64_t)ktime_get_real_seconds();
	shp->shm_lprid = current->tgid;
	shm_may_destroy(shp);
}

static const struct vm_operations_struct shm_vm_ops = {
	.open = shm_open,
	.close = shm_close,
};

static int shm_mmap(struct file *file, struct vm_area_struct *vma)
{
	(void)file;
	vma->vm_ops = &shm_vm_ops;
	shm_open(vma);
	return 0;
}

static const struct file_operations shm_file_operations = {
	.mmap = shm_mmap,
};

static bool is_shm_vma(const struct vm_area_struct *vma)
{
	return vma->vm_file && vma->vm_file->f_op == &shm_file_operations;
}

/* ---- shmget ------------------------------------------------------------- */

/* A new segment of size bytes under key (Linux's newseg): its id, or
 * -EINVAL (size out of SHMMIN..SHMMAX), -ENOSPC (SHMMNI segments, or
 * SHMALL pages, in use), -ENOMEM; -EAGAIN (never seen by the caller of
 * shmget) when another shmget made key while this one slept. */
static long newseg(int32_t key, size_t size, int shmflg)
{
	unsigned long pages = seg_pages(size);
	struct shmid_kernel *shp;
	struct file *file;
	int idx, err;

	if (size < SHMMIN || size > SHMMAX || !pages)
		return -EINVAL;
	if (shm_tot + pages < shm_tot || shm_tot + pages > SHMALL)
		return -ENOSPC;
	if (shm_in_use >= SHMMNI)
		return -ENOSPC;
	/* Linux without hugetlbfs answers so. */
	if (shmflg & SHM_HUGETLB)
		return -ENOSYS;
	shp = kzalloc(sizeof(*shp), GFP_KERNEL);
	if (!shp)
		return -ENOMEM;
	err = shmem_file_setup((loff_t)size, &file);
	if (err) {
		kfree(shp);
		return err;
	}
	/* Both calls above may sleep: the table is looked at only now.  Another
	 * shmget may have taken the last slot, or the key, meanwhile. */
	if (key != IPC_PRIVATE && shm_find_key(key))
		err = -EAGAIN;
	for (idx = 0; idx < SHMMNI && shm_segs[idx]; idx++)
		;
	if (!err && idx == SHMMNI)
		err = -ENOSPC;
	if (!err && (shm_tot + pages < shm_tot || shm_tot + pages > SHMALL))
		err = -ENOSPC;
	if (err) {
		fput(file);
		kfree(shp);
		return err;
	}
	shp->shm_perm.key = key;
	shp->shm_perm.mode = (uint32_t)shmflg & 0777;
	shp->shm_perm.seq = (uint16_t)shm_seq;
	shp->id = idx + (int)shm_seq * SEQ_MULTIPLIER;
	shm_seq = shm_seq >= SEQ_MAX ? 0 : shm_seq + 1;
	shp->shm_file = file;
	shp->shm_segsz = size;
	shp->shm_ctim = (int64_t)ktime_get_real_seconds();
	shp->shm_cprid = current->tgid;
	shm_segs[idx] = shp;
	shm_in_use++;
	shm_max_idx = MAX(shm_max_idx, idx);
	shm_tot += pages;
	return shp->id;
}

long sys_shmget(int key, size_t size, int shmflg)
{
	struct shmid_kernel *shp;
	long ret;

	if (key == IPC_PRIVATE)
		return newseg(key, size, shmflg);
	for (;;) {
		shp = shm_find_key(key);
		if (shp)
			break;
		if (!(shmflg & IPC_CREAT))
			return -ENOENT;
		ret = newseg(key, size, shmflg);
		/* -EAGAIN: the key was made while newseg slept; it is found
		 * now, as Linux finds it under its lock. */
		if (ret != -EAGAIN)
			return ret;
	}
	if ((shmflg & IPC_CREAT) && (shmflg & IPC_EXCL))
		return -EEXIST;
	if (size > shp->shm_segsz)
		return -EINVAL;
	return shp->id;
}

/* ---- shmat and shmdt ---------------------------------------------------- */

long sys_shmat(int shmid, unsigned long shmaddr, int shmflg)
{
	struct mm_struct *mm = current->mm;
	unsigned long addr = shmaddr, prot, flags = MAP_SHARED, size;
	struct shmid_kernel *shp;
	struct file *file;
	long ret;

	if (shmid < 0)
		return -EINVAL;
	if (addr) {
		if (addr & (SHMLBA - 1)) {
			if (!(shmflg & SHM_RND))
				return -EINVAL;
			addr &= ~(unsigned long)(SHMLBA - 1);
			if (!addr && (shmflg & SHM_REMAP))
				return -EINVAL;
		}
		flags |= MAP_FIXED;
	} else if (shmflg & SHM_REMAP) {
		return -EINVAL;
	}
	prot = shmflg & SHM_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE;
	if (shmflg & SHM_EXEC)
		prot |= PROT_EXEC;

	shp = shm_obtain(shmid);
	if (!shp)
		return -EINVAL;
	size = shp->shm_segsz;
	if (addr && !(shmflg & SHM_REMAP) &&
	    (addr + size < addr || find_vma_intersection(mm, addr, addr + size)))
		return -EINVAL;

	/* From here on the allocations may sleep and an IPC_RMID run: counting
	 * this attach keeps shp alive until the end (Linux's do_shmat). */
	shp->shm_nattch++;
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file) {
		ret = -ENOMEM;
		goto out;
	}
	ihold(shp->shm_file->f_inode);
	file->f_inode = shp->shm_file->f_inode;
	file->f_mode = shmflg & SHM_RDONLY ? FMODE_READ : FMODE_READ | FMODE_WRITE;
	file->f_flags = shmflg & SHM_RDONLY ? O_RDONLY : O_RDWR;
	file->f_op = &shm_file_operations;
	file->private_data = shp;
	file->f_count = 1;
	ret = do_mmap_pgoff(mm, addr, size, prot, flags, file, 0);
	fput(file);	/* the VMA, if any, holds its own reference */
out:
	shp->shm_nattch--;
	shm_may_destroy(shp);
	return ret;
}

/*
 * Detach the segment attached at shmaddr (Linux's sys_shmdt, both loops):
 * the first shm VMA above shmaddr whose offset is its distance from
 * shmaddr names the segment (the attach's first page may have been
 * unmapped), and it and every other piece of the same attach that ends
 * within the segment's size from shmaddr, at the offset it had, are
 * unmapped.  -EINVAL if there is no such VMA.
 */
static bool attach_piece(const struct vm_area_struct *vma, unsigned long shmaddr)
{
	return is_shm_vma(vma) && (vma->vm_start - shmaddr) >> PAGE_SHIFT == vma->vm_pgoff;
}

long sys_shmdt(unsigned long shmaddr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct file *file = NULL;
	unsigned long end = TASK_SIZE, addr = shmaddr;
	int err;

	if (shmaddr & ~PAGE_MASK)
		return -EINVAL;
	/* Each step finds its VMA afresh after do_munmap; file is compared
	 * with, never followed, once the attach's VMAs may be gone. */
	while ((vma = find_vma(mm, addr)) && vma->vm_end <= end) {
		addr = vma->vm_end;
		if (!attach_piece(vma, shmaddr) || (file && vma->vm_file != file))
			continue;
		if (!file) {
			file = vma->vm_file;
			end = shmaddr + (seg_pages(vma_shm(vma)->shm_segsz) << PAGE_SHIFT);
		}
		err = do_munmap(mm, vma->vm_start, vma->vm_end - vma->vm_start);
		if (err)
			return err;
	}
	return file ? 0 : -EINVAL;
}

/* ---- shmctl ------------------------------------------------------------- */

static void fill_shmid64_ds(const struct shmid_kernel *shp, struct shmid64_ds *out)
{
	memset(out, 0, sizeof(*out));
	out->shm_perm = shp->shm_perm;
	out->shm_segsz = shp->shm_segsz;
	out->shm_atime = shp->shm_atim;
	out->shm_dtime = shp->shm_dtim;
	out->shm_ctime = shp->shm_ctim;
	out->shm_cpid = shp->shm_cprid;
	out->shm_lpid = shp->shm_lprid;
	out->shm_nattch = shp->shm_nattch;
}

/* SHM_INFO's counts: pages in memory are the segments' cached pages. */
static void fill_shm_info(struct shm_info *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->used_ids = shm_in_use;
	out->shm_tot = shm_tot;
	for (i = 0; i <= shm_max_idx; i++)
		if (shm_segs[i])
			out->shm_rss += shm_segs[i]->shm_file->f_inode->i_mapping->nrpages;
}

/* SHM_LOCK (lock 1) or SHM_UNLOCK (0) shp.  Unlocking rescues the pages
 * from the unevictable list; the file is held across the scan so that it
 * stays even if the scan ever slept and an IPC_RMID freed shp. */
static void shm_set_locked(struct shmid_kernel *shp, int lock)
{
	struct file *file = shp->shm_file;

	if (!!(shp->shm_perm.mode & SHM_LOCKED) == lock)
		return;
	if (lock) {
		shmem_lock(file, 1);
		shp->shm_perm.mode |= SHM_LOCKED;
		return;
	}
	shmem_lock(file, 0);
	shp->shm_perm.mode &= ~SHM_LOCKED;
	get_file(file);
	scan_mapping_unevictable_pages(file->f_inode->i_mapping);
	fput(file);
}

long sys_shmctl(int shmid, int cmd, void __user *buf)
{
	struct shmid_kernel *shp;
	union {
		struct shmid64_ds ds;
		struct shminfo64 info;
		struct shm_info shm_info;
	} u;
	size_t len;
	long ret;

	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
		memset(&u.info, 0, sizeof(u.info));
		u.info.shmmax = SHMMAX;
		u.info.shmmin = SHMMIN;
		u.info.shmmni = SHMMNI;
		u.info.shmseg = SHMSEG;
		u.info.shmall = SHMALL;
		ret = MAX(shm_max_idx, 0);
		len = sizeof(u.info);
		break;
	case SHM_INFO:
		fill_shm_info(&u.shm_info);
		ret = MAX(shm_max_idx, 0);
		len = sizeof(u.shm_info);
		break;
	case SHM_STAT:
	case SHM_STAT_ANY:
		/* An index; a full id names its index, as Linux's ipcid_to_idx. */
		shmid %= SEQ_MULTIPLIER;
		if (shmid >= SHMMNI || !shm_segs[shmid])
			return -EINVAL;
		shp = shm_segs[shmid];
		fill_shmid64_ds(shp, &u.ds);
		ret = shp->id;
		len = sizeof(u.ds);
		break;
	case IPC_STAT:
		shp = shm_obtain(shmid);
		if (!shp)
			return -EINVAL;
		fill_shmid64_ds(shp, &u.ds);
		ret = 0;
		len = sizeof(u.ds);
		break;
	case IPC_SET:
		if (copy_from_user(&u.ds, buf, sizeof(u.ds)))
			return -EFAULT;
		/* Looked up after the copy, which may have slept. */
		shp = shm_obtain(shmid);
		if (!shp)
			return -EINVAL;
		shp->shm_perm.uid = u.ds.shm_perm.uid;
		shp->shm_perm.gid = u.ds.shm_perm.gid;
		shp->shm_perm.mode = (shp->shm_perm.mode & ~0777u) | (u.ds.shm_perm.mode & 0777);
		shp->shm_ctim = (int64_t)ktime_get_real_seconds();
		return 0;
	case IPC_RMID:
		shp = shm_obtain(shmid);
		if (!shp)
			return -EINVAL;
		shp->shm_perm.mode |= SHM_DEST;
		shp->shm_perm.key = IPC_PRIVATE;
		shm_may_destroy(shp);
		return 0;
	case SHM_LOCK:
	case SHM_UNLOCK:
		shp = shm_obtain(shmid);
		if (!shp)
			return -EINVAL;
		shm_set_locked(shp, cmd == SHM_LOCK);
		return 0;
	default:
		return -EINVAL;
	}
	/* The answer is in u: shp is not used from here on. */
	if (copy_to_user(buf, &u, len))
		return -EFAULT;
	return ret;
}
