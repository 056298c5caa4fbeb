/* message_wire.c: the races-mode layout of a message, slot then data (message_wire.h). */
#include "message_wire.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"
#include "status_fields.h"

static size_t copy_max = 4096;
static MPI_Comm self_copy = MPI_COMM_NULL; /* unpack_short's, made on first use */

void mpirr_wire_init(void)
{
    MPI_Comm node;
    int ranks = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        PMPI_Comm_size(node, &ranks);
        PMPI_Comm_free(&node);
    }
    copy_max = cores > 0 && ranks > cores ? (size_t)1 << 20 : 4096;
}

void mpirr_wire_plain(mpirr_wire *w, const void *buf, int count, MPI_Datatype type)
{
    w->d = (mpirr_wire_data){0}; /* made is read only when keeps_type is set */
    w->buf = buf;
    w->count = count;
    w->type = type;
    w->made = MPI_DATATYPE_NULL;
}

/* The size of the C types most messages use (contiguous, lower bound 0), or 0: known here,
 * so they skip the three queries below. Fortran types are queried: their sizes depend on the
 * compiler's options. */
static size_t basic_size(MPI_Datatype t)
{
    if (t == MPI_DOUBLE) return sizeof(double);
    if (t == MPI_INT) return sizeof(int);
    if (t == MPI_BYTE || t == MPI_CHAR || t == MPI_UNSIGNED_CHAR) return 1;
    if (t == MPI_FLOAT) return sizeof(float);
    if (t == MPI_LONG) return sizeof(long);
    if (t == MPI_LONG_LONG) return sizeof(long long);
    if (t == MPI_UNSIGNED) return sizeof(unsigned);
    if (t == MPI_INT64_T || t == MPI_UINT64_T) return 8;
    if (t == MPI_INT32_T || t == MPI_UINT32_T) return 4;
    return 0;
}

/* contiguous() for types basic_size does not know: asks MPI (three calls). */
static __attribute__((noinline)) int contiguous_queried(int count, MPI_Datatype type, size_t *bytes)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (count < 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return -1;
    *bytes = (size_t)count * (size_t)size;
    return true_lb == 0 && true_extent == size && (count <= 1 || extent == size);
}

/* 1: count x type is `*bytes` contiguous bytes from the buffer's start; 0: it is not (holes,
 * a lower bound, absolute addresses with MPI_BOTTOM); -1: MPI will reject the arguments.
 * Inline for the basic types: it runs twice a message. */
static inline int contiguous(int count, MPI_Datatype type, size_t *bytes)
{
    size_t basic = basic_size(type);
    if (basic && count >= 0) {
        *bytes = (size_t)count * basic;
        return 1;
    }
    return contiguous_queried(count, type, bytes);
}

/* Storage for the slot and `data` bytes after it: the wire's own bytes, or the heap. */
static uint8_t *storage(mpirr_wire *w, size_t data, int keep)
{
    if (!keep && data <= MPIRR_WIRE_LOCAL) return w->local;
    w->d.heap = malloc(MPIRR_WIRE_SLOT + data);
    if (!w->d.heap) mpirr_fatal("out of memory for a message's timestamp slot");
    return w->d.heap;
}

/* struct {slot, count x type at buf} from MPI_BOTTOM, made and committed */
static MPI_Datatype make_struct(const uint8_t *slot, const void *buf, int count, MPI_Datatype type)
{
    int lens[2] = {MPIRR_WIRE_SLOT, count};
    MPI_Aint disp[2];
    MPI_Datatype types[2] = {MPI_BYTE, type}, made;
    PMPI_Get_address(slot, &disp[0]);
    PMPI_Get_address(buf, &disp[1]);
    if (PMPI_Type_create_struct(2, lens, disp, types, &made) != MPI_SUCCESS ||
        PMPI_Type_commit(&made) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not make the datatype of a message with its "
                    "timestamp", mpirr_rt.rank);
    return made;
}

/* Struct types of recent in-place layouts, kept while the same slot, buffer, count and type
 * come back (a loop over the same buffers; a blocking call's slot is on its stack, at the same
 * place every time): making one costs 140-260 ns (docs/piggyback.md), which a message of a few
 * KiB notices. Predefined types only: a derived type's handle may be freed and given to
 * another type. Not under MPI_THREAD_MULTIPLE: another thread could free a kept type between
 * its lookup here and its use in MPI. Direct-mapped (an entry with a NULL slot is empty). */
enum { STRUCTS_KEPT = 32 };
static struct kept_struct {
    const void *slot, *buf;
    int count;
    MPI_Datatype type, made;
} kept[STRUCTS_KEPT];

static MPI_Datatype kept_struct(const uint8_t *slot, const void *buf, int count, MPI_Datatype type)
{
    uintptr_t h = ((uintptr_t)buf >> 4) ^ ((uintptr_t)slot >> 4) ^ (uintptr_t)count;
    struct kept_struct *k = &kept[(h ^ (h >> 7)) % STRUCTS_KEPT];
    if (k->slot != slot || k->buf != buf || k->count != count || k->type != type) {
        if (k->slot) PMPI_Type_free(&k->made); /* MPI keeps it while a message uses it */
        *k = (struct kept_struct){slot, buf, count, type, make_struct(slot, buf, count, type)};
    }
    return k->made;
}

/* receive: whether a short message may have to be unpacked into buf (message_wire.h) */
static void layout_struct(mpirr_wire *w, const void *buf, int count, MPI_Datatype type, int keep,
                          int receive)
{
    size_t basic = basic_size(type);
    w->d.slot = storage(w, 0, keep);
    w->buf = MPI_BOTTOM;
    w->count = 1;
    if (basic && !mpirr_rt.threaded) {
        w->type = kept_struct(w->d.slot, buf, count, type);
    } else {
        w->made = make_struct(w->d.slot, buf, count, type);
        w->type = w->made;
    }
    if (!receive) return;
    if (basic) { /* contiguous: a short message is copied */
        w->d.user = (void *)buf;
        w->d.bytes = (size_t)count * basic;
    } else { /* the type says where its bytes go: kept for unpack_short */
        w->d.keeps_type = 1;
        w->d.made = w->made;
        w->made = MPI_DATATYPE_NULL;
    }
}

/* A copy of a message's data in copy mode: up to 16 bytes (most small messages: a counter, a
 * pair of doubles) as two possibly overlapping loads and stores, not a call into libc. */
static inline void copy_data(uint8_t *to, const uint8_t *from, size_t n)
{
    if (n > 16 || n < 4) {
        memcpy(to, from, n);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, from, 8);
        memcpy(&b, from + n - 8, 8);
        memcpy(to, &a, 8);
        memcpy(to + n - 8, &b, 8);
    } else {
        uint32_t a, b;
        memcpy(&a, from, 4);
        memcpy(&b, from + n - 4, 4);
        memcpy(to, &a, 4);
        memcpy(to + n - 4, &b, 4);
    }
}

/* copy mode: slot then `bytes` bytes of data, as MPI_BYTE */
static void layout_copy(mpirr_wire *w, void *user, size_t bytes, int keep)
{
    w->d.slot = storage(w, bytes, keep);
    w->d.user = user;
    w->d.bytes = bytes;
    w->d.copy = 1;
    w->buf = w->d.slot;
    w->count = (int)(MPIRR_WIRE_SLOT + bytes);
    w->type = MPI_BYTE;
}

void mpirr_wire_send(mpirr_wire *w, const void *buf, int count, MPI_Datatype type, int keep)
{
    size_t bytes;
    mpirr_wire_plain(w, buf, count, type);
    int c = contiguous(count, type, &bytes);
    if (c < 0) return;
    if (c && bytes <= copy_max) {
        layout_copy(w, (void *)buf, bytes, keep);
        mpirr_wire_refill(&w->d);
    } else {
        layout_struct(w, buf, count, type, keep, 0);
    }
}

void mpirr_wire_recv(mpirr_wire *w, void *buf, int count, MPI_Datatype type, int keep)
{
    size_t bytes;
    mpirr_wire_plain(w, buf, count, type);
    int c = contiguous(count, type, &bytes);
    if (c < 0) return;
    if (c && bytes <= copy_max) layout_copy(w, buf, bytes, keep);
    else layout_struct(w, buf, count, type, keep, 1);
    mpirr_wire_recv_ready(&w->d);
}

void mpirr_wire_recv_ready(mpirr_wire_data *d)
{
    d->copied = 0;
    if (d->slot) d->slot[0] = 0;
}

void mpirr_wire_send_copy(mpirr_wire *w, const void *buf, int count, MPI_Datatype type)
{
    size_t bytes;
    mpirr_wire_plain(w, buf, count, type);
    int c = contiguous(count, type, &bytes), packed;
    if (c < 0) return;
    if (c) {
        layout_copy(w, (void *)buf, bytes, 0);
        mpirr_wire_refill(&w->d);
        return;
    }
    int room, pos = 0;
    if (PMPI_Pack_size(count, type, MPI_COMM_SELF, &room) != MPI_SUCCESS) return;
    layout_copy(w, NULL, (size_t)room, 0); /* no user buffer: nothing to refill or copy back */
    packed = PMPI_Pack(buf, count, type, w->d.slot + MPIRR_WIRE_SLOT, room, &pos, MPI_COMM_SELF);
    if (packed != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not copy a message to send", mpirr_rt.rank);
    w->count = MPIRR_WIRE_SLOT + pos;
}

void mpirr_wire_refill(const mpirr_wire_data *d)
{
    if (d->copy && d->user) copy_data(d->slot + MPIRR_WIRE_SLOT, d->user, d->bytes);
}

int mpirr_wire_shorten(mpirr_wire *w)
{
    size_t data = (size_t)w->count - MPIRR_WIRE_SLOT; /* a packed send's is its packed size */
    if (!w->d.copy || data > MPIRR_WIRE_SHORT_MAX) return 0;
    uint8_t *at = w->d.slot + MPIRR_WIRE_SLOT - 1; /* the byte before the data */
    *at = MPIRR_WIRE_SHORT;
    w->buf = at;
    w->count = (int)data + 1;
    return 1;
}

void mpirr_wire_release(mpirr_wire_data *d)
{
    free(d->heap);
    d->heap = NULL;
    if (d->keeps_type) PMPI_Type_free(&d->made);
    d->keeps_type = 0;
}

/* A short message's n bytes of data (at the slot's second byte) into a receive in place with
 * a derived type: received from this process, through MPI, as the type lays them out (partial
 * elements included). Returns the receive's capacity in bytes. Rare: such a receive of a
 * message this small. */
static __attribute__((cold, noinline)) size_t unpack_short(const mpirr_wire_data *d, size_t n)
{
    int ints[3], size = 0, nints, naddrs, ntypes, combiner;
    MPI_Aint addrs[2];
    MPI_Datatype types[2];
    if (self_copy == MPI_COMM_NULL && PMPI_Comm_dup(MPI_COMM_SELF, &self_copy) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not make a communicator", mpirr_rt.rank);
    /* the struct {slot bytes, count x type at buf} of layout_struct */
    if (PMPI_Type_get_contents(d->made, 3, 2, 2, ints, addrs, types) != MPI_SUCCESS ||
        PMPI_Type_size(types[1], &size) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not read a receive's datatype", mpirr_rt.rank);
    size_t room = (size_t)ints[2] * (size_t)size;
    int take = (int)(n < room ? n : room);
    if (PMPI_Sendrecv(d->slot + 1, take, MPI_BYTE, 0, 0, (void *)(uintptr_t)addrs[1], ints[2],
                      types[1], 0, 0, self_copy, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        mpirr_fatal("races mode: rank %d could not unpack a message", mpirr_rt.rank);
    PMPI_Type_get_envelope(types[1], &nints, &naddrs, &ntypes, &combiner);
    if (combiner != MPI_COMBINER_NAMED) PMPI_Type_free(&types[1]);
    return room;
}

/* A short message of n bytes (n >= 1) in d's slot. */
static const uint8_t *received_short(mpirr_wire_data *d, MPI_Status *st, size_t n, int *truncated)
{
    size_t data = n - 1, room = d->bytes;
    if (d->copied) {
        /* out already (MPI_Request_get_status) */
    } else if (d->user) {
        if (data && room) copy_data(d->user, d->slot + 1, data < room ? data : room);
    } else if (d->keeps_type) {
        room = d->bytes = unpack_short(d, data); /* kept for a completion after a peek */
    }
    d->copied = 1;
    *truncated = data > room;
    mpirr_status_set_bytes(st, (MPI_Count)data);
    return d->slot;
}

const uint8_t *mpirr_wire_received(mpirr_wire_data *d, MPI_Status *st, int *truncated)
{
    MPI_Count n = mpirr_status_bytes(st);
    *truncated = 0;
    if (n < MPIRR_WIRE_SLOT)
        return n > 0 && d->slot[0] == MPIRR_WIRE_SHORT ? received_short(d, st, (size_t)n, truncated)
                                                       : NULL;
    MPI_Count data = n - MPIRR_WIRE_SLOT;
    if (d->copy && !d->copied) {
        copy_data(d->user, d->slot + MPIRR_WIRE_SLOT, (size_t)data < d->bytes ? (size_t)data : d->bytes);
        d->copied = 1;
    }
    mpirr_status_set_bytes(st, data);
    return d->slot;
}

void mpirr_wire_probed(MPI_Status *st)
{
    MPI_Count n = mpirr_status_bytes(st);
    if (n > 0) mpirr_status_set_bytes(st, n - (n < MPIRR_WIRE_SLOT ? 1 : MPIRR_WIRE_SLOT));
}

/* Blocks of requests freed while active. */
static void **abandoned;
static size_t nabandoned, capabandoned;

void mpirr_wire_abandon(void *heap)
{
    if (!heap) return;
    if (nabandoned == capabandoned) {
        size_t cap = capabandoned ? 2 * capabandoned : 16;
        void **grown = realloc(abandoned, cap * sizeof *grown);
        if (!grown) mpirr_fatal("out of memory");
        abandoned = grown;
        capabandoned = cap;
    }
    abandoned[nabandoned++] = heap;
}

void mpirr_wire_finish(void)
{
    for (int i = 0; i < STRUCTS_KEPT; i++)
        if (kept[i].slot) PMPI_Type_free(&kept[i].made);
    memset(kept, 0, sizeof kept);
    if (self_copy != MPI_COMM_NULL) PMPI_Comm_free(&self_copy);
    for (size_t i = 0; i < nabandoned; i++) free(abandoned[i]);
    free(abandoned);
    abandoned = NULL;
    nabandoned = capabandoned = 0;
}
