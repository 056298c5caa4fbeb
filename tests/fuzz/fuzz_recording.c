/* fuzz_recording.c: libFuzzer target for the whole analysis pipeline on one recording: an
 * input is a packed recording directory (fuzz_dir.h); it is opened as `mpirr races` opens it
 * (manifest, rank-count cross-checks, every rank's history), matched, swept for
 * happened-before, its races, Chu & Huang's sets and the optimal trace found, and the
 * frontier of rank 0's first event computed. Call sites are not symbolized: a fuzzed load map
 * would send libdw to arbitrary paths of the machine. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis_load.h"
#include "fuzz_dir.h"
#include "races_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_unpack(data, size);
    /* the CLI's one-line errors go to stderr along with libFuzzer's own reports (run with
     * -close_fd_mask=2 to hide both) */
    struct analysis a;
    if (analysis_open(fuzz_dir(), &a, 1, 0)) return 0;
    struct races_report rep;
    if (races_report_build(&a, &rep) == 0) races_report_free(&rep);
    int n = a.run->nranks;
    uint64_t *past = calloc((size_t)n, sizeof *past), *future = calloc((size_t)n, sizeof *future);
    char err[1024];
    if (past && future && a.run->ranks[0].events)
        an_frontier(a.run, 0, 1, 1, past, future, err, sizeof err);
    free(past);
    free(future);
    analysis_close(&a);
    return 0;
}
