/* What tests/unit/fake_wait.c offers the test files themselves. */
#ifndef TESTS_UNIT_FAKE_WAIT_H
#define TESTS_UNIT_FAKE_WAIT_H

/* msleep's calls (it returns at once). */
extern unsigned long fake_naps;

#endif
