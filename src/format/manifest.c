/* manifest.c: the recording's manifest, a text file of "key value" lines; values are escaped
 * (\\, \n, \t) so any command-line argument round-trips. Unknown keys are ignored, so later
 * versions can add fields. */
#include "manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_io.h"
#include "number_parse.h"

void mpirr_manifest_init(mpirr_manifest *m)
{
    memset(m, 0, sizeof *m);
    m->version = MPIRR_MANIFEST_VERSION;
    m->nranks = -1;
    m->exit_status = -1;
}

void mpirr_manifest_free(mpirr_manifest *m)
{
    for (int i = 0; i < m->argc; i++) free(m->argv[i]);
    free(m->argv);
    m->argv = NULL;
    m->argc = 0;
}

static void put_escaped(FILE *f, const char *key, const char *v)
{
    fprintf(f, "%s ", key);
    for (; *v; v++) {
        if (*v == '\\') fputs("\\\\", f);
        else if (*v == '\n') fputs("\\n", f);
        else if (*v == '\t') fputs("\\t", f);
        else fputc(*v, f);
    }
    fputc('\n', f);
}

static void unescape(char *s)
{
    char *d = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *d++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        } else {
            *d++ = *s;
        }
    }
    *d = 0;
}

int mpirr_manifest_write(const char *dir, const mpirr_manifest *m, char *err, size_t errlen)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/manifest", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* A fresh temporary, never a file or symlink already there (rename replaces a symlink
     * at "manifest" itself rather than writing through it). A stale one is ours: remove it. */
    unlink(tmp);
    int fd = mpirr_create_file(tmp, O_WRONLY);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    fprintf(f, "mpirr-manifest %d\n", MPIRR_MANIFEST_VERSION);
    put_escaped(f, "mode", m->mode);
    put_escaped(f, "mpi", m->mpi);
    fprintf(f, "wtime %d\n", m->wtime);
    if (m->cwd[0]) /* none known: no line (an empty one is not an absolute directory) */
        put_escaped(f, "cwd", m->cwd);
    fprintf(f, "created %" PRId64 "\n", m->created);
    if (!mpirr_run_id_is_none(&m->run_id)) {
        char id[MPIRR_RUN_ID_DIGITS + 1];
        mpirr_run_id_text(&m->run_id, id);
        fprintf(f, "run-id %s\n", id);
    }
    fprintf(f, "argc %d\n", m->argc);
    for (int i = 0; i < m->argc; i++) put_escaped(f, "arg", m->argv[i]);
    if (m->nranks >= 0) fprintf(f, "ranks %d\n", m->nranks);
    if (m->exe[0]) put_escaped(f, "exe", m->exe);
    if (m->fingerprint) fprintf(f, "fingerprint %016" PRIx64 "\n", m->fingerprint);
    if (m->exit_status >= 0) fprintf(f, "exit-status %d\n", m->exit_status);
    if (m->local_dir[0]) put_escaped(f, "local", m->local_dir);
    if (m->local_pending > 0) fprintf(f, "local-pending %d\n", m->local_pending);
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp); /* the previous manifest stays as it was */
        return -1;
    }
    return 0;
}

/* "PATH:LINE: WHAT" as one line: a value quoted in WHAT may hold any byte a manifest's
 * escapes give (\n among them), shown as '?' so that the message stays one line. */
static int fail(char *err, size_t errlen, const char *path, int line, const char *what)
{
    snprintf(err, errlen, "%s:%d: %s", path, line, what);
    for (char *c = err; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return -1;
}

/* A numeric field: the whole value a number in [min, max] (number_parse.h), never a prefix
 * or a clamped overflow. 0, or -1 after "PATH:LINE: bad WHAT 'VALUE' (expected an integer
 * from MIN to MAX)". */
static int field_number(const char *what_field, const char *val, int64_t min, int64_t max,
                        int64_t *value, char *err, size_t errlen, const char *path, int line)
{
    if (!mpirr_parse_int(val, min, max, value)) return 0;
    char what[200];
    snprintf(what, sizeof what, "bad %s '%.40s' (expected an integer from %" PRId64 " to %" PRId64
             ")", what_field, val, min, max);
    return fail(err, errlen, path, line, what);
}

int mpirr_manifest_read(const char *dir, mpirr_manifest *m, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/manifest", dir);
    mpirr_manifest_init(m);
    FILE *f = mpirr_fopen_regular(path, err, errlen);
    if (!f) {
        if (errno == ENOENT) snprintf(err, errlen, "%s: %s (not an mpirr recording?)", path, strerror(errno));
        return -1;
    }
    /* lines of any length: a recorded argument can be as long as the system allows */
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t len;
    int n = 0, args = 0, rc = 0;
    int64_t num = 0;
    while ((len = getline(&line, &line_cap, f)) >= 0) {
        n++;
        if (len && line[len - 1] == '\n') line[--len] = 0;
        char *val = strchr(line, ' ');
        if (!val) {
            rc = fail(err, errlen, path, n, "malformed line (expected 'key value')");
            break;
        }
        *val++ = 0;
        unescape(val);
        if (n == 1) {
            if (strcmp(line, "mpirr-manifest")) {
                rc = fail(err, errlen, path, n, "not an mpirr manifest");
                break;
            }
            if (mpirr_parse_int(val, 0, INT32_MAX, &num) || num != MPIRR_MANIFEST_VERSION) {
                rc = fail(err, errlen, path, n, "unsupported manifest version");
                break;
            }
        } else if (!strcmp(line, "mode")) {
            snprintf(m->mode, sizeof m->mode, "%s", val);
        } else if (!strcmp(line, "mpi")) {
            snprintf(m->mpi, sizeof m->mpi, "%s", val);
        } else if (!strcmp(line, "wtime")) {
            if ((rc = field_number("wtime", val, 0, 1, &num, err, errlen, path, n))) break;
            m->wtime = (int)num;
        } else if (!strcmp(line, "cwd")) {
            /* replay runs the recorded command there: a relative one would depend on where
             * mpirr happens to be started */
            if (val[0] != '/') {
                char what[200];
                snprintf(what, sizeof what, "cwd '%.100s' is not an absolute directory", val);
                rc = fail(err, errlen, path, n, what);
                break;
            }
            snprintf(m->cwd, sizeof m->cwd, "%s", val);
        } else if (!strcmp(line, "created")) {
            if ((rc = field_number("creation time", val, INT64_MIN, INT64_MAX, &m->created, err, errlen, path, n)))
                break;
        } else if (!strcmp(line, "run-id")) {
            if (mpirr_run_id_parse(val, &m->run_id) || mpirr_run_id_is_none(&m->run_id)) {
                rc = fail(err, errlen, path, n, "bad run id (expected 32 hexadecimal digits, not all zero)");
                break;
            }
        } else if (!strcmp(line, "argc")) {
            if (m->argv) {
                rc = fail(err, errlen, path, n, "a second argc");
                break;
            }
            if ((rc = field_number("argc", val, 1, 100000, &num, err, errlen, path, n))) break;
            int argc = (int)num;
            m->argv = calloc((size_t)argc + 1, sizeof *m->argv);
            if (!m->argv) {
                rc = fail(err, errlen, path, n, "out of memory");
                break;
            }
            m->argc = argc;
        } else if (!strcmp(line, "arg")) {
            if (args >= m->argc) {
                rc = fail(err, errlen, path, n, "more 'arg' lines than argc");
                break;
            }
            if (!(m->argv[args] = strdup(val))) {
                rc = fail(err, errlen, path, n, "out of memory");
                break;
            }
            args++;
        } else if (!strcmp(line, "ranks")) {
            /* 0: the run wrote no rank log (it failed before MPI_Init); tools say so */
            if ((rc = field_number("rank count", val, 0, MPIRR_MAX_RANKS, &num, err, errlen, path, n)))
                break;
            m->nranks = (int)num;
        } else if (!strcmp(line, "exe")) {
            snprintf(m->exe, sizeof m->exe, "%s", val);
        } else if (!strcmp(line, "fingerprint")) {
            if (mpirr_parse_digits(val, strlen(val), 16, UINT64_MAX, &m->fingerprint)) {
                rc = fail(err, errlen, path, n, "bad fingerprint (expected 16 hex digits)");
                break;
            }
        } else if (!strcmp(line, "exit-status")) {
            if ((rc = field_number("exit-status", val, 0, 255, &num, err, errlen, path, n))) break;
            m->exit_status = (int)num;
        } else if (!strcmp(line, "local")) {
            snprintf(m->local_dir, sizeof m->local_dir, "%s", val);
        } else if (!strcmp(line, "local-pending")) {
            if ((rc = field_number("local-pending", val, 0, MPIRR_MAX_RANKS, &num, err, errlen, path, n)))
                break;
            m->local_pending = (int)num;
        }
    }
    free(line);
    fclose(f);
    if (!rc && n == 0) rc = fail(err, errlen, path, 1, "empty manifest");
    if (!rc && !m->argv) rc = fail(err, errlen, path, n, "no recorded command line ('argc' missing)");
    if (!rc && args != m->argc) rc = fail(err, errlen, path, n, "fewer 'arg' lines than argc");
    if (!rc && (!m->mode[0] || !m->mpi[0])) rc = fail(err, errlen, path, n, "missing mode or mpi");
    if (rc) {
        /* argc counts allocated slots; free what was filled. */
        m->argc = args;
        mpirr_manifest_free(m);
    }
    return rc;
}
