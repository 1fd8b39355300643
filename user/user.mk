# user/user.mk — Pageturn's user programs (included by the top Makefile).
#
# Every program is an ordinary static Linux executable built with musl-gcc
# (Debian's musl-tools), so it runs unchanged on Pageturn and on the build
# machine.  Outputs:
#
#   $(B)/user/init                 PID 1 (user/init.c), staged as /sbin/init
#   $(B)/user/tests/runner         the test runner, staged as /usr/tests/runner
#   $(B)/user/tests/NAME           one per user/tests/NAME.c, staged as /usr/tests/NAME
#   $(B)/user/bench/microbench     `make bench`'s programs (user/bench/), staged as
#   $(B)/user/bench/nop            /usr/bin/microbench and /usr/lib/bench/nop, and its
#                                  reclaim suite's script, as /usr/lib/bench/reclaim.sh
#   $(B)/user/hogs/hog-NAME        the memory hogs, one per user/hogs/NAME.c, each linked
#                                  with user/hogs/hoglib.c, staged as /usr/bin/hog-NAME
#   $(B)/user/root/                the staged tree tools/mkrootfs.py adds to the image
#                                  (its --add option), remade whole by the stamp rule
#
# For the top Makefile: USER_ROOTFS_DEPS (prerequisites of the root image)
# and USER_ROOTFS_ARGS (mkrootfs.py options: the staged tree, and Debian's
# busybox with its applet links).  `make user` builds the programs alone.

USER_CC      ?= musl-gcc
BUSYBOX      ?= /bin/busybox
USER_CFLAGS  := -static -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE

USER_TESTLIB := user/tests/testlib.c
USER_TEST_SRCS := $(filter-out user/tests/runner.c $(USER_TESTLIB),$(wildcard user/tests/*.c))
USER_TESTS   := $(USER_TEST_SRCS:user/tests/%.c=%)
BENCH_PROGS  := $(B)/user/bench/microbench $(B)/user/bench/nop
HOG_LIB      := user/hogs/hoglib.c
HOG_SRCS     := $(filter-out $(HOG_LIB),$(wildcard user/hogs/*.c))
HOG_PROGS    := $(HOG_SRCS:user/hogs/%.c=$(B)/user/hogs/hog-%)
USER_PROGS   := $(B)/user/init $(B)/user/tests/runner $(USER_TESTS:%=$(B)/user/tests/%) \
	$(BENCH_PROGS) $(HOG_PROGS)
USER_SCRIPTS := $(wildcard user/tests/*.sh)
USER_ROOT    := $(B)/user/root

USER_ROOTFS_DEPS := $(B)/user/root.stamp $(BUSYBOX)
USER_ROOTFS_ARGS := --add $(USER_ROOT) --busybox $(BUSYBOX)

.PHONY: user
user: $(USER_PROGS)

# Programs are rebuilt when the compiler or its flags change.
$(B)/user/uflags.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(USER_CC) $(USER_CFLAGS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(B)/user/init: user/init.c $(B)/user/uflags.txt
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -o $@ $<

$(B)/user/tests/%: user/tests/%.c $(USER_TESTLIB) user/tests/testlib.h $(B)/user/uflags.txt
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -o $@ $< $(USER_TESTLIB)

$(B)/user/bench/%: user/bench/%.c $(B)/user/uflags.txt
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -o $@ $<

$(B)/user/hogs/hog-%: user/hogs/%.c $(HOG_LIB) user/hogs/hog.h $(B)/user/uflags.txt
	@mkdir -p $(dir $@)
	$(USER_CC) $(USER_CFLAGS) -o $@ $< $(HOG_LIB)

# The staged tree, made afresh so that nothing removed from here lingers.
$(B)/user/root.stamp: $(USER_PROGS) $(USER_SCRIPTS) user/bench/reclaim.sh
	rm -rf $(USER_ROOT)
	install -D -m 755 $(B)/user/init $(USER_ROOT)/sbin/init
	install -D -m 755 -t $(USER_ROOT)/usr/tests $(filter $(B)/user/tests/%,$(USER_PROGS)) $(USER_SCRIPTS)
	install -D -m 755 $(B)/user/bench/microbench $(USER_ROOT)/usr/bin/microbench
	install -D -m 755 $(B)/user/bench/nop $(USER_ROOT)/usr/lib/bench/nop
	install -D -m 755 user/bench/reclaim.sh $(USER_ROOT)/usr/lib/bench/reclaim.sh
	install -D -m 755 -t $(USER_ROOT)/usr/bin $(HOG_PROGS)
	touch $@
