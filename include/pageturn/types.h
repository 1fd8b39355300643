/* Basic types and compiler helpers used everywhere in the kernel. */
#ifndef PAGETURN_TYPES_H
#define PAGETURN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

typedef uint64_t phys_addr_t;

#define __noreturn      __attribute__((noreturn))
#define __packed        __attribute__((packed))
#define __aligned(n)    __attribute__((aligned(n)))
#define __section(s)    __attribute__((section(s)))
#define __used          __attribute__((used))
#define __noinline      __attribute__((noinline))
#define __printf(a, b)  __attribute__((format(printf, a, b)))
#define likely(x)       __builtin_expect(!!(x), 1)
#define unlikely(x)     __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)  (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define MIN(a, b)       ((a) < (b) ? (a) : (b))
#define MAX(a, b)       ((a) > (b) ? (a) : (b))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
