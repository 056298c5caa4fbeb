/* diag.c: mpirr's one-line diagnostics on stderr (stdout belongs to the launched program). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Messages may embed text from elsewhere (reader errors, file names): keep them one line. */
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    size_t len = strlen(msg);
    while (len > 0 && msg[len - 1] == ' ')
        msg[--len] = '\0';
    fprintf(stderr, "mpirr: %s\n", msg);
}
