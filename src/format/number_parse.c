/* number_parse.c: see number_parse.h. Every digit is checked before it is added, so nothing
 * wraps and nothing is clamped. */
#include "number_parse.h"

#include <string.h>

static int digit_value(char c, int base)
{
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    return d < base ? d : -1;
}

int mpirr_parse_digits(const char *text, size_t len, int base, uint64_t max, uint64_t *value)
{
    if (len == 0 || (base != 10 && base != 16)) return -1;
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int d = digit_value(text[i], base);
        if (d < 0) return -1;
        if (n > max / (uint64_t)base) return -1;
        n *= (uint64_t)base;
        if ((uint64_t)d > max - n) return -1;
        n += (uint64_t)d;
    }
    *value = n;
    return 0;
}

const char *mpirr_parse_leading(const char *text, uint64_t max, uint64_t *value)
{
    size_t len = strspn(text, "0123456789");
    return mpirr_parse_digits(text, len, 10, max, value) ? NULL : text + len;
}

int mpirr_parse_uint(const char *text, uint64_t max, uint64_t *value)
{
    return mpirr_parse_digits(text, strlen(text), 10, max, value);
}

int mpirr_parse_int(const char *text, int64_t min, int64_t max, int64_t *value)
{
    if (min > max) return -1;
    uint64_t n;
    if (*text == '-') {
        if (min >= 0) return -1;
        /* the magnitude of min, computed without overflowing INT64_MIN */
        uint64_t limit = (uint64_t)0 - (uint64_t)min;
        if (mpirr_parse_digits(text + 1, strlen(text + 1), 10, limit, &n)) return -1;
        int64_t v = n == 0 ? 0 : (int64_t)(n - 1) * -1 - 1;
        if (v > max) return -1;
        *value = v;
        return 0;
    }
    if (max < 0 || mpirr_parse_digits(text, strlen(text), 10, (uint64_t)max, &n)) return -1;
    if ((int64_t)n < min) return -1;
    *value = (int64_t)n;
    return 0;
}
