/* stat_threads.c: what `mpirr stat` says about the threads of threaded ranks, from their sync
 * logs (sync-RRRRR-TTTT.log, docs/format.md): per rank and thread, the synchronizations the
 * thread made (its log's progress word), the records written (only the outcomes that were not
 * the predicted ones: src/runtime/threads/README.md) and the log's bytes. A recording without
 * sync logs gets nothing from here. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "number_parse.h"
#include "rank_ending.h"
#include "rank_log.h"
#include "rank_pack.h"
#include "stat_columns.h"
#include "stat_threads.h"

/* "sync-00003-0002.log" -> 3, 2, exactly as mpirr_sync_log_path writes it; 0 for any other. */
static int parse_name(const char *dir, const char *name, int *rank, int *thread)
{
    if (strncmp(name, "sync-", 5) != 0)
        return 0;
    uint64_t r, t;
    const char *end = mpirr_parse_leading(name + 5, 9999999, &r);
    if (!end || *end != '-' || !(end = mpirr_parse_leading(end + 1, 9999999, &t)) ||
        strcmp(end, ".log") != 0)
        return 0;
    char canon[PATH_MAX + 64], path[PATH_MAX + 64];
    mpirr_sync_log_path(canon, sizeof canon, dir, (int)r, (int)t, "log");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *rank = (int)r;
    *thread = (int)t;
    return strcmp(canon, path) == 0;
}

static int by_thread(const void *a, const void *b)
{
    const struct thread_stat *x = a, *y = b;
    return (x->thread > y->thread) - (x->thread < y->thread);
}

static void read_log(const char *dir, int rank, struct thread_stat *ts)
{
    char path[PATH_MAX + 64], err[600];
    mpirr_sync_log_path(path, sizeof path, dir, rank, ts->thread, "log");
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!rd) {
        cli_error("%s", err);
        ts->damaged = 1;
        return;
    }
    mpirr_record rec;
    int got;
    uint64_t last = 0;
    while ((got = mpirr_log_read(rd, &rec)) == 1) {
        if (rec.kind != MPIRR_REC_SYNC)
            continue;
        ts->records++;
        if (rec.event > last)
            last = rec.event;
    }
    if (got < 0) {
        cli_error("%s", mpirr_log_reader_error(rd));
        ts->damaged = 1;
    }
    ts->ending = mpirr_log_reader_ending(rd, &ts->detail);
    /* the progress word; a tail too damaged to hold one still proves the last record's call */
    uint64_t progress = mpirr_log_reader_events(rd);
    ts->syncs = progress > last ? progress : last;
    ts->log_bytes = mpirr_log_reader_bytes(rd);
    mpirr_log_reader_close(rd);
}

static int add_thread(struct rank_stat *rs, int thread)
{
    struct thread_stat *t = realloc(rs->threads, ((size_t)rs->nthreads + 1) * sizeof *t);
    if (!t)
        return -1;
    rs->threads = t;
    t[rs->nthreads++] = (struct thread_stat){.thread = thread};
    return 0;
}

void stat_collect_threads(struct rec_stats *st)
{
    mpirr_name_list names;
    char err[1024];
    /* recording_open listed them already: a failure now is not worth a second message */
    if (mpirr_rank_files_list(st->rec.dir, &names, NULL, err, sizeof err))
        return;
    int rank, thread;
    for (size_t i = 0; i < names.n; i++) {
        if (!parse_name(st->rec.dir, names.v[i], &rank, &thread))
            continue;
        if (rank >= st->nranks) {
            cli_error("%s/%s: a sync log of rank %d, which the recording does not have",
                      st->rec.dir, names.v[i], rank);
            st->sync_total.damaged++;
            continue;
        }
        if (add_thread(&st->ranks[rank], thread)) {
            cli_error("out of memory");
            break;
        }
        st->sync_logs++;
    }
    mpirr_name_list_free(&names);
    struct thread_stat *tot = &st->sync_total;
    for (int r = 0; r < st->nranks; r++) {
        struct rank_stat *rs = &st->ranks[r];
        if (rs->nthreads) /* (qsort of a NULL array, even empty, is undefined) */
            qsort(rs->threads, (size_t)rs->nthreads, sizeof *rs->threads, by_thread);
        for (int i = 0; i < rs->nthreads; i++) {
            struct thread_stat *ts = &rs->threads[i];
            read_log(st->rec.dir, r, ts);
            tot->syncs += ts->syncs;
            tot->records += ts->records;
            tot->log_bytes += ts->log_bytes;
            tot->damaged += ts->damaged;
        }
    }
}

void stat_free_threads(struct rec_stats *st)
{
    for (int r = 0; st->ranks && r < st->nranks; r++) {
        free(st->ranks[r].threads);
        st->ranks[r].threads = NULL;
        st->ranks[r].nthreads = 0;
    }
}

enum { T_RANK, T_THREAD, T_SYNCS, T_RECORDS, T_BYTES, T_ENDING, T_NCOLS };

static void put_row(char (*cell)[STAT_CELL], const char *rank, const char *thread,
                    const struct thread_stat *ts, const char *ending)
{
    snprintf(cell[T_RANK], STAT_CELL, "%s", rank);
    snprintf(cell[T_THREAD], STAT_CELL, "%s", thread);
    snprintf(cell[T_SYNCS], STAT_CELL, "%" PRIu64, ts->syncs);
    snprintf(cell[T_RECORDS], STAT_CELL, "%" PRIu64, ts->records);
    snprintf(cell[T_BYTES], STAT_CELL, "%" PRIu64, ts->log_bytes);
    snprintf(cell[T_ENDING], STAT_CELL, "%s", ending);
}

static void thread_ending(const struct thread_stat *ts, char *out, size_t n)
{
    struct rank_ending e = {.readable = 1, .ending = ts->ending, .detail = ts->detail};
    rank_ending_text(&e, out, n);
    if (ts->damaged)
        snprintf(out + strlen(out), n - strlen(out), ", damaged");
}

/*   sync logs   4 threads of 2 ranks: syncs = synchronizations made; records = those whose ...
 *     rank  thread  syncs  records  log_bytes  ending
 *        0       0   2001       37       1530  finalized
 *     total          8001      150       6200                                           */
void stat_print_threads_text(const struct rec_stats *st)
{
    if (!st->sync_logs)
        return;
    int nrows = st->sync_logs + 2;
    char(*cells)[STAT_CELL] = calloc((size_t)nrows * T_NCOLS, STAT_CELL);
    if (!cells)
        return;
    static const char *const head[T_NCOLS] = {"rank", "thread", "syncs", "records", "log_bytes",
                                              "ending"};
    for (int c = 0; c < T_NCOLS; c++)
        snprintf(cells[c], STAT_CELL, "%s", head[c]);
    int row = 1;
    for (int r = 0; r < st->nranks; r++)
        for (int i = 0; i < st->ranks[r].nthreads && row < nrows - 1; i++, row++) {
            const struct thread_stat *ts = &st->ranks[r].threads[i];
            char rank[16], thread[16], ending[96];
            snprintf(rank, sizeof rank, "%d", r);
            snprintf(thread, sizeof thread, "%d", ts->thread);
            thread_ending(ts, ending, sizeof ending);
            put_row(cells + row * T_NCOLS, rank, thread, ts, ending);
        }
    put_row(cells + row * T_NCOLS, "total", "", &st->sync_total, "");
    int ranks = 0;
    for (int r = 0; r < st->nranks; r++)
        ranks += st->ranks[r].nthreads > 0;
    printf("\nsync logs   %d thread%s of %d rank%s: syncs = synchronizations made; records = "
           "those whose outcome was not the predicted one (the others need none)\n",
           st->sync_logs, st->sync_logs == 1 ? "" : "s", ranks, ranks == 1 ? "" : "s");
    stat_print_columns(cells, T_NCOLS, row + 1);
    free(cells);
}

static void put_thread_counts(struct json *j, const struct thread_stat *ts)
{
    json_uint(j, "syncs", ts->syncs);
    json_uint(j, "records", ts->records);
    json_uint(j, "log_bytes", ts->log_bytes);
}

void stat_print_threads_json(const struct rank_stat *r, struct json *j)
{
    json_array_begin(j, "threads");
    for (int i = 0; i < r->nthreads; i++) {
        const struct thread_stat *ts = &r->threads[i];
        json_object_begin(j, NULL);
        json_int(j, "thread", ts->thread);
        put_thread_counts(j, ts);
        json_string(j, "ending", mpirr_log_ending_name(ts->ending));
        json_bool(j, "damaged", ts->damaged);
        json_object_end(j);
    }
    json_array_end(j);
}

void stat_print_threads_total_json(const struct rec_stats *st, struct json *j)
{
    json_object_begin(j, "threads");
    json_int(j, "logs", st->sync_logs);
    put_thread_counts(j, &st->sync_total);
    json_int(j, "damaged", st->sync_total.damaged);
    json_object_end(j);
}
