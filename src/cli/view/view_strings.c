/* view_strings.c: the call-site strings of the view page as templates and numbers. A site
 * reads "file.c:LINE (function)" or "object+0xOFFSET"; sites of one function or one object
 * differ only in the number, so each string is sent as (template, number) and the page puts
 * it back together (page/data.js): a history with a million distinct sites costs a few bytes
 * per site instead of a full string each. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "view_data.h"

struct tpl {
    char *prefix;
    const char *suffix; /* inside the string that made the template */
    size_t plen;
    int radix;          /* 16, 10, or 0: the whole string, no number */
};

/* The last number of s after "0x" (hex) or ':' (decimal), without leading zeros (so that the
 * page prints it back the same); 0 if there is none. */
static int split(const char *s, size_t *at, size_t *len, int *radix)
{
    int found = 0;
    for (size_t i = 0; s[i]; i++) {
        size_t start;
        int r;
        if (s[i] == ':' && isdigit((unsigned char)s[i + 1])) start = i + 1, r = 10;
        else if (s[i] == '0' && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2])) start = i + 2, r = 16;
        else continue;
        size_t n = 0;
        while (r == 10 ? isdigit((unsigned char)s[start + n]) : isxdigit((unsigned char)s[start + n])) n++;
        /* lower-case hex only, and at most 13 digits: exact as a JavaScript number */
        int ok = n <= 13 && (n == 1 || s[start] != '0');
        for (size_t k = 0; ok && r == 16 && k < n; k++) ok = !isupper((unsigned char)s[start + k]);
        if (!ok) continue;
        *at = start, *len = n, *radix = r;
        found = 1;
        i = start + n - 1;
    }
    return found;
}

void view_write_strings(FILE *f, const struct view_data *d)
{
    struct tpl *t = NULL;
    size_t nt = 0, cap = 0, last = 0;
    struct vbuf ids = {0};
    for (uint32_t i = 0; i < d->nstrings; i++) {
        const char *s = d->strings[i];
        size_t at = strlen(s), len = 0;
        int radix = 0;
        if (!split(s, &at, &len, &radix)) at = strlen(s);
        const char *suffix = s + at + len;
        size_t k = last < nt && t[last].radix == radix && t[last].plen == at && !strncmp(t[last].prefix, s, at) &&
                           !strcmp(t[last].suffix, suffix) ? last : nt;
        for (size_t j = 0; k == nt && j < nt; j++)
            if (t[j].radix == radix && t[j].plen == at && !strncmp(t[j].prefix, s, at) && !strcmp(t[j].suffix, suffix)) k = j;
        if (k == nt) {
            if (nt == cap) {
                cap = cap ? 2 * cap : 16;
                struct tpl *n = realloc(t, cap * sizeof *n);
                if (!n) break; /* out of memory: the strings left are shown as "?" */
                t = n;
            }
            t[nt] = (struct tpl){strndup(s, at), suffix, at, radix};
            if (!t[nt].prefix) break;
            nt++;
        }
        last = k;
        vbuf_uint(&ids, k);
        vbuf_uint(&ids, radix ? strtoull(s + at, NULL, radix) : 0);
    }
    fprintf(f, "{\"n\":%u,\"tpl\":[", (unsigned)(ids.oom ? 0 : d->nstrings));
    for (size_t j = 0; j < nt; j++) {
        fputs(j ? ",[" : "[", f);
        json_write_string(f, t[j].prefix, JSON_HTML_SAFE);
        fputc(',', f);
        json_write_string(f, t[j].suffix, JSON_HTML_SAFE);
        fprintf(f, ",%d]", t[j].radix);
        free(t[j].prefix);
    }
    fputs("],\"ids\":", f);
    vbuf_base64(&ids, f);
    fputc('}', f);
    free(t);
    vbuf_free(&ids);
}
