/* did_you_mean.c: see did_you_mean.h. Optimal string alignment distance (Damerau's edits,
 * each substring edited once), on names short enough for a fixed table. */
#include "did_you_mean.h"

#include <string.h>

enum { LONGEST = 32 }; /* longer words are no typo of a command name */

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t d[LONGEST + 1][LONGEST + 1];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[la][lb];
}

const char *did_you_mean(const char *word, const char *const *names, size_t n)
{
    size_t len = strlen(word);
    if (len == 0 || len > LONGEST) return NULL;
    const char *best = NULL;
    size_t best_d = 3; /* at most 2 edits */
    for (size_t i = 0; i < n; i++) {
        if (strlen(names[i]) > LONGEST) continue;
        size_t d = distance(word, names[i]);
        if (d < best_d && 2 * d < len) {
            best = names[i];
            best_d = d;
        }
    }
    return best;
}
