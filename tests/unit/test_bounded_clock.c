/* test_bounded_clock.c: races mode's bounded clock (src/runtime/vector_clock.c, `record --clock
 * bounded`) round trips. A sender's clock is raised at random and sends headers to random
 * destinations; each destination applies its headers in order and must read the sequence
 * number and the sender's entry for it exactly, and learn no entry above what the sender knew
 * (its entries are lower bounds of the exact ones: what makes the race check sound). Every
 * header takes at most MPIRR_VC_BOUNDED_BYTES, in the varint form (never the fixed one), and
 * the most recently changed entry always comes through when the header has room for it. The
 * race verdict's soundness on whole histories against the true happened-before is
 * unit.races_sim's (bench/races_sim). */
#include <string.h>

#include "check.h"
#include "varint.h"
#include "vector_clock.h"

#define MAX_SENDS 300
#define MAX_RANKS 300

struct sent {
    int dest, fixed;
    uint64_t seq, now, knows_dest, newest; /* newest: the last entry raised before the send */
    int newest_rank;
    uint8_t header[64];
    size_t len;
    uint64_t vec[MAX_RANKS];
};
static struct sent sends[MAX_SENDS];

static void run(int nranks, int sender, int spread, uint64_t seed)
{
    uint64_t rng = seed, seqs[MAX_RANKS] = {0}, raise[MAX_RANKS];
    mpirr_vclock *c = mpirr_vclock_new(nranks, sender, 1);
    CHECK(c != NULL);
    for (int k = 0; k < MAX_SENDS; k++) {
        struct sent *s = &sends[k];
        memcpy(raise, mpirr_vclock_snapshot(c), (size_t)nranks * sizeof *raise);
        int changes = 1 + (int)(test_rand(&rng) % (uint64_t)spread);
        s->newest_rank = -1;
        for (int j = 0; j < changes; j++) {
            int i = (int)(test_rand(&rng) % (uint64_t)nranks);
            if (i == sender) continue;
            raise[i] += 1 + test_rand(&rng) % 300;
            s->newest_rank = i;
        }
        /* one entry at a time, the newest last, so it heads the "last changed" list */
        for (int i = 0; i < nranks; i++) {
            if (i == s->newest_rank) continue;
            uint64_t one[MAX_RANKS] = {0};
            one[i] = raise[i];
            mpirr_vclock_merge(c, one);
        }
        mpirr_vclock_merge(c, raise);
        int steps = (int)(test_rand(&rng) % 4);
        for (int j = 0; j < steps; j++) mpirr_vclock_advance(c);
        s->now = mpirr_vclock_own(c);
        s->dest = (int)(test_rand(&rng) % (uint64_t)nranks);
        s->seq = ++seqs[s->dest];
        memcpy(s->vec, mpirr_vclock_snapshot(c), (size_t)nranks * sizeof *s->vec);
        s->knows_dest = s->vec[s->dest];
        s->newest = s->newest_rank >= 0 ? s->vec[s->newest_rank] : 0;
        /* a bounded clock has no fixed form: its 16 bytes go further in varints */
        CHECK(mpirr_vclock_header_fixed(c, s->dest, s->seq, s->header, 31) == 0);
        s->fixed = 0;
        s->len = mpirr_vclock_header(c, s->dest, s->seq, s->header, sizeof s->header);
        CHECK(s->len > 0 && s->len <= MPIRR_VC_BOUNDED_BYTES);
    }
    mpirr_vclock_delete(c);

    for (int d = 0; d < nranks; d++) {
        if (d == sender) continue;
        mpirr_vclock *r = mpirr_vclock_new(nranks, d, 1);
        CHECK(r != NULL);
        for (int k = 0; k < MAX_SENDS; k++) {
            struct sent *s = &sends[k];
            if (s->dest != d) continue;
            uint64_t seq = 0, knows = 0;
            int bad = s->fixed ? mpirr_vclock_apply_fixed(r, sender, s->header, s->len, &seq, &knows)
                               : mpirr_vclock_apply(r, sender, s->header, s->len, &seq, &knows);
            CHECK(!bad);
            CHECK(seq == s->seq && knows == s->knows_dest);
            const uint64_t *got = mpirr_vclock_snapshot(r);
            CHECK(got[sender] == s->now);
            for (int i = 0; i < nranks; i++)
                if (i != d && i != sender && got[i] > s->vec[i]) {
                    fprintf(stderr, "n=%d sender=%d dest=%d send %d: entry %d is %llu, above the "
                            "sender's %llu\n", nranks, sender, d, k, i, (unsigned long long)got[i],
                            (unsigned long long)s->vec[i]);
                    check_failures++;
                }
            /* the newest entry comes through when the three values leave it room */
            size_t lead = mpirr_varint_len(s->seq) + mpirr_varint_len(s->now) +
                          mpirr_varint_len(mpirr_zigzag((int64_t)(s->now - s->knows_dest)));
            size_t pair = s->newest_rank < 0 ? 99
                          : mpirr_varint_len((uint64_t)s->newest_rank + 1) +
                                mpirr_varint_len(mpirr_zigzag((int64_t)(s->now - s->newest)));
            if (s->newest_rank != d && lead + pair <= MPIRR_VC_BOUNDED_BYTES)
                CHECK(got[s->newest_rank] == s->newest);
            /* cut headers are refused or read as less, never past their end (make sanitize) */
            for (size_t cut = 0; cut < s->len; cut++) {
                uint8_t copy[64];
                memcpy(copy, s->header, cut);
                mpirr_vclock *t = mpirr_vclock_new(nranks, d, 1);
                CHECK(t != NULL);
                uint64_t q, w;
                if (s->fixed) (void)mpirr_vclock_apply_fixed(t, sender, copy, cut, &q, &w);
                else (void)mpirr_vclock_apply(t, sender, copy, cut, &q, &w);
                mpirr_vclock_delete(t);
            }
        }
        mpirr_vclock_delete(r);
    }
}

/* Where everything fits, the bounded clock's header is the exact clock's, byte for byte. */
static void same_when_small(void)
{
    mpirr_vclock *b = mpirr_vclock_new(8, 0, 1), *v = mpirr_vclock_new(8, 0, 0);
    CHECK(b && v);
    uint64_t w[8] = {0, 3, 0, 0, 7, 0, 0, 0};
    mpirr_vclock_merge(b, w), mpirr_vclock_merge(v, w);
    mpirr_vclock_advance(b), mpirr_vclock_advance(v);
    uint8_t hb[64], hv[64];
    size_t lb = mpirr_vclock_header(b, 2, 1, hb, 31), lv = mpirr_vclock_header(v, 2, 1, hv, 31);
    CHECK(lb == lv && lb <= MPIRR_VC_BOUNDED_BYTES && !memcmp(hb, hv, lb));
    mpirr_vclock_delete(b);
    mpirr_vclock_delete(v);
}

int main(void)
{
    /* ranks, sender, most entries changed between two sends (many: the header is cut), seed */
    static const struct { int n, sender, spread; uint64_t seed; } cases[] = {
        {5, 2, 2, 0x1234567}, {64, 7, 3, 0xabcdef1}, {64, 63, 64, 0x1fedcba},
        {300, 150, 300, 0x5a5a5a5}, {300, 0, 1, 0xa5a5a5a}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        run(cases[k].n, cases[k].sender, cases[k].spread, cases[k].seed);
    same_when_small();
    return CHECK_DONE();
}
