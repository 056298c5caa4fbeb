/* u64_map.h: THE hash map of mpirr, from 64-bit keys to 64-bit values (ids, indices, pointers
 * as uintptr_t), for every layer above: the runtime's request table, communicator registry,
 * replay's deferred records and the event history's ids and call sites, and the analyses'
 * indexes (channels, streams, communicators). Open addressing with linear probing, grown at
 * half load, deletion by backward shift (no tombstones, so lookups stay short in tables that
 * churn, like live requests). Keys are mixed in full, so aligned pointers, small consecutive
 * handles and structured keys (packed ranks and tags, events in the high bits) all spread.
 * Lookups, insertions and deletions are inline for the runtime's per-call paths; growth and
 * the shifting after a deletion inside a cluster are not (u64_map.c). Not thread-safe: the
 * runtime calls it under its lock. Tested by tests/unit/test_u64_map.c. */
#ifndef MPIRR_U64_MAP_H
#define MPIRR_U64_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64_map {
    uint64_t *keys; /* 0 marks an empty slot; key 0 itself lives in zero_val */
    uint64_t *vals;
    size_t cap, n;  /* slots (a power of two, or 0), entries (key 0 included) */
    uint64_t zero_val;
    int has_zero;
} u64_map;

/* The slot of key in a table of cap slots (cap a power of two). */
static inline size_t u64_map_home(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

/* Pointer to key's value, NULL if absent. Valid until the next insertion or deletion. */
static inline uint64_t *u64_map_find(const u64_map *m, uint64_t key)
{
    if (__builtin_expect(key == 0, 0)) return m->has_zero ? (uint64_t *)&m->zero_val : NULL;
    if (m->n == (size_t)m->has_zero) return NULL; /* no other key (or no table yet) */
    for (size_t i = u64_map_home(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key) return &m->vals[i];
        if (!m->keys[i]) return NULL;
    }
}

/* 1 and *val if present, else 0. */
static inline int u64_map_get(const u64_map *m, uint64_t key, uint64_t *val)
{
    const uint64_t *v = u64_map_find(m, key);
    if (v) *val = *v;
    return v != NULL;
}

/* u64_map.c: slot's rare cases (key 0, a table that must grow first), and closing the hole a
 * deletion left inside a cluster. */
uint64_t *u64_map_slot_slow(u64_map *m, uint64_t key, uint64_t fresh, int *added);
void u64_map_close_hole(u64_map *m, size_t hole);

/* Pointer to key's value, inserted as `fresh` (and *added = 1; added may be NULL) when absent;
 * NULL when out of memory. Valid until the next insertion or deletion. */
static inline uint64_t *u64_map_slot(u64_map *m, uint64_t key, uint64_t fresh, int *added)
{
    /* the table holds n - has_zero keys; one more must leave it at most half full */
    if (__builtin_expect(key == 0 || (m->n - (size_t)m->has_zero + 1) * 2 > m->cap, 0))
        return u64_map_slot_slow(m, key, fresh, added);
    /* one probe finds the key or, without tombstones, the empty slot it goes in */
    size_t i = u64_map_home(key, m->cap);
    for (; m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key) {
            if (added) *added = 0;
            return &m->vals[i];
        }
    m->keys[i] = key;
    m->vals[i] = fresh;
    m->n++;
    if (added) *added = 1;
    return &m->vals[i];
}

/* Removes key; 1 and its value in *val (val may be NULL) if it was there, else 0. */
static inline int u64_map_del(u64_map *m, uint64_t key, uint64_t *val)
{
    uint64_t *v = u64_map_find(m, key);
    if (!v) return 0;
    if (val) *val = *v;
    m->n--;
    if (__builtin_expect(key == 0, 0)) {
        m->has_zero = 0;
        return 1;
    }
    size_t hole = (size_t)(v - m->vals);
    m->keys[hole] = 0;
    if (m->keys[(hole + 1) & (m->cap - 1)]) u64_map_close_hole(m, hole);
    return 1;
}

/* Inserts or replaces; -1 if out of memory. */
int u64_map_put(u64_map *m, uint64_t key, uint64_t val);
/* Every entry in turn: start with *pos = 0; 0 once done. No insertion or deletion meanwhile. */
int u64_map_next(const u64_map *m, size_t *pos, uint64_t *key, uint64_t *val);
/* Frees the table; the map is empty and usable again. */
void u64_map_free(u64_map *m);

/* Combines words into one key (for composite keys). */
static inline uint64_t u64_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

#endif
