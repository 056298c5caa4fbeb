/* omp_tool.c: an OMPT tool that orders LLVM libomp's own mutual exclusion - `omp critical`,
 * OpenMP locks and nest locks, `omp ordered` - like the pthread calls (sync_wrappers.c). libomp
 * synchronizes with its own spinning and queuing locks, which no interposed call sees; but it
 * looks up `ompt_start_tool` when it starts, and a tool's callbacks then bracket every
 * acquisition: mutex_acquire before the thread tries, mutex_acquired once it holds the lock.
 * The first begins a tracked acquisition keyed by the wait id (the critical section's or the
 * lock's address, stable within a run) and, in a replay, waits for its version
 * (mpirr_sync_begin + mpirr_sync_turn); the second takes the version (mpirr_sync_end), so the
 * next thread's turn comes only once the lock is held. Releases pass through (their order
 * follows from the acquisitions'), so mutex_released is not asked for.
 *
 * Not ordered: omp_test_lock and omp_test_nest_lock (a replay cannot make a test fail; their
 * failures get no callback), atomics, and schedule(dynamic) chunks (libomp 14 gives no dispatch
 * event): docs/threads.md. GCC's libgomp has no OMPT and never calls this.
 *
 * The types are OpenMP 5.0's (omp-tools.h, which ships with LLVM, not with GCC), declared here
 * for the few this tool uses; their values are fixed by the specification. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sync_calls.h"
#include "sync_order.h"

/* ---- OpenMP 5.0, section 4.x: the part of omp-tools.h used here ---- */
typedef union ompt_data_t {
    uint64_t value;
    void *ptr;
} ompt_data_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *interface_function_name);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num,
                                 ompt_data_t *tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t *tool_data);
typedef struct ompt_start_tool_result_t {
    ompt_initialize_t initialize;
    ompt_finalize_t finalize;
    ompt_data_t tool_data;
} ompt_start_tool_result_t;
typedef void (*ompt_callback_t)(void);
typedef int (*ompt_set_callback_t)(int event, ompt_callback_t callback);
typedef uint64_t ompt_wait_id_t;
enum {
    ompt_callback_mutex_acquire = 26, ompt_callback_mutex_acquired = 27,
    ompt_callback_nest_lock = 28,
};
enum { ompt_set_sometimes = 3 }; /* ompt_set_callback's answers from here up: registered */
enum { ompt_mutex_lock = 1, ompt_mutex_nest_lock = 3, ompt_mutex_critical = 5, ompt_mutex_ordered = 7 };
enum { ompt_scope_begin = 1 };

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

/* The acquisition this thread began in mutex_acquire (obj NULL: none, or not tracked). Between
 * mutex_acquire and its end a thread acquires nothing else, so one slot is enough. */
static __thread struct sync_op pending __attribute__((tls_model("initial-exec")));

static int ordered_kind(int kind)
{
    return kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock ||
           kind == ompt_mutex_critical || kind == ompt_mutex_ordered;
}

static void on_acquire(int kind, unsigned hint, unsigned impl, ompt_wait_id_t wait_id,
                       const void *codeptr_ra)
{
    (void)hint;
    (void)impl;
    pending.obj = NULL;
    if (!ordered_kind(kind)) return;
    /* codeptr_ra is the construct's call site in the program (NULL reads as the program's) */
    if (!mpirr_sync_begin(&pending, MPIRR_SYNC_OMP_MUTEX, (const void *)(uintptr_t)wait_id,
                          codeptr_ra)) {
        pending.obj = NULL;
        return;
    }
    mpirr_sync_turn(&pending); /* replay: libomp then takes the lock, free or about to be */
}

/* The lock is held (acquired) or, for a nest lock its thread owned already, held once more. */
static void held(ompt_wait_id_t wait_id)
{
    if (!pending.obj || pending.addr != (const void *)(uintptr_t)wait_id) return;
    mpirr_sync_end(&pending, 0, 0);
    pending.obj = NULL;
}

static void on_acquired(int kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)codeptr_ra;
    if (ordered_kind(kind)) held(wait_id);
}

/* A nest lock its owner takes again gets no mutex_acquired, but a nest_lock begin. */
static void on_nest_lock(int endpoint, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)codeptr_ra;
    if (endpoint == ompt_scope_begin) held(wait_id);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *data)
{
    (void)initial_device_num;
    (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set) return 0;
    /* acquire and acquired come as a pair or not at all: without both the tool stays out */
    if (set(ompt_callback_mutex_acquire, (ompt_callback_t)on_acquire) < ompt_set_sometimes ||
        set(ompt_callback_mutex_acquired, (ompt_callback_t)on_acquired) < ompt_set_sometimes) {
        set(ompt_callback_mutex_acquire, NULL);
        return 0;
    }
    set(ompt_callback_nest_lock, (ompt_callback_t)on_nest_lock);
    return 1; /* active */
}

static void finalize(ompt_data_t *data) { (void)data; }

/* libomp calls this once, as it starts (maybe before MPI_Init: the tracking itself begins at
 * MPI_Init, as for the pthread calls). Outside a recording or a replay the program's own tool,
 * if it has one, is started instead (the next definition in the lookup order). */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t tool = {initialize, finalize, {0}};
    const char *mode = getenv("MPIRR_MODE"); /* read here: libomp may start before mpirr does */
    if (mode && (!strcmp(mode, "record") || !strcmp(mode, "replay"))) return &tool;
    ompt_start_tool_result_t *(*next)(unsigned, const char *) =
        (ompt_start_tool_result_t * (*)(unsigned, const char *)) dlsym(RTLD_NEXT, "ompt_start_tool");
    return next ? next(omp_version, runtime_version) : NULL;
}
