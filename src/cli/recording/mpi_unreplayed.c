/* mpi_unreplayed.c: see mpi_unreplayed.h. */
#include "mpi_unreplayed.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mpi_unreplayed_read(const mpirr_log_reader *rd, uint64_t calls[MPIRR_CALL_ID_LIMIT])
{
    int any = 0;
    for (unsigned id = 0; id < MPIRR_CALL_ID_LIMIT; id++) {
        calls[id] = mpirr_call_unreplayed(id) ? mpirr_log_reader_call_count(rd, id) : 0;
        any |= calls[id] != 0;
    }
    return any;
}

void mpi_unreplayed_from_logs(struct mpi_unreplayed *u, const char *dir, int nranks)
{
    memset(u, 0, sizeof *u);
    char path[PATH_MAX + 32], err[1024];
    struct mpi_unreplayed_rank one;
    for (int k = 0; k < nranks; k++) {
        mpirr_log_path(path, sizeof path, dir, k, "log");
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd) continue;
        int any = mpi_unreplayed_read(rd, one.calls);
        mpirr_log_reader_close(rd);
        if (!any) continue;
        struct mpi_unreplayed_rank *grown = realloc(u->ranks, (size_t)(u->n + 1) * sizeof *grown);
        if (!grown) break; /* the clause names the ranks read so far */
        u->ranks = grown;
        one.rank = k;
        u->ranks[u->n++] = one;
    }
}

void mpi_unreplayed_free(struct mpi_unreplayed *u)
{
    free(u->ranks);
    memset(u, 0, sizeof *u);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(mpirr_call_name(*(const unsigned *)a), mpirr_call_name(*(const unsigned *)b));
}

/* Appends to buf (holding len bytes) without overflowing it. */
static size_t append(char *buf, size_t n, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t n, size_t len, const char *fmt, ...)
{
    if (len >= n) return len;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
    return w < 0 ? len : len + (size_t)w;
}

void mpi_unreplayed_list(const uint64_t calls[MPIRR_CALL_ID_LIMIT], char *buf, size_t n)
{
    unsigned ids[MPIRR_CALL_ID_LIMIT], k = 0;
    for (unsigned id = 0; id < MPIRR_CALL_ID_LIMIT; id++)
        if (calls[id]) ids[k++] = id;
    qsort(ids, k, sizeof ids[0], by_name);
    size_t len = 0;
    if (n) buf[0] = 0;
    for (unsigned i = 0; i < k; i++)
        len = append(buf, n, len, "%s%s %" PRIu64 " time%s", i ? ", " : "",
                     mpirr_call_name(ids[i]), calls[ids[i]], calls[ids[i]] == 1 ? "" : "s");
}

void mpi_unreplayed_clause(const struct mpi_unreplayed *u, char *buf, size_t n)
{
    if (n) buf[0] = 0;
    if (!u->n) return;
    int said[MPIRR_UNREPLAYED_OUTCOMES] = {0};
    size_t len = 0;
    char list[2048];
    for (int r = 0; r < u->n; r++) {
        for (unsigned id = 0; id < MPIRR_CALL_ID_LIMIT; id++)
            if (u->ranks[r].calls[id]) said[mpirr_call_unreplayed_outcome(id)] = 1;
        if (r == MPI_UNREPLAYED_NAMED_RANKS) {
            len = append(buf, n, len, "; and %d more rank%s", u->n - r, u->n - r > 1 ? "s" : "");
        } else if (r < MPI_UNREPLAYED_NAMED_RANKS) {
            mpi_unreplayed_list(u->ranks[r].calls, list, sizeof list);
            len = append(buf, n, len, "%srank %d called %s", r ? "; " : "", u->ranks[r].rank, list);
        }
    }
    const char *sep = ": their outcomes (";
    for (int o = 0; o < MPIRR_UNREPLAYED_OUTCOMES; o++) {
        if (!said[o]) continue;
        len = append(buf, n, len, "%s%s", sep, mpirr_unreplayed_outcome_at(o));
        sep = ", ";
    }
    append(buf, n, len, ") are not replayed");
}
