/* test_vector_clock.c: races mode's timestamp headers (src/runtime/vector_clock.c) round trip.
 * A sender's clock is raised at random (few entries or nearly all, so both the sparse and the
 * dense form are written) and sends headers to random destinations; then each destination's
 * clock applies its headers in order and must know, after each one, exactly what the sender
 * knew when it sent it. Damaged headers (cut short, a bitmap bit past the last rank, an index
 * out of range) must be refused, never read past their end. The clock is all zero (no header
 * to send: the short form) until its own entry advances or it learns a nonzero entry. */
#include <string.h>

#include "check.h"
#include "vector_clock.h"

#define MAX_SENDS 400

struct sent {
    int dest;
    uint64_t seq, now, knows_dest;
    uint8_t header[8192];
    size_t len;
    int fixed; /* in the fixed form (a slot's room), not the varint form */
    uint64_t vec[300]; /* the sender's vector at the send (own entry = the send) */
};
static struct sent sends[MAX_SENDS];

/* The own entry advances at each of this rank's wildcard receives: up to own. */
static void advance_to(uint64_t own)
{
    while (mpirr_vc_own() < own) mpirr_vc_advance();
    CHECK(mpirr_vc_own() == own);
}

static int apply(int fixed, int src, const uint8_t *in, size_t len, uint64_t *seq, uint64_t *knows)
{
    return fixed ? mpirr_vc_apply_fixed(src, in, len, seq, knows)
                 : mpirr_vc_apply(src, in, len, seq, knows);
}

/* One run with nranks ranks, the sender being rank sender; spread: how many entries change
 * between sends at most. */
static void run(int nranks, int sender, int spread, uint64_t seed)
{
    uint64_t rng = seed, seqs[300] = {0}, now = 1;
    uint64_t raise[300];
    CHECK(mpirr_vc_init(nranks, sender, 0) == 0);
    CHECK(mpirr_vc_zero());
    advance_to(now);
    CHECK(!mpirr_vc_zero());
    CHECK(mpirr_vc_header_max() <= sizeof sends[0].header);
    for (int k = 0; k < MAX_SENDS; k++) {
        /* learn something: a merge raising a random subset of entries */
        memcpy(raise, mpirr_vc_snapshot(), (size_t)nranks * sizeof *raise);
        int changes = (int)(test_rand(&rng) % (uint64_t)(spread + 1));
        for (int c = 0; c < changes; c++) {
            int i = (int)(test_rand(&rng) % (uint64_t)nranks);
            raise[i] += 1 + test_rand(&rng) % 700;
        }
        mpirr_vc_merge(raise);
        now += 1 + test_rand(&rng) % 50;
        advance_to(now);
        struct sent *s = &sends[k];
        s->dest = (int)(test_rand(&rng) % (uint64_t)nranks);
        s->now = now;
        s->seq = seqs[s->dest]++;
        memcpy(s->vec, mpirr_vc_snapshot(), (size_t)nranks * sizeof *s->vec);
        s->knows_dest = s->dest == sender ? now : s->vec[s->dest];
        /* every other header in the fixed form when it fits a slot's 31 bytes */
        s->len = k % 2 ? mpirr_vc_header_fixed(s->dest, s->seq, s->header, 31) : 0;
        s->fixed = s->len != 0;
        CHECK(s->len <= 31);
        if (!s->fixed) s->len = mpirr_vc_header(s->dest, s->seq, s->header, sizeof s->header);
        CHECK(s->len <= mpirr_vc_header_max());
    }
    mpirr_vc_free();

    for (int d = 0; d < nranks; d++) {
        if (d == sender) continue;
        CHECK(mpirr_vc_init(nranks, d, 0) == 0);
        for (int k = 0; k < MAX_SENDS; k++) {
            struct sent *s = &sends[k];
            if (s->dest != d) continue;
            uint64_t seq = 99, knows = 99;
            CHECK(apply(s->fixed, sender, s->header, s->len, &seq, &knows) == 0);
            CHECK(seq == s->seq);
            CHECK(knows == s->knows_dest);
            const uint64_t *got = mpirr_vc_snapshot();
            for (int i = 0; i < nranks; i++) {
                if (i == d) continue; /* the receiver's own entry is its own clock */
                uint64_t want = i == sender ? s->now : s->vec[i];
                if (got[i] != want) {
                    fprintf(stderr, "n=%d sender=%d dest=%d send %d: entry %d is %llu, want %llu\n",
                            nranks, sender, d, k, i, (unsigned long long)got[i],
                            (unsigned long long)want);
                    check_failures++;
                    break;
                }
            }
            /* every shorter prefix of a header is refused or reads as less knowledge, and
             * never reads past the end (ASan in make sanitize) */
            for (size_t cut = 0; cut < s->len; cut++) {
                uint8_t copy[8192];
                memcpy(copy, s->header, cut);
                uint64_t q, w;
                (void)apply(s->fixed, sender, copy, cut, &q, &w);
            }
        }
        mpirr_vc_free();
    }
}

/* The form each header takes where the answer is known: all but two entries changed (dense)
 * and one entry changed (sparse); then damaged headers. */
static void forms(void)
{
    uint8_t h[4096];
    uint64_t seq, knows;
    const int nranks = 64;
    CHECK(mpirr_vc_init(nranks, 0, 0) == 0);
    uint64_t all[64];
    for (int i = 0; i < nranks; i++) all[i] = 1000 + (uint64_t)i;
    mpirr_vc_merge(all);
    advance_to(1200);
    size_t dense = mpirr_vc_header(5, 0, h, sizeof h);
    all[9] += 3;
    mpirr_vc_merge(all);
    advance_to(1202);
    size_t sparse = mpirr_vc_header(5, 1, h, sizeof h);
    mpirr_vc_free();
    /* 62 changed entries (not the sender, not the destination): 3 varints + marker + 8-byte
     * bitmap + 62 one-byte steps, against 2 or more bytes per entry in pairs */
    CHECK(dense < 3 * 3 + 1 + 8 + 62 + 1);
    CHECK(sparse <= 3 * 3 + 2);
    /* the fixed form: three words and the entry's pair; refused past 32 bits or the room */
    CHECK(mpirr_vc_init(nranks, 0, 0) == 0);
    mpirr_vc_merge(all);
    advance_to(1200);
    CHECK(mpirr_vc_header_fixed(5, 1ull << 32, h, sizeof h) == 0);
    CHECK(mpirr_vc_header_fixed(5, 0, h, 31) == 0); /* 62 entries: no room */
    size_t fixed = mpirr_vc_header_fixed(5, 0, h, sizeof h);
    CHECK(fixed == dense - (1 + 2 + 2) + MPIRR_VC_FIXED); /* varints: seq 1 byte, the others 2 */
    mpirr_vc_free();
    CHECK(mpirr_vc_init(nranks, 7, 0) == 0);
    CHECK(mpirr_vc_apply_fixed(0, h, fixed, &seq, &knows) == 0);
    CHECK(seq == 0 && knows == 1005);
    CHECK(mpirr_vc_snapshot()[0] == 1200 && mpirr_vc_snapshot()[63] == 1063);
    CHECK(mpirr_vc_apply_fixed(0, h, MPIRR_VC_FIXED - 1, &seq, &knows) == -1);
    mpirr_vc_free();
    /* refused when dest's entry needs 33 bits; a clock that learned only that is not zero */
    CHECK(mpirr_vc_init(nranks, 0, 0) == 0);
    uint64_t big[64] = {0};
    big[5] = 1ull << 32;
    mpirr_vc_merge(big);
    CHECK(!mpirr_vc_zero() && mpirr_vc_own() == 0);
    CHECK(mpirr_vc_header_fixed(5, 0, h, sizeof h) == 0);
    CHECK(mpirr_vc_header_fixed(6, 0, h, sizeof h) != 0);
    mpirr_vc_free();

    /* damaged headers */
    CHECK(mpirr_vc_init(5, 1, 0) == 0);
    const uint8_t past_last[] = {0, 10, 0, 0, 0x20, 2}; /* bitmap bit 5 of 5 ranks */
    CHECK(mpirr_vc_apply(0, past_last, sizeof past_last, &seq, &knows) == -1);
    const uint8_t bad_index[] = {0, 10, 0, 6, 0}; /* index 6 - 1 = 5 of 5 ranks */
    CHECK(mpirr_vc_apply(0, bad_index, sizeof bad_index, &seq, &knows) == -1);
    const uint8_t zero_index_late[] = {0, 10, 0, 2, 0, 0}; /* a pair, then a marker */
    CHECK(mpirr_vc_apply(0, zero_index_late, sizeof zero_index_late, &seq, &knows) == -1);
    const uint8_t dense_trailing[] = {0, 10, 0, 0, 0x01, 2, 7}; /* one value too many */
    CHECK(mpirr_vc_apply(0, dense_trailing, sizeof dense_trailing, &seq, &knows) == -1);
    mpirr_vc_free();
    CHECK(mpirr_vc_init(5, 1, 0) == 0); /* the refused headers may have raised their sender's entry */
    const uint8_t dense_ok[] = {0, 10, 0, 0, 0x05, 2, 4}; /* entries 0 and 2 */
    CHECK(mpirr_vc_apply(3, dense_ok, sizeof dense_ok, &seq, &knows) == 0);
    const uint64_t *v = mpirr_vc_snapshot();
    CHECK(v[0] == 9 && v[2] == 7 && v[3] == 10); /* 10 - 1, 9 - 2; the sender's own: sent_at */
    mpirr_vc_free();
}

int main(void)
{
    run(5, 2, 2, 0x1234567);
    run(5, 0, 5, 0x7654321);
    run(64, 7, 3, 0xabcdef1);
    run(64, 63, 64, 0x1fedcba);
    run(300, 150, 300, 0x5a5a5a5);
    run(300, 0, 4, 0xa5a5a5a);
    forms();
    return CHECK_DONE();
}
