/* control_wire.c: framing, checking, sending and reading the replay control messages
 * (control_wire.h). */
#include "control_wire.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

_Static_assert(sizeof(mpirr_cw_header) == 16 && _Alignof(mpirr_cw_header) == 8, "wire header: the payload after it is 8-byte aligned");

static const char *const type_names[] = {
    [MPIRR_CW_HELLO] = "HELLO", [MPIRR_CW_SET] = "SET",   [MPIRR_CW_SLOT] = "SLOT",
    [MPIRR_CW_ABORT_VIEW] = "ABORT_VIEW", [MPIRR_CW_LINE] = "LINE", [MPIRR_CW_ACK] = "ACK",
};

const char *mpirr_cw_type_name(unsigned type)
{
    return type > 0 && type < MPIRR_CW_TYPE_END ? type_names[type] : "unknown";
}

/* The payload sizes a type allows. */
static void allowed(unsigned type, uint32_t *min, uint32_t *max)
{
    static const uint32_t fixed[] = {
        [MPIRR_CW_HELLO] = sizeof(mpirr_cw_hello), [MPIRR_CW_SET] = sizeof(mpirr_cw_set),
        [MPIRR_CW_SLOT] = sizeof(mpirr_cw_slot),
        [MPIRR_CW_ABORT_VIEW] = sizeof(mpirr_cw_abort_view),
        [MPIRR_CW_ACK] = sizeof(mpirr_cw_ack),
    };
    if (type == MPIRR_CW_LINE) {
        *min = MPIRR_CW_LINE_HEAD + 1;
        *max = sizeof(mpirr_cw_line);
    } else {
        *min = *max = fixed[type];
    }
}

int mpirr_cw_check(const mpirr_cw_header *h, char *err, size_t errlen)
{
    if (h->magic != MPIRR_CW_MAGIC) {
        snprintf(err, errlen, "not an mpirr control message (magic 0x%08x, expected 0x%08x)",
                 h->magic, MPIRR_CW_MAGIC);
        return -1;
    }
    if (h->type == 0 || h->type >= MPIRR_CW_TYPE_END) {
        snprintf(err, errlen, "unknown control message type %u (expected 1 to %d)", h->type,
                 MPIRR_CW_TYPE_END - 1);
        return -1;
    }
    uint32_t min, max;
    allowed(h->type, &min, &max);
    if (h->length < min || h->length > max) {
        if (min == max)
            snprintf(err, errlen, "control message %s of %llu bytes (expected %u)",
                     mpirr_cw_type_name(h->type), (unsigned long long)h->length, min);
        else
            snprintf(err, errlen, "control message %s of %llu bytes (expected %u to %u)",
                     mpirr_cw_type_name(h->type), (unsigned long long)h->length, min, max);
        return -1;
    }
    return 0;
}

/* Waits until fd can take more (or has more, events POLLIN), up to *left_ms (counted down). */
static int wait_fd(int fd, short events, int *left_ms)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct pollfd p = {.fd = fd, .events = events};
    int rc = poll(&p, 1, *left_ms);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long spent = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    *left_ms = spent >= *left_ms ? 0 : *left_ms - (int)spent;
    if (rc == 0) {
        errno = ETIMEDOUT;
        return -1;
    }
    return rc < 0 && errno != EINTR ? -1 : 0;
}

int mpirr_cw_send(int fd, unsigned type, const void *payload, uint32_t length, int timeout_ms)
{
    unsigned char buf[MPIRR_CW_MAX];
    if (length > sizeof buf - sizeof(mpirr_cw_header)) {
        errno = EMSGSIZE;
        return -1;
    }
    mpirr_cw_header h = {.magic = MPIRR_CW_MAGIC, .type = (uint16_t)type, .length = length};
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, payload, length);
    size_t n = sizeof h + length, done = 0;
    int left = timeout_ms;
    while (done < n) {
        ssize_t w = send(fd, buf + done, n - done, MSG_NOSIGNAL);
        if (w > 0) {
            done += (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (wait_fd(fd, POLLOUT, &left)) return -1;
        } else {
            return -1;
        }
    }
    return 0;
}

int mpirr_cw_read(int fd, mpirr_cw_inbox *in, char *err, size_t errlen)
{
    const size_t hs = sizeof(mpirr_cw_header);
    if (in->have >= hs && in->have == hs + in->u.h.length) in->have = 0; /* the previous one */
    err[0] = 0;
    for (;;) {
        size_t want = in->have < hs ? hs : hs + in->u.h.length;
        if (in->have == want) {
            if (want > hs || in->u.h.length == 0) return 1;
            continue;
        }
        ssize_t r = recv(fd, in->u.bytes + in->have, want - in->have, 0);
        if (r == 0) return -1;
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            /* a process that ends with data unread sends a reset: it ended all the same */
            if (errno == ECONNRESET) return -1;
            snprintf(err, errlen, "%s", strerror(errno));
            return -1;
        }
        in->have += (size_t)r;
        if (in->have == hs && mpirr_cw_check(&in->u.h, err, errlen)) return -1;
    }
}
