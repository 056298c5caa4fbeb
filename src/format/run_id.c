/* run_id.c: a recording's run id (run_id.h): its text form, its checked binary form, and the
 * one check every reader makes of every file it opens. */
#include "run_id.h"

#include <stdio.h>
#include <string.h>

#include "number_parse.h"
#include "varint.h"

static int expecting;
static mpirr_run_id expected;
static unsigned refusals;

unsigned mpirr_run_id_refusals(void) { return refusals; }

int mpirr_run_id_is_none(const mpirr_run_id *id)
{
    static const mpirr_run_id none;
    return mpirr_run_id_equal(id, &none);
}

int mpirr_run_id_equal(const mpirr_run_id *a, const mpirr_run_id *b)
{
    return !memcmp(a->b, b->b, sizeof a->b);
}

void mpirr_run_id_text(const mpirr_run_id *id, char out[MPIRR_RUN_ID_DIGITS + 1])
{
    if (mpirr_run_id_is_none(id)) {
        snprintf(out, MPIRR_RUN_ID_DIGITS + 1, "none");
        return;
    }
    for (int i = 0; i < MPIRR_RUN_ID_BYTES; i++) snprintf(out + 2 * i, 3, "%02x", id->b[i]);
}

int mpirr_run_id_parse(const char *text, mpirr_run_id *id)
{
    mpirr_run_id got;
    if (strlen(text) != MPIRR_RUN_ID_DIGITS) return -1;
    for (int i = 0; i < MPIRR_RUN_ID_BYTES; i++) {
        uint64_t byte;
        if (mpirr_parse_digits(text + 2 * i, 2, 16, UINT8_MAX, &byte)) return -1;
        got.b[i] = (uint8_t)byte;
    }
    *id = got;
    return 0;
}

void mpirr_run_id_put_checked(uint8_t *p, const mpirr_run_id *id)
{
    memcpy(p, id->b, MPIRR_RUN_ID_BYTES);
    mpirr_put_u64(p + MPIRR_RUN_ID_BYTES, mpirr_fnv64(MPIRR_FNV64_OFFSET, id->b, MPIRR_RUN_ID_BYTES));
}

int mpirr_run_id_get_checked(const uint8_t *p, mpirr_run_id *id)
{
    if (mpirr_get_u64(p + MPIRR_RUN_ID_BYTES) != mpirr_fnv64(MPIRR_FNV64_OFFSET, p, MPIRR_RUN_ID_BYTES))
        return -1;
    memcpy(id->b, p, MPIRR_RUN_ID_BYTES);
    return 0;
}

void mpirr_run_id_expect(const mpirr_run_id *id)
{
    expecting = id != NULL;
    if (id) expected = *id;
}

int mpirr_run_id_check(const char *path, const mpirr_run_id *id, const mpirr_run_id *sibling,
                       char *err, size_t errlen)
{
    const mpirr_run_id *want = expecting ? &expected : sibling;
    if (!want || mpirr_run_id_equal(id, want)) return 0;
    char has[MPIRR_RUN_ID_DIGITS + 1], is[MPIRR_RUN_ID_DIGITS + 1];
    mpirr_run_id_text(id, has);
    mpirr_run_id_text(want, is);
    refusals++;
    snprintf(err, errlen, "%s belongs to another recording (run id %s, this recording's is %s)",
             path, has, is);
    return -1;
}
