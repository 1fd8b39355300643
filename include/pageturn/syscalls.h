/*
 * The system calls (Linux's include/linux/syscalls.h): one C function per
 * call, with Linux x86-64's argument order and types.  A user pointer
 * arrives as a __user pointer and goes through asm/uaccess.h.  Each returns
 * its result or a negative errno; the entry code puts that in rax.
 * kernel/syscall_64.c maps the numbers (uapi/unistd_64.h) to them; a call
 * that needs the caller's registers (fork, execve, rt_sigreturn) finds
 * them with task_pt_regs(current).  Grouped by the file that implements
 * them.
 */
#ifndef PAGETURN_SYSCALLS_H
#define PAGETURN_SYSCALLS_H

#include <asm/uaccess.h>
#include <pageturn/types.h>

struct stat;
struct iovec;
struct pollfd;
struct timespec;
struct timeval;
struct timezone;
struct k_sigaction_user;
struct rusage;
struct utsname;
struct sysinfo;
struct rlimit;
struct tms;
struct fd_set;
struct itimerval;
typedef struct sigaltstack stack_t;

/* kernel/fs/read_write.c, open.c, stat.c, namei.c, readdir.c, pipe.c,
 * fcntl.c, ioctl.c, select.c, super.c */
long sys_read(unsigned int fd, char __user *buf, size_t count);
long sys_write(unsigned int fd, const char __user *buf, size_t count);
long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
long sys_pread64(unsigned int fd, char __user *buf, size_t count, int64_t pos);
long sys_preadv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		unsigned long pos_l, unsigned long pos_h);
long sys_pwritev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h);
long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, int64_t pos);
long sys_lseek(unsigned int fd, int64_t offset, unsigned int whence);
long sys_sendfile64(int out_fd, int in_fd, int64_t __user *offset, size_t count);
long sys_open(const char __user *filename, int flags, unsigned int mode);
long sys_openat(int dfd, const char __user *filename, int flags, unsigned int mode);
long sys_creat(const char __user *pathname, unsigned int mode);
long sys_close(unsigned int fd);
long sys_stat(const char __user *filename, struct stat __user *statbuf);
long sys_lstat(const char __user *filename, struct stat __user *statbuf);
long sys_fstat(unsigned int fd, struct stat __user *statbuf);
long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag);
long sys_access(const char __user *filename, int mode);
long sys_faccessat(int dfd, const char __user *filename, int mode);
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags);
long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count);
long sys_readlink(const char __user *path, char __user *buf, int bufsiz);
long sys_readlinkat(int dfd, const char __user *path, char __user *buf, int bufsiz);
long sys_mkdir(const char __user *pathname, unsigned int mode);
long sys_mkdirat(int dfd, const char __user *pathname, unsigned int mode);
long sys_rmdir(const char __user *pathname);
long sys_unlink(const char __user *pathname);
long sys_unlinkat(int dfd, const char __user *pathname, int flag);
long sys_rename(const char __user *oldname, const char __user *newname);
long sys_mknod(const char __user *filename, unsigned int mode, unsigned int dev);
long sys_mknodat(int dfd, const char __user *filename, unsigned int mode, unsigned int dev);
long sys_symlink(const char __user *oldname, const char __user *newname);
long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname);
long sys_link(const char __user *oldname, const char __user *newname);
long sys_linkat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		int flags);
long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname);
long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags);
long sys_truncate(const char __user *path, long length);
long sys_ftruncate(unsigned int fd, unsigned long length);
long sys_fsync(unsigned int fd);
long sys_fdatasync(unsigned int fd);
long sys_sync(void);
long sys_dup(unsigned int fildes);
long sys_dup2(unsigned int oldfd, unsigned int newfd);
long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_chdir(const char __user *filename);
long sys_fchdir(unsigned int fd);
long sys_getcwd(char __user *buf, unsigned long size);
long sys_umask(int mask);
long sys_chmod(const char __user *filename, unsigned int mode);
long sys_fchmod(unsigned int fd, unsigned int mode);
long sys_fchmodat(int dfd, const char __user *filename, unsigned int mode);
long sys_chown(const char __user *filename, unsigned int user, unsigned int group);
long sys_lchown(const char __user *filename, unsigned int user, unsigned int group);
long sys_fchown(unsigned int fd, unsigned int user, unsigned int group);
long sys_fchownat(int dfd, const char __user *filename, unsigned int user,
		  unsigned int group, int flag);
long sys_utimensat(int dfd, const char __user *filename, const struct timespec __user *utimes, int flags);
long sys_pipe(int __user *fildes);
long sys_pipe2(int __user *fildes, int flags);
long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs);
long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds, struct timespec __user *tsp,
	       const void __user *sigmask, size_t sigsetsize);
long sys_select(int n, struct fd_set __user *inp, struct fd_set __user *outp, struct fd_set __user *exp,
		struct timeval __user *tvp);
long sys_pselect6(int n, struct fd_set __user *inp, struct fd_set __user *outp, struct fd_set __user *exp,
		  struct timespec __user *tsp, void __user *sig);
long sys_mount(const char __user *dev_name, const char __user *dir_name, const char __user *type,
	       unsigned long flags, const void __user *data);
long sys_statfs(const char __user *path, void __user *buf);
long sys_fstatfs(unsigned int fd, void __user *buf);

/* mm/mmap.c, mm/mprotect.c, mm/madvise.c, mm/mlock.c */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off);
long sys_munmap(unsigned long addr, size_t len);
long sys_mprotect(unsigned long start, size_t len, unsigned long prot);
long sys_brk(unsigned long brk);
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr);
long sys_madvise(unsigned long start, size_t len, int behavior);
long sys_mlock(unsigned long start, size_t len);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);
long sys_msync(unsigned long start, size_t len, int flags);

/* kernel/ipc/shm.c */
long sys_shmget(int key, size_t size, int shmflg);
long sys_shmat(int shmid, unsigned long shmaddr, int shmflg);
long sys_shmdt(unsigned long shmaddr);
long sys_shmctl(int shmid, int cmd, void __user *buf);

/* kernel/exec.c */
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp);

/* kernel/fork.c, kernel/exit.c, kernel/sched.c */
long sys_fork(void);
long sys_vfork(void);
long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls);
long sys_exit(int error_code);
long sys_exit_group(int error_code);
long sys_wait4(int pid, int __user *stat_addr, int options, struct rusage __user *ru);
long sys_getpid(void);
long sys_getppid(void);
long sys_gettid(void);
long sys_setpgid(int pid, int pgid);
long sys_getpgid(int pid);
long sys_getpgrp(void);
long sys_setsid(void);
long sys_getsid(int pid);
long sys_set_tid_address(int __user *tidptr);
long sys_set_robust_list(void __user *head, size_t len);
long sys_arch_prctl(int option, unsigned long arg2);
long sys_sched_yield(void);

/* kernel/signal.c */
long sys_rt_sigaction(int sig, const struct k_sigaction_user __user *act,
		      struct k_sigaction_user __user *oact, size_t sigsetsize);
long sys_rt_sigprocmask(int how, const uint64_t __user *set, uint64_t __user *oset,
			size_t sigsetsize);
long sys_rt_sigreturn(void);
long sys_rt_sigsuspend(const uint64_t __user *unewset, size_t sigsetsize);
long sys_rt_sigpending(uint64_t __user *set, size_t sigsetsize);
long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss);
long sys_kill(int pid, int sig);
long sys_tkill(int pid, int sig);
long sys_tgkill(int tgid, int pid, int sig);
long sys_pause(void);
long sys_alarm(unsigned int seconds);
long sys_getitimer(int which, struct itimerval __user *value);
long sys_setitimer(int which, const struct itimerval __user *value,
		   struct itimerval __user *ovalue);

/* kernel/sys.c, kernel/time.c */
long sys_uname(struct utsname __user *name);
long sys_sethostname(const char __user *name, int len);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_setuid(unsigned int uid);
long sys_setgid(unsigned int gid);
long sys_getresuid(unsigned int __user *ruid, unsigned int __user *euid, unsigned int __user *suid);
long sys_getresgid(unsigned int __user *rgid, unsigned int __user *egid, unsigned int __user *sgid);
long sys_getgroups(int gidsetsize, unsigned int __user *grouplist);
long sys_setgroups(int gidsetsize, const unsigned int __user *grouplist);
long sys_sysinfo(struct sysinfo __user *info);
/* mm/swapfile.c */
long sys_swapon(const char __user *specialfile, int swap_flags);
long sys_swapoff(const char __user *specialfile);
long sys_getrandom(char __user *buf, size_t count, unsigned int flags);
long sys_prlimit64(int pid, unsigned int resource, const struct rlimit __user *new_rlim,
		   struct rlimit __user *old_rlim);
long sys_getrlimit(unsigned int resource, struct rlimit __user *rlim);
long sys_setrlimit(unsigned int resource, const struct rlimit __user *rlim);
long sys_getrusage(int who, struct rusage __user *ru);
long sys_times(struct tms __user *tbuf);
long sys_reboot(int magic1, int magic2, unsigned int cmd, void __user *arg);
long sys_nanosleep(const struct timespec __user *rqtp, struct timespec __user *rmtp);
long sys_clock_nanosleep(int which_clock, int flags, const struct timespec __user *rqtp,
			 struct timespec __user *rmtp);
long sys_clock_gettime(int which_clock, struct timespec __user *tp);
long sys_clock_getres(int which_clock, struct timespec __user *tp);
long sys_gettimeofday(struct timeval __user *tv, struct timezone __user *tz);
long sys_time(int64_t __user *tloc);
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5);
long sys_rseq(void __user *rseq, uint32_t rseq_len, int flags, uint32_t sig);
long sys_futex(uint32_t __user *uaddr, int op, uint32_t val, const struct timespec __user *utime,
	       uint32_t __user *uaddr2, uint32_t val3);
long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr);
long sys_getpriority(int which, int who);
long sys_setpriority(int which, int who, int niceval);
long sys_syslog(int type, char __user *buf, int len);

#endif
