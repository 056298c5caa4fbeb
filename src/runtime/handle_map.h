/* handle_map.h: the old name of the one hash map (src/format/u64_map.h), kept for
 * src/runtime/threads, whose owner moves it to u64_map directly; everything else uses
 * u64_map.h. Not thread-safe: callers hold a lock. */
#ifndef MPIRR_HANDLE_MAP_H
#define MPIRR_HANDLE_MAP_H

#include <stdint.h>

#include "u64_map.h"

typedef u64_map handle_map;

/* 1 and *value if present, else 0. */
static inline int handle_map_get(const handle_map *m, uint64_t key, uint64_t *value)
{
    return u64_map_get(m, key, value);
}
/* Inserts or replaces; -1 if out of memory. */
static inline int handle_map_put(handle_map *m, uint64_t key, uint64_t value)
{
    return u64_map_put(m, key, value);
}
static inline void handle_map_del(handle_map *m, uint64_t key) { u64_map_del(m, key, NULL); }
static inline void handle_map_free(handle_map *m) { u64_map_free(m); }

#endif
