/* recording.c: opening a recording for the tools, and cross-checking its rank count (the
 * manifest's, the rank files present, their headers' ranks) before anything is sized by it,
 * and that every file is of this recording: the manifest's run id is what every reader
 * expects from then on (run_id.h), and every rank, history and sync log is opened once here. */
#include "recording.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "event_trace.h"
#include "file_io.h"
#include "local_files.h"
#include "number_parse.h"
#include "rank_log.h"
#include "rank_pack.h"
#include "recdir.h"
#include "reserve.h"

/* The rank files in a directory, from one listing: a rank count is never trusted to say how
 * many names to try. */
struct rank_files {
    int *logs, *histories; /* rank indices of rank-N.log and rank-N.events */
    size_t nlogs, nhistories, caplogs, caphistories;
    char **sync_logs;      /* names of sync-R-T.log (threads' logs) */
    size_t nsync, capsync;
};

/* N of "rank-N.<suffix>" (five digits or more, nothing after the suffix), else -1. */
static int rank_of_name(const char *name, const char *suffix)
{
    if (strncmp(name, "rank-", 5)) return -1;
    uint64_t n;
    const char *p = mpirr_parse_leading(name + 5, MPIRR_MAX_RANKS, &n);
    if (!p || p - (name + 5) < 5 || *p != '.' || strcmp(p + 1, suffix)) return -1;
    return (int)n;
}

static int add_index(int **v, size_t *n, size_t *cap, int rank)
{
    if (mpirr_reserve((void **)v, cap, *n + 1, sizeof **v)) return -1;
    (*v)[(*n)++] = rank;
    return 0;
}

/* "sync-R-T.log": a thread's sync log (its tail beside it is read with it). */
static int is_sync_log(const char *name)
{
    size_t n = strlen(name);
    return !strncmp(name, "sync-", 5) && n > 9 && !strcmp(name + n - 4, ".log");
}

static int add_name(char ***v, size_t *n, size_t *cap, const char *name)
{
    if (mpirr_reserve((void **)v, cap, *n + 1, sizeof **v) || !((*v)[*n] = strdup(name))) return -1;
    ++*n;
    return 0;
}

static void free_rank_files(struct rank_files *rf)
{
    free(rf->logs);
    free(rf->histories);
    for (size_t i = 0; i < rf->nsync; i++) free(rf->sync_logs[i]);
    free(rf->sync_logs);
}

/* 0, or -1 after one line (damaged packs, out of memory); a directory that cannot be read
 * lists nothing (the readers say why). */
static int list_rank_files(const char *dir, struct rank_files *rf)
{
    memset(rf, 0, sizeof *rf);
    mpirr_name_list names;
    char err[1024];
    if (mpirr_rank_files_list(dir, &names, NULL, err, sizeof err)) {
        if (errno == EINVAL || errno == ENOMEM) cli_error("%s", err);
        return errno == EINVAL || errno == ENOMEM ? -1 : 0;
    }
    int rc = 0;
    for (size_t i = 0; !rc && i < names.n; i++) {
        const char *name = names.v[i];
        int log = rank_of_name(name, "log"), hist = rank_of_name(name, "events");
        if (log >= 0) rc = add_index(&rf->logs, &rf->nlogs, &rf->caplogs, log);
        if (hist >= 0) rc = add_index(&rf->histories, &rf->nhistories, &rf->caphistories, hist);
        if (is_sync_log(name)) rc = add_name(&rf->sync_logs, &rf->nsync, &rf->capsync, name);
    }
    mpirr_name_list_free(&names);
    if (rc) {
        cli_error("out of memory listing %s", dir);
        free_rank_files(rf);
    }
    return rc;
}

/* A rank file's own rank count against the recording's: one line naming the file. */
static int same_count(const char *path, int file_rank, int header_rank, int header_nranks, int nranks)
{
    if (header_nranks != nranks) {
        cli_error("%s: written by a %d-rank run, but the recording has %d ranks", path,
                  header_nranks, nranks);
        return -1;
    }
    if (header_rank != file_rank) {
        cli_error("%s: holds rank %d, expected rank %d", path, header_rank, file_rank);
        return -1;
    }
    return 0;
}

/* A file the reader would not open: one line and -1 if it belongs to another recording,
 * else 0 (damage is left to the commands, which report it in context). */
static int other_run(unsigned refused_before, const char *err)
{
    if (mpirr_run_id_refusals() == refused_before) return 0;
    cli_error("%s", err);
    return -1;
}

/* Every thread's sync log (and its tail) must be of this recording. */
static int check_sync_logs(const char *dir, const struct rank_files *rf)
{
    char path[PATH_MAX + 300], err[1024];
    for (size_t i = 0; i < rf->nsync; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, rf->sync_logs[i]);
        unsigned refused = mpirr_run_id_refusals();
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd && other_run(refused, err)) return -1;
        mpirr_log_reader_close(rd);
    }
    return 0;
}

/* Every rank file present: its index below the rank count, its header's counts the same, its
 * run id (and its tail's, its pending file's) the recording's. Files that cannot be read
 * otherwise are left to the commands, which report them in context. */
static int check_rank_files(const char *dir, const struct rank_files *rf, int nranks)
{
    char path[PATH_MAX + 32], err[1024];
    for (size_t i = 0; i < rf->nlogs; i++) {
        mpirr_log_path(path, sizeof path, dir, rf->logs[i], "log");
        if (rf->logs[i] >= nranks) {
            cli_error("%s: rank %d, but the recording has %d ranks", path, rf->logs[i], nranks);
            return -1;
        }
        unsigned refused = mpirr_run_id_refusals();
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd && other_run(refused, err)) return -1;
        if (!rd) continue;
        const mpirr_log_header *h = mpirr_log_reader_header(rd);
        int rc = same_count(path, rf->logs[i], h->rank, h->nranks, nranks);
        mpirr_log_reader_close(rd);
        if (rc) return -1;
    }
    for (size_t i = 0; i < rf->nhistories; i++) {
        mpirr_ev_path(path, sizeof path, dir, rf->histories[i], 0);
        if (rf->histories[i] >= nranks) {
            cli_error("%s: rank %d, but the recording has %d ranks", path, rf->histories[i], nranks);
            return -1;
        }
        /* the reader itself refuses a history of another rank than its name says */
        unsigned refused = mpirr_run_id_refusals();
        mpirr_ev_reader *r = mpirr_evr_open(dir, rf->histories[i], err, sizeof err);
        if (!r && other_run(refused, err)) return -1;
        if (!r) continue;
        int count = mpirr_evr_info(r)->nranks;
        mpirr_evr_close(r);
        if (same_count(path, rf->histories[i], rf->histories[i], count, nranks)) return -1;
    }
    return check_sync_logs(dir, rf);
}

/* The manifest's rank count (or rank 0's, when the manifest lacks it) against the files:
 * every header must agree, and most ranks must have left a file. A rank that died before
 * MPI_Init leaves none, but a count far above the files present is not a recording's
 * (and would size per-rank tables and file probes by an attacker's number). */
static int check_ranks(struct recording *r)
{
    int nranks = r->m.nranks;
    if (nranks <= 0) return 0; /* no rank logs at all: recording_fill_from_logs said so */
    struct rank_files rf;
    if (list_rank_files(r->dir, &rf)) return CLI_EXIT_USAGE;
    int rc = 0;
    size_t present = rf.nlogs > rf.nhistories ? rf.nlogs : rf.nhistories;
    if (nranks > MPIRR_MAX_RANKS || (size_t)nranks > 2 * present + 64) {
        cli_error("%s: the manifest says %d ranks, but the directory holds %zu rank logs and %zu "
                  "event histories", r->dir, nranks, rf.nlogs, rf.nhistories);
        rc = CLI_EXIT_USAGE;
    } else if (check_rank_files(r->dir, &rf, nranks)) {
        rc = CLI_EXIT_USAGE;
    }
    free_rank_files(&rf);
    return rc;
}

/* record --local: ranks whose files are still on their nodes have a placement file left in
 * DIR/local (local_files.h); the recording is not whole until `mpirr gather` fetched them. */
static int check_gathered(const struct recording *r)
{
    char path[PATH_MAX], what[64];
    snprintf(path, sizeof path, "%s/" MPIRR_LOCAL_SUBDIR, r->dir);
    int ranks = r->m.local_pending, nodes = 0; /* the placement files, when the manifest knows none */
    DIR *d = opendir(path);
    for (struct dirent *e; d && !r->m.local_pending && (e = readdir(d));) {
        ranks += !strncmp(e->d_name, "rank-", 5);
        nodes += !strncmp(e->d_name, "node-", 5);
    }
    if (d) closedir(d);
    if (!ranks && !nodes) return 0;
    if (ranks) snprintf(what, sizeof what, "%d rank%s", ranks, ranks == 1 ? "" : "s");
    else snprintf(what, sizeof what, "the ranks of %d node%s", nodes, nodes == 1 ? "" : "s");
    cli_error("%s is incomplete: the files of %s recorded with --local are still on their "
              "nodes (%s names where): gather them there with `mpirr gather` (mpirr help gather)",
              r->dir, what, path);
    return CLI_EXIT_USAGE;
}

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
    mpirr_run_id_expect(&r->m.run_id); /* every file read from now on is checked */
    if ((rc = check_gathered(r))) {
        mpirr_manifest_free(&r->m);
        return rc;
    }
    /* mpirr record was killed before it could complete the manifest; the logs still know. */
    if (r->m.nranks < 0) {
        recording_fill_from_logs(r->dir, &r->m);
        if (r->m.nranks == 0)
            cli_error("%s holds no rank logs: no rank's MPI_Init reached the mpirr runtime",
                      r->dir);
    }
    if ((rc = check_ranks(r))) {
        mpirr_manifest_free(&r->m);
        return rc;
    }
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
    mpirr_run_id_expect(&m->run_id);
    int count = recdir_count_logs(dir);
    m->nranks = count;
    if (count == 0) /* the caller says what that means (record: report_no_logs) */
        return;
    /* Rank 0's log, or the first there: a rank that could not record (a full disk) has none,
     * and the others still say how many ranks ran and which program. */
    char path[PATH_MAX], err[1024];
    for (int rank = 0; rank <= 2 * count + 64; rank++) {
        recording_log_path(path, sizeof path, dir, rank);
        if (mpirr_file_present(path)) break;
    }
    mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
    if (!rd) {
        cli_error("%s", err);
        return;
    }
    const mpirr_log_header *h = mpirr_log_reader_header(rd);
    if (h->nranks != count)
        cli_error("%s holds %d rank log%s but rank %d reports %d ranks", dir, count,
                  count == 1 ? "" : "s", h->rank, h->nranks);
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

int recording_new_run_id(mpirr_run_id *id)
{
    do { /* never none: an all-zero draw is drawn again */
        for (size_t got = 0; got < sizeof id->b;) {
            ssize_t n = getrandom(id->b + got, sizeof id->b - got, 0);
            if (n < 0 && errno != EINTR) {
                cli_error("cannot draw a run id: getrandom: %s", strerror(errno));
                return CLI_EXIT_FAIL;
            }
            if (n > 0) got += (size_t)n;
        }
    } while (mpirr_run_id_is_none(id));
    return 0;
}

int recording_manifest_start(mpirr_manifest *m, const mpirr_run_id *run_id, const char *mode,
                             const char *mpi, int wtime, const char *cwd, int argc,
                             char *const *argv)
{
    mpirr_manifest_init(m);
    m->run_id = *run_id;
    snprintf(m->mode, sizeof m->mode, "%s", mode);
    snprintf(m->mpi, sizeof m->mpi, "%s", mpi);
    m->wtime = wtime;
    snprintf(m->cwd, sizeof m->cwd, "%s", cwd);
    m->created = (int64_t)time(NULL);
    m->argv = calloc((size_t)argc + 1, sizeof *m->argv);
    for (; m->argv && m->argc < argc; m->argc++)
        if (!(m->argv[m->argc] = strdup(argv[m->argc]))) break;
    if (m->argv && m->argc == argc) return 0;
    cli_error("out of memory");
    mpirr_manifest_free(m);
    return CLI_EXIT_FAIL;
}

int recording_manifest_write(const char *dir, const mpirr_manifest *m)
{
    char err[1024];
    if (mpirr_manifest_write(dir, m, err, sizeof err) == 0) return 0;
    cli_error("%s", err);
    return -1;
}
