/* modes.c: the table of recording modes. */
#include "modes.h"

#include <string.h>

#include "strlist.h"

static const struct rec_mode modes[] = {
    /* wildcard receive sources, test outcomes, completion choices, MPI_Wtime values */
    {"sources"},
    /* as sources, but wildcard receives only when they raced (piggybacked vector clocks) */
    {"races"},
    /* as sources, plus the source of every received message (the baseline) */
    {"all"},
};
enum { NMODES = sizeof modes / sizeof modes[0] };

const struct rec_mode *rec_mode_default(void)
{
    return &modes[0];
}

const struct rec_mode *rec_mode_find(const char *name)
{
    for (unsigned i = 0; i < NMODES; i++)
        if (strcmp(modes[i].name, name) == 0)
            return &modes[i];
    return NULL;
}

const char *rec_mode_valid_names(void)
{
    static char list[256];
    if (!list[0])
        for (unsigned i = 0; i < NMODES; i++)
            strlist_append(list, sizeof list, modes[i].name);
    return list;
}
