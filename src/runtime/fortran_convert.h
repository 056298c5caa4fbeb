/* fortran_convert.h: what each kind of Fortran parameter (fortran_kinds.h) becomes in the six
 * stages of a generated Fortran wrapper (fortran_wrappers.c), with the helpers they use:
 *   PARAM  the wrapper's parameter (Fortran passes everything by address), with a comma
 *   TAIL   the hidden length gfortran appends after the last argument for a CHARACTER one
 *   LOCAL  the C value converted from Fortran before the call (may clear f_ok_: no memory)
 *   ARG    the argument given to the C MPI function
 *   BACK   the result converted back into the Fortran variable (only when the call succeeded)
 *   FREE   what LOCAL allocated
 * Conversions are the MPI standard's: the handle conversion functions (MPI_Comm_f2c, ...), MPI_Status_f2c/c2f,
 * MPI_F_STATUS(ES)_IGNORE; Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM are the addresses
 * of its common blocks, compared as Open MPI's own bindings do. Used by both runtimes' Fortran
 * entry points (fortran_define.h): MPI_Fint is int in both, handles are pointers in Open MPI
 * and ints in MPICH, which reach MPICH's only without choice buffers. */
#ifndef MPIRR_FORTRAN_CONVERT_H
#define MPIRR_FORTRAN_CONVERT_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* PTR passes a Fortran INTEGER array or scalar straight to an int parameter. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER is not a C int");

enum {
    /* Fortran's MPI_STATUS_SIZE: Open MPI sizes the INTEGER status array as its C status */
    F_STATUS_SIZE = sizeof(MPI_Status) / sizeof(MPI_Fint),
    F_TRUE = 1, /* gfortran's .TRUE. (Open MPI's OMPI_FORTRAN_VALUE_TRUE for it) */
    F_SMALL = 16, /* handle and status arrays up to this size stay on the stack */
};

/* ---- handles: f2c of an index Open MPI does not know gives NULL; make that the type's null
 * handle, so the C wrapper and MPI see a handle they can reject with an error code ---- */
#define F_HANDLE_TYPES(X)                                                                      \
    X(Comm, MPI_Comm, MPI_COMM_NULL)                                                           \
    X(Type, MPI_Datatype, MPI_DATATYPE_NULL)                                                   \
    X(Request, MPI_Request, MPI_REQUEST_NULL)                                                  \
    X(Message, MPI_Message, MPI_MESSAGE_NULL)                                                  \
    X(Group, MPI_Group, MPI_GROUP_NULL)                                                        \
    X(Op, MPI_Op, MPI_OP_NULL)                                                                 \
    X(Info, MPI_Info, MPI_INFO_NULL)                                                           \
    X(Errhandler, MPI_Errhandler, MPI_ERRHANDLER_NULL)                                         \
    X(Win, MPI_Win, MPI_WIN_NULL)                                                              \
    X(File, MPI_File, MPI_FILE_NULL)
#define F_HANDLE_HELPERS(T, ctype, null)                                                       \
    typedef ctype fh_##T;                                                                      \
    static inline ctype f2c_##T(MPI_Fint v)                                                    \
    {                                                                                          \
        ctype c = MPI_##T##_f2c(v);                                                            \
        return c ? c : null;                                                                   \
    }                                                                                          \
    static inline MPI_Fint c2f_##T(ctype c) { return MPI_##T##_c2f(c); }
F_HANDLE_TYPES(F_HANDLE_HELPERS)
#undef F_HANDLE_HELPERS

/* Storage for n objects: the caller's small buffer when they fit, else the heap (NULL: none). */
static inline void *f_store(void *small, size_t small_size, long n, size_t each)
{
    if (n <= 0 || (size_t)n * each <= small_size)
        return small;
    return malloc((size_t)n * each);
}

/* The number of entries of an MPI_Alltoallw type array: the (remote) group's size. PMPI: these
 * lookups are not the program's calls and must not become events. */
static inline long f_comm_peers(MPI_Fint fcomm)
{
    MPI_Comm c = f2c_Comm(fcomm);
    int inter = 0, n = 0;
    if (PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS)
        return 0;
    if ((inter ? PMPI_Comm_remote_size(c, &n) : PMPI_Comm_size(c, &n)) != MPI_SUCCESS)
        return 0;
    return n;
}

/* The number of neighbours of a process topology's communicator, its sources (out: 0) or its
 * destinations (out: 1): the entries of a neighborhood collective's type arrays. PMPI, as above. */
static inline long f_comm_neighbors(MPI_Fint fcomm, int out)
{
    MPI_Comm c = f2c_Comm(fcomm);
    int topo = MPI_UNDEFINED, n = 0, in_n = 0, out_n = 0, weighted = 0, rank = 0;
    if (PMPI_Topo_test(c, &topo) != MPI_SUCCESS)
        return 0;
    if (topo == MPI_CART && PMPI_Cartdim_get(c, &n) == MPI_SUCCESS)
        return 2L * n;
    if (topo == MPI_GRAPH && PMPI_Comm_rank(c, &rank) == MPI_SUCCESS &&
        PMPI_Graph_neighbors_count(c, rank, &n) == MPI_SUCCESS)
        return n;
    if (topo == MPI_DIST_GRAPH &&
        PMPI_Dist_graph_neighbors_count(c, &in_n, &out_n, &weighted) == MPI_SUCCESS)
        return out ? out_n : in_n;
    return 0;
}

/* ---- choice buffers: Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM are common blocks, one
 * symbol per Fortran name mangling; weak, since a build defines only some of them ---- */
#define F_COMMON_BLOCK(UP, low)                                                                \
    extern int MPI_FORTRAN_##UP __attribute__((weak));                                         \
    extern int mpi_fortran_##low __attribute__((weak));                                        \
    extern int mpi_fortran_##low##_ __attribute__((weak));                                     \
    extern int mpi_fortran_##low##__ __attribute__((weak));
F_COMMON_BLOCK(IN_PLACE, in_place)
F_COMMON_BLOCK(BOTTOM, bottom)
#undef F_COMMON_BLOCK

#define F_IS_COMMON(p, UP, low)                                                                \
    ((p) == (void *)&MPI_FORTRAN_##UP || (p) == (void *)&mpi_fortran_##low ||                  \
     (p) == (void *)&mpi_fortran_##low##_ || (p) == (void *)&mpi_fortran_##low##__)

static inline void *f_buf(void *p)
{
    if (!p) /* an undefined weak symbol's address is NULL too */
        return p;
    if (F_IS_COMMON(p, IN_PLACE, in_place))
        return MPI_IN_PLACE;
    if (F_IS_COMMON(p, BOTTOM, bottom))
        return MPI_BOTTOM;
    return p;
}

/* ---- statuses: Fortran's MPI_STATUS(ES)_IGNORE, those of mpif.h and `use mpi` (and Open
 * MPI's mpi_f08, which shares them) unless the includer says otherwise (MPICH's mpi_f08 has its
 * own: fortran_mpich_f08.c) ---- */
#ifndef F_STATUS_IGNORE
#define F_STATUS_IGNORE MPI_F_STATUS_IGNORE
#define F_STATUSES_IGNORE MPI_F_STATUSES_IGNORE
#endif

static inline MPI_Status *f_status(MPI_Fint *f, MPI_Status *c, int in)
{
    if (f == F_STATUS_IGNORE)
        return MPI_STATUS_IGNORE;
    if (in)
        MPI_Status_f2c(f, c);
    return c;
}

/* n statuses from f (F_STATUS_SIZE integers each), or MPI_STATUSES_IGNORE (which may be
 * NULL: running out of memory clears *ok instead). They are read in, so that entries MPI does
 * not write come back unchanged. */
static inline MPI_Status *f_statuses(MPI_Fint *f, MPI_Status *small, size_t small_size, long n,
                                     int *ok)
{
    if (f == F_STATUSES_IGNORE) {
        /* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1: seen through, GCC's link-time
         * optimizer warns that it passes an array of size 0 to MPI_Waitall's */
        MPI_Status *ignore = MPI_STATUSES_IGNORE;
        __asm__("" : "+r"(ignore));
        return ignore;
    }
    MPI_Status *c = f_store(small, small_size, n, sizeof *c);
    if (!c)
        *ok = 0;
    for (long i = 0; c && i < n; i++)
        MPI_Status_f2c(f + i * F_STATUS_SIZE, &c[i]);
    return c;
}

static inline void f_statuses_back(MPI_Fint *f, const MPI_Status *c, long n)
{
    if (c == MPI_STATUSES_IGNORE)
        return;
    for (long i = 0; i < n; i++)
        MPI_Status_c2f(&c[i], f + i * F_STATUS_SIZE);
}

/* C request indices count from 0, Fortran's from 1; MPI_UNDEFINED stays. */
static inline MPI_Fint f_index(int c) { return c == MPI_UNDEFINED ? c : c + 1; }
static inline void f_indices(MPI_Fint *f, MPI_Fint n)
{
    for (MPI_Fint i = 0; n != MPI_UNDEFINED && i < n; i++)
        f[i] += 1;
}

/* ---- CHARACTER: blank padded, no terminator ---- */
static inline char *f_str_in(const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, f, len);
        c[len] = '\0';
    }
    return c;
}

static inline void f_str_out(char *f, size_t len, const char *c)
{
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

/* ---- the stages of each kind (parameter p_, kind extras after it) ---- */
#define F_PARAM_NONE(p_, ...)
#define F_TAIL_NONE(p_, ...)
#define F_LOCAL_NONE(p_, ...)
#define F_ARG_NONE(p_, ...)
#define F_BACK_NONE(p_, ...)
#define F_FREE_NONE(p_, ...)

#define F_PARAM_NOARG(p_, ...)
#define F_TAIL_NOARG(p_, ...)
#define F_LOCAL_NOARG(p_, ...)
#define F_ARG_NOARG(p_, ...) NULL
#define F_BACK_NOARG(p_, ...)
#define F_FREE_NOARG(p_, ...)

/* scalars and arrays passed as they are */
#define F_PARAM_VAL(p_, ...) MPI_Fint *p_,
#define F_TAIL_VAL(p_, ...)
#define F_LOCAL_VAL(p_, ...)
#define F_ARG_VAL(p_, ...) *p_
#define F_BACK_VAL(p_, ...)
#define F_FREE_VAL(p_, ...)

#define F_PARAM_PTR(p_, ...) MPI_Fint *p_,
#define F_TAIL_PTR(p_, ...)
#define F_LOCAL_PTR(p_, ...)
#define F_ARG_PTR(p_, ...) p_
#define F_BACK_PTR(p_, ...)
#define F_FREE_PTR(p_, ...)

/* MPI_Group_range_incl's ranges(3, n): Fortran's columns are C's rows of int[3] */
#define F_PARAM_RANGES(p_, ...) MPI_Fint *p_,
#define F_TAIL_RANGES(p_, ...)
#define F_LOCAL_RANGES(p_, ...)
#define F_ARG_RANGES(p_, ...) (int(*)[3])p_
#define F_BACK_RANGES(p_, ...)
#define F_FREE_RANGES(p_, ...)

#define F_PARAM_AINT(p_, ...) MPI_Aint *p_,
#define F_TAIL_AINT(p_, ...)
#define F_LOCAL_AINT(p_, ...)
#define F_ARG_AINT(p_, ...) *p_
#define F_BACK_AINT(p_, ...)
#define F_FREE_AINT(p_, ...)

#define F_PARAM_AINT_PTR(p_, ...) MPI_Aint *p_,
#define F_TAIL_AINT_PTR(p_, ...)
#define F_LOCAL_AINT_PTR(p_, ...)
#define F_ARG_AINT_PTR(p_, ...) p_
#define F_BACK_AINT_PTR(p_, ...)
#define F_FREE_AINT_PTR(p_, ...)

_Static_assert(sizeof(MPI_Offset) == 8, "Fortran's MPI_OFFSET_KIND (8) is not MPI_Offset");
#define F_PARAM_OFFSET(p_, ...) MPI_Offset *p_,
#define F_TAIL_OFFSET(p_, ...)
#define F_LOCAL_OFFSET(p_, ...)
#define F_ARG_OFFSET(p_, ...) *p_
#define F_BACK_OFFSET(p_, ...)
#define F_FREE_OFFSET(p_, ...)

#define F_PARAM_OFFSET_PTR(p_, ...) MPI_Offset *p_,
#define F_TAIL_OFFSET_PTR(p_, ...)
#define F_LOCAL_OFFSET_PTR(p_, ...)
#define F_ARG_OFFSET_PTR(p_, ...) p_
#define F_BACK_OFFSET_PTR(p_, ...)
#define F_FREE_OFFSET_PTR(p_, ...)

_Static_assert(sizeof(MPI_Count) == 8, "Fortran's MPI_COUNT_KIND (8) is not MPI_Count");
#define F_PARAM_COUNT(p_, ...) MPI_Count *p_,
#define F_TAIL_COUNT(p_, ...)
#define F_LOCAL_COUNT(p_, ...)
#define F_ARG_COUNT(p_, ...) *p_
#define F_BACK_COUNT(p_, ...)
#define F_FREE_COUNT(p_, ...)

#define F_PARAM_COUNT_PTR(p_, ...) MPI_Count *p_,
#define F_TAIL_COUNT_PTR(p_, ...)
#define F_LOCAL_COUNT_PTR(p_, ...)
#define F_ARG_COUNT_PTR(p_, ...) p_
#define F_BACK_COUNT_PTR(p_, ...)
#define F_FREE_COUNT_PTR(p_, ...)

/* the address of the variable that receives an address (MPI_Win_allocate's baseptr): C's
 * void * parameter is really a void ** */
_Static_assert(sizeof(MPI_Aint) == sizeof(void *), "INTEGER(MPI_ADDRESS_KIND) holds no pointer");
#define F_PARAM_ADDR_OUT(p_, ...) void *p_,
#define F_TAIL_ADDR_OUT(p_, ...)
#define F_LOCAL_ADDR_OUT(p_, ...)
#define F_ARG_ADDR_OUT(p_, ...) p_
#define F_BACK_ADDR_OUT(p_, ...)
#define F_FREE_ADDR_OUT(p_, ...)

#define F_PARAM_BUF(p_, ...) void *p_,
#define F_TAIL_BUF(p_, ...)
#define F_LOCAL_BUF(p_, ...)
#define F_ARG_BUF(p_, ...) f_buf(p_)
#define F_BACK_BUF(p_, ...)
#define F_FREE_BUF(p_, ...)

/* LOGICAL */
#define F_PARAM_LOG_IN(p_, ...) MPI_Fint *p_,
#define F_TAIL_LOG_IN(p_, ...)
#define F_LOCAL_LOG_IN(p_, ...)
#define F_ARG_LOG_IN(p_, ...) (*p_ != 0)
#define F_BACK_LOG_IN(p_, ...)
#define F_FREE_LOG_IN(p_, ...)

#define F_PARAM_LOG_OUT(p_, ...) MPI_Fint *p_,
#define F_TAIL_LOG_OUT(p_, ...)
#define F_LOCAL_LOG_OUT(p_, ...) int c_##p_ = 0;
#define F_ARG_LOG_OUT(p_, ...) &c_##p_
#define F_BACK_LOG_OUT(p_, ...) *p_ = c_##p_ ? F_TRUE : 0;
#define F_FREE_LOG_OUT(p_, ...)

/* handles of type T_ */
#define F_PARAM_H_IN(p_, T_) MPI_Fint *p_,
#define F_TAIL_H_IN(p_, T_)
#define F_LOCAL_H_IN(p_, T_)
#define F_ARG_H_IN(p_, T_) f2c_##T_(*p_)
#define F_BACK_H_IN(p_, T_)
#define F_FREE_H_IN(p_, T_)

#define F_PARAM_H_PTR(p_, T_) MPI_Fint *p_,
#define F_TAIL_H_PTR(p_, T_)
#define F_LOCAL_H_PTR(p_, T_) fh_##T_ c_##p_ = f2c_##T_(*p_);
#define F_ARG_H_PTR(p_, T_) &c_##p_
#define F_BACK_H_PTR(p_, T_) *p_ = c2f_##T_(c_##p_);
#define F_FREE_H_PTR(p_, T_)

/* arrays of count_ handles of type T_: read only (HS_IN) or read and written back (HS_PTR) */
#define F_LOCAL_HS(p_, T_, count_)                                                                 \
    fh_##T_ s_##p_[F_SMALL];                                                                   \
    long nn_##p_ = (count_);                                                                        \
    fh_##T_ *c_##p_ = f_store(s_##p_, sizeof s_##p_, nn_##p_, sizeof *c_##p_);                  \
    if (!c_##p_)                                                                               \
        f_ok_ = 0;                                                                             \
    for (long i_ = 0; c_##p_ && i_ < nn_##p_; i_++)                                             \
        c_##p_[i_] = f2c_##T_(p_[i_]);

#define F_PARAM_HS_IN(p_, T_, count_) MPI_Fint *p_,
#define F_TAIL_HS_IN(p_, T_, count_)
#define F_LOCAL_HS_IN(p_, T_, count_) F_LOCAL_HS(p_, T_, count_)
#define F_ARG_HS_IN(p_, T_, count_) c_##p_
#define F_BACK_HS_IN(p_, T_, count_)
#define F_FREE_HS_IN(p_, T_, count_) if (c_##p_ != s_##p_) free(c_##p_);

#define F_PARAM_HS_PTR(p_, T_, count_) MPI_Fint *p_,
#define F_TAIL_HS_PTR(p_, T_, count_)
#define F_LOCAL_HS_PTR(p_, T_, count_) F_LOCAL_HS(p_, T_, count_)
#define F_ARG_HS_PTR(p_, T_, count_) c_##p_
#define F_BACK_HS_PTR(p_, T_, count_)                                                              \
    for (long i_ = 0; i_ < nn_##p_; i_++)                                                       \
        p_[i_] = c2f_##T_(c_##p_[i_]);
#define F_FREE_HS_PTR(p_, T_, count_) F_FREE_HS_IN(p_, T_, count_)

/* statuses */
#define F_PARAM_STATUS(p_, ...) MPI_Fint *p_,
#define F_TAIL_STATUS(p_, ...)
#define F_LOCAL_STATUS(p_, ...)                                                                \
    MPI_Status s_##p_;                                                                         \
    MPI_Status *c_##p_ = f_status(p_, &s_##p_, 0);
#define F_ARG_STATUS(p_, ...) c_##p_
#define F_BACK_STATUS(p_, ...)                                                                 \
    if (c_##p_ != MPI_STATUS_IGNORE)                                                           \
        MPI_Status_c2f(c_##p_, p_);
#define F_FREE_STATUS(p_, ...)

#define F_PARAM_STATUS_IN(p_, ...) MPI_Fint *p_,
#define F_TAIL_STATUS_IN(p_, ...)
#define F_LOCAL_STATUS_IN(p_, ...)                                                             \
    MPI_Status s_##p_;                                                                         \
    MPI_Status *c_##p_ = f_status(p_, &s_##p_, 1);
#define F_ARG_STATUS_IN(p_, ...) c_##p_
#define F_BACK_STATUS_IN(p_, ...)
#define F_FREE_STATUS_IN(p_, ...)

/* a status the call updates (MPI_Status_set_elements): read in, written back */
#define F_PARAM_STATUS_INOUT(p_, ...) MPI_Fint *p_,
#define F_TAIL_STATUS_INOUT(p_, ...)
#define F_LOCAL_STATUS_INOUT(p_, ...) F_LOCAL_STATUS_IN(p_, ~)
#define F_ARG_STATUS_INOUT(p_, ...) c_##p_
#define F_BACK_STATUS_INOUT(p_, ...) F_BACK_STATUS(p_, ~)
#define F_FREE_STATUS_INOUT(p_, ...)

#define F_PARAM_STATUSES(p_, count_) MPI_Fint *p_,
#define F_TAIL_STATUSES(p_, count_)
#define F_LOCAL_STATUSES(p_, count_)                                                               \
    MPI_Status s_##p_[F_SMALL];                                                                \
    long nn_##p_ = (count_);                                                                        \
    MPI_Status *c_##p_ = f_statuses(p_, s_##p_, sizeof s_##p_, nn_##p_, &f_ok_);
#define F_ARG_STATUSES(p_, count_) c_##p_
#define F_BACK_STATUSES(p_, count_) f_statuses_back(p_, c_##p_, nn_##p_);
#define F_FREE_STATUSES(p_, count_)                                                                \
    if (c_##p_ != s_##p_ && c_##p_ != MPI_STATUSES_IGNORE)                                     \
        free(c_##p_);

/* request indices */
#define F_PARAM_INDEX_OUT(p_, ...) MPI_Fint *p_,
#define F_TAIL_INDEX_OUT(p_, ...)
#define F_LOCAL_INDEX_OUT(p_, ...) int c_##p_ = MPI_UNDEFINED;
#define F_ARG_INDEX_OUT(p_, ...) &c_##p_
#define F_BACK_INDEX_OUT(p_, ...) *p_ = f_index(c_##p_);
#define F_FREE_INDEX_OUT(p_, ...)

#define F_PARAM_INDICES(p_, count_) MPI_Fint *p_,
#define F_TAIL_INDICES(p_, count_)
#define F_LOCAL_INDICES(p_, count_)
#define F_ARG_INDICES(p_, count_) p_
#define F_BACK_INDICES(p_, count_) f_indices(p_, count_);
#define F_FREE_INDICES(p_, count_)

/* CHARACTER: in (trailing blanks dropped) or out (of at most max_ characters) */
#define F_PARAM_STR_IN(p_, ...) char *p_,
#define F_TAIL_STR_IN(p_, ...) , size_t p_##_len
#define F_LOCAL_STR_IN(p_, ...)                                                                \
    char *c_##p_ = f_str_in(p_, p_##_len);                                                     \
    if (!c_##p_)                                                                               \
        f_ok_ = 0;
#define F_ARG_STR_IN(p_, ...) c_##p_
#define F_BACK_STR_IN(p_, ...)
#define F_FREE_STR_IN(p_, ...) free(c_##p_);

/* CHARACTER out of n_ characters at most (MPI_Info_get's value: valuelen), written back only
 * when when_ (the call found it: Fortran's variable stays as it was otherwise) */
#define F_PARAM_STR_OUT_N(p_, n_, when_) char *p_,
#define F_TAIL_STR_OUT_N(p_, n_, when_) , size_t p_##_len
#define F_LOCAL_STR_OUT_N(p_, n_, when_)                                                       \
    char *c_##p_ = calloc((size_t)((n_) > 0 ? (n_) : 0) + 1, 1);                               \
    if (!c_##p_)                                                                               \
        f_ok_ = 0;
#define F_ARG_STR_OUT_N(p_, n_, when_) c_##p_
#define F_BACK_STR_OUT_N(p_, n_, when_)                                                        \
    if (when_)                                                                                 \
        f_str_out(p_, p_##_len, c_##p_);
#define F_FREE_STR_OUT_N(p_, n_, when_) free(c_##p_);

#define F_PARAM_STR_OUT(p_, max_) char *p_,
#define F_TAIL_STR_OUT(p_, max_) , size_t p_##_len
#define F_LOCAL_STR_OUT(p_, max_) char c_##p_[(max_) + 1] = "";
#define F_ARG_STR_OUT(p_, max_) c_##p_
#define F_BACK_STR_OUT(p_, max_) f_str_out(p_, p_##_len, c_##p_);
#define F_FREE_STR_OUT(p_, max_)

#endif
