/*
 * The C string and memory functions the kernel provides (kernel/lib/string.c).
 * Same names and contracts as ISO C, so code under test on the host links
 * against the host libc instead.
 */
#ifndef PAGETURN_STRING_H
#define PAGETURN_STRING_H

#include <pageturn/types.h>

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
char *strrchr(const char *s, int c);
/* Pick the bulk memory routines for this CPU (kernel/lib/string_ops.c):
 * once at boot; until then they work, in their slower way. */
void string_ops_init(void);
/* Copy src into dst (size bytes, NUL included, cut if longer): strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
