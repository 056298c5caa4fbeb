/* rank_set.c: see rank_set.h. */
#include "rank_set.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "number_parse.h"

/* One rank of a range, "12" of "3-12"; 0, or -1 with the reason in err. */
static int one_rank(const char *text, size_t len, int nranks, int *rank, char *err, size_t n)
{
    char word[32];
    int64_t r;
    if (len == 0 || len >= sizeof word) {
        snprintf(err, n, "'%.*s' is not a rank set (e.g. 0-3, 1,5 or all)", (int)len, text);
        return -1;
    }
    memcpy(word, text, len);
    word[len] = 0;
    if (mpirr_parse_int(word, 0, nranks - 1, &r)) {
        snprintf(err, n, "'%s' is not a rank: the job has ranks 0 to %d", word, nranks - 1);
        return -1;
    }
    *rank = (int)r;
    return 0;
}

int rank_set_parse(const char *text, int nranks, unsigned char *in, char *err, size_t n)
{
    memset(in, 0, (size_t)nranks);
    if (!strcmp(text, "all")) {
        memset(in, 1, (size_t)nranks);
        return 0;
    }
    if (!*text) {
        snprintf(err, n, "an empty rank set (e.g. 0-3, 1,5 or all)");
        return -1;
    }
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        const char *dash = memchr(p, '-', len);
        int lo, hi;
        if (one_rank(p, dash ? (size_t)(dash - p) : len, nranks, &lo, err, n)) return -1;
        hi = lo;
        if (dash && one_rank(dash + 1, len - (size_t)(dash + 1 - p), nranks, &hi, err, n))
            return -1;
        if (hi < lo) {
            snprintf(err, n, "'%.*s' is an empty range (write the lower rank first)", (int)len, p);
            return -1;
        }
        for (int r = lo; r <= hi; r++) in[r] = 1;
        p += len;
        if (*p == ',') {
            p++;
            if (!*p) {
                snprintf(err, n, "'%s' ends with a comma", text);
                return -1;
            }
        }
    }
    return 0;
}

int rank_set_like(const char *word)
{
    return !strcmp(word, "all") ||
           (*word >= '0' && *word <= '9' && strspn(word, "0123456789,-") == strlen(word));
}

void rank_set_format(const unsigned char *in, int nranks, char *out, size_t n)
{
    size_t o = 0;
    out[0] = 0;
    for (int r = 0; r < nranks; r++) {
        if (!in[r]) continue;
        int hi = r;
        while (hi + 1 < nranks && in[hi + 1]) hi++;
        int w = hi > r ? snprintf(out + o, n - o, "%s%d-%d", o ? "," : "", r, hi)
                       : snprintf(out + o, n - o, "%s%d", o ? "," : "", r);
        if (w < 0 || (size_t)w >= n - o) return; /* cut: the caller's buffer is its limit */
        o += (size_t)w;
        r = hi;
    }
}

int rank_set_count(const unsigned char *in, int nranks)
{
    int c = 0;
    for (int r = 0; r < nranks; r++) c += in[r] != 0;
    return c;
}
