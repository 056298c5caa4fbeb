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

/* Decodes everything in buf with MPI_Wtime coding mode (0 bit deltas, 1 nanosecond deltas,
 * 2 bit lengths with the low bits inline, 3 the low bits in col); returns records decoded
 * before the first error. */
static int decode_all(const uint8_t *buf, size_t n, int32_t **idx, size_t *cap, int mode,
                      mpirr_bit_column *col)
{
    const uint8_t *p = buf, *end = buf + n;
    mpirr_codec_state st = {.wtime_ns = mode > 0, .wtime_split = mode > 1,
                            .col = mode == 3 ? col : NULL};
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
        if (mode == 3) CHECK(col->pos <= (uint64_t)col->len * 8); /* the column in bounds */
        count++;
    }
    return count;
}

/* buf in every MPI_Wtime coding, the column one of noise in an exactly sized heap buffer. */
static long decode_modes(const uint8_t *buf, size_t n, int32_t **idx, size_t *cap)
{
    long decoded = 0;
    size_t clen = next() % 12;
    uint8_t *cbytes = malloc(clen ? clen : 1);
    for (size_t i = 0; i < clen; i++) cbytes[i] = (uint8_t)next();
    for (int mode = 0; mode < 4; mode++) {
        mpirr_bit_column col = {.in = cbytes, .len = clen};
        decoded += decode_all(buf, n, idx, cap, mode, &col);
    }
    free(cbytes);
    return decoded;
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
        decoded += decode_modes(heap, n, &idx, &cap);
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
        decoded += decode_all(heap, n, &idx, &cap, 0, NULL);
        free(heap);
    }
    /* 3. MPI_Wtime records coded with their low bits inline (a stage), one mutated byte */
    long wtime_decoded = 0;
    for (int iter = 0; iter < 50000; iter++) {
        mpirr_codec_state st = {.wtime_ns = 1, .wtime_split = 1};
        size_t n = 0;
        for (int k = 0; k < 4; k++) {
            double v = (double)(1000000 + next() % 100000000) / 1e9;
            mpirr_record w = {.kind = MPIRR_REC_WTIME, .call = MPIRR_ID_MPI_Wtime,
                              .event = 10 + (uint64_t)k, .written = 10 + (uint64_t)k};
            memcpy(&w.value, &v, sizeof v);
            n += mpirr_record_encode(buf + n, &w, &st);
        }
        buf[next() % n] ^= (uint8_t)(1u << (next() % 8));
        uint8_t *heap = malloc(n);
        memcpy(heap, buf, n);
        wtime_decoded += decode_all(heap, n, &idx, &cap, 2, NULL);
        free(heap);
    }
    CHECK(wtime_decoded > 0);
    CHECK(decoded > 0); /* some mutations still decode: the loop did exercise decoding */
    free(idx);
    return CHECK_DONE();
}
