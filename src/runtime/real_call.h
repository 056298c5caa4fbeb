/* real_call.h: how the runtime's interposers (libc_interpose.c, threads/sync_wrappers.c,
 * fortran_forward.c) reach the function they stand in for: the next definition after
 * libmpirr.so's (glibc's, Open MPI's Fortran binding), looked up on first use. A file declares
 * `static RET (*real_NAME)(ARGS);` and calls REAL(NAME)(...). */
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
        fprintf(stderr, "mpirr: cannot find the next definition of %s after libmpirr's\n", name);
        abort();
    }
    return f;
}

/* The function pointer var, looked up by the symbol name sym on first use (two threads may
 * both look it up: same answer). */
#define REAL_AS(var, sym)                                                                      \
    (__atomic_load_n(&(var), __ATOMIC_RELAXED)                                                 \
         ? (var)                                                                               \
         : ((var) = (__typeof__(var))mpirr_real_resolve(sym)))
/* The real function */
#define REAL(name) REAL_AS(real_##name, #name)

#endif
