/* shell_quote.c: POSIX shell quoting for display. */
#include "shell_quote.h"

#include <stdlib.h>
#include <string.h>

#include "text_escape.h"

/* Characters that never need quoting. */
static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                           "_-+=/.,:@%";

/* $'...' (POSIX.1-2024, bash, zsh, ksh): control bytes and bytes that are not UTF-8 as
 * escapes, so that a word from a recording can neither act on the terminal it is shown on nor
 * change meaning when the line is pasted. */
static void print_escaped_word(FILE *f, const char *w)
{
    fputs("$'", f);
    while (*w) {
        size_t run = strcspn(w, "'\\");
        char *part = run ? strndup(w, run) : NULL;
        if (part) {
            text_put(f, part);
            w += run;
        } else {
            fputc('\\', f);
            fputc(*w++, f); /* a quote or backslash, or (out of memory) anything */
        }
        free(part);
    }
    fputc('\'', f);
}

static void print_word(FILE *f, const char *w)
{
    if (text_needs_escape(w)) {
        print_escaped_word(f, w);
        return;
    }
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
