/* test_decode_garbage.c: the record decoder and the rank log reader on random and mutated
 * input never crash, never read out of bounds (run under ASan by `make sanitize`), and either
 * decode or report an error. A smoke test ahead of real fuzzing. */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "call_ids.h"
#include "check.h"
#include "libc_sources.h"
#include "sync_calls.h"
#include "record_codec.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) { return test_rand(&rng); }

/* Decodes everything in buf; returns records decoded before the first error. */
static int decode_all(const uint8_t *buf, size_t n, int32_t **idx, size_t *cap)
{
    const uint8_t *p = buf, *end = buf + n;
    mpirr_codec_state st = {0};
    int count = 0;
    while (p < end) {
        mpirr_record r;
        const char *msg = NULL;
        const uint8_t *before = p;
        if (mpirr_record_decode(&p, end, &r, &st, idx, cap, &msg)) {
            CHECK(msg != NULL);
            break;
        }
        CHECK(p > before && p <= end); /* progress, in bounds */
        CHECK(r.kind > 0 && r.kind < MPIRR_REC_KIND_LIMIT);
        /* the call is an MPI call's id, a LIBC record's libc source, a SYNC record's call */
        CHECK(r.kind == MPIRR_REC_LIBC   ? mpirr_libc_source_name(r.call) != NULL
              : r.kind == MPIRR_REC_SYNC ? mpirr_sync_call_name(r.call) != NULL
                                         : mpirr_call_name(r.call) != NULL);
        CHECK(r.event <= r.written);
        count++;
    }
    return count;
}

int main(void)
{
    int32_t *idx = NULL;
    size_t cap = 0;
    uint8_t buf[512];
    long decoded = 0;
    /* 1. pure noise, exactly sized heap buffers so ASan sees any overread */
    for (int iter = 0; iter < 200000; iter++) {
        size_t n = 1 + next() % 64;
        uint8_t *heap = malloc(n);
        for (size_t i = 0; i < n; i++) heap[i] = (uint8_t)next();
        decoded += decode_all(heap, n, &idx, &cap);
        free(heap);
    }
    /* 2. valid records with one mutated byte */
    mpirr_record r = {.kind = MPIRR_REC_TEST_OK, .call = MPIRR_ID_MPI_Testsome, .event = 1000,
                      .written = 1000, .count = 3};
    int32_t ind[3] = {4, 1, 7};
    r.indices = ind;
    for (int iter = 0; iter < 50000; iter++) {
        mpirr_codec_state st = {0};
        size_t n = mpirr_record_encode(buf, &r, &st);
        r.event = r.written = 1000 + (uint64_t)iter;
        n += mpirr_record_encode(buf + n, &r, &st);
        buf[next() % n] ^= (uint8_t)(1u << (next() % 8));
        uint8_t *heap = malloc(n);
        memcpy(heap, buf, n);
        decoded += decode_all(heap, n, &idx, &cap);
        free(heap);
    }
    CHECK(decoded > 0); /* some mutations still decode: the loop did exercise decoding */
    free(idx);
    return CHECK_DONE();
}
