/* shell_quote.c: POSIX shell quoting for display, and splitting a line into words as a shell would. */
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

int shell_split_words(const char *line, char **words, int max, char *err, size_t errlen)
{
    size_t cap = strlen(line) + 1;
    char *buf = malloc(cap);
    int n = 0;
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        size_t len = 0;
        char quote = 0;
        for (; *p && (quote || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
            if (quote == '\'') {
                if (*p == '\'') quote = 0;
                else buf[len++] = *p;
            } else if (quote == '"') {
                if (*p == '"') quote = 0;
                else if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) buf[len++] = *++p;
                else buf[len++] = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == '\\' && p[1]) {
                buf[len++] = *++p;
            } else {
                buf[len++] = *p;
            }
        }
        const char *why = quote ? (quote == '"' ? "unterminated \" quote" : "unterminated ' quote")
                          : n == max ? "too many words" : NULL;
        if (!why && !(words[n] = strndup(buf, len)))
            why = "out of memory";
        if (why) {
            snprintf(err, errlen, "%s", why);
            while (n > 0)
                free(words[--n]);
            free(buf);
            return -1;
        }
        n++;
    }
    free(buf);
    return n;
}
