/* json.c: the JSON writer. Hand-written: mpirr has no dependency for this, and the output
 * only needs objects, arrays, strings and numbers. */
#include "json.h"

#include <inttypes.h>
#include <math.h>

void json_init(struct json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->has_items[0] = 0;
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static int utf8_length(const unsigned char *s)
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

static void put_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    while (*s) {
        /* a run of plain printable ASCII goes out in one write (reports hold millions) */
        const unsigned char *run = s;
        while (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\') s++;
        if (s > run) fwrite(run, 1, (size_t)(s - run), f);
        if (!*s) break;
        int len = utf8_length(s);
        if (*s == '"' || *s == '\\') {
            fprintf(f, "\\%c", *s);
        } else if (*s == '\n') {
            fputs("\\n", f);
        } else if (*s == '\t') {
            fputs("\\t", f);
        } else if (*s < 0x20 || *s == 0x7f) {
            fprintf(f, "\\u%04x", *s);
        } else if (len == 0) {
            fputs("\\ufffd", f); /* bytes that are not UTF-8 (paths may hold anything) */
            len = 1;
        } else {
            fwrite(s, 1, (size_t)len, f);
        }
        s += len;
    }
    fputc('"', f);
}

/* Separator and key before a value. */
static void item(struct json *j, const char *key)
{
    if (j->has_items[j->depth])
        fputc(',', j->f);
    j->has_items[j->depth] = 1;
    if (key) {
        put_string(j->f, key);
        fputc(':', j->f);
    }
}

static void open_scope(struct json *j, const char *key, char bracket)
{
    item(j, key);
    fputc(bracket, j->f);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->has_items[j->depth] = 0;
}

static void close_scope(struct json *j, char bracket)
{
    fputc(bracket, j->f);
    if (j->depth > 0)
        j->depth--;
    if (j->depth == 0)
        fputc('\n', j->f); /* the document is complete */
}

void json_object_begin(struct json *j, const char *key) { open_scope(j, key, '{'); }
void json_object_end(struct json *j) { close_scope(j, '}'); }
void json_array_begin(struct json *j, const char *key) { open_scope(j, key, '['); }
void json_array_end(struct json *j) { close_scope(j, ']'); }

void json_string(struct json *j, const char *key, const char *s)
{
    item(j, key);
    if (s)
        put_string(j->f, s);
    else
        fputs("null", j->f);
}

void json_int(struct json *j, const char *key, int64_t v)
{
    item(j, key);
    fprintf(j->f, "%" PRId64, v);
}

void json_uint(struct json *j, const char *key, uint64_t v)
{
    item(j, key);
    fprintf(j->f, "%" PRIu64, v);
}

void json_double(struct json *j, const char *key, double v)
{
    item(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.6g", v);
    else
        fputs("null", j->f); /* JSON has no NaN or infinity */
}

void json_bool(struct json *j, const char *key, int v)
{
    item(j, key);
    fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
    item(j, key);
    fputs("null", j->f);
}
