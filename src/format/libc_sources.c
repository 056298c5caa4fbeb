/* libc_sources.c: lookups in the libc source table (libc_sources.def). */
#include "libc_sources.h"

#include <stdio.h>
#include <string.h>

#include "settings.h"

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

int mpirr_libc_group_default_on(enum mpirr_libc_group g)
{
    _Static_assert(MPIRR_SET_LIBC_HOST - MPIRR_SET_LIBC_TIME == MPIRR_LIBC_GROUP_HOST,
                   "settings.def's LIBC_* rows follow enum mpirr_libc_group");
    return g < MPIRR_LIBC_GROUP_COUNT && !strcmp(mpirr_settings[MPIRR_SET_LIBC_TIME + g].dflt, "1");
}

int mpirr_libc_group_names(uint64_t sources, enum mpirr_libc_group g, char *buf, size_t n)
{
    int named = 0;
    size_t len = 0;
    buf[0] = 0;
    for (unsigned s = 1; s < MPIRR_LIBC_SOURCE_LIMIT; s++) {
        if (!(sources >> s & 1) || !rows[s].name || rows[s].group != g) continue;
        if (len < n) len += (size_t)snprintf(buf + len, n - len, "%s%s", named ? ", " : "", rows[s].name);
        named++;
    }
    return named;
}
