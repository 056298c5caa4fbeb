/* analysis_mpi.c: the parallel load of mpirr races --mpi (see analysis_mpi.h). mpirr does not
 * link MPI: under a launcher it opens libmpirr_par.so of the implementation that started it
 * (Open MPI sets OMPI_COMM_WORLD_SIZE, MPICH's Hydra PMI_SIZE), every process reads the
 * histories of a contiguous block of ranks and matches the messages into them with the others
 * (parallel_match.c); rank 0 merges the blocks, in rank order, into the model the serial command
 * would have read and matched, then sweeps it as analysis_open does. */
#include "analysis_mpi.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "mono_clock.h"
#include "parallel_hb.h"
#include "parallel_match.h"
#include "parallel_model.h"
#include "parallel_mpi.h"
#include "runtime_lib.h"

static struct {
    mpirr_par_init_fn init;
    mpirr_par_gather_fn gather;
    mpirr_par_exchange_fn exchange;
    mpirr_par_exscan_fn exscan;
    mpirr_par_post_fn post;
    mpirr_par_poll_fn poll;
    mpirr_par_wave_fn wave;
    mpirr_par_await_fn await;
    mpirr_par_drain_fn drain;
    mpirr_par_finalize_fn finalize;
    int np;
} par;

/* The implementation whose launcher started this process, or IMPL_UNKNOWN. */
static enum mpi_impl launched_by(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE")) return IMPL_OPENMPI;
    if (getenv("PMI_SIZE") || getenv("PMI_RANK")) return IMPL_MPICH;
    return IMPL_UNKNOWN;
}

static int open_library(void)
{
    enum mpi_impl impl = launched_by();
    if (impl == IMPL_UNKNOWN) {
        cli_error("races --mpi: not started by an MPI launcher (neither OMPI_COMM_WORLD_SIZE nor "
                  "PMI_SIZE is set): run it as mpirun -np N mpirr races --mpi DIR");
        return CLI_EXIT_USAGE;
    }
    char path[PATH_MAX];
    if (runtime_file_path(impl, "libmpirr_par.so", "parallel analysis library", path, sizeof path))
        return CLI_EXIT_FAIL;
    /* global: Open MPI's own plugins look their symbols up in libmpi */
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (h) {
        par.init = (mpirr_par_init_fn)dlsym(h, "mpirr_par_init");
        par.gather = (mpirr_par_gather_fn)dlsym(h, "mpirr_par_gather");
        par.exchange = (mpirr_par_exchange_fn)dlsym(h, "mpirr_par_exchange");
        par.exscan = (mpirr_par_exscan_fn)dlsym(h, "mpirr_par_exscan");
        par.post = (mpirr_par_post_fn)dlsym(h, "mpirr_par_post");
        par.poll = (mpirr_par_poll_fn)dlsym(h, "mpirr_par_poll");
        par.wave = (mpirr_par_wave_fn)dlsym(h, "mpirr_par_wave");
        par.await = (mpirr_par_await_fn)dlsym(h, "mpirr_par_await");
        par.drain = (mpirr_par_drain_fn)dlsym(h, "mpirr_par_drain");
        par.finalize = (mpirr_par_finalize_fn)dlsym(h, "mpirr_par_finalize");
    }
    if (!h || !par.init || !par.gather || !par.exchange || !par.exscan || !par.post || !par.poll ||
        !par.wave || !par.await || !par.drain || !par.finalize) {
        cli_error("races --mpi: cannot load %s: %s", path, dlerror());
        par.finalize = NULL;
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* parallel_match.c's exchange over the library's: the buffers as bytes. */
static int exchange_bufs(an_par_buf *out, an_par_buf *in, int status)
{
    void **o = out ? malloc((size_t)par.np * sizeof *o) : NULL, **i = out ? malloc((size_t)par.np * sizeof *i) : NULL;
    uint64_t *olen = out ? malloc((size_t)par.np * sizeof *olen) : NULL;
    uint64_t *ilen = out ? malloc((size_t)par.np * sizeof *ilen) : NULL;
    if (!o || !i || !olen || !ilen) status = -1;
    for (int q = 0; !status && q < par.np; q++) o[q] = out[q].data, olen[q] = out[q].len;
    int rc = par.exchange(status ? NULL : o, olen, status, status ? NULL : i, ilen);
    for (int q = 0; !rc && q < par.np; q++) in[q] = (an_par_buf){i[q], ilen[q], ilen[q]};
    free(o);
    free(i);
    free(olen);
    free(ilen);
    return rc;
}

/* Rank 0's merge of the blocks. */
struct merge {
    an_run *run;
    an_par_merge m;
    char err[1200]; /* the first block that failed: its process's message */
    int status;
};

static int merge_block(void *arg, int from, const void *data, uint64_t len, int status)
{
    struct merge *g = arg;
    if (g->status) return 0;
    if (status) {
        snprintf(g->err, sizeof g->err, "%.*s", (int)(len < sizeof g->err ? len : sizeof g->err - 1),
                 (const char *)data);
        g->status = CLI_EXIT_USAGE;
        return 0;
    }
    int rc = an_par_unpack(&g->m, g->run, data, len);
    if (rc < 0) snprintf(g->err, sizeof g->err, "out of memory merging the histories");
    else if (rc) snprintf(g->err, sizeof g->err, "process %d's block of histories arrived damaged", from);
    if (rc) g->status = CLI_EXIT_FAIL;
    return 0;
}

int analysis_open_mpi(const char *dir_arg, struct analysis *a, int *reporter)
{
    memset(a, 0, sizeof *a);
    *reporter = 0;
    int rc = open_library();
    if (rc) return rc;
    int me, np;
    if (par.init(&me, &np)) {
        par.np = 0;
        cli_error("races --mpi: MPI_Init failed");
        return CLI_EXIT_FAIL;
    }
    par.np = np;
    *reporter = me == 0;
    /* rank 0 speaks for the job: the others' trouble reaches it as their block's message */
    int quiet = me != 0 ? open("/dev/null", O_WRONLY) : -1;
    if (quiet >= 0) {
        dup2(quiet, 2);
        close(quiet);
    }
    double t0 = mono_seconds();
    /* a process that cannot open it still sends its block (a message), so that none waits */
    int open_rc = recording_open(dir_arg, &a->rec);
    int n = open_rc ? 0 : a->rec.m.nranks;
    char err[1200] = "";
    an_par_buf block = {0};
    an_run *part = NULL;
    int status = 0, lo = 0, hi = 0;
    if (open_rc) {
        snprintf(err, sizeof err, "%s: process %d cannot open the recording", dir_arg, me);
        status = 1;
    } else if (n <= 0) {
        snprintf(err, sizeof err, "%s: the manifest gives no rank count", a->rec.dir);
        status = 1;
    } else {
        lo = an_par_block_lo(n, me, np);
        hi = an_par_block_lo(n, me + 1, np);
        if (!(part = an_load_ranks(a->rec.dir, n, lo, hi, err, sizeof err))) status = 1;
    }
    /* every process takes part in the matching, also one without a block (it says why below) */
    double tl = mono_seconds();
    an_par_net net = {me, np, exchange_bufs, par.exscan, par.post, par.poll, par.wave, par.await, par.drain};
    int mrc = an_par_match(part, lo, hi, &net, status);
    double match_s = mono_seconds() - tl;
    if (!status && mrc < 0) {
        snprintf(err, sizeof err, "out of memory matching the messages of ranks %d..%d", lo, hi - 1);
        status = 1;
    }
    /* the sweep only if every block is matched: agreed on first, every process sweeps or none */
    uint64_t trouble = status || mrc, any = 1;
    int w = 0;
    while (!(w = par.wave(&trouble, &any, 1)) && !(w = par.await() ? -1 : 0))
        continue; /* await blocks until the sum is there */
    uint64_t **hb = NULL;
    tl = mono_seconds();
    if (w < 0 && !status) {
        snprintf(err, sizeof err, "MPI failed after matching ranks %d..%d", lo, hi - 1);
        status = 1;
    } else if (w > 0 && !any && an_par_happened_before(part, lo, hi, &net, &hb)) {
        snprintf(err, sizeof err, "happened-before failed (out of memory or MPI) for ranks %d..%d", lo, hi - 1);
        status = 1;
    }
    double hb_s = mono_seconds() - tl;
    if (!status && an_par_pack(part, lo, hi, hb, &block)) {
        snprintf(err, sizeof err, "out of memory packing ranks %d..%d", lo, hi - 1);
        status = 1;
    }
    for (int p = lo; hb && p < hi; p++) free(hb[p - lo]);
    free(hb);
    an_free(part);
    struct merge g = {0};
    if (me == 0 && open_rc) {
        g.status = open_rc; /* said already */
        g.err[0] = 0;
    } else if (me == 0) {
        g.run = calloc(1, sizeof *g.run);
        if (g.run && !(g.run->ranks = calloc((size_t)(n > 0 ? n : 1), sizeof *g.run->ranks))) {
            free(g.run);
            g.run = NULL;
        }
        if (g.run) {
            g.run->nranks = n;
            snprintf(g.run->dir, sizeof g.run->dir, "%s", a->rec.dir);
        } else {
            snprintf(g.err, sizeof g.err, "out of memory");
            g.status = CLI_EXIT_FAIL;
        }
    }
    int grc = status ? par.gather(err, strlen(err) + 1, status, merge_block, &g)
                     : par.gather(block.data, block.len, 0, merge_block, &g);
    an_par_buf_free(&block);
    if (me != 0 || grc || g.status) {
        if (me == 0 && grc && !g.status) cli_error("races --mpi: MPI failed gathering the histories");
        else if (me == 0 && !open_rc && g.status == CLI_EXIT_USAGE)
            cli_error("%s (record with --events to analyse a run)", g.err);
        else if (me == 0 && !open_rc) cli_error("races --mpi: %s", g.err);
        an_free(g.run);
        an_par_merge_free(&g.m);
        if (!open_rc) recording_close(&a->rec);
        memset(a, 0, sizeof *a);
        return me != 0 ? 0 : g.status ? g.status : CLI_EXIT_FAIL;
    }
    a->run = g.run;
    /* every block was matched (a process that could not sent its trouble instead) */
    tl = mono_seconds();
    int brc = an_par_msgs(a->run, g.m.hb);
    if (brc) {
        an_par_merge_free(&g.m);
        cli_error(brc < 0 ? "races --mpi: out of memory numbering the messages of %s"
                          : "races --mpi: the processes' message numbers of %s do not agree",
                  a->rec.dir);
        analysis_close(a);
        return CLI_EXIT_FAIL;
    }
    an_par_merge_free(&g.m);
    a->match_s = match_s + (mono_seconds() - tl);
    a->hb_s = hb_s;
    a->matched = a->swept = 1;
    return analysis_prepare(a, dir_arg, 1, 0, t0 + a->match_s + a->hb_s);
}

void analysis_mpi_end(void)
{
    if (par.finalize) par.finalize();
}
