/*
 * A process's memory as /proc shows it (Linux's fs/proc/task_mmu.c):
 * /proc/PID/maps, the Vm* lines of /proc/PID/status and the counts of
 * /proc/PID/statm.
 *
 * The sources are the mm_struct's counters (total_vm, locked_vm,
 * stack_vm, nr_ptes, anon_rss, file_rss, hiwater_rss, the code, data and
 * heap bounds) and its VMA list.  Linux keeps two more counters that
 * Pageturn's mm does not, so they are summed over the VMAs here with
 * Linux's definitions: data_vm, the private writable non-stack pages,
 * and exec_vm, the executable non-writable non-stack ones.  Linux's
 * VmPeak is the most total_vm ever was; nothing records that, so VmPeak
 * shows the current total_vm (a lower bound).
 *
 * maps names a VMA "[heap]" when it holds the brk area, "[stack]" when it
 * holds the initial stack pointer, and by the program's path when it
 * maps the program's file (the inode exe_path names).  Other file
 * mappings show their device and inode number but no name: Pageturn has
 * no dentries from which to build one.
 */
#include <asm/page.h>
#include <fs/file.h>
#include <fs/devfs.h>
#include <mm/mmap.h>
#include <mm/slab.h>
#include <pageturn/sched.h>
#include <pageturn/string.h>

#include "internal.h"

/* The pages of mm's VMAs that Linux counts in data_vm and exec_vm. */
static void vm_counts(struct mm_struct *mm, unsigned long *data_vm, unsigned long *exec_vm)
{
	struct vm_area_struct *vma;
	unsigned long pages;

	*data_vm = *exec_vm = 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		pages = (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
		if ((vma->vm_flags & (VM_WRITE | VM_SHARED | VM_GROWSDOWN)) == VM_WRITE)
			*data_vm += pages;
		else if ((vma->vm_flags & (VM_EXEC | VM_WRITE | VM_GROWSDOWN)) == VM_EXEC)
			*exec_vm += pages;
	}
}

/* The bytes of the program's code, at most its executable mappings. */
static unsigned long text_bytes(struct mm_struct *mm, unsigned long exec_vm)
{
	unsigned long text = ALIGN_UP(mm->end_code, PAGE_SIZE) - (mm->start_code & PAGE_MASK);

	return MIN(text, exec_vm << PAGE_SHIFT);
}

static void show_kb(struct seq_file *m, const char *label, unsigned long kb)
{
	seq_printf(m, "%s\t%8lu kB\n", label, kb);
}

/* The Vm* and Rss* lines of /proc/PID/status, Linux's order and layout. */
void task_mem(struct seq_file *m, struct mm_struct *mm)
{
	unsigned long data_vm, exec_vm, text, rss = mm->anon_rss + mm->file_rss;
	const unsigned int kb = PAGE_SHIFT - 10;

	vm_counts(mm, &data_vm, &exec_vm);
	text = text_bytes(mm, exec_vm);
	show_kb(m, "VmPeak:", mm->total_vm << kb);
	show_kb(m, "VmSize:", mm->total_vm << kb);
	show_kb(m, "VmLck:", mm->locked_vm << kb);
	show_kb(m, "VmPin:", 0);
	show_kb(m, "VmHWM:", MAX(mm->hiwater_rss, rss) << kb);
	show_kb(m, "VmRSS:", rss << kb);
	show_kb(m, "RssAnon:", mm->anon_rss << kb);
	show_kb(m, "RssFile:", mm->file_rss << kb);
	show_kb(m, "RssShmem:", 0);
	show_kb(m, "VmData:", data_vm << kb);
	show_kb(m, "VmStk:", mm->stack_vm << kb);
	show_kb(m, "VmExe:", text >> 10);
	show_kb(m, "VmLib:", ((exec_vm << PAGE_SHIFT) - text) >> 10);
	show_kb(m, "VmPTE:", mm->nr_ptes << kb);
	show_kb(m, "VmSwap:", mm->swap_ents << kb);
}

/* statm's numbers, in pages (Linux's task_statm): returns the size. */
unsigned long task_statm(struct mm_struct *mm, unsigned long *shared, unsigned long *text,
			 unsigned long *data, unsigned long *resident)
{
	unsigned long data_vm, exec_vm;

	vm_counts(mm, &data_vm, &exec_vm);
	*shared = mm->file_rss;
	*text = text_bytes(mm, exec_vm) >> PAGE_SHIFT;
	*data = data_vm + mm->stack_vm;
	*resident = mm->anon_rss + mm->file_rss;
	return mm->total_vm;
}

/* maps pads a line to this width before the space and the name (Linux's
 * 25 + 6 * sizeof(void *) - 1). */
#define MAPS_PAD_WIDTH	72

static void show_map_vma(struct seq_file *m, struct vm_area_struct *vma, struct inode *exe,
			 const char *exe_path)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long flags = vma->vm_flags, ino = 0;
	struct inode *inode = vma->vm_file ? vma->vm_file->f_inode : NULL;
	uint32_t dev = 0;
	const char *name = NULL;
	size_t start = m->count;

	if (inode) {
		dev = inode->i_sb->s_dev;
		ino = inode->i_ino;
		if (inode == exe)
			name = exe_path;
	} else if (vma->vm_start <= mm->brk && vma->vm_end >= mm->start_brk) {
		name = "[heap]";
	} else if (vma->vm_start <= mm->start_stack && vma->vm_end >= mm->start_stack) {
		name = "[stack]";
	}
	seq_printf(m, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ", vma->vm_start, vma->vm_end,
		   flags & VM_READ ? 'r' : '-', flags & VM_WRITE ? 'w' : '-',
		   flags & VM_EXEC ? 'x' : '-', flags & VM_MAYSHARE ? 's' : 'p',
		   inode ? vma->vm_pgoff << PAGE_SHIFT : 0, MAJOR(dev), MINOR(dev), ino);
	if (name) {
		size_t used = m->count - start;

		seq_printf(m, "%*s %s", used < MAPS_PAD_WIDTH ? (int)(MAPS_PAD_WIDTH - used) : 0,
			   "", name);
	}
	seq_puts(m, "\n");
}

/*
 * /proc/PID/maps, one line per VMA in address order:
 *   start-end perms offset major:minor inode [padding name]
 * The program's path is copied and looked up first (which may sleep),
 * with the mm held (mm_users, Linux's mmget) so that it outlives the
 * task if the task exits meanwhile; the VMAs are then listed without
 * sleeping, one consistent picture.
 */
int proc_pid_maps(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	struct vm_area_struct *vma;
	struct inode *exe = NULL;
	char *exe_path;

	if (!mm)
		return 0;
	exe_path = task->exe_path ? kstrdup(task->exe_path, GFP_ATOMIC) : NULL;
	mm->mm_users++;
	if (exe_path && path_lookup(exe_path, &exe))
		exe = NULL;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		show_map_vma(m, vma, exe, exe_path);
	if (exe)
		iput(exe);
	mmput(mm);
	kfree(exe_path);
	return 0;
}
