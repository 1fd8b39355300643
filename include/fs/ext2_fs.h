/*
 * The ext2 on-disk format (Linux's include/linux/ext2_fs.h names).
 *
 * A volume is an array of blocks of 1024 << s_log_block_size bytes.  The
 * superblock always sits at byte 1024 (block 1 with 1 KiB blocks, inside
 * block 0 otherwise); s_first_data_block is the block holding it.  The
 * blocks after it are split into groups of s_blocks_per_group blocks; the
 * group descriptor table follows the superblock, and each descriptor names
 * its group's block bitmap, inode bitmap and inode table.
 *
 * Inodes are numbered from 1 (EXT2_ROOT_INO is 2); inode n lives in group
 * (n - 1) / s_inodes_per_group.  An inode maps file block i through
 * i_block[]: 12 direct pointers, then one single, one double and one triple
 * indirect block, each an array of 32-bit block numbers.  A zero pointer is
 * a hole and reads as zeroes.
 *
 * A directory is a file of ext2_dir_entry_2 records chained by rec_len;
 * records never cross a block, and the last record of a block stretches to
 * its end.  An entry with inode 0 is unused space.
 *
 * All fields are little-endian; Pageturn runs only on x86-64, so the
 * structures are used in place without byte swapping.
 */
#ifndef FS_EXT2_FS_H
#define FS_EXT2_FS_H

#include <pageturn/types.h>

#define EXT2_SUPER_MAGIC	0xEF53
#define EXT2_SUPERBLOCK_OFFSET	1024

/* Special inode numbers. */
#define EXT2_BAD_INO		1
#define EXT2_ROOT_INO		2

/* An extended-attribute block starts with a header: magic, then the
 * number of inodes sharing the block (Linux's struct ext2_xattr_header). */
#define EXT2_XATTR_MAGIC	0xEA020000u
#define EXT2_XATTR_MAGIC_OFF	0
#define EXT2_XATTR_REFCOUNT_OFF	4
#define EXT2_GOOD_OLD_FIRST_INO	11

#define EXT2_MIN_BLOCK_LOG_SIZE	10
#define EXT2_MIN_BLOCK_SIZE	(1u << EXT2_MIN_BLOCK_LOG_SIZE)
#define EXT2_MAX_BLOCK_LOG_SIZE	12	/* Pageturn: a block fits in a page */

/* i_block[] layout. */
#define EXT2_NDIR_BLOCKS	12
#define EXT2_IND_BLOCK		EXT2_NDIR_BLOCKS
#define EXT2_DIND_BLOCK		(EXT2_IND_BLOCK + 1)
#define EXT2_TIND_BLOCK		(EXT2_DIND_BLOCK + 1)
#define EXT2_N_BLOCKS		(EXT2_TIND_BLOCK + 1)

/* Revisions. */
#define EXT2_GOOD_OLD_REV	0
#define EXT2_DYNAMIC_REV	1
#define EXT2_GOOD_OLD_INODE_SIZE 128

/* s_state */
#define EXT2_VALID_FS		0x0001
#define EXT2_ERROR_FS		0x0002

/* Feature sets. */
#define EXT2_FEATURE_COMPAT_DIR_PREALLOC	0x0001
#define EXT2_FEATURE_COMPAT_EXT_ATTR		0x0008
#define EXT2_FEATURE_COMPAT_RESIZE_INO		0x0010
#define EXT2_FEATURE_COMPAT_DIR_INDEX		0x0020

#define EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER	0x0001
#define EXT2_FEATURE_RO_COMPAT_LARGE_FILE	0x0002
#define EXT2_FEATURE_RO_COMPAT_BTREE_DIR	0x0004

#define EXT2_FEATURE_INCOMPAT_COMPRESSION	0x0001
#define EXT2_FEATURE_INCOMPAT_FILETYPE		0x0002
#define EXT3_FEATURE_INCOMPAT_RECOVER		0x0004
#define EXT3_FEATURE_INCOMPAT_JOURNAL_DEV	0x0008
#define EXT2_FEATURE_INCOMPAT_META_BG		0x0010
#define EXT4_FEATURE_INCOMPAT_EXTENTS		0x0040

/* What Pageturn's ext2 understands. */
#define EXT2_FEATURE_INCOMPAT_SUPP	EXT2_FEATURE_INCOMPAT_FILETYPE
#define EXT2_FEATURE_RO_COMPAT_SUPP	(EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER | \
					 EXT2_FEATURE_RO_COMPAT_LARGE_FILE)

struct ext2_super_block {
	uint32_t s_inodes_count;
	uint32_t s_blocks_count;
	uint32_t s_r_blocks_count;	/* reserved for the superuser */
	uint32_t s_free_blocks_count;
	uint32_t s_free_inodes_count;
	uint32_t s_first_data_block;
	uint32_t s_log_block_size;	/* block size = 1024 << this */
	uint32_t s_log_frag_size;
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime;
	uint32_t s_wtime;
	uint16_t s_mnt_count;
	int16_t  s_max_mnt_count;
	uint16_t s_magic;
	uint16_t s_state;
	uint16_t s_errors;
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck;
	uint32_t s_checkinterval;
	uint32_t s_creator_os;
	uint32_t s_rev_level;
	uint16_t s_def_resuid;
	uint16_t s_def_resgid;
	/* EXT2_DYNAMIC_REV only. */
	uint32_t s_first_ino;
	uint16_t s_inode_size;
	uint16_t s_block_group_nr;
	uint32_t s_feature_compat;
	uint32_t s_feature_incompat;
	uint32_t s_feature_ro_compat;
	uint8_t  s_uuid[16];
	char     s_volume_name[16];
	char     s_last_mounted[64];
	uint32_t s_algorithm_usage_bitmap;
	uint8_t  s_prealloc_blocks;
	uint8_t  s_prealloc_dir_blocks;
	uint16_t s_padding1;
	uint8_t  s_journal_uuid[16];
	uint32_t s_journal_inum;
	uint32_t s_journal_dev;
	uint32_t s_last_orphan;
	uint32_t s_hash_seed[4];
	uint8_t  s_def_hash_version;
	uint8_t  s_reserved_char_pad;
	uint16_t s_reserved_word_pad;
	uint32_t s_default_mount_opts;
	uint32_t s_first_meta_bg;
	uint32_t s_reserved[190];
};

struct ext2_group_desc {
	uint32_t bg_block_bitmap;
	uint32_t bg_inode_bitmap;
	uint32_t bg_inode_table;
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;
	uint16_t bg_pad;
	uint32_t bg_reserved[3];
};

/* The first EXT2_GOOD_OLD_INODE_SIZE bytes of an inode; revision 1 inodes
 * may be larger (s_inode_size), the rest belongs to extensions. */
struct ext2_inode {
	uint16_t i_mode;
	uint16_t i_uid;
	uint32_t i_size;
	uint32_t i_atime;
	uint32_t i_ctime;
	uint32_t i_mtime;
	uint32_t i_dtime;		/* deletion time: nonzero only when free */
	uint16_t i_gid;
	uint16_t i_links_count;
	uint32_t i_blocks;		/* 512-byte units, indirect blocks included */
	uint32_t i_flags;
	uint32_t i_reserved1;
	uint32_t i_block[EXT2_N_BLOCKS];
	uint32_t i_generation;
	uint32_t i_file_acl;
	uint32_t i_dir_acl;		/* regular files: i_size_high */
	uint32_t i_faddr;
	uint8_t  i_frag;
	uint8_t  i_fsize;
	uint16_t i_pad1;
	uint16_t i_uid_high;
	uint16_t i_gid_high;
	uint32_t i_reserved2;
};

/* The first field past the old inode in larger inodes (ext4's name). */
struct ext2_inode_large_tail {
	uint16_t i_extra_isize;
	uint16_t i_checksum_hi;
};

#define i_size_high i_dir_acl

/* i_flags */
#define EXT2_INDEX_FL		0x00001000	/* hashed directory (ignored, cleared on change) */

/* i_mode: file type and permission bits. */
#define EXT2_S_IFMT		0170000
#define EXT2_S_IFSOCK		0140000
#define EXT2_S_IFLNK		0120000
#define EXT2_S_IFREG		0100000
#define EXT2_S_IFBLK		0060000
#define EXT2_S_IFDIR		0040000
#define EXT2_S_IFCHR		0020000
#define EXT2_S_IFIFO		0010000
#define EXT2_S_ISREG(m)		(((m) & EXT2_S_IFMT) == EXT2_S_IFREG)
#define EXT2_S_ISDIR(m)		(((m) & EXT2_S_IFMT) == EXT2_S_IFDIR)

#define EXT2_NAME_LEN 255

struct ext2_dir_entry_2 {
	uint32_t inode;			/* 0: unused */
	uint16_t rec_len;		/* to the next entry */
	uint8_t  name_len;
	uint8_t  file_type;		/* EXT2_FT_*, with INCOMPAT_FILETYPE */
	char     name[];
};

enum {
	EXT2_FT_UNKNOWN,
	EXT2_FT_REG_FILE,
	EXT2_FT_DIR,
	EXT2_FT_CHRDEV,
	EXT2_FT_BLKDEV,
	EXT2_FT_FIFO,
	EXT2_FT_SOCK,
	EXT2_FT_SYMLINK,
	EXT2_FT_MAX
};

/* The space a record with a name of name_len bytes needs: 8 + name,
 * rounded up to 4. */
#define EXT2_DIR_PAD		4
#define EXT2_DIR_ROUND		(EXT2_DIR_PAD - 1)
#define EXT2_DIR_REC_LEN(name_len) (((name_len) + 8 + EXT2_DIR_ROUND) & ~EXT2_DIR_ROUND)

_Static_assert(sizeof(struct ext2_super_block) == 1024, "superblock size");
_Static_assert(sizeof(struct ext2_group_desc) == 32, "group descriptor size");
_Static_assert(sizeof(struct ext2_inode) == 128, "inode size");

#endif
