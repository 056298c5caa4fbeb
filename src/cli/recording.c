/* recording.c: opening a recording for the tools. */
#include "recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "rank_log.h"
#include "recdir.h"

int recording_open(const char *dir_arg, struct recording *r)
{
    mpirr_manifest_init(&r->m);
    r->name = dir_arg;
    int rc = recdir_find(dir_arg, r->dir, sizeof r->dir);
    if (rc)
        return rc;
    char err[1024];
    if (mpirr_manifest_read(r->dir, &r->m, err, sizeof err) != 0) {
        cli_error("%s", err);
        return CLI_EXIT_USAGE;
    }
    /* mpirr record was killed before it could complete the manifest; the logs still know. */
    if (r->m.nranks < 0)
        recording_fill_from_logs(r->dir, &r->m);
    return 0;
}

void recording_close(struct recording *r)
{
    mpirr_manifest_free(&r->m);
}

void recording_log_path(char *path, size_t n, const char *dir, int rank)
{
    mpirr_log_path(path, n, dir, rank, "log");
}

void recording_fill_from_logs(const char *dir, mpirr_manifest *m)
{
    int count = recdir_count_logs(dir);
    m->nranks = count;
    if (count == 0) {
        cli_error("%s holds no rank logs (the program never reached MPI_Init with the runtime "
                  "loaded)", dir);
        return;
    }
    char path[PATH_MAX], err[1024];
    recording_log_path(path, sizeof path, dir, 0);
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!rd) {
        cli_error("%s", err);
        return;
    }
    const mpirr_log_header *h = mpirr_log_reader_header(rd);
    if (h->nranks != count)
        cli_error("%s holds %d rank log%s but rank 0 reports %d ranks", dir, count,
                  count == 1 ? "" : "s", h->nranks);
    m->nranks = h->nranks;
    snprintf(m->exe, sizeof m->exe, "%s", h->exe_path);
    m->fingerprint = h->exe_fingerprint;
    mpirr_log_reader_close(rd);
}

static int by_event(const void *a, const void *b)
{
    const struct log_key *x = a, *y = b;
    return x->event < y->event ? -1 : x->event > y->event;
}

struct log_key *recording_log_keys(const char *dir, int rank, size_t *n)
{
    char path[PATH_MAX + 32], err[600];
    recording_log_path(path, sizeof path, dir, rank);
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    *n = 0;
    if (!rd) {
        cli_error("%s", err);
        *n = SIZE_MAX; /* unreadable, as opposed to no records */
        return NULL;
    }
    struct log_key *k = NULL;
    size_t cap = 0;
    mpirr_record rec;
    while (mpirr_log_read(rd, &rec) == 1) {
        if (!rec.call || !rec.event) continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 1024;
            struct log_key *nk = realloc(k, cap * sizeof *nk);
            if (!nk) break;
            k = nk;
        }
        k[(*n)++] = (struct log_key){rec.event, rec.call, rec.kind};
    }
    mpirr_log_reader_close(rd);
    if (k) qsort(k, *n, sizeof *k, by_event);
    return k;
}
