/* comm_registry.c: the map from user communicators to their shadows (comm_registry.h), an
 * open-addressing table keyed by the handle's bits with a one-entry cache in front, since a
 * program usually sends many messages in a row on one communicator. */
#include "comm_registry.h"

#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static mpirr_comm_info **table; /* NULL = empty; capacity a power of two */
static size_t cap, count;
static mpirr_comm_info *last;
static uint32_t next_id = 1;
/* Freed communicators' entries: race entries may still point at them (their peers), so they
 * live until the end of the run. */
static mpirr_comm_info **retired;
static size_t nretired;

static uint64_t key_of(MPI_Comm c)
{
    uint64_t k = 0;
    memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
    return k;
}

static size_t home(MPI_Comm c) { return (size_t)((key_of(c) * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1); }

mpirr_comm_info *mpirr_comm_find(MPI_Comm comm)
{
    if (last && last->comm == comm) return last;
    if (!cap) return NULL;
    for (size_t i = home(comm); table[i]; i = (i + 1) & (cap - 1))
        if (table[i]->comm == comm) return last = table[i];
    return NULL;
}

static void insert(mpirr_comm_info *e)
{
    size_t i = home(e->comm);
    while (table[i]) i = (i + 1) & (cap - 1);
    table[i] = e;
}

static void grow(void)
{
    mpirr_comm_info **old = table;
    size_t oldcap = cap;
    cap = cap ? 2 * cap : 16;
    table = calloc(cap, sizeof *table);
    if (!table) mpirr_fatal("out of memory registering communicators");
    for (size_t i = 0; i < oldcap; i++)
        if (old[i]) insert(old[i]);
    free(old);
}

/* World ranks of the peers of comm. */
static int peers_of(mpirr_comm_info *e)
{
    MPI_Group g, world;
    if ((e->inter ? PMPI_Comm_remote_group(e->comm, &g) : PMPI_Comm_group(e->comm, &g)) != MPI_SUCCESS)
        return -1;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_size(g, &e->npeers);
    int *ranks = malloc((size_t)e->npeers * sizeof *ranks);
    e->world = malloc((size_t)e->npeers * sizeof *e->world);
    if (!ranks || !e->world) mpirr_fatal("out of memory registering communicators");
    for (int i = 0; i < e->npeers; i++) ranks[i] = i;
    PMPI_Group_translate_ranks(g, e->npeers, ranks, world, e->world);
    free(ranks);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    for (int i = 0; i < e->npeers; i++)
        if (e->world[i] == MPI_UNDEFINED) return -1; /* a process outside MPI_COMM_WORLD */
    return 0;
}

void mpirr_comm_register(MPI_Comm comm) { mpirr_comm_register_as(comm, comm); }

void mpirr_comm_register_as(MPI_Comm comm, MPI_Comm like)
{
    if (!mpirr_rt.piggyback || comm == MPI_COMM_NULL) return;
    mpirr_comm_info *e = calloc(1, sizeof *e);
    if (!e) mpirr_fatal("out of memory registering communicators");
    e->comm = like;
    PMPI_Comm_test_inter(like, &e->inter);
    /* The dup is collective: every member registers, or (on failure) none can use it. */
    int ok = PMPI_Comm_dup(like, &e->shadow) == MPI_SUCCESS;
    if (!ok || peers_of(e)) {
        if (ok) PMPI_Comm_free(&e->shadow);
        free(e->world);
        free(e);
        mpirr_warn("rank %d: a communicator could not get a shadow; its messages carry no "
                   "timestamps (races mode treats them conservatively)", mpirr_rt.rank);
        return;
    }
    e->comm = comm;
    mpirr_lock();
    e->id = next_id++;
    if (2 * (count + 1) > cap) grow();
    insert(e);
    count++;
    mpirr_unlock();
}

void mpirr_comm_unregister(MPI_Comm comm)
{
    mpirr_lock();
    mpirr_comm_info *e = mpirr_comm_find(comm);
    if (!e) {
        mpirr_unlock();
        return;
    }
    size_t i = home(comm);
    while (table[i] != e) i = (i + 1) & (cap - 1);
    table[i] = NULL;
    count--;
    /* Re-insert the rest of the cluster so lookups stay correct. */
    for (size_t j = (i + 1) & (cap - 1); table[j]; j = (j + 1) & (cap - 1)) {
        mpirr_comm_info *m = table[j];
        table[j] = NULL;
        insert(m);
    }
    last = NULL;
    mpirr_comm_info **nr = realloc(retired, (nretired + 1) * sizeof *retired);
    if (!nr) mpirr_fatal("out of memory registering communicators");
    retired = nr;
    retired[nretired++] = e;
    mpirr_unlock();
    PMPI_Comm_free(&e->shadow);
}

void mpirr_comms_reset(void)
{
    for (size_t i = 0; i < cap; i++)
        if (table[i]) {
            PMPI_Comm_free(&table[i]->shadow);
            free(table[i]->world);
            free(table[i]);
        }
    for (size_t i = 0; i < nretired; i++) {
        free(retired[i]->world);
        free(retired[i]);
    }
    free(retired);
    retired = NULL;
    nretired = 0;
    free(table);
    table = NULL;
    cap = count = 0;
    last = NULL;
}
