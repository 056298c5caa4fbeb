/* shell_quote.c: POSIX shell quoting for display. */
#include "shell_quote.h"

#include <string.h>

/* Characters that never need quoting. */
static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                           "_-+=/.,:@%";

static void print_word(FILE *f, const char *w)
{
    if (*w && strspn(w, safe) == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", f); /* close, escaped quote, reopen */
        else
            fputc(*w, f);
    fputc('\'', f);
}

void shell_print_command(FILE *f, int argc, char *const *argv)
{
    for (int i = 0; i < argc; i++) {
        if (i)
            fputc(' ', f);
        print_word(f, argv[i]);
    }
}
