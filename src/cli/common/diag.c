/* diag.c: mpirr's one-line diagnostics on stderr (stdout belongs to the launched program),
 * and the summaries of conditions shared by many ranks. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Messages may embed text from elsewhere (reader errors, file names): keep them one line. */
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    size_t len = strlen(msg);
    while (len > 0 && msg[len - 1] == ' ')
        msg[--len] = '\0';
    fprintf(stderr, "mpirr: %s\n", msg);
}

void rank_list_add(struct rank_list *l, int rank, unsigned long long event)
{
    if (l->count < RANK_LIST_SHOWN) {
        l->rank[l->count] = rank;
        l->event[l->count] = event;
    }
    l->count++;
}

void rank_list_report_cut_off(const struct rank_list *l, const char *then)
{
    if (l->count == 1) {
        cli_error("rank %d: the event history ends at event %llu without MPI_Finalize (the rank "
                  "died or is still running)%s", l->rank[0], l->event[0], then);
        return;
    }
    if (l->count == 0)
        return;
    char list[256] = "";
    size_t len = 0;
    int shown = l->count < RANK_LIST_SHOWN ? l->count : RANK_LIST_SHOWN;
    for (int i = 0; i < shown && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%srank %d at event %llu",
                                i ? ", " : "", l->rank[i], l->event[i]);
    if (l->count > shown && len < sizeof list)
        snprintf(list + len, sizeof list - len, " and %d more", l->count - shown);
    cli_error("%d ranks' event histories end without MPI_Finalize (they died or are still "
              "running): %s%s", l->count, list, then);
}
