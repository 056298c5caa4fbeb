/* libc_sources.h: the libc calls a recording can hold values of (the table is
 * libc_sources.def): their ids on disk, names, switches and value families. Shared by the
 * record codec, the runtime's interposers and the tools. */
#ifndef MPIRR_LIBC_SOURCES_H
#define MPIRR_LIBC_SOURCES_H

#include <stddef.h>
#include <stdint.h>

enum mpirr_libc_source {
#define MPIRR_LIBC_SOURCE(id, num, name, group, family) MPIRR_LIBC_##id = num,
#include "libc_sources.def"
#undef MPIRR_LIBC_SOURCE
    MPIRR_LIBC_SOURCE_LIMIT = 64
};

/* The switches (settings MPIRR_LIBC_<GROUP>, log header flags MPIRR_LOG_FLAG_LIBC_<GROUP>). */
enum mpirr_libc_group {
    MPIRR_LIBC_GROUP_TIME,
    MPIRR_LIBC_GROUP_RANDOM,
    MPIRR_LIBC_GROUP_PID,
    MPIRR_LIBC_GROUP_HOST,
    MPIRR_LIBC_GROUP_COUNT
};

/* What a value is, and which previous value it is coded as a difference to. */
enum mpirr_libc_family {
    MPIRR_LIBC_FAMILY_REAL,
    MPIRR_LIBC_FAMILY_MONO,
    MPIRR_LIBC_FAMILY_CPU,
    MPIRR_LIBC_FAMILY_VALUE,
    MPIRR_LIBC_FAMILY_BYTES,
    MPIRR_LIBC_FAMILY_COUNT
};

/* "clock_gettime(CLOCK_REALTIME)", or NULL for an id that is not in the table. */
const char *mpirr_libc_source_name(unsigned source);
enum mpirr_libc_group mpirr_libc_source_group(unsigned source);
enum mpirr_libc_family mpirr_libc_source_family(unsigned source);
/* "time", "random", "pid", "host": the word of the switches (--no-libc-time, --libc-pid). */
const char *mpirr_libc_group_word(enum mpirr_libc_group g);
/* Whether group g is recorded unless told otherwise (settings.def): then --no-libc-WORD leaves
 * it out, else --libc-WORD records it. */
int mpirr_libc_group_default_on(enum mpirr_libc_group g);
/* The names of the sources of group g whose bits are set in sources (bit s: source s),
 * ", "-separated, into buf ("" if none); how many there are. */
int mpirr_libc_group_names(uint64_t sources, enum mpirr_libc_group g, char *buf, size_t n);

#endif
