/* test_hostile_files.c: the readers under files an attacker or an accident put in a
 * recording: a FIFO where the manifest, a rank log or an event history (or its tail) belongs
 * is refused at once with one line naming it, instead of blocking the reader forever; a
 * crafted event history whose few kilobytes decompress to tens of megabytes is damage
 * found after a bounded amount of work, not a gigabyte buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "call_ids.h"
#include "check.h"
#include "event_layout.h"
#include "event_trace.h"
#include "manifest.h"
#include "rank_log.h"
#include "varint.h"

static char dir[] = "/tmp/mpirr-hostile.XXXXXX";

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void fifo_at(const char *name)
{
    char p[256];
    path_of(p, sizeof p, name);
    unlink(p);
    CHECK(mkfifo(p, 0600) == 0);
}

/* An event history whose single chunk decompresses to `raw` bytes: a block header claiming
 * EV_MAX_BLOCK record bytes, then zeros (a crafted file: zstd stores them in a few bytes). */
static size_t write_expanding_history(size_t raw)
{
    uint8_t h[EV_HEADER_BYTES] = {0};
    memcpy(h, EV_MAGIC, 8);
    mpirr_put_u32(h + EH_VERSION, MPIRR_EVENTS_VERSION);
    mpirr_put_u32(h + EH_RANK, 0);
    mpirr_put_u32(h + EH_NRANKS, 1);
    mpirr_put_u32(h + EH_CODEC, EV_CODEC_ZSTD);
    mpirr_put_u64(h + EH_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, EH_CHECK));
    uint8_t *plain = calloc(raw, 1);
    size_t n = mpirr_varint_put(plain, EV_MAX_BLOCK);
    n += mpirr_varint_put(plain + n, 0);
    mpirr_varint_put(plain + n, EV_TIMES_RAW);
    size_t zcap = ZSTD_compressBound(raw);
    uint8_t *z = malloc(zcap);
    size_t zlen = ZSTD_compress(z, zcap, plain, raw, 3);
    CHECK(!ZSTD_isError(zlen));
    uint8_t c[EV_CHUNK_BYTES] = {0};
    mpirr_put_u32(c + EC_MAGIC, EV_CHUNK_MAGIC);
    mpirr_put_u32(c + EC_ZLEN, (uint32_t)zlen);
    mpirr_put_u64(c + EC_RAW_END, raw);
    mpirr_put_u64(c + EC_ZCHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, z, zlen));
    mpirr_put_u64(c + EC_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, c, EC_CHECK));
    char p[256];
    path_of(p, sizeof p, "rank-00000.events");
    FILE *f = fopen(p, "wb");
    fwrite(h, 1, sizeof h, f);
    fwrite(c, 1, sizeof c, f);
    fwrite(z, 1, zlen, f);
    fclose(f);
    free(plain);
    free(z);
    return sizeof h + sizeof c + zlen;
}

static void test_expansion(void)
{
    size_t file = write_expanding_history(48u << 20);
    CHECK(file < 64 * 1024);
    char err[1024];
    mpirr_ev_reader *r = mpirr_evr_open(dir, 0, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    mpirr_event e;
    CHECK(mpirr_evr_next(r, &e) == -1);
    CHECK(strstr(mpirr_evr_error(r), "rank-00000.events: rank 0: impossible compression") != NULL);
    mpirr_evr_close(r);
}

/* A history still being written (writer open): its tail exists, and is then replaced. */
static void test_event_fifos(void)
{
    char err[1024], path[256];
    path_of(path, sizeof path, "rank-00000.events"); /* writers create their files anew */
    unlink(path);
    mpirr_ev_params p = {.rank = 0, .nranks = 1, .base_ns = 1};
    mpirr_ev_writer *w = mpirr_evw_open(dir, &p, err, sizeof err);
    CHECK(w != NULL);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    for (uint64_t i = 1; i <= 100; i++) {
        mpirr_event e = {.kind = MPIRR_ID_MPI_Barrier, .event = i, .x_begin = 10 * i, .x_end = 10 * i + 5};
        CHECK(mpirr_evw_append(w, &e) == 0);
    }
    fifo_at("rank-00000.events.tail");
    mpirr_ev_reader *r = mpirr_evr_open(dir, 0, err, sizeof err);
    CHECK(r != NULL);
    mpirr_event e;
    int got;
    while (r && (got = mpirr_evr_next(r, &e)) == 1) continue;
    CHECK(r && got == -1 && strstr(mpirr_evr_error(r), "events.tail is not a regular file (a FIFO)"));
    mpirr_evr_close(r);
    fifo_at("rank-00000.events");
    CHECK(mpirr_evr_open(dir, 0, err, sizeof err) == NULL);
    CHECK(strstr(err, "rank-00000.events is not a regular file (a FIFO)") != NULL);
    mpirr_evw_close(w, 0);
}

static void test_log_and_manifest_fifos(void)
{
    char err[1024], p[256];
    fifo_at("rank-00001.log");
    path_of(p, sizeof p, "rank-00001.log");
    CHECK(mpirr_log_reader_open(p, err, sizeof err) == NULL);
    CHECK(strstr(err, "rank-00001.log is not a regular file (a FIFO)") != NULL);
    fifo_at("manifest");
    mpirr_manifest m;
    CHECK(mpirr_manifest_read(dir, &m, err, sizeof err) == -1);
    CHECK(strstr(err, "manifest is not a regular file (a FIFO)") != NULL);
    path_of(p, sizeof p, "subdir.log");
    CHECK(mkdir(p, 0700) == 0);
    CHECK(mpirr_log_reader_open(p, err, sizeof err) == NULL && strstr(err, "(a directory)"));
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    test_expansion();
    test_event_fifos();
    test_log_and_manifest_fifos();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) return 1;
    return CHECK_DONE();
}
