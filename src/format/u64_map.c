/* u64_map.c: the one hash map's out-of-line parts (u64_map.h): growth, key 0, closing holes,
 * replacement, iteration. */
#include "u64_map.h"

#include <stdlib.h>

/* Puts a key known to be absent (and not 0) into a table with room. */
static uint64_t *place(uint64_t *keys, uint64_t *vals, size_t cap, uint64_t key, uint64_t val)
{
    size_t i = u64_map_home(key, cap);
    while (keys[i]) i = (i + 1) & (cap - 1);
    keys[i] = key;
    vals[i] = val;
    return &vals[i];
}

static int grow(u64_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *k = calloc(cap, sizeof *k), *v = malloc(cap * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) place(k, v, cap, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
    return 0;
}

uint64_t *u64_map_slot_slow(u64_map *m, uint64_t key, uint64_t fresh, int *added)
{
    if (added) *added = 0;
    uint64_t *v = u64_map_find(m, key);
    if (v) return v;
    if (key == 0) {
        m->has_zero = 1;
        m->zero_val = fresh;
        v = &m->zero_val;
    } else {
        if (grow(m)) return NULL;
        v = place(m->keys, m->vals, m->cap, key, fresh);
    }
    m->n++;
    if (added) *added = 1;
    return v;
}

int u64_map_put(u64_map *m, uint64_t key, uint64_t val)
{
    uint64_t *v = u64_map_slot(m, key, val, NULL);
    if (!v) return -1;
    *v = val;
    return 0;
}

void u64_map_close_hole(u64_map *m, size_t hole)
{
    /* Backward shift: later keys of the cluster whose home is not between the hole and
     * themselves move into the hole, so no probe sequence is ever cut. */
    size_t mask = m->cap - 1;
    for (size_t j = (hole + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        size_t home = u64_map_home(m->keys[j], m->cap);
        if (((j - home) & mask) < ((j - hole) & mask)) continue; /* home in (hole, j] */
        m->keys[hole] = m->keys[j];
        m->vals[hole] = m->vals[j];
        m->keys[j] = 0;
        hole = j;
    }
}

int u64_map_next(const u64_map *m, size_t *pos, uint64_t *key, uint64_t *val)
{
    /* position 0 is key 0's, then slot i at position i + 1 */
    if (*pos == 0) {
        *pos = 1;
        if (m->has_zero) {
            *key = 0;
            *val = m->zero_val;
            return 1;
        }
    }
    for (; *pos <= m->cap; ++*pos) {
        size_t i = *pos - 1;
        if (!m->keys[i]) continue;
        *key = m->keys[i];
        *val = m->vals[i];
        ++*pos;
        return 1;
    }
    return 0;
}

void u64_map_free(u64_map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (u64_map){0};
}
