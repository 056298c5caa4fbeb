/* call_ids.c: names and categories of the intercepted calls, expanded from mpi_calls.def. */
#include "call_ids.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "call_count_slots.h"

struct call_row {
    unsigned id;
    const char *name;
    enum mpirr_call_category cat;
    enum mpirr_call_how how;
};

static const struct call_row rows[] = {
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) {id, #name, MPIRR_CAT_##cat, MPIRR_HOW_##how},
#include "mpi_calls.def"
#undef MPIRR_CALL
};

enum { NROWS = sizeof rows / sizeof rows[0] };

/* Every id fits the formats: 249..255 are the event history's long-id byte and record kinds
 * (event_trace.h), and the tail has MPIRR_CALL_COUNT_SLOTS slots for the UNREPLAYED ids. */
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev)                                  \
    _Static_assert((id) > 0 && ((id) < 249 || (id) > 255) && (id) < MPIRR_CALL_ID_LIMIT,       \
                   #name ": call id out of range");
#include "mpi_calls.def"
#undef MPIRR_CALL
#define MPIRR_MAY_COUNT_PASS 0
#define MPIRR_MAY_COUNT_SPECIAL 1 /* the large-count ones count their calls beyond INT_MAX */
#define MPIRR_MAY_COUNT_UNREPLAYED 1
enum {
    COUNTED_ROWS = 0
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) + MPIRR_MAY_COUNT_##how
#include "mpi_calls.def"
#undef MPIRR_CALL
};
_Static_assert((int)COUNTED_ROWS <= (int)MPIRR_CALL_COUNT_SLOTS, "a tail slot for every counted call");

static unsigned int_variant(const struct call_row *r);

/* The rows by id, laid out by the compiler: no first-use initialisation for threads or a
 * signal handler to race on. */
static const struct call_row by_id[MPIRR_CALL_ID_LIMIT] = {
#define MPIRR_CALL(id, ret, name, cat, how, params, args, ev) \
    [id] = {id, #name, MPIRR_CAT_##cat, MPIRR_HOW_##how},
#include "mpi_calls.def"
#undef MPIRR_CALL
};

static const struct call_row *row_of(unsigned id)
{
    return id < MPIRR_CALL_ID_LIMIT && by_id[id].name ? &by_id[id] : NULL;
}

/* int_variant by id, computed once: readers ask for every event (mpirr events --check).
 * Threads may compute it at once: they store the same values, atomically, and publish them
 * with ready (release); a reader that sees ready sees them. */
static unsigned variant_of(unsigned id)
{
    static _Atomic uint16_t variant[MPIRR_CALL_ID_LIMIT];
    static atomic_int ready;
    if (!atomic_load_explicit(&ready, memory_order_acquire)) {
        for (unsigned i = 0; i < NROWS; i++)
            atomic_store_explicit(&variant[rows[i].id], (uint16_t)int_variant(&rows[i]),
                                  memory_order_relaxed);
        atomic_store_explicit(&ready, 1, memory_order_release);
    }
    return id < MPIRR_CALL_ID_LIMIT ? atomic_load_explicit(&variant[id], memory_order_relaxed) : 0;
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

/* A large-count point-to-point call (MPI_Send_c, a SPECIAL row): the id of its int call. */
static unsigned int_variant(const struct call_row *r)
{
    size_t n = strlen(r->name);
    if (r->how != MPIRR_HOW_SPECIAL || r->id < 256 || n < 3 || strcmp(r->name + n - 2, "_c"))
        return 0;
    for (unsigned i = 0; i < NROWS; i++)
        if (!strncmp(rows[i].name, r->name, n - 2) && rows[i].name[n - 2] == 0) return rows[i].id;
    return 0;
}

unsigned mpirr_call_int_variant(unsigned id)
{
    unsigned base = variant_of(id);
    return base ? base : id;
}

/* SPECIAL rows the runtime counts in the uses it does not replay: an atomic operation outside
 * every passive-target epoch whose order can change its outcome (src/runtime/rma/). */
static int counted_when_unreplayed(unsigned id)
{
    switch (id) {
    case MPIRR_ID_MPI_Accumulate: case MPIRR_ID_MPI_Raccumulate:
    case MPIRR_ID_MPI_Get_accumulate: case MPIRR_ID_MPI_Rget_accumulate:
    case MPIRR_ID_MPI_Fetch_and_op: case MPIRR_ID_MPI_Compare_and_swap: return 1;
    default: return 0;
    }
}

int mpirr_call_unreplayed(unsigned id)
{
    const struct call_row *r = row_of(id);
    return r && (r->how == MPIRR_HOW_UNREPLAYED || variant_of(id) || counted_when_unreplayed(id));
}

/* What the verdict says is not replayed, by the kind of outcome: one phrase for several calls
 * (a lock's grant order, whatever fetched the value), in the order the verdict lists them. */
static const char *const outcome_phrases[MPIRR_UNREPLAYED_OUTCOMES] = {
    "the order of the lock grants", "the values fetched", "the order the accumulates applied in",
    "whether the exposure epoch had ended", "the order of the shared file pointer's accesses",
    "the processes started or connected to", "whether a partition had arrived",
    "the matches of messages of more than INT_MAX elements"};

int mpirr_call_unreplayed_outcome(unsigned id)
{
    if (!mpirr_call_unreplayed(id)) return -1;
    switch (id) {
    case MPIRR_ID_MPI_Accumulate: case MPIRR_ID_MPI_Raccumulate: return 2;
    case MPIRR_ID_MPI_Accumulate_c: case MPIRR_ID_MPI_Raccumulate_c: return 2;
    case MPIRR_ID_MPI_Win_test: return 3;
    case MPIRR_ID_MPI_Parrived: return 6;
    default: break;
    }
    switch (id) { /* a window made beyond INT_MAX (large_count.c) takes no turns */
    case MPIRR_ID_MPI_Win_create_c: case MPIRR_ID_MPI_Win_allocate_c: return 0;
    case MPIRR_ID_MPI_Win_allocate_shared_c: return 0;
    /* a put or get beyond INT_MAX takes no lock_all turn (rma/accesses.c) */
    case MPIRR_ID_MPI_Put_c: case MPIRR_ID_MPI_Get_c: return 0;
    case MPIRR_ID_MPI_Rput_c: case MPIRR_ID_MPI_Rget_c: return 0;
    default: break;
    }
    if (mpirr_call_category(id) != MPIRR_CAT_RMA && mpirr_call_int_variant(id) != id)
        return 7; /* beyond INT_MAX: large_count.c */
    switch (mpirr_call_category(id)) {
    case MPIRR_CAT_RMA: return 1; /* Get, Get_accumulate, Fetch_and_op, Compare_and_swap */
    case MPIRR_CAT_FILE: return 4;
    default: return 5;
    }
}

const char *mpirr_unreplayed_outcome_at(int i)
{
    return i >= 0 && i < MPIRR_UNREPLAYED_OUTCOMES ? outcome_phrases[i] : "";
}

const char *mpirr_category_name(enum mpirr_call_category cat)
{
    static const char *const names[MPIRR_CAT_COUNT] = {
        "init", "send", "recv", "probe", "complete", "coll", "icoll",
        "comm", "group", "type", "time", "other", "rma", "file", "spawn"};
    return (unsigned)cat < MPIRR_CAT_COUNT ? names[cat] : "other";
}

unsigned mpirr_call_count(void) { return NROWS; }

unsigned mpirr_call_id_at(unsigned i) { return i < NROWS ? rows[i].id : 0; }
