/* libc_callers.c: whose call is this? Only the application's calls of time, clock_gettime &c.
 * may be recorded: the MPI library and its dependencies call them too, a different number of
 * times in every run, and recording those would make every replay diverge. The interposer
 * passes its return address; the object that holds it decides: the MPI library, its plugins
 * and dependencies, libc and mpirr itself are not the application, everything else (the
 * executable, its own libraries, libstdc++'s std::chrono on its behalf) is.
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

enum { CACHE_SLOTS = 1024 };
/* (return address << 1 | is_app) + 1, or 0 for an empty slot: one word, so a reader racing a
 * writer sees an old or a new entry, never half of one. */
static uint64_t cache[CACHE_SLOTS];
static pthread_mutex_t classify_lock = PTHREAD_MUTEX_INITIALIZER;

static int name_is_app(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof not_app_names / sizeof *not_app_names; i++)
        if (!strncmp(base, not_app_names[i], strlen(not_app_names[i]))) return 0;
    for (size_t i = 0; i < sizeof not_app_dirs / sizeof *not_app_dirs; i++)
        if (strstr(path, not_app_dirs[i])) return 0;
    return 1;
}

struct lookup {
    uintptr_t addr;
    int found, is_app;
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
            l->found = 1;
            /* the executable has an empty name; so has nothing else we would exclude */
            l->is_app = !info->dlpi_name || !info->dlpi_name[0] || name_is_app(info->dlpi_name);
            return 1;
        }
    }
    return 0;
}

static size_t slot_of(uintptr_t a)
{
    return (size_t)((a * 0x9e3779b97f4a7c15ull) >> 54) & (CACHE_SLOTS - 1);
}

int mpirr_libc_caller_is_app(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    uint64_t *slot = &cache[slot_of(a)];
    uint64_t e = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (__builtin_expect(e != 0 && (e - 1) >> 1 == a, 1)) return (int)((e - 1) & 1);
    pthread_mutex_lock(&classify_lock);
    struct lookup l = {.addr = a, .is_app = 1};
    dl_iterate_phdr(find_object, &l);
    pthread_mutex_unlock(&classify_lock);
    __atomic_store_n(slot, ((uint64_t)a << 1 | (unsigned)l.is_app) + 1, __ATOMIC_RELAXED);
    return l.is_app;
}
