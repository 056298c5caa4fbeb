/* libc_unrecorded.c: see libc_unrecorded.h. */
#include "libc_unrecorded.h"

#include <inttypes.h>
#include <limits.h>

#include "rank_log.h"

void libc_unrecorded_add(struct libc_unrecorded *u, uint64_t sources, const uint64_t *calls)
{
    u->sources |= sources;
    for (int g = 0; g < MPIRR_LIBC_GROUP_COUNT; g++) {
        u->calls[g] += calls[g];
        u->any |= calls[g] != 0;
    }
}

void libc_unrecorded_from_logs(struct libc_unrecorded *u, const char *dir, int nranks)
{
    char path[PATH_MAX + 32], err[1024];
    for (int k = 0; k < nranks; k++) {
        mpirr_log_path(path, sizeof path, dir, k, "log");
        mpirr_log_reader *rd = mpirr_log_reader_open(path, err, sizeof err);
        if (!rd) continue;
        uint64_t calls[MPIRR_LIBC_GROUP_COUNT];
        for (int g = 0; g < MPIRR_LIBC_GROUP_COUNT; g++)
            calls[g] = mpirr_log_reader_counter(rd, MPIRR_CTR_LIBC_UNRECORDED + (unsigned)g);
        libc_unrecorded_add(u, mpirr_log_reader_counter(rd, MPIRR_CTR_LIBC_UNRECORDED_SOURCES), calls);
        mpirr_log_reader_close(rd);
    }
}

void libc_unrecorded_print(const struct libc_unrecorded *u, FILE *out)
{
    for (int g = 0; g < MPIRR_LIBC_GROUP_COUNT; g++) {
        if (!u->calls[g]) continue;
        char names[512];
        int kinds = mpirr_libc_group_names(u->sources, g, names, sizeof names);
        int on = mpirr_libc_group_default_on(g);
        fprintf(out, "mpirr: the program called %s %" PRIu64 " time%s; %s values were not recorded "
                     "(record %s --%slibc-%s)\n", kinds ? names : mpirr_libc_group_word(g),
                u->calls[g], u->calls[g] > 1 ? "s" : "", kinds > 1 ? "their" : "its",
                on ? "without" : "with", on ? "no-" : "", mpirr_libc_group_word(g));
    }
}
