/* rank_pack_write.c: writing one node pack (rank_pack.h): the members copied after the header,
 * the index and trailer last, all under a temporary name that becomes the pack's only once it
 * is whole and on disk, so a pack under its own name is always complete. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_io.h"
#include "rank_pack.h"
#include "rank_pack_layout.h"
#include "reserve.h"
#include "varint.h"

struct pack_out {
    int fd;
    uint64_t at;             /* bytes written */
    uint8_t *index;          /* the index so far */
    size_t index_len, index_cap;
    char *err;
    size_t errlen;
    const char *tmp;
};

static int out_write(struct pack_out *o, const void *p, size_t n)
{
    if (mpirr_write_all(o->fd, p, n)) {
        snprintf(o->err, o->errlen, "cannot write %s: %s", o->tmp, strerror(errno));
        return -1;
    }
    o->at += n;
    return 0;
}

static int index_add(struct pack_out *o, const char *name, uint64_t off, uint64_t len, uint64_t sum)
{
    size_t nlen = strlen(name), need = o->index_len + PK_ENTRY_FIXED + nlen;
    if (mpirr_reserve((void **)&o->index, &o->index_cap, need, 1)) {
        snprintf(o->err, o->errlen, "out of memory writing %s", o->tmp);
        return -1;
    }
    uint8_t *e = o->index + o->index_len;
    mpirr_put_u64(e + PK_E_OFFSET, off);
    mpirr_put_u64(e + PK_E_LENGTH, len);
    mpirr_put_u64(e + PK_E_CHECKSUM, sum);
    e[PK_E_NAME_LEN] = (uint8_t)nlen;
    e[PK_E_NAME_LEN + 1] = (uint8_t)(nlen >> 8);
    memcpy(e + PK_ENTRY_FIXED, name, nlen);
    o->index_len = need;
    return 0;
}

/* Copies FROM/name (loose or packed) to the end of the pack and indexes it. */
static int add_member(struct pack_out *o, const char *dir, const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (strlen(name) > MPIRR_PACK_NAME_MAX || strchr(name, '/')) {
        snprintf(o->err, o->errlen, "%s: not a rank file's name", path);
        return -1;
    }
    FILE *f = mpirr_fopen_regular(path, o->err, o->errlen);
    if (!f) return -1;
    uint64_t start = o->at, sum = MPIRR_FNV64_OFFSET;
    uint8_t buf[1 << 16];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        sum = mpirr_fnv64(sum, buf, n);
        rc = out_write(o, buf, n);
    }
    if (!rc && ferror(f)) {
        snprintf(o->err, o->errlen, "cannot read %s", path);
        rc = -1;
    }
    fclose(f);
    return rc ? rc : index_add(o, name, start, o->at - start, sum);
}

static int sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int mpirr_pack_write(const char *dir, const char *from, int ordinal, const char *host,
                     const mpirr_run_id *id, char *const *names, size_t n, char *err,
                     size_t errlen)
{
    char tmp[4200], final[4200];
    int len = snprintf(tmp, sizeof tmp, "%s/", dir);
    snprintf(tmp + len, sizeof tmp - (size_t)len, MPIRR_PACK_TMP_FMT, ordinal);
    snprintf(final, sizeof final, "%s/", dir);
    snprintf(final + len, sizeof final - (size_t)len, MPIRR_PACK_NAME_FMT, ordinal);
    unlink(tmp); /* a killed `mpirr pack`'s, never a pack: those are renamed whole */
    struct pack_out o = {.fd = mpirr_create_file(tmp, O_WRONLY), .err = err, .errlen = errlen,
                         .tmp = tmp};
    if (o.fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    uint8_t h[PK_HEADER_BYTES] = {0};
    memcpy(h + PK_H_MAGIC, PK_MAGIC, 8);
    mpirr_put_u32(h + PK_H_VERSION, MPIRR_PACK_VERSION);
    mpirr_put_u32(h + PK_H_ORDINAL, (uint32_t)ordinal);
    mpirr_run_id_put_checked(h + PK_H_RUN_ID, id);
    strncpy((char *)h + PK_H_HOST, host, MPIRR_PACK_HOST_BYTES - 1);
    mpirr_put_u64(h + PK_H_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, h, PK_H_CHECK));
    int rc = out_write(&o, h, sizeof h);
    for (size_t i = 0; !rc && i < n; i++) rc = add_member(&o, from, names[i]);
    if (!rc) {
        uint8_t t[PK_TRAILER_BYTES] = {0};
        mpirr_put_u64(t + PK_T_INDEX_OFFSET, o.at);
        mpirr_put_u64(t + PK_T_INDEX_LENGTH, o.index_len);
        mpirr_put_u32(t + PK_T_COUNT, (uint32_t)n);
        mpirr_put_u64(t + PK_T_INDEX_CHECK, mpirr_fnv64(MPIRR_FNV64_OFFSET, o.index, o.index_len));
        memcpy(t + PK_T_MAGIC, PK_END_MAGIC, 8);
        rc = out_write(&o, o.index, o.index_len) || out_write(&o, t, sizeof t) ? -1 : 0;
    }
    free(o.index);
    /* on disk before its name says it is whole, and the name on disk before any loose file goes */
    int synced = !rc && !fsync(o.fd);
    if (close(o.fd) && synced) synced = 0;
    if (!rc && (!synced || rename(tmp, final) || sync_dir(dir))) {
        snprintf(err, errlen, "cannot write %s: %s", final, strerror(errno));
        rc = -1;
    }
    if (rc) unlink(tmp);
    return rc;
}
