/* json.c: the JSON writer. Hand-written: mpirr has no dependency for this, and the output
 * only needs objects, arrays, strings and numbers. */
#include "json.h"

#include <inttypes.h>
#include <math.h>

#include "text_escape.h"

void json_init(struct json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->has_items[0] = 0;
}

/* Characters a <script> element must not hold as they are. */
static int html_special(unsigned char c) { return c == '<' || c == '>' || c == '&'; }

void json_write_string(FILE *f, const char *str, int flags)
{
    const unsigned char *s = (const unsigned char *)str;
    int html = flags & JSON_HTML_SAFE;
    fputc('"', f);
    while (*s) {
        /* a run of plain printable ASCII goes out in one write (reports hold millions) */
        const unsigned char *run = s;
        while (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\' && !(html && html_special(*s))) s++;
        if (s > run) fwrite(run, 1, (size_t)(s - run), f);
        if (!*s) break;
        int len = utf8_length(s);
        if (html && html_special(*s)) {
            fprintf(f, "\\u%04x", *s);
        } else if (*s == '"' || *s == '\\') {
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
        json_write_string(j->f, key, 0);
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
        json_write_string(j->f, s, 0);
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
