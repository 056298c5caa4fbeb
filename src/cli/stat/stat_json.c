/* stat_json.c: `mpirr stat --json`: the figures of stat_text.c as one JSON object. */
#include <inttypes.h>
#include <stdio.h>

#include "json.h"
#include "rank_ending.h"
#include "rank_log.h"
#include "stat_collect.h"
#include "stat_events.h"
#include "stat_print.h"
#include "stat_races.h"
#include "stat_threads.h"

/* v, or null for the negative "not defined" of stat.h's ratios. */
static void put_double_or_null(struct json *j, const char *key, double v)
{
    if (v < 0)
        json_null(j, key);
    else
        json_double(j, key, v);
}

/* The figures shared by a rank and the total. */
static void put_counts(struct json *j, const struct rec_stats *st, const struct rank_stat *r)
{
    json_uint(j, "events", r->events);
    json_bool(j, "events_exact", r->events_exact);
    json_uint(j, "records", r->records);
    json_uint(j, "stored", r->stored);
    json_object_begin(j, "by_kind");
    for (unsigned k = MPIRR_REC_MATCH; k < MPIRR_REC_KIND_LIMIT; k++)
        json_uint(j, mpirr_record_kind_name(k), r->by_kind[k]);
    json_object_end(j);
    json_object_begin(j, "by_call");
    for (unsigned c = 0; c < MPIRR_CALL_ID_LIMIT; c++) {
        if (!r->by_call[c])
            continue;
        char unknown[32];
        const char *name = mpirr_call_name(c);
        if (!name)
            snprintf(unknown, sizeof unknown, "call #%u", c);
        json_uint(j, name ? name : unknown, r->by_call[c]);
    }
    json_object_end(j);
    json_object_begin(j, "unreplayed_calls"); /* by name: calls whose outcomes are not replayed */
    for (unsigned c = 0; c < MPIRR_CALL_ID_LIMIT; c++)
        if (r->unreplayed[c])
            json_uint(j, mpirr_call_name(c), r->unreplayed[c]);
    json_object_end(j);
    json_uint(j, "log_bytes", r->log_bytes);
    json_uint(j, "raw_bytes", r->raw_bytes);
    double bpr = stat_bytes_per_record(r);
    put_double_or_null(j, "bytes_per_record", bpr);
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++) /* null: not collected (not_collected) */
        if (stat_counter_collected(st, c))
            json_uint(j, mpirr_counter_name(c), r->counters[c]);
        else
            json_null(j, mpirr_counter_name(c));
    json_uint(j, "entries_logged", r->entries_logged);
    json_uint(j, "pending_recovered", r->pending_recovered);
    put_double_or_null(j, "traced_percent", stat_traced_percent(r));
    put_double_or_null(j, "piggyback_bytes_per_message", stat_piggyback_per_message(r));
}

static void put_rank(struct json *j, const struct rec_stats *st, const struct rank_stat *r)
{
    json_object_begin(j, NULL);
    json_int(j, "rank", r->rank);
    put_counts(j, st, r);
    json_string(j, "ending", r->readable ? mpirr_log_ending_name(r->ending) : NULL);
    if (r->readable && rank_ending_has_detail(r->ending))
        json_int(j, "ending_detail", r->detail);
    else
        json_null(j, "ending_detail");
    json_string(j, "error", r->error[0] ? r->error : NULL);
    if (st->sync_logs)
        stat_print_threads_json(r, j);
    json_object_end(j);
}

/* "not_collected": {"counters": [...], "note": "not collected in sources mode"}, or null when
 * the mode kept every counter. */
static void put_not_collected(struct json *j, const struct rec_stats *st)
{
    int any = 0;
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++)
        any |= !stat_counter_collected(st, c);
    if (!any) {
        json_null(j, "not_collected");
        return;
    }
    json_object_begin(j, "not_collected");
    json_array_begin(j, "counters");
    for (unsigned c = 0; c < MPIRR_CTR_LIMIT; c++)
        if (!stat_counter_collected(st, c))
            json_string(j, NULL, mpirr_counter_name(c));
    json_array_end(j);
    char note[96];
    snprintf(note, sizeof note, "not collected in %s mode (races mode counts them)",
             st->counted_mode);
    json_string(j, "note", note);
    json_object_end(j);
}

void stat_print_json(const struct rec_stats *st)
{
    const mpirr_manifest *m = &st->rec.m;
    struct json j;
    json_init(&j, stdout);
    json_object_begin(&j, NULL);
    json_string(&j, "dir", st->rec.dir);
    json_string(&j, "mode", m->mode);
    json_string(&j, "mpi", m->mpi);
    json_string(&j, "mpi_library", st->mpi_library[0] ? st->mpi_library : NULL);
    json_int(&j, "nranks", st->nranks);
    json_bool(&j, "wtime", m->wtime);
    json_int(&j, "wtime_resolution_ns", m->wtime && st->wtime_unit_ns > 1 ? st->wtime_unit_ns : 1);
    json_int(&j, "created", m->created);
    json_string(&j, "cwd", m->cwd);
    json_array_begin(&j, "command");
    for (int i = 0; i < m->argc; i++)
        json_string(&j, NULL, m->argv[i]);
    json_array_end(&j);
    json_string(&j, "exe", m->exe[0] ? m->exe : NULL);
    char fp[24];
    snprintf(fp, sizeof fp, "%016" PRIx64, m->fingerprint);
    json_string(&j, "fingerprint", m->fingerprint ? fp : NULL);
    if (m->exit_status >= 0)
        json_int(&j, "exit_status", m->exit_status);
    else
        json_null(&j, "exit_status");
    json_string(&j, "counted_mode", st->counted_mode);
    put_not_collected(&j, st);
    json_array_begin(&j, "ranks");
    for (int i = 0; i < st->nranks; i++)
        put_rank(&j, st, &st->ranks[i]);
    json_array_end(&j);
    /* "totals" is an alias of "total", for scripts written against that name. */
    static const char *const total_keys[] = {"total", "totals"};
    for (unsigned i = 0; i < sizeof total_keys / sizeof total_keys[0]; i++) {
        json_object_begin(&j, total_keys[i]);
        put_counts(&j, st, &st->total);
        json_int(&j, "damaged", st->damaged);
        if (st->sync_logs)
            stat_print_threads_total_json(st, &j);
        json_object_end(&j);
    }
    if (st->ev.present) {
        const struct events_stat *e = &st->ev;
        json_object_begin(&j, "events");
        json_uint(&j, "count", e->events);
        json_uint(&j, "raw_bytes", e->raw_bytes);
        json_uint(&j, "compressed_bytes", e->stored_bytes);
        put_double_or_null(&j, "bytes_per_event", stat_events_bytes_per_event(e));
        put_double_or_null(&j, "compression_ratio", stat_events_ratio(e));
        json_uint(&j, "tail_bytes", e->tail_bytes);
        json_int(&j, "cut_off", e->cut_off);
        json_int(&j, "damaged", e->damaged);
        json_object_end(&j);
    } else {
        json_null(&j, "events");
    }
    stat_print_races_json(st, &j);
    json_object_end(&j);
}
