/*
 * tracefs: the files of event tracing (Linux's fs/tracefs/inode.c and
 * the file operations of kernel/trace/trace.c and trace_events.c),
 * mounted by init on /sys/kernel/tracing as `mount -t tracefs nodev
 * /sys/kernel/tracing` does on Linux.
 *
 * The tree is a fixed table, built once at the first mount: node i is
 * inode number i + 1 of every mount, node 0 the root.
 *
 *   available_events          0444  "system:event" per line
 *   buffer_size_kb            0644  the ring buffer's size; a write resizes
 *                                   (and empties) it
 *   events/enable             0644  every event: "0", "1", or "X" when mixed
 *   events/SYSTEM/enable      0644  the system's events
 *   events/SYSTEM/EVENT/enable 0644 one event
 *   per_cpu/cpu0/stats        0444  the buffer's counters (overruns)
 *   set_event                 0644  the enabled events; a write enables
 *                                   "system:event", "system:*", "event",
 *                                   "*:*", or with a leading '!' disables;
 *                                   O_TRUNC disables every event first
 *   trace                     0644  the buffer, with Linux's header, not
 *                                   consumed; a write or O_TRUNC empties it
 *   trace_pipe                0444  consuming read: blocks while the buffer
 *                                   is empty (O_NONBLOCK: -EAGAIN), until a
 *                                   signal (-EINTR); poll says POLLIN when
 *                                   it has entries
 *   tracing_on                0644  0 stops recording, any other number
 *                                   starts it
 *
 * A write to a control file is one request of at most TRACEFS_WRITE_MAX
 * bytes; a number that does not parse, an enable value other than 0 or
 * 1, a buffer size of 0 or an unknown event is -EINVAL and changes
 * nothing.  Changes are made under trace_types_lock.
 *
 * Reading a control file renders its text into a buffer at offset 0
 * (as procfs does).  Reading trace streams: the header, then one line per
 * entry from the oldest, formatted as it is read; while the file is open
 * for reading, recording is paused (Linux's pause-on-trace).  A read at
 * an offset other than where the last one ended starts again and skips
 * to it.
 */
#include <fs/poll.h>
#include <fs/uio.h>
#include <fs/vfs.h>
#include <mm/slab.h>
#include <pageturn/string.h>
#include <pageturn/wait.h>
#include <uapi/errno.h>
#include <uapi/fcntl.h>
#include <uapi/magic.h>
#include <uapi/poll.h>
#include <uapi/stat.h>

#include "../trace/trace.h"

#define TRACEFS_MAX_NODES	64
#define TRACEFS_TEXT_SIZE	2048	/* a control file's text */
#define TRACEFS_LINE_SIZE	1024	/* one trace line, or the header */
#define TRACEFS_WRITE_MAX	255	/* bytes of a write to a control file */

enum tracefs_kind {
	TF_DIR, TF_AVAILABLE_EVENTS, TF_BUFFER_SIZE, TF_ENABLE, TF_STATS, TF_SET_EVENT,
	TF_TRACE, TF_TRACE_PIPE, TF_TRACING_ON,
};

/* An enable file's arg: an event id, TF_ALL, or TF_SYSTEM + system. */
#define TF_ALL		1000
#define TF_SYSTEM	2000

struct tracefs_node {
	const char *name;
	umode_t mode;
	int parent;			/* the node of its directory */
	enum tracefs_kind kind;
	int arg;
};

static struct tracefs_node nodes[TRACEFS_MAX_NODES];
static int nr_nodes;

/* What an open file keeps between reads. */
struct tracefs_file {
	char *text;			/* a control file's text, or NULL */
	size_t text_len;
	loff_t pos;			/* trace: bytes produced so far */
	bool header_done;		/* trace: the header is out */
	uint64_t seq;			/* trace: the next entry */
	char line[TRACEFS_LINE_SIZE];	/* the line being copied out */
	size_t line_len, line_off;
};

static int add_node(const char *name, umode_t mode, int parent, enum tracefs_kind kind, int arg)
{
	if (nr_nodes == TRACEFS_MAX_NODES)
		panic("tracefs: more than %d nodes", TRACEFS_MAX_NODES);
	nodes[nr_nodes] = (struct tracefs_node){ name, mode, parent, kind, arg };
	return nr_nodes++;
}

/* Build the tree; once, at the first mount (mounts are serialised). */
static void tracefs_build(void)
{
	int events, sys, ev, percpu, cpu0;
	unsigned int s;

	if (nr_nodes)
		return;
	add_node("", S_IFDIR | 0755, 0, TF_DIR, 0);
	add_node("available_events", S_IFREG | 0444, 0, TF_AVAILABLE_EVENTS, 0);
	add_node("buffer_size_kb", S_IFREG | 0644, 0, TF_BUFFER_SIZE, 0);
	events = add_node("events", S_IFDIR | 0755, 0, TF_DIR, 0);
	add_node("enable", S_IFREG | 0644, events, TF_ENABLE, TF_ALL);
	for (s = 0; s < nr_trace_systems; s++) {
		sys = add_node(trace_systems[s], S_IFDIR | 0755, events, TF_DIR, 0);
		add_node("enable", S_IFREG | 0644, sys, TF_ENABLE, TF_SYSTEM + s);
		for (int id = 0; id < NR_TRACE_EVENTS; id++) {
			if (strcmp(trace_events[id].system, trace_systems[s]))
				continue;
			ev = add_node(trace_events[id].name, S_IFDIR | 0755, sys, TF_DIR, 0);
			add_node("enable", S_IFREG | 0644, ev, TF_ENABLE, id);
		}
	}
	percpu = add_node("per_cpu", S_IFDIR | 0755, 0, TF_DIR, 0);
	cpu0 = add_node("cpu0", S_IFDIR | 0755, percpu, TF_DIR, 0);
	add_node("stats", S_IFREG | 0444, cpu0, TF_STATS, 0);
	add_node("set_event", S_IFREG | 0644, 0, TF_SET_EVENT, 0);
	add_node("trace", S_IFREG | 0644, 0, TF_TRACE, 0);
	add_node("trace_pipe", S_IFREG | 0444, 0, TF_TRACE_PIPE, 0);
	add_node("tracing_on", S_IFREG | 0644, 0, TF_TRACING_ON, 0);
}

static const struct tracefs_node *inode_node(const struct inode *inode)
{
	return &nodes[inode->i_ino - 1];
}

/* ---- the events' enable state ------------------------------------------ */

/* Does event id belong to an enable file's arg? */
static bool enable_covers(int arg, int id)
{
	if (arg == TF_ALL)
		return true;
	if (arg >= TF_SYSTEM)
		return strcmp(trace_events[id].system, trace_systems[arg - TF_SYSTEM]) == 0;
	return arg == id;
}

/* "0", "1", or "X" when the events arg covers differ. */
static char enable_state(int arg)
{
	bool on = false, off = false;
	int id;

	for (id = 0; id < NR_TRACE_EVENTS; id++) {
		if (!enable_covers(arg, id))
			continue;
		if (trace_event_enabled[id])
			on = true;
		else
			off = true;
	}
	return on && off ? 'X' : on ? '1' : '0';
}

/* Called with trace_types_lock held. */
static int set_enable(int arg, bool on)
{
	int id, err;

	for (id = 0; id < NR_TRACE_EVENTS; id++) {
		if (!enable_covers(arg, id))
			continue;
		err = trace_event_enable(id, on);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One word written to set_event: [!]system:event, [!]system:*, [!]system:,
 * [!]event, [!]*:*, [!]*.  -EINVAL when it names no event.  Called with
 * trace_types_lock held.
 */
static int set_event_word(char *word)
{
	bool on = true, matched = false;
	char *colon, *sys = NULL, *ev = word;
	int id, err;

	if (*word == '!') {
		on = false;
		ev = ++word;
	}
	colon = strchr(word, ':');
	if (colon) {
		*colon = '\0';
		sys = word;
		ev = colon + 1;
		if (*ev == '\0')
			ev = "*";
		if (strcmp(sys, "*") == 0)
			sys = NULL;
	}
	for (id = 0; id < NR_TRACE_EVENTS; id++) {
		if (sys && strcmp(sys, trace_events[id].system))
			continue;
		if (strcmp(ev, "*") && strcmp(ev, trace_events[id].name))
			continue;
		err = trace_event_enable(id, on);
		if (err)
			return err;
		matched = true;
	}
	return matched ? 0 : -EINVAL;
}

static int set_event_write(char *buf)
{
	char *word = buf, *end;
	int err = 0;

	for (;;) {
		while (*word == ' ' || *word == '\t' || *word == '\n')
			word++;
		if (!*word)
			return err;
		for (end = word; *end && *end != ' ' && *end != '\t' && *end != '\n'; end++)
			;
		if (*end)
			*end++ = '\0';
		err = set_event_word(word);
		if (err)
			return err;
		word = end;
	}
}

/* ---- control files ------------------------------------------------------ */

static void render_text(const struct tracefs_node *n, struct seq_file *m)
{
	int id;

	switch (n->kind) {
	case TF_AVAILABLE_EVENTS:
	case TF_SET_EVENT:
		for (id = 0; id < NR_TRACE_EVENTS; id++)
			if (n->kind == TF_AVAILABLE_EVENTS || trace_event_enabled[id])
				seq_printf(m, "%s:%s\n", trace_events[id].system, trace_events[id].name);
		break;
	case TF_BUFFER_SIZE:
		seq_printf(m, "%lu\n", trace_buf_size_kb);
		break;
	case TF_ENABLE:
		seq_printf(m, "%c\n", enable_state(n->arg));
		break;
	case TF_STATS:
		trace_print_stats(m);
		break;
	case TF_TRACING_ON:
		seq_printf(m, "%d\n", tracing_on);
		break;
	default:
		break;
	}
}

static long control_read(struct tracefs_file *tf, const struct tracefs_node *n, loff_t *pos,
			 struct iov_iter *to)
{
	struct seq_file m;
	size_t len;

	if (*pos < 0)
		return -EINVAL;
	if (*pos == 0 || !tf->text) {
		if (!tf->text) {
			tf->text = kmalloc(TRACEFS_TEXT_SIZE, GFP_KERNEL);
			if (!tf->text)
				return -ENOMEM;
		}
		seq_init(&m, tf->text, TRACEFS_TEXT_SIZE);
		mutex_lock(&trace_types_lock);
		render_text(n, &m);
		mutex_unlock(&trace_types_lock);
		tf->text_len = m.count;
	}
	if ((uint64_t)*pos >= tf->text_len)
		return 0;
	len = copy_to_iter(tf->text + *pos, MIN(iov_iter_count(to), tf->text_len - *pos), to);
	*pos += len;
	return len ? (long)len : -EFAULT;
}

static long control_write(const struct tracefs_node *n, char *buf, size_t len)
{
	unsigned long val = 0;
	int err = 0;

	if (n->kind != TF_SET_EVENT) {
		err = trace_parse_ulong(buf, len, &val);
		if (err)
			return err;
	}
	mutex_lock(&trace_types_lock);
	switch (n->kind) {
	case TF_BUFFER_SIZE:
		err = ring_buffer_resize(val);
		break;
	case TF_ENABLE:
		err = val > 1 ? -EINVAL : set_enable(n->arg, val);
		break;
	case TF_SET_EVENT:
		err = set_event_write(buf);
		break;
	case TF_TRACING_ON:
		tracing_on = val != 0;
		break;
	default:
		err = -EINVAL;
		break;
	}
	mutex_unlock(&trace_types_lock);
	return err;
}

/* ---- trace and trace_pipe ------------------------------------------------ */

/* Copy what is left of tf->line to to; true when all of it went. */
static bool copy_line(struct tracefs_file *tf, struct iov_iter *to, size_t *copied, bool *fault)
{
	size_t want = MIN(iov_iter_count(to), tf->line_len - tf->line_off);
	size_t n = copy_to_iter(tf->line + tf->line_off, want, to);

	tf->line_off += n;
	*copied += n;
	if (n < want)
		*fault = true;
	return tf->line_off == tf->line_len;
}

/* Put entry e's line in tf->line. */
static void format_entry(struct tracefs_file *tf, const struct trace_entry *e)
{
	struct seq_file m;

	seq_init(&m, tf->line, sizeof(tf->line));
	trace_print_line(&m, e);
	tf->line_len = m.count;
	tf->line_off = 0;
}

/* The next piece of the trace file into tf->line: false at its end. */
static bool trace_next_line(struct tracefs_file *tf)
{
	struct ring_buffer_stats st;
	struct trace_entry e;
	struct seq_file m;

	if (!tf->header_done) {
		ring_buffer_stats(&st);
		seq_init(&m, tf->line, sizeof(tf->line));
		trace_print_header(&m, &st);
		tf->line_len = m.count;
		tf->line_off = 0;
		tf->seq = st.first_seq;
		tf->header_done = true;
		return true;
	}
	if (!ring_buffer_peek(&tf->seq, &e))
		return false;
	tf->seq++;
	format_entry(tf, &e);
	return true;
}

static long trace_read(struct tracefs_file *tf, loff_t *pos, struct iov_iter *to)
{
	size_t copied = 0, skip;
	bool fault = false;

	if (*pos < 0)
		return -EINVAL;
	if (*pos < tf->pos || *pos == 0) {
		tf->pos = 0;
		tf->header_done = false;
		tf->line_len = tf->line_off = 0;
	}
	while (tf->pos < *pos) {	/* skip to *pos */
		if (tf->line_off == tf->line_len && !trace_next_line(tf))
			return 0;
		skip = MIN(tf->line_len - tf->line_off, (size_t)(*pos - tf->pos));
		tf->line_off += skip;
		tf->pos += skip;
	}
	while (iov_iter_count(to) && !fault) {
		if (tf->line_off == tf->line_len && !trace_next_line(tf))
			break;
		copy_line(tf, to, &copied, &fault);
	}
	tf->pos += copied;
	*pos += copied;
	return copied || !fault ? (long)copied : -EFAULT;
}

static bool trace_pipe_has_data(void)
{
	struct ring_buffer_stats st;

	ring_buffer_stats(&st);
	return st.entries != 0;
}

/*
 * Consume whole lines while they fit; a line larger than what is left of
 * the reader's buffer is copied in part and the rest kept for the next
 * read.  Blocks while nothing can be returned.
 */
static long trace_pipe_read(struct file *file, struct tracefs_file *tf, struct iov_iter *to)
{
	size_t copied = 0;
	struct trace_entry e;
	bool fault = false;

	for (;;) {
		if (tf->line_off < tf->line_len && !copy_line(tf, to, &copied, &fault))
			break;
		if (!iov_iter_count(to) || fault)
			break;
		if (!ring_buffer_consume(&e)) {
			if (copied)
				break;
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			if (wait_event_interruptible(trace_wait, trace_pipe_has_data()))
				return -EINTR;
			continue;
		}
		format_entry(tf, &e);
	}
	return copied || !fault ? (long)copied : -EFAULT;
}

/* ---- file operations -------------------------------------------------- */

static int tracefs_open(struct inode *inode, struct file *file)
{
	const struct tracefs_node *n = inode_node(inode);
	struct tracefs_file *tf = kzalloc(sizeof(*tf), GFP_KERNEL);

	if (!tf)
		return -ENOMEM;
	file->private_data = tf;
	if (n->kind == TF_TRACE_PIPE)
		stream_open(inode, file);
	if (n->kind == TF_TRACE && (file->f_mode & FMODE_READ))
		tracing_pause(true);
	return 0;
}

static void tracefs_release(struct file *file)
{
	struct tracefs_file *tf = file->private_data;

	if (inode_node(file->f_inode)->kind == TF_TRACE && (file->f_mode & FMODE_READ))
		tracing_pause(false);
	kfree(tf->text);
	kfree(tf);
	file->private_data = NULL;
}

static long tracefs_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	const struct tracefs_node *n = inode_node(file->f_inode);

	switch (n->kind) {
	case TF_TRACE:
		return trace_read(file->private_data, &iocb->ki_pos, to);
	case TF_TRACE_PIPE:
		return trace_pipe_read(file, file->private_data, to);
	default:
		return control_read(file->private_data, n, &iocb->ki_pos, to);
	}
}

static long tracefs_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	const struct tracefs_node *n = inode_node(iocb->ki_filp->f_inode);
	size_t count = iov_iter_count(from);
	char buf[TRACEFS_WRITE_MAX + 1];
	long err;

	if (n->kind == TF_TRACE) {
		mutex_lock(&trace_types_lock);
		ring_buffer_reset();
		mutex_unlock(&trace_types_lock);
		iov_iter_advance(from, count);
		return count;
	}
	if (count > TRACEFS_WRITE_MAX)
		return -EINVAL;
	if (copy_from_iter(buf, count, from) != count)
		return -EFAULT;
	buf[count] = '\0';
	err = control_write(n, buf, count);
	return err ? err : (long)count;
}

/* trace_pipe is readable while the buffer has entries (or a line is
 * left from the last read), waking with trace_pipe's readers; the other
 * files always are, as Linux's files without a poll. */
static unsigned int tracefs_poll(struct file *file, struct poll_table_struct *wait)
{
	struct tracefs_file *tf = file->private_data;

	if (inode_node(file->f_inode)->kind != TF_TRACE_PIPE)
		return POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM;
	poll_wait(file, &trace_wait, wait);
	return tf->line_off < tf->line_len || trace_pipe_has_data() ? POLLIN | POLLRDNORM : 0;
}

static const struct file_operations tracefs_file_operations = {
	.open = tracefs_open,
	.read_iter = tracefs_read_iter,
	.write_iter = tracefs_write_iter,
	.poll = tracefs_poll,
	.release = tracefs_release,
};

/* O_TRUNC: trace empties the buffer, set_event disables every event;
 * the other files ignore it, as Linux's do. */
static int tracefs_truncate(struct inode *inode, loff_t size)
{
	const struct tracefs_node *n = inode_node(inode);
	int err = 0;

	(void)size;
	mutex_lock(&trace_types_lock);
	if (n->kind == TF_TRACE)
		ring_buffer_reset();
	else if (n->kind == TF_SET_EVENT)
		err = set_enable(TF_ALL, false);
	mutex_unlock(&trace_types_lock);
	return err;
}

static const struct inode_operations tracefs_file_inode_operations = {
	.truncate = tracefs_truncate,
};

/* ---- directories and the super block ------------------------------------ */

static int tracefs_lookup(struct inode *dir, const char *name, struct inode **res)
{
	int parent = dir->i_ino - 1, i;

	for (i = 1; i < nr_nodes; i++)
		if (nodes[i].parent == parent && strcmp(nodes[i].name, name) == 0)
			return iget(dir->i_sb, i + 1, res);
	return -ENOENT;
}

static int tracefs_iterate(struct file *file, filldir_t filldir, void *ctx)
{
	int dir = file->f_inode->i_ino - 1, i, k;

	for (;;) {
		if (file->f_pos < 2) {
			if (filldir(ctx, file->f_pos ? ".." : ".", file->f_pos + 1,
				    file->f_pos ? nodes[dir].parent + 1 : dir + 1, DT_DIR))
				return 0;
			file->f_pos++;
			continue;
		}
		for (i = 1, k = 2; i < nr_nodes; i++)
			if (nodes[i].parent == dir && k++ == file->f_pos)
				break;
		if (i == nr_nodes)
			return 0;
		if (filldir(ctx, nodes[i].name, strlen(nodes[i].name), i + 1,
			    (nodes[i].mode & S_IFMT) >> 12))
			return 0;
		file->f_pos++;
	}
}

static const struct inode_operations tracefs_dir_inode_operations = {
	.lookup = tracefs_lookup,
};

static const struct file_operations tracefs_dir_operations = {
	.iterate = tracefs_iterate,
};

static int tracefs_read_inode(struct inode *inode)
{
	const struct tracefs_node *n;

	if (inode->i_ino < 1 || inode->i_ino > (uint64_t)nr_nodes)
		return -ENOENT;
	n = inode_node(inode);
	inode->i_mode = n->mode;
	inode->i_blksize = PAGE_SIZE;
	if (S_ISDIR(n->mode)) {
		inode->i_nlink = 2;
		inode->i_op = &tracefs_dir_inode_operations;
		inode->i_fop = &tracefs_dir_operations;
	} else {
		inode->i_nlink = 1;
		inode->i_op = &tracefs_file_inode_operations;
		inode->i_fop = &tracefs_file_operations;
	}
	return 0;
}

static bool tracefs_drop_inode(struct inode *inode)
{
	(void)inode;
	return true;
}

static void tracefs_evict_inode(struct inode *inode)
{
	(void)inode;	/* the nodes are static */
}

static const struct super_operations tracefs_sops = {
	.read_inode = tracefs_read_inode,
	.drop_inode = tracefs_drop_inode,
	.evict_inode = tracefs_evict_inode,
};

static int tracefs_mount(struct super_block *sb)
{
	tracefs_build();
	sb->s_op = &tracefs_sops;
	sb->s_magic = TRACEFS_MAGIC;
	return iget(sb, 1, &sb->s_root);
}

struct file_system_type tracefs_fs_type = {
	.name = "tracefs",
	.mount = tracefs_mount,
};
