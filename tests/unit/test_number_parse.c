/* test_number_parse.c: the one checked number reader (src/format/number_parse.h): whole strings
 * only, no sign where none belongs, and an overflowing number refused rather than clamped or
 * wrapped (strtoull takes 99999999999999999999 as 2^64-1 and "-1" as 2^64-1). */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "number_parse.h"

int main(void)
{
    int64_t v = 42;
    uint64_t u = 42;

    CHECK(mpirr_parse_int("0", 0, 10, &v) == 0 && v == 0);
    CHECK(mpirr_parse_int("10", 0, 10, &v) == 0 && v == 10);
    CHECK(mpirr_parse_int("007", 0, 10, &v) == 0 && v == 7);
    /* not the whole string, blanks, signs, empty */
    v = 42;
    const char *bad[] = {"", " 1", "1 ", "+1", "1x", "x", "0x10", "1.5", "-", "1e3", "\t7"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(mpirr_parse_int(bad[i], 0, 1000, &v) == -1 && v == 42);
    /* range: a '-' only where negatives are allowed */
    CHECK(mpirr_parse_int("-1", 0, 10, &v) == -1);
    CHECK(mpirr_parse_int("11", 0, 10, &v) == -1);
    CHECK(mpirr_parse_int("0", 1, 10, &v) == -1);
    CHECK(mpirr_parse_int("-5", -10, 10, &v) == 0 && v == -5);
    CHECK(mpirr_parse_int("-11", -10, 10, &v) == -1);
    CHECK(mpirr_parse_int("-3", -10, -2, &v) == 0 && v == -3);
    CHECK(mpirr_parse_int("-1", -10, -2, &v) == -1);
    /* the ends of int64_t, and one past them */
    CHECK(mpirr_parse_int("9223372036854775807", INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MAX);
    CHECK(mpirr_parse_int("9223372036854775808", INT64_MIN, INT64_MAX, &v) == -1);
    CHECK(mpirr_parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MIN);
    CHECK(mpirr_parse_int("-9223372036854775809", INT64_MIN, INT64_MAX, &v) == -1);
    /* overflow of the accumulator itself, not only of the range */
    CHECK(mpirr_parse_int("99999999999999999999", INT64_MIN, INT64_MAX, &v) == -1);
    CHECK(mpirr_parse_int("184467440737095516160", 0, INT64_MAX, &v) == -1);

    CHECK(mpirr_parse_uint("18446744073709551615", UINT64_MAX, &u) == 0 && u == UINT64_MAX);
    CHECK(mpirr_parse_uint("18446744073709551616", UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_uint("99999999999999999999", UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_uint("-1", UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_uint("256", 255, &u) == -1);
    CHECK(mpirr_parse_uint("255", 255, &u) == 0 && u == 255);

    /* a piece of a longer word (R:E) and hexadecimal (the manifest's fingerprint) */
    CHECK(mpirr_parse_digits("12:34", 2, 10, UINT64_MAX, &u) == 0 && u == 12);
    CHECK(mpirr_parse_digits("12:34", 3, 10, UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_digits("12", 0, 10, UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_digits("ffffffffffffffff", 16, 16, UINT64_MAX, &u) == 0 && u == UINT64_MAX);
    CHECK(mpirr_parse_digits("10000000000000000", 17, 16, UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_digits("00AbCd", 6, 16, UINT64_MAX, &u) == 0 && u == 0xabcd);
    CHECK(mpirr_parse_digits("1g", 2, 16, UINT64_MAX, &u) == -1);
    CHECK(mpirr_parse_digits("1a", 2, 10, UINT64_MAX, &u) == -1);
    /* the digits a word starts with (R:E, 100ns, sync-00003-0002.log) */
    const char *end = mpirr_parse_leading("12:34", UINT64_MAX, &u);
    CHECK(end && *end == ':' && u == 12);
    end = mpirr_parse_leading("100ns", UINT64_MAX, &u);
    CHECK(end && !strcmp(end, "ns") && u == 100);
    CHECK(mpirr_parse_leading(":1", UINT64_MAX, &u) == NULL);
    CHECK(mpirr_parse_leading("-1", UINT64_MAX, &u) == NULL);
    CHECK(mpirr_parse_leading(" 1", UINT64_MAX, &u) == NULL);
    CHECK(mpirr_parse_leading("99999999999999999999:1", UINT64_MAX, &u) == NULL);
    CHECK(mpirr_parse_leading("1073741825:1", 1 << 30, &u) == NULL);
    return CHECK_DONE();
}
