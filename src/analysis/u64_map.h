/* u64_map.h: an open-addressing hash map from 64-bit keys to 32-bit values, for the analyses'
 * indexes (communicator keys, channels, streams). Keys are mixed in full, so structured keys
 * (packed ranks and tags) spread well. */
#ifndef MPIRR_U64_MAP_H
#define MPIRR_U64_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64_map {
    uint64_t *keys;
    uint32_t *vals;
    uint8_t *used;
    size_t cap, n;
} u64_map;

/* Pointer to key's value, inserted as `fresh` (and *added = 1) when absent; NULL when out of
 * memory. The pointer is valid until the next insertion. */
uint32_t *u64_map_slot(u64_map *m, uint64_t key, uint32_t fresh, int *added);
/* 1 and *val if present. */
int u64_map_get(const u64_map *m, uint64_t key, uint32_t *val);
void u64_map_free(u64_map *m);

/* Combines words into one key (for composite keys). */
static inline uint64_t u64_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

#endif
