/* libc_sources.c: lookups in the libc source table (libc_sources.def). */
#include "libc_sources.h"

#include <stddef.h>

struct row {
    const char *name;
    unsigned char group, family;
};

static const struct row rows[MPIRR_LIBC_SOURCE_LIMIT] = {
#define MPIRR_LIBC_SOURCE(id, num, name, group, family)                                       \
    [num] = {name, MPIRR_LIBC_GROUP_##group, MPIRR_LIBC_FAMILY_##family},
#include "libc_sources.def"
#undef MPIRR_LIBC_SOURCE
};

const char *mpirr_libc_source_name(unsigned source)
{
    return source < MPIRR_LIBC_SOURCE_LIMIT ? rows[source].name : NULL;
}

enum mpirr_libc_group mpirr_libc_source_group(unsigned source)
{
    return source < MPIRR_LIBC_SOURCE_LIMIT ? (enum mpirr_libc_group)rows[source].group
                                            : MPIRR_LIBC_GROUP_TIME;
}

enum mpirr_libc_family mpirr_libc_source_family(unsigned source)
{
    return source < MPIRR_LIBC_SOURCE_LIMIT ? (enum mpirr_libc_family)rows[source].family
                                            : MPIRR_LIBC_FAMILY_VALUE;
}

const char *mpirr_libc_group_word(enum mpirr_libc_group g)
{
    static const char *const words[MPIRR_LIBC_GROUP_COUNT] = {"time", "random", "pid", "host"};
    return g < MPIRR_LIBC_GROUP_COUNT ? words[g] : "?";
}
