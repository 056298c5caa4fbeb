/* analysis_load.c: loads a recording for the analysis commands (see analysis_load.h). */
#include "analysis_load.h"

#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "mono_clock.h"

int analysis_open(const char *dir_arg, struct analysis *a, int with_hb, int quiet)
{
    memset(a, 0, sizeof *a);
    int rc = recording_open(dir_arg, &a->rec);
    if (rc) return rc;
    char err[1200];
    double t0 = mono_seconds();
    a->run = an_load(a->rec.dir, a->rec.m.nranks, err, sizeof err);
    if (!a->run) {
        cli_error("%s (record with --events to analyse a run)", err);
        recording_close(&a->rec);
        return CLI_EXIT_USAGE;
    }
    return analysis_prepare(a, dir_arg, with_hb, quiet, t0);
}

int analysis_prepare(struct analysis *a, const char *dir_arg, int with_hb, int quiet, double t0)
{
    struct rank_list cut = {0};
    for (int p = 0; !quiet && p < a->run->nranks; p++) {
        const an_rank *rk = &a->run->ranks[p];
        if (rk->damage)
            cli_error("%s; analysing rank %d up to event %llu", rk->damage, p,
                      (unsigned long long)rk->events);
        else if (!rk->clean)
            rank_list_add(&cut, p, rk->events);
    }
    rank_list_report_cut_off(&cut, "; analysing what the histories hold");
    double t1 = mono_seconds();
    if (!a->matched && an_match(a->run)) {
        cli_error("out of memory matching the messages of %s", dir_arg);
        analysis_close(a);
        return CLI_EXIT_FAIL;
    }
    double t2 = mono_seconds();
    if (with_hb && !a->swept && an_happened_before(a->run, NULL)) {
        cli_error("out of memory computing happened-before for %s", dir_arg);
        analysis_close(a);
        return CLI_EXIT_FAIL;
    }
    double t3 = mono_seconds();
    a->load_s = t1 - t0;
    a->match_s += t2 - t1;
    a->hb_s += t3 - t2;
    return 0;
}

void analysis_close(struct analysis *a)
{
    an_free(a->run);
    mpirr_sym_close(a->sym);
    recording_close(&a->rec);
    memset(a, 0, sizeof *a);
}

void analysis_site(struct analysis *a, int rank, uint32_t site, char *buf, size_t n)
{
    const an_rank *rk = &a->run->ranks[rank];
    if (site >= rk->nsites || !rk->site_addr[site]) {
        snprintf(buf, n, "?");
        return;
    }
    uint64_t addr = rk->site_addr[site];
    for (uint32_t i = 0; i < rk->nmods; i++) {
        const an_module *m = &rk->mods[i];
        if (addr < m->lo || addr >= m->hi) continue;
        if (!a->sym) a->sym = mpirr_sym_open();
        if (a->sym) {
            mpirr_sym_lookup(a->sym, m->path, addr - m->bias, buf, n);
            return;
        }
    }
    snprintf(buf, n, "0x%llx", (unsigned long long)addr);
}
