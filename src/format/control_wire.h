/* control_wire.h: the messages between `mpirr replay` and the ranks it steers, over one TCP
 * connection per rank (the address and a secret token reach the ranks in MPIRR_CONTROL). Nothing
 * of a replay's coordination goes through files: a rank on another node sees none of mpirr's.
 *
 * A message is a fixed header {magic, type, reserved, length} (host byte order: both ends run
 * the same mpirr build, which HELLO checks by version) and `length` payload bytes. Every type
 * but LINE has one payload size; a LINE carries at most MPIRR_CW_LINE_MAX bytes of text. A
 * receiver checks the header before it reads the payload (mpirr_cw_check), so a stray or
 * hostile peer costs one line and its connection, never a large read or a hang.
 *
 *   HELLO      rank -> mpirr  who it is: token, rank, nranks, pid, host (first message)
 *   SET        mpirr -> rank  its stop, the stopline's generation, the header flags, ends_itself
 *   SLOT       rank -> mpirr  the rank-written part of its mpirr_ctl_slot (replay_control.h);
 *                             seq != 0 asks for an ACK of seq (the rank waits for it)
 *   ABORT_VIEW mpirr -> rank  to a rank in MPI_Abort: the ranks still running toward their own
 *                             end (how many, the first, the sum of their progress words)
 *   LINE       rank -> mpirr  a line for the hold log or the errors file; ACKed
 *   ACK        mpirr -> rank  seq received (and, for a hold line, whether a hold log took it) */
#ifndef MPIRR_CONTROL_WIRE_H
#define MPIRR_CONTROL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "replay_control.h"

#define MPIRR_CW_MAGIC 0x4c54434du /* "MCTL" */
#define MPIRR_CW_TOKEN_HEX 32      /* 128 random bits */
#define MPIRR_CW_LINE_MAX 2048

enum mpirr_cw_type {
    MPIRR_CW_HELLO = 1,
    MPIRR_CW_SET,
    MPIRR_CW_SLOT,
    MPIRR_CW_ABORT_VIEW,
    MPIRR_CW_LINE,
    MPIRR_CW_ACK,
    MPIRR_CW_TYPE_END
};

typedef struct mpirr_cw_header {
    uint32_t magic;
    uint16_t type, reserved;
    uint64_t length; /* of the payload; 64 bits so that the payload after the header is 8-byte
                        aligned in an inbox, where its structs are read in place */
} mpirr_cw_header;

typedef struct mpirr_cw_hello {
    uint32_t version; /* MPIRR_CTL_VERSION */
    int32_t rank, nranks, pid;
    char token[MPIRR_CW_TOKEN_HEX];
    char host[64];
} mpirr_cw_hello;

typedef struct mpirr_cw_set {
    uint64_t generation, stop;
    uint32_t flags, ends_itself;
} mpirr_cw_set;

/* The part of mpirr_ctl_slot a rank writes: from `progress` to its end. */
#define MPIRR_CTL_RANK_PART offsetof(mpirr_ctl_slot, progress)
#define MPIRR_CTL_RANK_PART_SIZE (sizeof(mpirr_ctl_slot) - MPIRR_CTL_RANK_PART)

typedef struct mpirr_cw_slot {
    uint64_t seq;
    unsigned char part[MPIRR_CTL_RANK_PART_SIZE];
} mpirr_cw_slot;

typedef struct mpirr_cw_abort_view {
    int32_t running, first; /* running < 0: not known yet */
    uint64_t progress_sum;
} mpirr_cw_abort_view;

enum { MPIRR_CW_LINE_HOLD = 1, MPIRR_CW_LINE_ERROR = 2 };

typedef struct mpirr_cw_line {
    uint64_t seq;
    uint32_t which, reserved;
    char text[MPIRR_CW_LINE_MAX]; /* only its used bytes travel: length - 16 */
} mpirr_cw_line;
#define MPIRR_CW_LINE_HEAD offsetof(mpirr_cw_line, text)

typedef struct mpirr_cw_ack {
    uint64_t seq;
    uint32_t of;    /* the type of the message acknowledged: SLOT or LINE */
    uint32_t taken; /* LINE: 1 if the line went where it belongs (a hold line: to a hold log) */
} mpirr_cw_ack;

/* The largest message: header and the largest payload. */
#define MPIRR_CW_MAX (sizeof(mpirr_cw_header) + sizeof(mpirr_cw_line))

/* Whether h is a header of this protocol with a length its type allows: 0, or -1 with one
 * line in err saying what is wrong. */
int mpirr_cw_check(const mpirr_cw_header *h, char *err, size_t errlen);
/* The name of a type, for messages ("HELLO"; "type 9" unknown: in buf). */
const char *mpirr_cw_type_name(unsigned type);

/* Sends one message on a stream socket (blocking or not: waits up to timeout_ms for room),
 * whole, never raising SIGPIPE; async-signal-safe. 0, or -1 with errno (ETIMEDOUT). */
int mpirr_cw_send(int fd, unsigned type, const void *payload, uint32_t length, int timeout_ms);

/* A message being read from a nonblocking socket, in pieces as they come. */
typedef struct mpirr_cw_inbox {
    size_t have;
    union {
        mpirr_cw_header h;
        uint64_t align; /* the payload's structs are read in place: 8-byte aligned */
        unsigned char bytes[MPIRR_CW_MAX];
    } u;
} mpirr_cw_inbox;

/* Reads what fd has toward the next message. 1: a whole message is in the inbox (its header
 * u.h, its payload after it: mpirr_cw_payload); the next call starts a new one. 0: not yet
 * (EAGAIN). -1: the peer closed or reset the connection (err empty), or sent a bad header,
 * or a read failed (a line in err). */
int mpirr_cw_read(int fd, mpirr_cw_inbox *in, char *err, size_t errlen);
static inline const void *mpirr_cw_payload(const mpirr_cw_inbox *in)
{
    return in->u.bytes + sizeof(mpirr_cw_header);
}

#endif
