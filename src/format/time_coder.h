/* time_coder.h: an adaptive binary range coder (the LZMA scheme) for the event history's time
 * column. The time codes are the only bytes of a record that jitter from one time step to
 * the next, so they carry most of what a compressed history costs; coded with the call site
 * and the previous record's codes as context they cost about their conditional entropy
 * (measured on the SP skeleton: 0.66 bits an event against 1.25 without context), which
 * zstd, seeing only bytes, cannot approach. The model lives as long as the stream: a block
 * is coded knowing every block before it. */
#ifndef MPIRR_TIME_CODER_H
#define MPIRR_TIME_CODER_H

#include <stddef.h>
#include <stdint.h>

typedef struct tc_model tc_model;

tc_model *tc_model_new(void);
void tc_model_free(tc_model *m);

/* Codes the time column of a block: symbols syms[0..n) (a call record's time byte, then for
 * the escape 0xff its two codes), the k-th call record's site in sites[k]. Writes at most
 * tc_bound(n) bytes to out; returns the bytes written. */
size_t tc_bound(size_t n);
size_t tc_encode_block(tc_model *m, const uint8_t *syms, size_t n, const uint32_t *sites,
                       uint8_t *out);

/* Decoding, one call record at a time, in order. */
typedef struct tc_decoder {
    tc_model *m;
    const uint8_t *p, *end;
    uint32_t range, code;
    int overrun; /* read past the end: the block is damaged */
} tc_decoder;

void tc_decoder_start(tc_decoder *d, tc_model *m, const uint8_t *p, const uint8_t *end);
/* The time byte of the next call record (site), and for 0xff its two codes. */
void tc_decode_times(tc_decoder *d, uint32_t site, unsigned *cb, unsigned *ce);

#endif
