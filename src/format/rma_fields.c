/* rma_fields.c: the names of a one-sided call record's numbers (rma_fields.h). */
#include "rma_fields.h"

#include <stddef.h>

static const char *const kinds[MPIRR_RMA_KINDS] = {
    NULL, "create", "create_dynamic", "attach", "detach", "free", "fence", "post", "start",
    "complete", "wait", "test", "lock", "unlock", "lock_all", "unlock_all", "flush",
    "flush_local", "flush_all", "flush_local_all", "sync",
    "put", "get", "acc", "get_acc", "fao", "cas",
};
static const char *const ops[MPIRR_RMA_OPS] = {
    NULL, "sum", "prod", "max", "min", "land", "band", "lor", "bor", "lxor", "bxor",
    "maxloc", "minloc", "replace", "no_op", "user",
};
static const char *const types[MPIRR_RMA_TYPES] = {
    NULL, "char", "short", "int", "long", "long_long", "unsigned", "unsigned_long",
    "unsigned_long_long", "float", "double", "int32", "int64", "uint32", "uint64", "byte",
};
static const char *const locks[] = {NULL, "exclusive", "shared"};

const char *mpirr_rma_kind_name(unsigned kind) { return kind < MPIRR_RMA_KINDS ? kinds[kind] : NULL; }
const char *mpirr_rma_op_name(unsigned op) { return op < MPIRR_RMA_OPS ? ops[op] : NULL; }
const char *mpirr_rma_type_name(unsigned type) { return type < MPIRR_RMA_TYPES ? types[type] : NULL; }
const char *mpirr_rma_lock_name(unsigned lock) { return lock < 3 ? locks[lock] : NULL; }
