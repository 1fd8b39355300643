/* What tests/unit/fake_wait.c offers the test files themselves. */
#ifndef TESTS_UNIT_FAKE_WAIT_H
#define TESTS_UNIT_FAKE_WAIT_H

#include <stdbool.h>

/* Set (on) or clear PF_MEMALLOC on the fake current task. */
void fake_memalloc(bool on);

/* msleep's calls (it returns at once). */
extern unsigned long fake_naps;

#endif
