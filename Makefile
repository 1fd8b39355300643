# Pageturn — top-level build.
#
#   make            build build/kernel.elf and the root filesystem build/root.img
#   make iso        build build/pageturn.iso (CMDLINE="..." sets the kernel command line,
#                   GRUB_TIMEOUT=5 shows GRUB's menu for 5 seconds)
#   make run        boot the ISO in QEMU, serial console in this terminal, with
#                   a swap disk (build/swap.img, SWAP_MIB=256 MiB, made by mkswap)
#                   as /dev/vda, on from boot (swap=vda); SWAP_MIB=0: none
#   make run-gui    the same in a QEMU window
#   make debug      boot halted with a gdb stub; `gdb -x build/gdbinit` attaches
#   make test       host unit tests + QEMU integration tests
#   make bench      micro-benchmarks, the reclaim scale row and the memory hogs' reclaim
#                   suite on Pageturn (lru=split, lru=single) and Debian's Linux
#                   (docs/benchmarks.md; BENCH_N=3 boots per cell, BENCH_ONLY=REGEX micro
#                   rows, BENCH_WORKLOADS=REGEX hog workloads, BENCH_MEM=256M and
#                   BENCH_SWAP_MIB=1024 for the hogs, QUICK=1 a short run; SWEEP=1: only
#                   the reclaim scale sweep at -m 256M, 1G and 4G)
#   make bench-reclaim  the hogs' reclaim suite alone
#   make deps       install the Debian packages the project needs
#   make help       this text
#
# CROSS=x86_64-elf- builds with a cross toolchain instead of the host gcc.
# ACCEL=kvm runs QEMU with KVM (default: TCG, see docs/boot.md).
# FIRMWARE=uefi boots through OVMF instead of SeaBIOS; MEM=2G sets the RAM.

VERSION     := 0.1.0
CROSS       ?=
CC          := $(CROSS)gcc
LD          := $(CROSS)ld
NM          := $(CROSS)nm
OBJCOPY     := $(CROSS)objcopy
NASM        ?= nasm
PYTHON      ?= /usr/bin/python3
HOSTCC      ?= gcc

B           := build
CMDLINE     ?=
GRUB_TIMEOUT ?= 0
MEM         ?= 512M
SWAP_MIB    ?= 256
SWAP_IMG    := $(B)/swap.img
ACCEL       ?= tcg
FIRMWARE    ?= bios
MEDIUM      ?= cdrom
ISO         ?= $(B)/pageturn.iso
FONT        ?= /usr/share/consolefonts/Lat15-Terminus16.psf.gz

GIT_REV     := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

# --- kernel flags -----------------------------------------------------------
KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -nostdlib -fno-pic -fno-pie -mno-red-zone \
	-mcmodel=kernel -mno-mmx -mno-sse -mno-sse2 -mno-80387 -mgeneral-regs-only \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-optimize-sibling-calls -fno-shrink-wrap -fno-toplevel-reorder \
	-fno-strict-aliasing -fno-common \
	-Iinclude -I$(B)/include -MMD -MP
KNASMFLAGS := -f elf64 -g -F dwarf -Iinclude/
KLDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack -T linker.ld

# Every .c and .asm under these folders is part of the kernel.
KDIRS   := boot kernel mm drivers
KSRC_C  := $(shell find $(KDIRS) -name '*.c' | sort)
KSRC_S  := $(shell find $(KDIRS) -name '*.asm' | sort)
KOBJS   := $(KSRC_C:%.c=$(B)/%.o) $(KSRC_S:%.asm=$(B)/%.o) $(B)/font.o

.PHONY: all iso run run-gui debug test unit qemu-test bench bench-reclaim bench-packages deps help clean FORCE
.DELETE_ON_ERROR:

all: $(B)/kernel.elf $(B)/root.img

help:
	@sed -n '2,24s/^# \{0,1\}//p' Makefile

# --- generated headers: only rewritten when their content changes -----------
$(B)/include/generated/version.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define PAGETURN_VERSION "%s"\n#define PAGETURN_GIT_REV "%s"\n' \
		'$(VERSION)' '$(GIT_REV)' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

# Objects are rebuilt when the flags change, not only their sources.
$(B)/kflags.txt: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(KCFLAGS) $(NASM) $(KNASMFLAGS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(B)/%.o: %.c $(B)/kflags.txt
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -c $< -o $@

$(B)/%.o: %.asm $(B)/kflags.txt
	@mkdir -p $(dir $@)
	$(NASM) $(KNASMFLAGS) -MD $(B)/$*.d -MP $< -o $@

# The boot code mixes 32- and 64-bit code, whose DWARF line tables from
# NASM make gdb report internal errors in every backtrace: it gets its
# symbols only.
$(B)/boot/%.o: boot/%.asm $(B)/kflags.txt
	@mkdir -p $(dir $@)
	$(NASM) $(filter-out -g -F dwarf,$(KNASMFLAGS)) -MD $(B)/boot/$*.d -MP $< -o $@

$(B)/kernel/main.o: $(B)/include/generated/version.h
$(B)/kernel/tests/rootfs_test.o: $(B)/include/generated/rootfs.h
$(B)/kernel/sys.o: $(B)/include/generated/version.h

# --- the root filesystem: rootfs/ plus generated test data, made into an
# ext2 image with mke2fs -d; GRUB loads it as a boot module (ram0).
# User programs (user/user.mk) and Debian's busybox go into the image too.
include user/user.mk
ROOTFS_FILES := $(shell find rootfs -type f 2>/dev/null)
$(B)/root.img $(B)/include/generated/rootfs.h &: $(ROOTFS_FILES) tools/mkrootfs.py $(USER_ROOTFS_DEPS)
	@mkdir -p $(B)/include/generated
	$(PYTHON) tools/mkrootfs.py rootfs $(B)/rootfs $(B)/root.img $(B)/include/generated/rootfs.h \
		$(USER_ROOTFS_ARGS)

# The console font: a PSF font from Debian's console-setup, linked in as data.
$(B)/font.psf: $(FONT)
	@mkdir -p $(B)
	gzip -dc $< > $@
$(B)/font.o: $(B)/font.psf tools/incbin.asm
	$(NASM) -f elf64 -DFILE='"$<"' -DSYM=console_font tools/incbin.asm -o $@

# --- link: two passes so the kernel carries its own symbol table -------------
# Pass 1 links with an empty table; the table generated from pass 1 goes in
# the last section of the image, so no other address moves in pass 2.
$(B)/kallsyms0.o: tools/kallsyms.sh
	@mkdir -p $(B)
	sh tools/kallsyms.sh /dev/null > $(B)/kallsyms0.c
	$(CC) $(KCFLAGS) -c $(B)/kallsyms0.c -o $@

$(B)/kernel.pass1.elf: $(KOBJS) $(B)/kallsyms0.o linker.ld
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms0.o

$(B)/kallsyms.o: $(B)/kernel.pass1.elf tools/kallsyms.sh
	$(NM) -n --defined-only $< | sh tools/kallsyms.sh - > $(B)/kallsyms.c
	$(CC) $(KCFLAGS) -c $(B)/kallsyms.c -o $@

$(B)/kernel.elf: $(B)/kernel.pass1.elf $(B)/kallsyms.o
	$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(B)/kallsyms.o
	@$(NM) -n --defined-only $(B)/kernel.pass1.elf | grep -i ' t ' > $(B)/syms1.txt
	@$(NM) -n --defined-only $@ | grep -i ' t ' > $(B)/syms2.txt
	@cmp -s $(B)/syms1.txt $(B)/syms2.txt || { echo "kallsyms: text moved between link passes" >&2; rm -f $@; exit 1; }
	@! command -v grub-file >/dev/null || grub-file --is-x86-multiboot2 $@ || \
		{ echo "$@: GRUB does not accept it as multiboot2" >&2; rm -f $@; exit 1; }

# --- the bootable image -----------------------------------------------------
iso: deps-check $(ISO)

# Rebuild the image when the command line or the menu timeout changes.
$(B)/iso-config.txt: FORCE
	@mkdir -p $(B)
	@printf '%s\n%s\n' '$(CMDLINE)' '$(GRUB_TIMEOUT)' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(ISO): $(B)/kernel.elf $(B)/root.img $(B)/iso-config.txt iso/grub.cfg.in tools/mkiso.sh
	OBJCOPY=$(OBJCOPY) sh tools/mkiso.sh $(B)/kernel.elf $(B)/root.img '$(CMDLINE)' $@ '$(GRUB_TIMEOUT)'

# --- running ----------------------------------------------------------------
QEMU_RUN = $(PYTHON) tools/qemu.py --iso $(ISO) --mem $(MEM) --accel $(ACCEL) --firmware $(FIRMWARE) --medium $(MEDIUM)

# make run and run-gui give the machine swap: a sparse image that mkswap
# formats (once; SWAP_MIB=0 boots without), attached as the first virtio
# disk, which the kernel switches on before init (swap=vda).
ifneq ($(SWAP_MIB),0)
RUN_SWAP := --swap $(SWAP_IMG)
run run-gui: CMDLINE += swap=vda
run run-gui: $(SWAP_IMG)
endif

$(SWAP_IMG):
	@mkdir -p $(B)
	truncate -s $(SWAP_MIB)M $@.tmp && /sbin/mkswap -q $@.tmp >/dev/null && mv $@.tmp $@

run: iso
	@echo "Pageturn: serial console below. Quit QEMU with Ctrl-A then X."
	@[ "$(SWAP_MIB)" = 0 ] || echo "Swap: $(SWAP_IMG) ($(SWAP_MIB) MiB, mkswap'd) is /dev/vda, on from boot (cat /proc/swaps)."
	$(QEMU_RUN) $(RUN_SWAP) --mode serial

run-gui: iso
	$(QEMU_RUN) $(RUN_SWAP) --mode gui

debug: iso $(B)/gdbinit
	@echo "QEMU is halted at reset with a gdb stub on localhost:1234."
	@echo "In another terminal: gdb -x $(B)/gdbinit   (loads the symbols and attaches)"
	@echo "Then, for example: hbreak kmain, continue, bt; useful breakpoints: panic, die (an oops),"
	@echo "do_page_fault, handle_mm_fault, schedule, sys_execve. Use hbreak before paging is on."
	@echo "Quit QEMU with Ctrl-A then X."
	$(QEMU_RUN) --mode serial --gdb

$(B)/gdbinit: tools/gdbinit.in
	@mkdir -p $(B)
	sed 's|@KERNEL@|$(abspath $(B)/kernel.elf)|' $< > $@

# --- tests ------------------------------------------------------------------
UNIT_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -Iinclude -I$(B)/include \
	-DHOST_TEST -fsanitize=address,undefined -fno-omit-frame-pointer
UNIT_TESTS  := $(patsubst tests/unit/test_%.c,$(B)/unit/test_%,$(wildcard tests/unit/test_*.c))

# Each unit test links the kernel sources it exercises, built for the host.
# The page cache copies through iov_iters: kernel buffers only on the host.
UNIT_IOV_ITER := kernel/lib/iov_iter.c tests/unit/fake_uaccess.c
UNIT_SRCS_iov_iter := $(UNIT_IOV_ITER) mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c
# mm/page_alloc.c's min_free_kbytes handler parses with kernel/sysctl.c.
UNIT_SYSCTL := kernel/sysctl.c tests/unit/fake_sysctl.c
UNIT_SRCS_sysctl     := $(UNIT_SYSCTL)
UNIT_SRCS_cmdline    := kernel/cmdline.c
UNIT_SRCS_multiboot2 := kernel/multiboot2.c
UNIT_SRCS_vsprintf   := kernel/lib/vsprintf.c
UNIT_SRCS_psf        := drivers/console/psf.c
UNIT_SRCS_page_alloc := mm/page_alloc.c mm/vmstat.c kernel/fs/seq_file.c tests/unit/kernel_stubs.c \
	tests/unit/fake_zones.c tests/unit/fake_wait.c tests/unit/fake_alloc_env.c $(UNIT_SYSCTL)
UNIT_SRCS_pgtable    := mm/pgtable.c
UNIT_SRCS_slab       := mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c
UNIT_SRCS_bio        := drivers/block/bio.c mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c
UNIT_SRCS_blk_merge  := drivers/block/blk-merge.c
UNIT_SRCS_libata     := drivers/block/libata-core.c drivers/scsi/scsi.c tests/unit/kernel_stubs.c
UNIT_SRCS_usb_storage := drivers/usb/core/hub.c drivers/usb/core/message.c drivers/usb/storage/transport.c \
	mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c
UNIT_SRCS_partitions := $(wildcard drivers/block/partitions/*.c) kernel/lib/crc32.c tests/unit/kernel_stubs.c
UNIT_SRCS_memblock   := mm/memblock.c
UNIT_SRCS_vt         := drivers/console/vt.c tests/unit/fake_vt.c
UNIT_SRCS_n_tty      := drivers/tty/n_tty.c drivers/input/keyboard.c tests/unit/fake_tty.c
UNIT_SRCS_rtc        := tests/unit/kernel_stubs.c
$(B)/unit/test_random: kernel/random.c
$(B)/unit/test_rtc: drivers/rtc.c
UNIT_SRCS_proc       := kernel/fs/proc/array.c kernel/fs/proc/task_mmu.c kernel/fs/proc/stat.c \
	kernel/fs/proc/meminfo.c kernel/fs/seq_file.c kernel/lib/vsprintf.c tests/unit/kernel_stubs.c
UNIT_CFLAGS_proc     := -Dvsnprintf=kernel_vsnprintf -Dsnprintf=kernel_snprintf
UNIT_SRCS_elf        := kernel/elf.c
UNIT_SRCS_exec       := kernel/exec.c kernel/elf.c
UNIT_CFLAGS_exec     := -include tests/unit/fake_cpu.h
UNIT_SRCS_mmap       := mm/mmap.c mm/mprotect.c mm/madvise.c mm/mlock.c tests/unit/fake_mm.c tests/unit/kernel_stubs.c
UNIT_SRCS_ext2       := kernel/fs/buffer.c kernel/fs/mpage.c drivers/block/bio.c $(wildcard kernel/fs/ext2/*.c) mm/filemap.c kernel/lib/radix-tree.c mm/swap.c \
	mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c tests/unit/fake_wait.c \
	tests/unit/ext2_image.c tests/unit/fake_rmap.c $(UNIT_IOV_ITER)
UNIT_SRCS_ext2_symlink := kernel/fs/buffer.c kernel/fs/mpage.c drivers/block/bio.c $(wildcard kernel/fs/ext2/*.c) mm/filemap.c kernel/lib/radix-tree.c mm/swap.c \
	mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c tests/unit/fake_wait.c \
	tests/unit/ext2_image.c tests/unit/fake_rmap.c $(UNIT_IOV_ITER)
UNIT_SRCS_filemap    := mm/filemap.c kernel/lib/radix-tree.c mm/swap.c mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/slab.c tests/unit/fake_machine.c \
	tests/unit/kernel_stubs.c tests/unit/fake_wait.c tests/unit/fake_rmap.c $(UNIT_IOV_ITER)
UNIT_SRCS_rmap       := mm/rmap.c mm/memory.c mm/mmap.c mm/mprotect.c mm/mlock.c mm/pgtable.c mm/filemap.c kernel/lib/radix-tree.c \
	mm/swap.c mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/slab.c tests/unit/fake_machine.c tests/unit/kernel_stubs.c \
	tests/unit/fake_wait.c $(UNIT_IOV_ITER)
UNIT_SRCS_memory     := mm/memory.c mm/rmap.c mm/pgtable.c mm/filemap.c kernel/lib/radix-tree.c mm/swap.c mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/slab.c \
	tests/unit/fake_machine.c tests/unit/kernel_stubs.c tests/unit/fake_wait.c $(UNIT_IOV_ITER)
UNIT_SRCS_swapfile   := mm/swapfile.c tests/unit/fake_swap_cache.c drivers/block/bio.c mm/slab.c kernel/fs/seq_file.c tests/unit/fake_machine.c \
	tests/unit/kernel_stubs.c
UNIT_SRCS_shrinker   := mm/shrinker.c tests/unit/fake_wait.c tests/unit/kernel_stubs.c
UNIT_SRCS_radix_tree := kernel/lib/radix-tree.c tests/unit/kernel_stubs.c
UNIT_SRCS_oom        := mm/oom_kill.c tests/unit/kernel_stubs.c
UNIT_SRCS_lru        := mm/swap.c mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/vmstat.c kernel/fs/seq_file.c mm/page_alloc.c \
	mm/filemap.c kernel/lib/radix-tree.c mm/slab.c tests/unit/kernel_stubs.c tests/unit/fake_zones.c \
	tests/unit/fake_wait.c tests/unit/fake_alloc_env.c tests/unit/fake_rmap.c $(UNIT_SYSCTL) $(UNIT_IOV_ITER)
UNIT_SRCS_vmscan     := mm/swap.c mm/vmscan.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/vmstat.c kernel/fs/seq_file.c mm/page_alloc.c \
	mm/filemap.c kernel/lib/radix-tree.c mm/slab.c tests/unit/kernel_stubs.c tests/unit/fake_zones.c \
	tests/unit/fake_wait.c tests/unit/fake_alloc_env.c tests/unit/fake_rmap.c $(UNIT_SYSCTL) $(UNIT_IOV_ITER)
# lru=single's test includes mm/vmscan.c itself, to reach its static functions.
UNIT_SRCS_vmscan_single := mm/swap.c mm/swap_state.c tests/unit/fake_swap.c mm/shrinker.c mm/vmstat.c kernel/fs/seq_file.c mm/page_alloc.c \
	mm/filemap.c kernel/lib/radix-tree.c mm/slab.c tests/unit/kernel_stubs.c tests/unit/fake_zones.c \
	tests/unit/fake_wait.c tests/unit/fake_alloc_env.c $(UNIT_SYSCTL) $(UNIT_IOV_ITER)
$(B)/unit/test_vmscan_single: mm/vmscan.c
# The bulk memory routines, assembled for the host with their global names
# prefixed host_, beside the C library's; -no-pie for __ex_table's
# absolute addresses.
UNIT_SRCS_string     := $(B)/unit/string_64.host.o $(B)/unit/usercopy.host.o
UNIT_CFLAGS_string   := -no-pie
$(B)/unit/%.host.o: kernel/lib/%.asm
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 --gprefix host_ -Iinclude/ $< -o $@
.PRECIOUS: $(B)/unit/%.host.o
# The kernel's formatter must not interpose on the host libc's (cmocka uses it).
UNIT_CFLAGS_vsprintf := -Dvsnprintf=kernel_vsnprintf -Dsnprintf=kernel_snprintf

.SECONDEXPANSION:
$(B)/unit/test_%: tests/unit/test_%.c $$(UNIT_SRCS_$$*) $$(wildcard include/*/*.h include/*/*/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(UNIT_CFLAGS) $(UNIT_CFLAGS_$*) -o $@ $< $(UNIT_SRCS_$*) -lcmocka

unit: deps-check $(UNIT_TESTS)

test: deps-check all $(UNIT_TESTS) $(B)/font.psf $(B)/root.img
	$(PYTHON) tests/run.py --build $(B)

# --- benchmarks: the same programs on Pageturn and Linux (docs/benchmarks.md).
# The packages only the bench needs (Debian's kernel, cpio) are in their own
# list, so `make test` never needs them; without them the Linux column is
# skipped.
BENCH_N     ?= 3
BENCH_ONLY  ?=
QUICK       ?=
BENCH_BLOCK_SIZE ?= 1024
BENCH_WORKLOADS ?=
BENCH_MEM   ?=
BENCH_SWAP_MIB ?=
SWEEP       ?=
bench: bench-packages
ifneq ($(SWEEP),)
	$(PYTHON) tools/bench/reclaim.py --sweep --build $(B) --n $(BENCH_N) --accel $(ACCEL) \
		$(if $(BENCH_SWAP_MIB),--swap-mib $(BENCH_SWAP_MIB))
else
	$(PYTHON) tools/bench/micro.py --build $(B) --n $(BENCH_N) --mem $(MEM) --accel $(ACCEL) \
		--block-size $(BENCH_BLOCK_SIZE) $(if $(BENCH_ONLY),--only '$(BENCH_ONLY)') $(if $(QUICK),--quick)
	$(PYTHON) tools/bench/scale.py --build $(B) --n $(BENCH_N) --accel $(ACCEL) $(if $(QUICK),--quick)
	$(MAKE) --no-print-directory bench-reclaim
endif

bench-reclaim: bench-packages
	$(PYTHON) tools/bench/reclaim.py --build $(B) --n $(BENCH_N) --accel $(ACCEL) \
		$(if $(BENCH_WORKLOADS),--only '$(BENCH_WORKLOADS)') $(if $(BENCH_MEM),--mem $(BENCH_MEM)) \
		$(if $(BENCH_SWAP_MIB),--swap-mib $(BENCH_SWAP_MIB)) $(if $(QUICK),--quick)

bench-packages: deps-check all
	@sh tools/deps.sh check tools/bench-packages.txt || \
		echo "bench: the packages above are missing; the Linux column may be skipped"

# --- packages ---------------------------------------------------------------
deps:
	sh tools/deps.sh install

deps-check:
	@sh tools/deps.sh check

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
