/* stat_collect.c: reading every rank log of a recording into per-rank figures, and which of
 * the runtime's counters the recording's mode kept. */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "file_io.h"
#include "mpi_unreplayed.h"
#include "rank_log.h"
#include "stat_collect.h"
#include "stat_events.h"
#include "stat_races.h"
#include "stat_threads.h"

int stat_is_outcome(unsigned kind)
{
    return kind >= MPIRR_REC_MATCH && kind <= MPIRR_REC_WTIME;
}

int stat_counter_collected(const struct rec_stats *st, unsigned c)
{
    return c == MPIRR_CTR_MSGS_SENT || c >= MPIRR_CTR_LIBC_UNRECORDED ||
           strcmp(st->counted_mode, "races") == 0;
}

double stat_bytes_per_record(const struct rank_stat *r)
{
    /* The fixed file headers (one per log; the total has several) are not the records' cost:
     * leave them out. */
    uint64_t headers = (uint64_t)r->logs * MPIRR_LOG_HEADER_BYTES;
    uint64_t body = r->log_bytes > headers ? r->log_bytes - headers : 0;
    return r->records ? (double)body / (double)r->records : -1.0;
}

double stat_traced_percent(const struct rank_stat *r)
{
    /* sends are counted in every mode (receives only in races mode) */
    uint64_t sent = r->counters[MPIRR_CTR_MSGS_SENT];
    return sent ? 100.0 * (double)r->entries_logged / (double)sent : -1.0;
}

double stat_piggyback_per_message(const struct rank_stat *r)
{
    uint64_t msgs = r->counters[MPIRR_CTR_PIGGYBACK_MSGS];
    return msgs ? (double)r->counters[MPIRR_CTR_PIGGYBACK_BYTES] / (double)msgs : -1.0;
}

static void count_record(struct rank_stat *rs, const mpirr_record *rec)
{
    rs->stored++;
    if (rec->kind < MPIRR_REC_KIND_LIMIT)
        rs->by_kind[rec->kind]++;
    if (stat_is_outcome(rec->kind)) {
        rs->records++;
        if (rec->call < MPIRR_CALL_ID_LIMIT)
            rs->by_call[rec->call]++;
    }
    if (rec->kind == MPIRR_REC_MATCH || rec->kind == MPIRR_REC_RECV_DONE)
        rs->entries_logged++;
    if (rec->kind == MPIRR_REC_END) {
        rs->events = rec->total;
        rs->events_exact = 1;
    } else if (!rs->events_exact) {
        uint64_t seen = rec->written > rec->event ? rec->written : rec->event;
        if (seen > rs->events)
            rs->events = seen;
    }
}

/* The MPI's own version line, with its runs of blanks and tabs ("MPICH Version:\t4.0.2")
 * made single spaces for display. */
static void copy_library_name(char *out, size_t n, const char *in)
{
    size_t len = 0;
    for (; *in && len + 1 < n; in++) {
        int blank = isspace((unsigned char)*in);
        if (blank && (len == 0 || out[len - 1] == ' '))
            continue;
        out[len++] = blank ? ' ' : *in;
    }
    while (len > 0 && out[len - 1] == ' ')
        len--;
    out[len] = '\0';
}

/* Reads one rank's log; reports and records any problem in rs->error. */
static void collect_rank(struct rec_stats *st, struct rank_stat *rs)
{
    char path[PATH_MAX + 32];
    recording_log_path(path, sizeof path, st->rec.dir, rs->rank);
    if (!mpirr_file_present(path)) {
        rs->missing = 1;
        snprintf(rs->error, sizeof rs->error, "%s: missing", path);
        cli_error("%s", rs->error);
        return;
    }
    mpirr_log_reader *rd = mpirr_log_reader_open(path, rs->error, sizeof rs->error);
    if (!rd) {
        cli_error("%s", rs->error); /* the reader's messages name the file */
        return;
    }
    rs->readable = 1;
    rs->logs = 1;
    if (rs->rank == 0) {
        const mpirr_log_header *h = mpirr_log_reader_header(rd);
        copy_library_name(st->mpi_library, sizeof st->mpi_library, h->mpi_library);
        st->wtime_unit_ns = h->wtime_unit_ns;
        st->counted_mode = h->flags & MPIRR_LOG_FLAG_RACES ? "races"
                           : h->flags & MPIRR_LOG_FLAG_ALL ? "all" : "sources";
    }
    mpirr_record rec;
    int got;
    while ((got = mpirr_log_read(rd, &rec)) == 1)
        count_record(rs, &rec);
    if (got < 0) {
        snprintf(rs->error, sizeof rs->error, "%s", mpirr_log_reader_error(rd));
        cli_error("%s", rs->error);
    }
    rs->ending = mpirr_log_reader_ending(rd, &rs->detail);
    /* A rank that died noted its event count on the way out (crash.c): exact then. */
    uint64_t noted = mpirr_log_reader_events(rd);
    if (!rs->events_exact && noted >= rs->events) {
        rs->events = noted;
        rs->events_exact = rs->ending == MPIRR_END_SIGNAL || rs->ending == MPIRR_END_ABORT ||
                           rs->ending == MPIRR_END_EXIT;
    }
    rs->log_bytes = mpirr_log_reader_bytes(rd);
    rs->raw_bytes = mpirr_log_reader_raw_bytes(rd);
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++)
        rs->counters[c] = mpirr_log_reader_counter(rd, c);
    rs->pending_recovered = mpirr_log_reader_pending(rd);
    rs->any_unreplayed = mpi_unreplayed_read(rd, rs->unreplayed);
    mpirr_log_reader_close(rd);
}

static void add_to_total(struct rank_stat *t, const struct rank_stat *rs)
{
    t->logs += rs->logs;
    t->events += rs->events;
    t->events_exact &= rs->events_exact;
    t->records += rs->records;
    t->stored += rs->stored;
    for (int k = 0; k < MPIRR_REC_KIND_LIMIT; k++)
        t->by_kind[k] += rs->by_kind[k];
    for (int c = 0; c < MPIRR_CALL_ID_LIMIT; c++) {
        t->by_call[c] += rs->by_call[c];
        t->unreplayed[c] += rs->unreplayed[c];
    }
    t->any_unreplayed |= rs->any_unreplayed;
    t->log_bytes += rs->log_bytes;
    t->raw_bytes += rs->raw_bytes;
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++) {
        if (c == MPIRR_CTR_PENDING_PEAK)
            t->counters[c] = rs->counters[c] > t->counters[c] ? rs->counters[c] : t->counters[c];
        else if (c == MPIRR_CTR_LIBC_UNRECORDED_SOURCES) /* bits */
            t->counters[c] |= rs->counters[c];
        else
            t->counters[c] += rs->counters[c];
    }
    t->entries_logged += rs->entries_logged;
    t->pending_recovered += rs->pending_recovered;
}

int stat_collect(const char *dir, struct rec_stats *st)
{
    memset(st, 0, sizeof *st);
    int rc = recording_open(dir, &st->rec);
    if (rc)
        return rc;
    st->nranks = st->rec.m.nranks > 0 ? st->rec.m.nranks : 0;
    st->ranks = calloc(st->nranks ? (size_t)st->nranks : 1, sizeof *st->ranks);
    if (!st->ranks) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    st->counted_mode = st->rec.m.mode;
    st->total.readable = 1;
    st->total.events_exact = 1;
    for (int i = 0; i < st->nranks; i++) {
        struct rank_stat *rs = &st->ranks[i];
        rs->rank = i;
        collect_rank(st, rs);
        if (rs->error[0])
            st->damaged++;
        add_to_total(&st->total, rs);
    }
    stat_collect_threads(st);
    stat_collect_events(st);
    stat_collect_races(st);
    return 0;
}

void stat_free(struct rec_stats *st)
{
    stat_free_races(st);
    stat_free_threads(st);
    recording_close(&st->rec);
    free(st->ranks);
    st->ranks = NULL;
}
