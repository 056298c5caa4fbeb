/* text_escape.h: strings from a recording (source file and function names, program names,
 * paths from manifests and load maps) as text output prints them. A recording is untrusted
 * input: a name holding ESC or BEL would recolour or retitle the user's terminal, a newline
 * would break a one-event-a-line listing. Control bytes (C0, DEL, and C1 code points) are
 * shown as \n, \t, \r or \xNN, bytes that are not UTF-8 as \xNN; everything else is kept. */
#ifndef MPIRR_CLI_TEXT_ESCAPE_H
#define MPIRR_CLI_TEXT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Does s hold anything text_put would escape? */
int text_needs_escape(const char *s);
/* Writes s escaped to f. */
void text_put(FILE *f, const char *s);
/* s escaped into out (n > 0 bytes, cut short before an escape that does not fit); out. */
char *text_escape(const char *s, char *out, size_t n);
/* buf (a string in a buffer of n bytes) escaped in place, cut short if it grows past n. */
void text_escape_in_place(char *buf, size_t n);

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if it is not one (overlong forms,
 * surrogates and code points past U+10FFFF are not). */
int utf8_length(const unsigned char *s);

#endif
