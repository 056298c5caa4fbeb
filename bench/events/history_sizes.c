/* history_sizes.c: where an event history's bytes go. Reads the histories of a recording made
 * with MPIRR_EVENTS_EXACT=1 (so every record's exact times are known) and writes them again
 * through the history's own writer (event_trace.h) without the exact times, as the runtime
 * would have, then again with one thing taken away each time: the time codes (every time
 * equal), the call sites, each optional field. A variant's size against the full one is what
 * that part costs once compressed in context, on the very same run: wall-clock jitter on a
 * loaded machine changes a history's time codes from run to run, so only one recording
 * re-encoded compares two encodings fairly.
 *
 *   history_sizes [--level N] [--stage KB] [--ablate] DIR...
 *
 * Prints per DIR: events, bytes, B/event as the runtime would store it, the writer's CPU time
 * per event (encoding and compressing, opening and closing included: a price to compare two
 * encodings with, noisy on a shared machine), and with --ablate the B/event saved by dropping
 * each part. Writes into a temporary directory it removes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "event_trace.h"

typedef struct {
    mpirr_event *ev;
    size_t n, cap;
    mpirr_ev_info info;
} history;

/* Deep copy of what the reader lends until its next call. */
static void keep(history *h, const mpirr_event *e)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 4096;
        h->ev = realloc(h->ev, h->cap * sizeof *h->ev);
        if (!h->ev) abort();
    }
    mpirr_event *c = &h->ev[h->n++];
    *c = *e;
    if (e->nitems) {
        c->items = malloc(e->nitems * sizeof *c->items);
        memcpy(c->items, e->items, e->nitems * sizeof *c->items);
    }
    if (e->kind == MPIRR_EVK_COMM) {
        size_t n = (size_t)e->nranks + e->nremote + 1;
        c->ranks = malloc(n * sizeof *c->ranks);
        memcpy(c->ranks, e->ranks, (n - 1) * sizeof *c->ranks);
    }
    if (e->path) c->path = strdup(e->path);
}

static void drop(history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        free(h->ev[i].items);
        if (h->ev[i].kind == MPIRR_EVK_COMM) free(h->ev[i].ranks);
        free((char *)h->ev[i].path);
    }
    free(h->ev);
    memset(h, 0, sizeof *h);
}

static int load(const char *dir, int rank, history *h)
{
    char err[1024];
    mpirr_ev_reader *r = mpirr_evr_open(dir, rank, err, sizeof err);
    if (!r) {
        fprintf(stderr, "history_sizes: %s\n", err);
        return -1;
    }
    mpirr_event e;
    int rc;
    while ((rc = mpirr_evr_next(r, &e)) == 1) keep(h, &e);
    h->info = *mpirr_evr_info(r);
    if (rc < 0) fprintf(stderr, "history_sizes: %s\n", mpirr_evr_error(r));
    mpirr_evr_close(r);
    if (!h->info.exact) {
        fprintf(stderr, "history_sizes: %s was not recorded with MPIRR_EVENTS_EXACT=1\n", dir);
        return -1;
    }
    return rc < 0 ? -1 : 0;
}

/* What a variant takes away from every call record. */
typedef struct {
    const char *name;
    uint32_t fields; /* these optional fields are dropped */
    int no_times;    /* every time the same: time codes all 0 */
    int no_site;     /* every call at site 0 */
} variant;

static const variant variants[] = {
    {"as stored", 0, 0, 0},
    {"time codes", 0, 1, 0},
    {"call sites", 0, 0, 1},
    {"comm", MPIRR_EVF_COMM, 0, 0},
    {"peer", MPIRR_EVF_PEER, 0, 0},
    {"tag", MPIRR_EVF_TAG, 0, 0},
    {"bytes", MPIRR_EVF_BYTES, 0, 0},
    {"req", MPIRR_EVF_REQ, 0, 0},
    {"match", MPIRR_EVF_MATCH, 0, 0},
    {"items", MPIRR_EVF_DONE | MPIRR_EVF_START, 0, 0},
    {"root", MPIRR_EVF_ROOT, 0, 0},
};

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/* Writes h again as the runtime would (exact times dropped, or the variant's parts); returns
 * the bytes of rank-N.events. */
static uint64_t rewrite(const history *h, const char *tmp, const variant *v, int level, size_t stage)
{
    mpirr_ev_params p = {.rank = h->info.rank, .nranks = h->info.nranks,
                         .tick_shift = h->info.tick_shift, .level = level, .stage_bytes = stage};
    char err[1024], path[4200];
    mpirr_ev_writer *w = mpirr_evw_open(tmp, &p, err, sizeof err);
    if (!w) {
        fprintf(stderr, "history_sizes: %s\n", err);
        exit(1);
    }
    for (size_t i = 0; i < h->n; i++) {
        mpirr_event e = h->ev[i];
        if (mpirr_ev_is_call(e.kind)) {
            /* the writer takes ns since base_ns (0 here) and makes ticks of them again */
            e.x_begin = v->no_times ? 0 : e.x_begin << p.tick_shift;
            e.x_end = v->no_times ? 0 : e.x_end << p.tick_shift;
            e.fields &= ~(v->fields | (uint32_t)MPIRR_EVF_EXACT);
            if (!(e.fields & (MPIRR_EVF_DONE | MPIRR_EVF_START))) e.nitems = 0;
            if (v->no_site) e.site = 0;
        }
        if (mpirr_evw_append(w, &e)) {
            fprintf(stderr, "history_sizes: %s\n", mpirr_evw_error(w));
            exit(1);
        }
    }
    if (mpirr_evw_close(w, 1)) exit(1);
    mpirr_ev_path(path, sizeof path, tmp, p.rank, 0);
    uint64_t n = file_size(path);
    unlink(path);
    return n;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int ranks_in(const char *dir)
{
    int n = 0;
    char path[4200];
    for (;; n++) {
        mpirr_ev_path(path, sizeof path, dir, n, 0);
        if (access(path, R_OK)) return n;
    }
}

int main(int argc, char **argv)
{
    int level = 0, ablate = 0, i = 1;
    size_t stage = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--level") && i + 1 < argc) level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stage") && i + 1 < argc) stage = (size_t)atol(argv[++i]) << 10;
        else if (!strcmp(argv[i], "--ablate")) ablate = 1;
        else {
            fprintf(stderr, "usage: history_sizes [--level N] [--stage KB] [--ablate] DIR...\n");
            return 2;
        }
    }
    char tmp[] = "/tmp/history_sizes.XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("history_sizes: mkdtemp");
        return 1;
    }
    size_t nv = ablate ? sizeof variants / sizeof variants[0] : 1;
    int status = 0;
    for (; i < argc; i++) {
        const char *dir = argv[i];
        int ranks = ranks_in(dir);
        uint64_t events = 0, bytes[sizeof variants / sizeof variants[0]] = {0};
        double writer_s = 0;
        for (int r = 0; r < ranks; r++) {
            history h = {0};
            if (load(dir, r, &h)) {
                status = 1;
                drop(&h);
                break;
            }
            for (size_t k = 0; k < h.n; k++) events += mpirr_ev_is_call(h.ev[k].kind);
            double t0 = cpu_seconds();
            bytes[0] += rewrite(&h, tmp, &variants[0], level, stage);
            writer_s += cpu_seconds() - t0;
            for (size_t v = 1; v < nv; v++) bytes[v] += rewrite(&h, tmp, &variants[v], level, stage);
            drop(&h);
        }
        if (!events) continue;
        printf("%s: %d ranks, %llu events, %llu bytes, %.4f B/event, writer %.0f ns/event\n", dir,
               ranks, (unsigned long long)events, (unsigned long long)bytes[0],
               (double)bytes[0] / (double)events, writer_s * 1e9 / (double)events);
        for (size_t v = 1; v < nv; v++)
            printf("  %-12s %.4f B/event (%.1f%%)\n", variants[v].name,
                   (double)((int64_t)bytes[0] - (int64_t)bytes[v]) / (double)events,
                   100.0 * (double)((int64_t)bytes[0] - (int64_t)bytes[v]) / (double)bytes[0]);
    }
    rmdir(tmp);
    return status;
}
