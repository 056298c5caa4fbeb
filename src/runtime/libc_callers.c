/* libc_callers.c: whose call is this? Only the application's calls of time, clock_gettime &c.
 * may be recorded: the MPI library and its dependencies call them too, a different number of
 * times in every run, and recording those would make every replay diverge. The interposer
 * passes its return address; the object that holds it decides: the MPI library, its plugins
 * and dependencies, libc and mpirr itself are the system, everything else (the executable,
 * its own libraries, libstdc++'s std::chrono on its behalf) is the application. Threading
 * runtimes (OpenMP's, TBB) are a third kind: their time calls are the application's
 * (omp_get_wtime is libgomp's clock_gettime), but their pthread waits are their idle threads'
 * sleeps, as many as timing makes: the thread order (threads/) passes those through and
 * numbers only their pthread_create, so that their threads keep their numbers.
 *
 * Each call site is classified once (dl_iterate_phdr, under a lock) and the answer cached in a
 * direct-mapped table keyed by the return address: the common path is one load and one
 * compare. An address in no loaded object (code loaded after the table was filled is simply
 * classified on its first call) counts as the application's. */
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "libc_runtime.h"
#include "threads/sync_order.h"

/* Objects whose calls are not the application's, by file name prefix, or by a directory in
 * their path (Open MPI's and MPICH's plugins). */
static const char *const not_app_names[] = {
    "libmpi", "libopen-pal", "libopen-rte", "libopen-orted", "libpmix", "libprrte", "libpmi",
    "libmpich", "libmpl", "libhwloc", "libfabric", "libucp", "libucs", "libuct", "libucm",
    "libevent", "libpsm", "libibverbs", "librdmacm", "libnl-", "libxpmem", "libknem",
    "libmunge", "libslurm", "libnuma", "libz.", "libzstd", "libc.so", "libc-", "ld-linux",
    "libpthread", "librt", "libdl", "libm.so", "linux-vdso", "mca_", "libmpirr",
};
static const char *const not_app_dirs[] = {"/openmpi/", "/mpich/", "/ucx/", "/libfabric/"};
/* Threading runtimes, by file name prefix: LLVM's libomp (libomp.so.5, Debian's libomp-14.so.5
 * and libomp5.so), GCC's libgomp, Intel's libiomp5, oneTBB. */
static const char *const threading_names[] = {
    "libomp.", "libomp-", "libomp5", "libgomp", "libiomp", "libtbb",
};

enum { CACHE_SLOTS = 1024 };
/* (return address << 2 | kind) + 1, or 0 for an empty slot: one word, so a reader racing a
 * writer sees an old or a new entry, never half of one. */
static uint64_t cache[CACHE_SLOTS];
static pthread_mutex_t classify_lock = PTHREAD_MUTEX_INITIALIZER;

static int has_prefix(const char *base, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(base, names[i], strlen(names[i]))) return 1;
    return 0;
}

#define HAS_PREFIX(base, names) has_prefix(base, names, sizeof names / sizeof *names)

static enum mpirr_caller name_kind(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (HAS_PREFIX(base, not_app_names)) return MPIRR_CALLER_SYSTEM;
    for (size_t i = 0; i < sizeof not_app_dirs / sizeof *not_app_dirs; i++)
        if (strstr(path, not_app_dirs[i])) return MPIRR_CALLER_SYSTEM;
    if (HAS_PREFIX(base, threading_names)) return MPIRR_CALLER_THREADING;
    return MPIRR_CALLER_APP;
}

struct lookup {
    uintptr_t addr;
    enum mpirr_caller kind;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct lookup *l = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (l->addr >= lo && l->addr - lo < ph->p_memsz) {
            /* the executable has an empty name; so has nothing else we would exclude */
            l->kind = !info->dlpi_name || !info->dlpi_name[0] ? MPIRR_CALLER_APP
                                                              : name_kind(info->dlpi_name);
            return 1;
        }
    }
    return 0;
}

static size_t slot_of(uintptr_t a)
{
    return (size_t)((a * 0x9e3779b97f4a7c15ull) >> 54) & (CACHE_SLOTS - 1);
}

enum mpirr_caller mpirr_caller_kind(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    uint64_t *slot = &cache[slot_of(a)];
    uint64_t e = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (__builtin_expect(e != 0 && (e - 1) >> 2 == a, 1)) return (enum mpirr_caller)((e - 1) & 3);
    pthread_mutex_lock(&classify_lock);
    struct lookup l = {.addr = a, .kind = MPIRR_CALLER_APP};
    dl_iterate_phdr(find_object, &l);
    pthread_mutex_unlock(&classify_lock);
    __atomic_store_n(slot, ((uint64_t)a << 2 | (unsigned)l.kind) + 1, __ATOMIC_RELAXED);
    return l.kind;
}

int mpirr_libc_caller_is_app(const void *caller)
{
    return mpirr_caller_kind(caller) != MPIRR_CALLER_SYSTEM;
}
