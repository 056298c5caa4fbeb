/* u64_map.c: the analyses' hash map (linear probing, grown at half load). */
#include "u64_map.h"

#include <stdlib.h>

static size_t home(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static int grow(u64_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *k = malloc(cap * sizeof *k);
    uint32_t *v = malloc(cap * sizeof *v);
    uint8_t *u = calloc(cap, 1);
    if (!k || !v || !u) {
        free(k);
        free(v);
        free(u);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        size_t j = home(m->keys[i], cap);
        while (u[j]) j = (j + 1) & (cap - 1);
        u[j] = 1;
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = k;
    m->vals = v;
    m->used = u;
    m->cap = cap;
    return 0;
}

uint32_t *u64_map_slot(u64_map *m, uint64_t key, uint32_t fresh, int *added)
{
    if (added) *added = 0;
    if ((m->n + 1) * 2 > m->cap && grow(m)) return NULL;
    size_t j = home(key, m->cap);
    while (m->used[j]) {
        if (m->keys[j] == key) return &m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->used[j] = 1;
    m->keys[j] = key;
    m->vals[j] = fresh;
    m->n++;
    if (added) *added = 1;
    return &m->vals[j];
}

int u64_map_get(const u64_map *m, uint64_t key, uint32_t *val)
{
    if (!m->cap) return 0;
    size_t j = home(key, m->cap);
    while (m->used[j]) {
        if (m->keys[j] == key) {
            *val = m->vals[j];
            return 1;
        }
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

void u64_map_free(u64_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    *m = (u64_map){0};
}
