/* The kernel's own symbol table, embedded at build time (tools/kallsyms.sh). */
#ifndef PAGETURN_KALLSYMS_H
#define PAGETURN_KALLSYMS_H

#include <pageturn/types.h>

/* The function containing addr, or NULL; *offset is addr minus its start. */
const char *kallsyms_lookup(uint64_t addr, uint64_t *offset);

#endif
