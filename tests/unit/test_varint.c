/* test_varint.c: varint and zigzag round trips at the edges, and rejection of truncated and
 * overlong input. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "varint.h"

int main(void)
{
    const uint64_t samples[] = {0, 1, 127, 128, 255, 16383, 16384, (1ull << 32) - 1, 1ull << 32,
                                (1ull << 63) - 1, 1ull << 63, UINT64_MAX};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        uint8_t buf[MPIRR_VARINT_MAX];
        size_t n = mpirr_varint_put(buf, samples[i]);
        CHECK(n >= 1 && n <= MPIRR_VARINT_MAX);
        const uint8_t *p = buf;
        uint64_t v = 0;
        CHECK(mpirr_varint_get(&p, buf + n, &v) == 0);
        CHECK(v == samples[i]);
        CHECK(p == buf + n);
        /* every proper prefix is truncated input */
        for (size_t k = 0; k < n; k++) {
            p = buf;
            CHECK(mpirr_varint_get(&p, buf + k, &v) == -1);
        }
    }
    const int64_t signed_samples[] = {0, 1, -1, 63, -64, 64, -65, INT32_MAX, INT32_MIN,
                                      INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof signed_samples / sizeof *signed_samples; i++)
        CHECK(mpirr_unzigzag(mpirr_zigzag(signed_samples[i])) == signed_samples[i]);
    CHECK(mpirr_zigzag(-1) == 1 && mpirr_zigzag(1) == 2); /* small magnitudes stay small */
    /* eleven continuation bytes can never be a 64-bit value */
    uint8_t overlong[11];
    memset(overlong, 0x80, sizeof overlong);
    const uint8_t *p = overlong;
    uint64_t v;
    CHECK(mpirr_varint_get(&p, overlong + sizeof overlong, &v) == -1);
    /* the tenth byte may only carry the top bit */
    uint8_t too_big[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    p = too_big;
    CHECK(mpirr_varint_get(&p, too_big + 10, &v) == -1);
    uint32_t x = 0xdeadbeef;
    uint8_t le[8];
    mpirr_put_u32(le, x);
    CHECK(le[0] == 0xef && mpirr_get_u32(le) == x);
    mpirr_put_u64(le, 0x0102030405060708ull);
    CHECK(le[0] == 8 && mpirr_get_u64(le) == 0x0102030405060708ull);
    return CHECK_DONE();
}
