/* handle_map.c: linear probing with tombstones; keys are mixed (splitmix64) because handle
 * bits are often aligned pointers or small consecutive integers. */
#include "handle_map.h"

#include <stdlib.h>

enum { EMPTY = 0, FULL = 1, GONE = 2 };

struct handle_map_slot {
    uint64_t key, value;
    int state;
};

static size_t mix(uint64_t k)
{
    k += 0x9e3779b97f4a7c15ull;
    k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ull;
    k = (k ^ (k >> 27)) * 0x94d049bb133111ebull;
    return (size_t)(k ^ (k >> 31));
}

static struct handle_map_slot *find(const handle_map *m, uint64_t key)
{
    if (!m->cap) return NULL;
    for (size_t i = mix(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        struct handle_map_slot *s = &m->slots[i];
        if (s->state == EMPTY) return NULL;
        if (s->state == FULL && s->key == key) return s;
    }
}

int handle_map_get(const handle_map *m, uint64_t key, uint64_t *value)
{
    const struct handle_map_slot *s = find(m, key);
    if (s) *value = s->value;
    return s != NULL;
}

static int grow(handle_map *m)
{
    size_t cap = m->cap ? (m->live * 4 >= m->cap ? m->cap * 2 : m->cap) : 64;
    struct handle_map_slot *old = m->slots, *s = calloc(cap, sizeof *s);
    size_t oldcap = m->cap;
    if (!s) return -1;
    m->slots = s;
    m->cap = cap;
    m->used = m->live = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].state == FULL) handle_map_put(m, old[i].key, old[i].value);
    free(old);
    return 0;
}

int handle_map_put(handle_map *m, uint64_t key, uint64_t value)
{
    struct handle_map_slot *s = find(m, key);
    if (s) {
        s->value = value;
        return 0;
    }
    if ((m->used + 1) * 2 > m->cap && grow(m)) return -1;
    size_t i = mix(key) & (m->cap - 1);
    while (m->slots[i].state == FULL) i = (i + 1) & (m->cap - 1);
    if (m->slots[i].state == EMPTY) m->used++;
    m->slots[i] = (struct handle_map_slot){key, value, FULL};
    m->live++;
    return 0;
}

void handle_map_del(handle_map *m, uint64_t key)
{
    struct handle_map_slot *s = find(m, key);
    if (!s) return;
    s->state = GONE;
    m->live--;
}

void handle_map_free(handle_map *m)
{
    free(m->slots);
    *m = (handle_map){0};
}
