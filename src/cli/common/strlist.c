/* strlist.c: comma-separated lists for messages. */
#include "strlist.h"

#include <stdio.h>
#include <string.h>

void strlist_append(char *buf, size_t n, const char *item)
{
    size_t len = strlen(buf);
    if (len < n)
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", item);
}
