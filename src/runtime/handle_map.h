/* handle_map.h: a small open-addressing map from 64-bit keys (MPI handle bits, addresses) to
 * 64-bit values, used by the event history for communicator ids, request slots and call
 * sites. Not thread-safe: callers hold the runtime lock. */
#ifndef MPIRR_HANDLE_MAP_H
#define MPIRR_HANDLE_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct handle_map {
    struct handle_map_slot *slots;
    size_t cap, used, live;
} handle_map;

/* 1 and *value if present, else 0. */
int handle_map_get(const handle_map *m, uint64_t key, uint64_t *value);
/* Inserts or replaces; -1 if out of memory. */
int handle_map_put(handle_map *m, uint64_t key, uint64_t value);
void handle_map_del(handle_map *m, uint64_t key);
void handle_map_free(handle_map *m);

#endif
