/* call_ids.c: names and categories of the intercepted calls, expanded from mpi_calls.def. */
#include "call_ids.h"

#include <stddef.h>

struct call_row {
    unsigned id;
    const char *name;
    enum mpirr_call_category cat;
};

static const struct call_row rows[] = {
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) {id, #name, MPIRR_CAT_##cat},
#include "mpi_calls.def"
#undef MPIRR_CALL
};

enum { NROWS = sizeof rows / sizeof rows[0] };

static const struct call_row *row_of(unsigned id)
{
    static const struct call_row *by_id[MPIRR_CALL_ID_LIMIT];
    static int ready;
    if (!ready) { /* idempotent: racing threads write the same pointers */
        for (unsigned i = 0; i < NROWS; i++)
            by_id[rows[i].id] = &rows[i];
        ready = 1;
    }
    return id < MPIRR_CALL_ID_LIMIT ? by_id[id] : NULL;
}

const char *mpirr_call_name(unsigned id)
{
    const struct call_row *r = row_of(id);
    return r ? r->name : NULL;
}

enum mpirr_call_category mpirr_call_category(unsigned id)
{
    const struct call_row *r = row_of(id);
    return r ? r->cat : MPIRR_CAT_OTHER;
}

const char *mpirr_category_name(enum mpirr_call_category cat)
{
    static const char *const names[MPIRR_CAT_COUNT] = {
        "init", "send", "recv", "probe", "complete", "coll", "icoll",
        "comm", "group", "type", "time", "other"};
    return (unsigned)cat < MPIRR_CAT_COUNT ? names[cat] : "other";
}

unsigned mpirr_call_count(void) { return NROWS; }

unsigned mpirr_call_id_at(unsigned i) { return i < NROWS ? rows[i].id : 0; }
