/* time_coder.h: an adaptive binary range coder (the LZMA scheme) for the event history's time
 * column. The time codes are the only bytes of a record that jitter from one time step to
 * the next, so they carry most of what a compressed history costs; coded with the call site
 * and the previous record's codes as context they cost about their conditional entropy,
 * which zstd, seeing only bytes, cannot approach. The model lives as long as the stream: a
 * block is coded knowing every block before it.
 *
 * Three models, named by the block header's `how` (docs/format.md): TC_V1 codes each record's
 * time byte as 8 decisions in context (site mod 32, previous byte folded), at a fixed
 * adaptation rate; TC_V2 codes the begin code and the end code as 4
 * decisions each, the begin in context (site, previous end code) and the end in context
 * (site, this begin code, previous end code), and adapts each probability at rate 1/(n+1.5)
 * for its first observations, then 1/32: a young context learns as fast as counting would,
 * which is most of the gain on a history of a few thousand time steps (SP skeleton at 600
 * steps: 0.211 -> 0.168 bytes per event on the same codes); TC_V3 (what the writer uses)
 * first codes one decision, whether both codes are 0 (most records), and only otherwise
 * TC_V2's eight. */
#ifndef MPIRR_TIME_CODER_H
#define MPIRR_TIME_CODER_H

#include <stddef.h>
#include <stdint.h>

enum { TC_V1 = 1, TC_V2 = 2, TC_V3 = 3 };

typedef struct tc_model tc_model;

/* version: TC_V1 or TC_V2; NULL for another value or no memory. */
tc_model *tc_model_new(int version);
int tc_model_version(const tc_model *m);
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
/* The time codes of the next call record (site). */
void tc_decode_times(tc_decoder *d, uint32_t site, unsigned *cb, unsigned *ce);

#endif
