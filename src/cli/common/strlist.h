/* strlist.h: building "a, b, c" lists in a fixed buffer (valid-value lists in messages). */
#ifndef MPIRR_CLI_STRLIST_H
#define MPIRR_CLI_STRLIST_H

#include <stddef.h>

/* Appends item to the NUL-terminated list in buf, preceded by ", " unless buf is empty.
 * Truncates silently: the lists are for messages. */
void strlist_append(char *buf, size_t n, const char *item);

#endif
