/* unordered_atomics.c: which atomic operations made outside every passive-target epoch on their
 * target (in a fence or PSCW epoch) the replay's verdict names. No turn can order those: there
 * is no flush to complete one before the next turn (MPI_Win_flush is for passive-target epochs
 * only), so concurrent ones on one location from different origins combine in an order the
 * library picks in each run. A call is counted (its outcome is not replayed, docs/rma.md "What
 * is not forced") when that order can change what it leaves or fetches: every fetching call
 * (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the R forms: the value
 * fetched depends on which updates came first), and an accumulate whose operation does not
 * commute exactly on its type: MPI_REPLACE, and MPI_SUM or MPI_PROD on anything but integers
 * (floating-point sums round differently in another order). Integer sums and products, MAX,
 * MIN, MAXLOC, MINLOC (ties go to the lower index), the bitwise and logical operations and
 * MPI_NO_OP end the same in every order: those are not counted, so a halo exchange that sums
 * integer totals under fences is still "as recorded". */
#include "rma.h"

/* MPI_Type_get_contents' arrays of the derived types MPI allows in accumulates (contiguous,
 * vectors, indexed, subarrays, darrays, resized, a struct of one type): small counts. */
enum { CONTENTS_MAX = 64 };

static int named(MPI_Datatype t)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

/* The predefined type a datatype is made of (every element of an accumulate's type is one
 * predefined type, MPI-3.1 11.3.4): the last type it is built from, down to a named one;
 * MPI_DATATYPE_NULL if it cannot be told. */
static MPI_Datatype base_type(MPI_Datatype t, int depth)
{
    int ni, na, nd, combiner;
    if (t == MPI_DATATYPE_NULL || depth > 16 || PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (combiner == MPI_COMBINER_NAMED) return t;
    int ints[CONTENTS_MAX];
    MPI_Aint aints[CONTENTS_MAX];
    MPI_Datatype types[CONTENTS_MAX];
    if (ni > CONTENTS_MAX || na > CONTENTS_MAX || nd > CONTENTS_MAX || nd < 1 ||
        PMPI_Type_get_contents(t, ni, na, nd, ints, aints, types) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    MPI_Datatype base = base_type(types[nd - 1], depth + 1); /* named: nothing to free */
    for (int i = 0; i < nd; i++) /* the derived ones are new handles */
        if (!named(types[i])) PMPI_Type_free(&types[i]);
    return base;
}

static int integer_type(MPI_Datatype t)
{
    const MPI_Datatype ints[] = {
        MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
        MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG,
        MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
        MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_BYTE, MPI_INTEGER,
        MPI_C_BOOL, MPI_LOGICAL};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (t == ints[i] && t != MPI_DATATYPE_NULL) return 1;
    return 0;
}

/* Whether applying accumulates of op on type in another order can end differently. */
static int order_matters(MPI_Op op, MPI_Datatype type)
{
    if (op == MPI_REPLACE) return 1;
    if (op != MPI_SUM && op != MPI_PROD) return 0; /* exact in any order (above) */
    return !integer_type(base_type(type, 0));
}

int mpirr_rma_unordered_atomic(int fetches, MPI_Op op, MPI_Datatype type)
{
    return fetches || order_matters(op, type);
}
