/* real_call.h: how the runtime's interposers (libc_interpose.c, threads/sync_wrappers.c) reach
 * the function they stand in for: the next definition after libmpirr.so's, glibc's, looked up
 * on first use. A file declares `static RET (*real_NAME)(ARGS);` and calls REAL(NAME)(...). */
#ifndef MPIRR_REAL_CALL_H
#define MPIRR_REAL_CALL_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The next definition of name after ours; a missing one ends the process (nothing to call). */
static inline void *mpirr_real_resolve(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "mpirr: cannot find libc's %s\n", name);
        abort();
    }
    return f;
}

/* The real function (two threads may both look it up: same answer). */
#define REAL(name)                                                                             \
    (__atomic_load_n(&real_##name, __ATOMIC_RELAXED)                                           \
         ? real_##name                                                                         \
         : (real_##name = (__typeof__(real_##name))mpirr_real_resolve(#name)))

#endif
