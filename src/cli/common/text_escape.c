/* text_escape.c: printable forms of untrusted strings (text_escape.h) and the UTF-8 check the
 * JSON writer shares. */
#include "text_escape.h"

#include <stdlib.h>
#include <string.h>

int utf8_length(const unsigned char *s)
{
    int len;
    if (s[0] < 0x80)
        len = 1;
    else if (s[0] >= 0xc2 && s[0] < 0xe0)
        len = 2;
    else if (s[0] >= 0xe0 && s[0] < 0xf0)
        len = 3;
    else if (s[0] >= 0xf0 && s[0] < 0xf5)
        len = 4;
    else
        return 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* overlong 3- and 4-byte forms, surrogates, and code points past U+10FFFF */
    if ((len == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))) ||
        (len == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))))
        return 0;
    return len;
}

/* The next piece of s: *len bytes that go out as they are (escape NULL), or one escape for
 * the first *len bytes (written into esc). */
static const char *next_piece(const unsigned char *s, int *len, char esc[9])
{
    int n = utf8_length(s);
    int c1 = n == 2 && s[0] == 0xc2 && s[1] < 0xa0; /* U+0080..U+009F: 8-bit CSI and friends */
    if (n > 1 && !c1) {
        *len = n;
        return NULL;
    }
    if (n == 1 && *s >= 0x20 && *s != 0x7f) {
        *len = 1;
        return NULL;
    }
    *len = c1 ? 2 : 1;
    if (*s == '\n') return "\\n";
    if (*s == '\t') return "\\t";
    if (*s == '\r') return "\\r";
    if (c1) snprintf(esc, 9, "\\x%02x\\x%02x", s[0], s[1]);
    else snprintf(esc, 9, "\\x%02x", *s);
    return esc;
}

void text_put(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        char buf[9];
        int len;
        const char *esc = next_piece(s, &len, buf);
        if (esc) fputs(esc, f);
        else fwrite(s, 1, (size_t)len, f);
        s += len;
    }
}

char *text_escape(const char *str, char *out, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t k = 0;
    while (*s) {
        char buf[9];
        int len;
        const char *esc = next_piece(s, &len, buf);
        const char *piece = esc ? esc : (const char *)s;
        size_t plen = esc ? strlen(esc) : (size_t)len;
        if (k + plen >= n) break;
        memcpy(out + k, piece, plen);
        k += plen;
        s += len;
    }
    out[k] = 0;
    return out;
}

/* Bytes of s before the first that needs an escape. */
static size_t plain_prefix(const char *str)
{
    char probe[9];
    int len;
    const unsigned char *s = (const unsigned char *)str;
    while (*s && !next_piece(s, &len, probe)) s += len;
    return (size_t)(s - (const unsigned char *)str);
}

int text_needs_escape(const char *s) { return s[plain_prefix(s)] != 0; }

void text_escape_in_place(char *buf, size_t n)
{
    size_t plain = plain_prefix(buf);
    if (!buf[plain]) return; /* nothing to escape: the usual case */
    char *copy = strdup(buf);
    if (copy) text_escape(copy, buf, n);
    else buf[plain] = 0; /* out of memory: cut before the first one */
    free(copy);
}
