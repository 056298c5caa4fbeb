/* recorder.c: record mode's single path to the rank log. Serialises writers, adds the periodic
 * call-sequence checkpoints replay uses to notice divergence between records, and turns an I/O
 * failure into one warning instead of a crash of the user's program. */
#include <errno.h>
#include <string.h>

#include "runtime.h"

/* A checkpoint every this many records bounds how late replay notices a silent divergence. */
#define CHECK_EVERY 4096

static unsigned long since_check;

/* The program runs on when its recording cannot: the tail then says where the recording
 * stops (before the event whose outcome was lost) and why, and a replay holds the rank there. */
static void write_one(const mpirr_record *r)
{
    if (!mpirr_rt.writer) return;
    if (mpirr_log_append(mpirr_rt.writer, r)) {
        int why = errno;
        mpirr_warn("recording rank %d: %s; the recording of this rank stops at event %llu, "
                   "the program goes on", mpirr_rt.rank, mpirr_log_writer_error(mpirr_rt.writer),
                   (unsigned long long)r->event);
        mpirr_recording_stopped(r->event, why);
    }
}

void mpirr_record_append(mpirr_record *r)
{
    mpirr_lock();
    mpirr_record_append_locked(r);
    mpirr_unlock();
}

void mpirr_record_append_locked(mpirr_record *r)
{
    r->written = mpirr_current_event;
    write_one(r);
    /* A checkpoint hashes the MPI calls: it follows an MPI call's record, not a libc value's
     * (whose call field is no MPI call); the next MPI record takes it. */
    if (++since_check >= CHECK_EVERY && r->written == r->event && r->kind != MPIRR_REC_LIBC) {
        mpirr_record chk = {.kind = MPIRR_REC_CHECK, .call = r->call, .event = r->event,
                            .written = r->event, .value = mpirr_rt.hash};
        write_one(&chk);
        since_check = 0;
    }
}

static void fill_match(mpirr_record *r, const MPI_Status *st)
{
    if (st && mpirr_is_rank(st->MPI_SOURCE)) {
        r->has_match = 1;
        r->source = st->MPI_SOURCE;
        r->tag = st->MPI_TAG;
    }
}

void mpirr_record_match(const mpirr_call *c, const MPI_Status *st)
{
    mpirr_record r = {.kind = MPIRR_REC_MATCH, .call = (uint16_t)c->id, .event = c->event};
    fill_match(&r, st);
    mpirr_record_append(&r);
}

void mpirr_record_recv_done(uint64_t event, uint32_t sub, unsigned call, const MPI_Status *st,
                            int cancelled)
{
    mpirr_record r = {.kind = MPIRR_REC_RECV_DONE, .call = (uint16_t)call, .event = event,
                      .sub = sub, .cancelled = cancelled};
    if (!cancelled) fill_match(&r, st);
    mpirr_record_append(&r);
}

static void record_outcome(unsigned kind, const mpirr_call *c, const MPI_Status *st,
                           int count, const int *indices)
{
    mpirr_record r = {.kind = (uint8_t)kind, .call = (uint16_t)c->id, .event = c->event,
                      .count = count == MPI_UNDEFINED ? -1 : count};
    fill_match(&r, st);
    /* int and int32_t are the same type on every platform MPI runs on here. */
    r.indices = (const int32_t *)indices;
    mpirr_record_append(&r);
}

void mpirr_record_test_ok(const mpirr_call *c, const MPI_Status *st, int has_match, int count,
                          const int *indices)
{
    record_outcome(MPIRR_REC_TEST_OK, c, has_match ? st : NULL, count, indices);
}

void mpirr_record_choice(const mpirr_call *c, int count, const int *indices)
{
    record_outcome(MPIRR_REC_CHOICE, c, NULL, count, indices);
}
