/* stat_text.c: `mpirr stat` as text: the recording's description, one table row per rank plus
 * a total, and the outcome records by call. Column widths follow the content. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_unreplayed.h"
#include "rank_ending.h"
#include "rank_log.h"
#include "shell_quote.h"
#include "stat_collect.h"
#include "stat_columns.h"
#include "stat_events.h"
#include "stat_print.h"
#include "stat_races.h"
#include "stat_threads.h"
#include "text_escape.h"

enum {
    FIRST_KIND = MPIRR_REC_MATCH,
    NKINDS = MPIRR_REC_WTIME - MPIRR_REC_MATCH + 1,
    COL_RANK = 0, COL_EVENTS, COL_RECORDS, COL_KIND0,
    COL_LOG = COL_KIND0 + NKINDS, COL_RAW, COL_BPR, COL_ENDING,
    NCOLS
};

struct row {
    char cell[NCOLS][STAT_CELL];
};

static void header_row(struct row *row)
{
    static const char *const fixed[NCOLS] = {
        [COL_RANK] = "rank", [COL_EVENTS] = "events", [COL_RECORDS] = "records",
        [COL_LOG] = "log_bytes", [COL_RAW] = "raw_bytes", [COL_BPR] = "B/rec",
        [COL_ENDING] = "ending",
    };
    for (int c = 0; c < NCOLS; c++)
        snprintf(row->cell[c], sizeof row->cell[c], "%s",
                 fixed[c] ? fixed[c] : mpirr_record_kind_name(FIRST_KIND + c - COL_KIND0));
}

static void data_row(struct row *row, const struct rank_stat *r, const char *label,
                     const char *ending)
{
    snprintf(row->cell[COL_RANK], sizeof row->cell[0], "%s", label);
    snprintf(row->cell[COL_ENDING], sizeof row->cell[0], "%s", ending);
    if (!r->readable) {
        for (int c = COL_EVENTS; c < COL_ENDING; c++)
            strcpy(row->cell[c], "-");
        return;
    }
    /* ">=": no END record, so the count stops at the last record written. */
    snprintf(row->cell[COL_EVENTS], sizeof row->cell[0], "%s%" PRIu64,
             r->events_exact ? "" : ">=", r->events);
    snprintf(row->cell[COL_RECORDS], sizeof row->cell[0], "%" PRIu64, r->records);
    for (int k = 0; k < NKINDS; k++)
        snprintf(row->cell[COL_KIND0 + k], sizeof row->cell[0], "%" PRIu64,
                 r->by_kind[FIRST_KIND + k]);
    snprintf(row->cell[COL_LOG], sizeof row->cell[0], "%" PRIu64, r->log_bytes);
    snprintf(row->cell[COL_RAW], sizeof row->cell[0], "%" PRIu64, r->raw_bytes);
    double bpr = stat_bytes_per_record(r);
    if (bpr < 0)
        strcpy(row->cell[COL_BPR], "-");
    else
        snprintf(row->cell[COL_BPR], sizeof row->cell[0], "%.1f", bpr);
}

static void rank_ending(const struct rank_stat *r, char *out, size_t n)
{
    struct rank_ending e = {r->missing, r->readable, r->ending, r->detail};
    rank_ending_text(&e, out, n);
    if (r->readable && r->error[0])
        snprintf(out + strlen(out), n - strlen(out), ", damaged");
}

/* "3 finalized, 1 signal 11 (SIGSEGV)": each distinct ending with its number of ranks. */
static void print_ending_summary(const struct rec_stats *st)
{
    char(*seen)[96] = calloc((size_t)st->nranks + 1, sizeof *seen);
    int *count = calloc((size_t)st->nranks + 1, sizeof *count);
    int ndistinct = 0;
    for (int i = 0; seen && count && i < st->nranks; i++) {
        char text[96];
        rank_ending(&st->ranks[i], text, sizeof text);
        int d = 0;
        while (d < ndistinct && strcmp(seen[d], text) != 0)
            d++;
        if (d == ndistinct)
            strcpy(seen[ndistinct++], text);
        count[d]++;
    }
    printf("ending      ");
    for (int d = 0; d < ndistinct; d++)
        printf("%s%d %s", d ? ", " : "", count[d], seen[d]);
    printf("%s\n", ndistinct ? "" : "-");
    free(seen);
    free(count);
}

static void print_description(const struct rec_stats *st)
{
    const mpirr_manifest *m = &st->rec.m;
    printf("recording   %s\n", st->rec.dir);
    printf("command     ");
    shell_print_command(stdout, m->argc, m->argv);
    printf("\ncwd         ");
    text_put(stdout, m->cwd);
    if (m->exe[0]) {
        printf("\nexecutable  ");
        text_put(stdout, m->exe);
        printf(" (fingerprint %016" PRIx64 ")", m->fingerprint);
    }
    printf("\nmpi         ");
    text_put(stdout, m->mpi);
    if (st->mpi_library[0]) {
        printf(" (");
        text_put(stdout, st->mpi_library);
        printf(")");
    }
    printf("\nmode        ");
    text_put(stdout, m->mode);
    putchar('\n');
    if (m->wtime && st->wtime_unit_ns > 1)
        printf("wtime       recorded at a resolution of %" PRIu32 " ns (--wtime-resolution)\n",
               st->wtime_unit_ns);
    else
        printf("wtime       %s\n", m->wtime ? "recorded" : "not recorded");
    char when[64];
    time_t created = (time_t)m->created;
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&created, &tm));
    printf("created     %s\n", when);
    if (m->exit_status >= 0)
        printf("exit        %d\n", m->exit_status);
    else
        printf("exit        unknown (mpirr record did not finish)\n");
    printf("ranks       %d\n", st->nranks);
    print_ending_summary(st);
}

static void print_table(const struct rec_stats *st)
{
    struct row *rows = malloc(((size_t)st->nranks + 2) * sizeof *rows);
    if (!rows)
        return;
    header_row(&rows[0]);
    for (int i = 0; i < st->nranks; i++) {
        char label[16], ending[96];
        snprintf(label, sizeof label, "%d", st->ranks[i].rank);
        rank_ending(&st->ranks[i], ending, sizeof ending);
        data_row(&rows[i + 1], &st->ranks[i], label, ending);
    }
    data_row(&rows[st->nranks + 1], &st->total, "total", "");
    stat_print_columns(rows[0].cell, NCOLS, st->nranks + 2);
    free(rows);
    printf("\n%s counts successful tests only: unsuccessful ones are not recorded one by one.\n",
           mpirr_record_kind_name(MPIRR_REC_TEST_OK));
    if (!st->total.events_exact)
        printf("events >=N: the rank has no END record (it did not reach MPI_Finalize); "
               "counted to its last record.\n");
    printf("B/rec: log bytes per outcome record (the %d-byte file header of each log left out).\n",
           MPIRR_LOG_HEADER_BYTES);
}

/* The runtime's message counters (all ranks), and in races mode what the race detection cost:
 *   messages    1200 sent, 1200 received; wildcard receives: 300; logged: 12 (1.0% of
 *               messages traced)
 *   races       racing: 12 logged, 0 fallback, 0 recovered (peak 3 pending); piggyback:
 *               9.3 B/message, 40 messages without; 4 clock merges
 * (one line each). In the other modes the runtime counts sends only:
 *   messages    1200 sent; received, wildcard receives: not collected in sources mode; logged: 300
 *               (25.0% of messages traced)                                                  */
static void print_messages(const struct rec_stats *st)
{
    const struct rank_stat *t = &st->total;
    const uint64_t *c = t->counters;
    printf("\nmessages    %" PRIu64 " sent", c[MPIRR_CTR_MSGS_SENT]);
    if (stat_counter_collected(st, MPIRR_CTR_MSGS_RECEIVED))
        printf(", %" PRIu64 " received; wildcard receives: %" PRIu64, c[MPIRR_CTR_MSGS_RECEIVED],
               c[MPIRR_CTR_WILD_RECEIVES]);
    else
        printf("; received, wildcard receives: not collected in %s mode", st->counted_mode);
    printf("; logged: %" PRIu64, t->entries_logged);
    double traced = stat_traced_percent(t);
    if (traced >= 0)
        printf(" (%.1f%% of messages traced)\n", traced);
    else
        printf(" (no messages counted)\n");
    if (!stat_counter_collected(st, MPIRR_CTR_RACING_RECEIVES))
        return;
    printf("races       racing: %" PRIu64 " logged, %" PRIu64 " fallback, %" PRIu64
           " recovered (peak %" PRIu64 " pending); piggyback: ",
           c[MPIRR_CTR_RACING_RECEIVES], c[MPIRR_CTR_FALLBACK_LOGGED], t->pending_recovered,
           c[MPIRR_CTR_PENDING_PEAK]);
    double per = stat_piggyback_per_message(t);
    if (per >= 0)
        printf("%.1f B/message", per);
    else
        printf("none");
    printf(", %" PRIu64 " messages without; %" PRIu64 " clock merges\n", c[MPIRR_CTR_SHORT_MSGS],
           c[MPIRR_CTR_CLOCK_MERGES]);
}

/*   events      361800 events in 51234 bytes (0.142 B/event); raw 2894400 bytes, 56.5x
 *               (98.2% compression) */
static void print_events(const struct rec_stats *st)
{
    const struct events_stat *e = &st->ev;
    if (!e->present)
        return;
    printf("events      %" PRIu64 " events in %" PRIu64 " bytes", e->events, e->stored_bytes);
    double per = stat_events_bytes_per_event(e), ratio = stat_events_ratio(e);
    if (per >= 0)
        printf(" (%.3f B/event)", per);
    printf("; raw %" PRIu64 " bytes", e->raw_bytes);
    if (ratio > 0)
        printf(", %.1fx (%.1f%% compression)", ratio, 100.0 * (1.0 - 1.0 / ratio));
    if (e->cut_off)
        printf("; %d rank(s) cut off", e->cut_off);
    if (e->damaged)
        printf("; %d rank(s) damaged", e->damaged);
    printf("\n");
}

static void print_by_call(const struct rec_stats *st)
{
    printf("\noutcome records by call (all ranks)\n");
    int any = 0;
    for (unsigned c = 0; c < MPIRR_CALL_ID_LIMIT; c++) {
        if (!st->total.by_call[c])
            continue;
        const char *name = mpirr_call_name(c);
        char unknown[32];
        if (!name) {
            snprintf(unknown, sizeof unknown, "call #%u", c);
            name = unknown;
        }
        printf("  %-24s %12" PRIu64 "\n", name, st->total.by_call[c]);
        any = 1;
    }
    if (!any)
        printf("  (none)\n");
}

/* Only for a program that made such calls: the replay's verdict names them too. */
static void print_unreplayed(const struct rec_stats *st)
{
    if (!st->total.any_unreplayed)
        return;
    printf("\ncalls whose outcomes are not replayed (a replay says \"but not exact\")\n");
    char list[2048];
    for (int k = 0; k < st->nranks; k++) {
        if (!st->ranks[k].any_unreplayed)
            continue;
        mpi_unreplayed_list(st->ranks[k].unreplayed, list, sizeof list);
        printf("  rank %-5d %s\n", st->ranks[k].rank, list);
    }
}

void stat_print_text(const struct rec_stats *st)
{
    print_description(st);
    printf("\n");
    print_table(st);
    stat_print_threads_text(st);
    print_messages(st);
    print_events(st);
    stat_print_races_text(st);
    print_by_call(st);
    print_unreplayed(st);
}
