/* json.h: a small streaming JSON writer (compact output, strings escaped, invalid UTF-8
 * replaced) for `mpirr stat --json`, races and frontier, and the one JSON string writer of
 * every JSON mpirr writes by hand (the Perfetto export, the view page's data). Values are written with or without a key: with one
 * inside objects, with NULL inside arrays and at the top. */
#ifndef MPIRR_CLI_JSON_H
#define MPIRR_CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 16 };

struct json {
    FILE *f;
    int depth;
    int has_items[JSON_MAX_DEPTH]; /* a comma is due before the next item at this depth */
};

enum { JSON_HTML_SAFE = 1 }; /* json_write_string: "<", ">", "&" as \u escapes too */

/* s as a JSON string literal: quotes, backslashes and control characters escaped, bytes that
 * are not UTF-8 (a recording's file names may hold anything) as U+FFFD, so that strict readers
 * accept it. JSON_HTML_SAFE: also safe inside an HTML <script> element (a name from an
 * untrusted recording cannot close the element). */
void json_write_string(FILE *f, const char *s, int flags);

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *s); /* NULL writes null */
void json_int(struct json *j, const char *key, int64_t v);
void json_uint(struct json *j, const char *key, uint64_t v);
void json_double(struct json *j, const char *key, double v); /* 6 significant digits */
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);

#endif
