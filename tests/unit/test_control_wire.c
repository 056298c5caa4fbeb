/* test_control_wire.c: the replay control messages (src/format/control_wire.h): a header of a
 * bad magic, an unknown type or a length its type does not allow is refused with one line
 * saying which, before any payload is read; messages arriving a byte at a time come out whole;
 * the end of the connection is told apart from a bad message. */
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "control_wire.h"

static int one_line(const char *err) { return err[0] && !strchr(err, '\n'); }

/* Whether h is refused with one line containing want. */
static int refused(mpirr_cw_header h, const char *want)
{
    char err[200] = "";
    int rc = mpirr_cw_check(&h, err, sizeof err);
    if (rc == 0 || !one_line(err) || !strstr(err, want)) {
        fprintf(stderr, "  got rc %d, '%s' (wanted '%s')\n", rc, err, want);
        return 0;
    }
    return 1;
}

int main(void)
{
    char err[200];
    const mpirr_cw_header ok[] = {
        {MPIRR_CW_MAGIC, MPIRR_CW_HELLO, 0, sizeof(mpirr_cw_hello)},
        {MPIRR_CW_MAGIC, MPIRR_CW_SET, 0, sizeof(mpirr_cw_set)},
        {MPIRR_CW_MAGIC, MPIRR_CW_SLOT, 0, sizeof(mpirr_cw_slot)},
        {MPIRR_CW_MAGIC, MPIRR_CW_ABORT_VIEW, 0, sizeof(mpirr_cw_abort_view)},
        {MPIRR_CW_MAGIC, MPIRR_CW_LINE, 0, MPIRR_CW_LINE_HEAD + 1},
        {MPIRR_CW_MAGIC, MPIRR_CW_LINE, 0, sizeof(mpirr_cw_line)},
        {MPIRR_CW_MAGIC, MPIRR_CW_ACK, 0, sizeof(mpirr_cw_ack)},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        CHECK(mpirr_cw_check(&ok[i], err, sizeof err) == 0);

    /* bad magic (also the other byte order), unknown types, lengths a type does not allow */
    CHECK(refused((mpirr_cw_header){0x12345678, MPIRR_CW_SET, 0, sizeof(mpirr_cw_set)}, "magic 0x12345678"));
    CHECK(refused((mpirr_cw_header){__builtin_bswap32(MPIRR_CW_MAGIC), MPIRR_CW_SET, 0,
                                    sizeof(mpirr_cw_set)}, "not an mpirr control message"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, 0, 0, 8}, "unknown control message type 0"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_TYPE_END, 0, 8}, "unknown control message type"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, 0xffff, 0, 8}, "type 65535"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_SET, 0, 0}, "SET of 0 bytes"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_SET, 0, sizeof(mpirr_cw_set) + 1}, "SET of"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_HELLO, 0, 0xffffffffu}, "HELLO of 4294967295 bytes"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_LINE, 0, MPIRR_CW_LINE_HEAD}, "LINE of"));
    CHECK(refused((mpirr_cw_header){MPIRR_CW_MAGIC, MPIRR_CW_LINE, 0, sizeof(mpirr_cw_line) + 1}, "expected"));
    CHECK(strcmp(mpirr_cw_type_name(MPIRR_CW_ABORT_VIEW), "ABORT_VIEW") == 0);
    CHECK(strcmp(mpirr_cw_type_name(99), "unknown") == 0);

    /* a message written a byte at a time comes out whole, once; then a LINE */
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    mpirr_cw_set set = {.generation = 7, .stop = 42, .flags = 1, .ends_itself = 1};
    mpirr_cw_header h = {MPIRR_CW_MAGIC, MPIRR_CW_SET, 0, sizeof set};
    unsigned char bytes[sizeof h + sizeof set];
    memcpy(bytes, &h, sizeof h);
    memcpy(bytes + sizeof h, &set, sizeof set);
    static mpirr_cw_inbox in;
    for (size_t i = 0; i < sizeof bytes; i++) {
        CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == 0);
        CHECK(write(sv[0], bytes + i, 1) == 1);
    }
    CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == 1);
    CHECK(in.u.h.type == MPIRR_CW_SET && !memcmp(mpirr_cw_payload(&in), &set, sizeof set));
    CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == 0); /* nothing more */
    mpirr_cw_line line = {.seq = 3, .which = MPIRR_CW_LINE_ERROR};
    strcpy(line.text, "mpirr: a line\n");
    uint32_t len = (uint32_t)(MPIRR_CW_LINE_HEAD + strlen(line.text));
    CHECK(mpirr_cw_send(sv[0], MPIRR_CW_LINE, &line, len, 1000) == 0);
    CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == 1);
    CHECK(in.u.h.type == MPIRR_CW_LINE && in.u.h.length == len &&
          !memcmp(mpirr_cw_payload(&in), &line, len));
    /* too large to send */
    CHECK(mpirr_cw_send(sv[0], MPIRR_CW_LINE, &line, (uint32_t)sizeof(mpirr_cw_line) + 1, 1000) == -1);

    /* a bad header on the stream: refused with its line, before any payload is read */
    mpirr_cw_header bad = {MPIRR_CW_MAGIC, MPIRR_CW_SLOT, 0, 1u << 30};
    CHECK(write(sv[0], &bad, sizeof bad) == (ssize_t)sizeof bad);
    err[0] = 0;
    CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == -1);
    CHECK(one_line(err) && strstr(err, "SLOT of 1073741824 bytes"));

    /* the end of the connection: -1 with no line */
    close(sv[0]);
    strcpy(err, "x");
    in.have = 0;
    CHECK(mpirr_cw_read(sv[1], &in, err, sizeof err) == -1 && err[0] == 0);
    close(sv[1]);
    return CHECK_DONE();
}
