/* test_u64_map.c: the one hash map (src/format/u64_map.h) against a plain reference array,
 * through long random runs of insertions, replacements, deletions and lookups on the kinds of
 * keys its users have (aligned pointers, small consecutive handles, events in the high bits,
 * key 0, keys that share a home slot), then iteration, growth and reuse after free. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "u64_map.h"

#define UNIVERSE 600 /* distinct keys per run: more than the map's first table holds */

/* Reference: present[i], value[i] for key keys[i]. */
static uint64_t keys[UNIVERSE], value[UNIVERSE];
static int present[UNIVERSE];

static uint64_t key_of_kind(int kind, int i, uint64_t *rng)
{
    switch (kind) {
    case 0: return 0x7f0000001000ull + (uint64_t)i * 64;          /* aligned pointers */
    case 1: return 0x2c000000ull + (uint64_t)i;                   /* MPICH-like handles */
    case 2: return ((uint64_t)i << 24) ^ (3ull << 4) ^ 5 ^ (1ull << 63); /* deferred keys */
    case 3: return (uint64_t)i;                                   /* 0, 1, 2, ... */
    default: return test_rand(rng);                               /* mixed keys */
    }
}

/* Keys whose home slot (in a table of cap) is the same: one long cluster, the case where
 * deletion must shift later keys back. */
static void same_home_keys(size_t cap)
{
    u64_map m = {0};
    uint64_t found[40];
    size_t n = 0;
    size_t want = u64_map_home(12345, cap);
    for (uint64_t k = 1; n < 40; k++)
        if (u64_map_home(k, cap) == want) found[n++] = k;
    /* other keys until the table has cap slots, then the cluster up to just below the
     * growth point */
    u64_map_put(&m, 12345, 1);
    for (uint64_t f = 1; m.cap < cap; f++) CHECK(u64_map_put(&m, (1ull << 40) + f, f) == 0);
    size_t inserted = 0;
    while (inserted < 40 && (m.n + 1) * 2 <= cap) {
        CHECK(u64_map_put(&m, found[inserted], inserted + 10) == 0);
        inserted++;
    }
    CHECK(m.cap == cap && inserted >= 10);
    /* delete from the front, the middle and the back of the cluster: the rest stay found */
    for (size_t d = 0; d < inserted; d += 3) {
        uint64_t v = 0;
        CHECK(u64_map_del(&m, found[d], &v) == 1 && v == d + 10);
        for (size_t i = 0; i < inserted; i++) {
            uint64_t got = 0;
            int there = u64_map_get(&m, found[i], &got);
            CHECK(there == (i > d || i % 3 != 0));
            if (there) CHECK(got == i + 10);
        }
    }
    u64_map_free(&m);
}

static void random_run(int kind, uint64_t seed)
{
    uint64_t rng = seed;
    for (int i = 0; i < UNIVERSE; i++) {
        keys[i] = key_of_kind(kind, i, &rng);
        present[i] = 0;
    }
    u64_map m = {0};
    size_t live = 0;
    for (int step = 0; step < 40000; step++) {
        int i = (int)(test_rand(&rng) % UNIVERSE);
        uint64_t v = test_rand(&rng);
        switch (test_rand(&rng) % 5) {
        case 0: /* put */
            CHECK(u64_map_put(&m, keys[i], v) == 0);
            live += !present[i];
            present[i] = 1;
            value[i] = v;
            break;
        case 1: { /* slot: inserts only when absent */
            int added = -1;
            uint64_t *p = u64_map_slot(&m, keys[i], v, &added);
            CHECK(p != NULL);
            CHECK(added == !present[i]);
            if (!present[i]) {
                value[i] = v;
                present[i] = 1;
                live++;
            }
            CHECK(p && *p == value[i]);
            break;
        }
        case 2: { /* del */
            uint64_t got = 0;
            int was = u64_map_del(&m, keys[i], &got);
            CHECK(was == present[i]);
            if (was) {
                CHECK(got == value[i]);
                live--;
            }
            present[i] = 0;
            break;
        }
        default: { /* get / find */
            uint64_t got = 0;
            CHECK(u64_map_get(&m, keys[i], &got) == present[i]);
            if (present[i]) CHECK(got == value[i]);
            CHECK((u64_map_find(&m, keys[i]) != NULL) == present[i]);
        }
        }
        CHECK(m.n == live);
        if (check_failures > 20) break;
    }
    /* every entry exactly once through iteration */
    static int seen[UNIVERSE];
    memset(seen, 0, sizeof seen);
    size_t pos = 0, count = 0;
    uint64_t k, v;
    while (u64_map_next(&m, &pos, &k, &v)) {
        count++;
        int j = -1;
        for (int i = 0; i < UNIVERSE; i++)
            if (keys[i] == k) j = i;
        CHECK(j >= 0 && present[j] && !seen[j] && value[j] == v);
        if (j >= 0) seen[j] = 1;
    }
    CHECK(count == live);
    /* the table never fills past half */
    CHECK(m.cap == 0 || (m.n - (size_t)m.has_zero) * 2 <= m.cap);
    u64_map_free(&m);
    CHECK(m.n == 0 && m.cap == 0 && !u64_map_find(&m, keys[0]));
    /* usable again after free */
    CHECK(u64_map_put(&m, keys[1], 7) == 0);
    uint64_t got = 0;
    CHECK(u64_map_get(&m, keys[1], &got) && got == 7);
    u64_map_free(&m);
}

int main(void)
{
    /* an empty map answers without a table */
    u64_map m = {0};
    uint64_t v = 99;
    CHECK(!u64_map_get(&m, 5, &v) && v == 99);
    CHECK(!u64_map_get(&m, 0, &v));
    CHECK(u64_map_del(&m, 5, NULL) == 0);
    size_t pos = 0;
    uint64_t k;
    CHECK(!u64_map_next(&m, &pos, &k, &v));
    /* key 0 is an ordinary key */
    CHECK(u64_map_put(&m, 0, 42) == 0);
    CHECK(u64_map_get(&m, 0, &v) && v == 42 && m.n == 1);
    CHECK(u64_map_del(&m, 0, &v) == 1 && v == 42 && m.n == 0);
    CHECK(!u64_map_find(&m, 0));
    u64_map_free(&m);

    same_home_keys(64);
    same_home_keys(128);
    for (int kind = 0; kind < 5; kind++)
        for (uint64_t seed = 1; seed <= 3; seed++) random_run(kind, seed * 0x9e3779b97f4a7c15ull);

    /* u64_mix: order matters, and nearby words give distinct keys */
    CHECK(u64_mix(u64_mix(0, 1), 2) != u64_mix(u64_mix(0, 2), 1));
    CHECK(u64_mix(7, 1) != u64_mix(7, 2));
    return CHECK_DONE();
}
