/* otf2.c: the OTF2 archive writer of mpirr export: OUT/traces.otf2 with one Location per rank,
 * written with the OTF2 library (its events: otf2_events.c, its definitions: otf2_defs.c).
 * Built without the library, the format says so in one line. */
#include "diag.h"
#include "export.h"

#ifndef MPIRR_HAVE_OTF2

int export_otf2(struct analysis *a, const char *out)
{
    (void)a;
    (void)out;
    cli_error("export: the otf2 format is not built in (mpirr was built without the OTF2 "
              "library; install libotf2-trace-dev and rebuild)");
    return CLI_EXIT_USAGE;
}

#else

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "otf2_export.h"

/* OTF2 reports its errors through this callback: the first one is kept for our one line,
 * nothing is printed by the library. */
static char otf2_msg[512];

static OTF2_ErrorCode on_error(void *arg, const char *file, uint64_t line, const char *func,
                               OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)arg, (void)file, (void)line, (void)func;
    if (!otf2_msg[0] && fmt) vsnprintf(otf2_msg, sizeof otf2_msg, fmt, va);
    return code;
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)data, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH; /* a full chunk goes to disk: memory stays at one chunk per rank */
}

static const OTF2_FlushCallbacks flush_cbs = {pre_flush, NULL};

/* The files and directory of an archive named "traces" (OTF2_Archive_Open). */
static const char *const archive_names[] = {"traces.otf2", "traces.def", "traces", NULL};

/* OUT is a directory that exists or can be made, writable, with none of an archive's names in
 * it (not even a planted symlink: the library would follow it). The archive is written into a
 * stage directory of mpirr's own inside OUT (mkdtemp: a name nobody can predict, mode 0700),
 * then moved into place name by name without replacing anything (place). */
static int prepare(const char *out, char *stage, size_t n)
{
    struct stat st;
    if (mkdir(out, 0777) && errno != EEXIST) {
        cli_error("export: cannot make %s: %s", out, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    if (stat(out, &st) || !S_ISDIR(st.st_mode) || access(out, W_OK | X_OK)) {
        cli_error("export: %s is not a writable directory (otf2 writes an archive into one)", out);
        return CLI_EXIT_USAGE;
    }
    char path[PATH_MAX + 32];
    for (const char *const *name = archive_names; *name; name++) {
        snprintf(path, sizeof path, "%s/%s", out, *name);
        if (!lstat(path, &st)) {
            cli_error("export: %s already holds an OTF2 archive (%s); remove it or pick "
                      "another directory", out, *name);
            return CLI_EXIT_USAGE;
        }
    }
    if ((size_t)snprintf(stage, n, "%s/.mpirr-otf2-XXXXXX", out) >= n || !mkdtemp(stage)) {
        cli_error("export: cannot make a directory in %s: %s", out, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* Moves the staged archive's names into OUT; an entry that appeared there meanwhile is not
 * replaced (RENAME_NOREPLACE) but refused. */
static int place(const char *stage, const char *out)
{
    char from[PATH_MAX + 32], to[PATH_MAX + 32];
    for (const char *const *name = archive_names; *name; name++) {
        snprintf(from, sizeof from, "%s/%s", stage, *name);
        snprintf(to, sizeof to, "%s/%s", out, *name);
        if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) && errno != ENOENT) {
            cli_error("export: cannot move the archive's %s into %s: %s", *name, out,
                      strerror(errno));
            return CLI_EXIT_FAIL;
        }
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    remove(path);
    return 0;
}

/* The stage and whatever is left in it (all of it on failure); symlinks are not followed. */
static void remove_stage(const char *stage)
{
    nftw(stage, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static OTF2_ErrorCode close_defs(struct otf2_export *x)
{
    OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(x->archive);
    /* readers expect a (here empty) local definition file per location */
    for (int p = 0; rc == OTF2_SUCCESS && p < x->a->run->nranks; p++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(x->archive, (OTF2_LocationRef)p);
        rc = dw ? OTF2_Archive_CloseDefWriter(x->archive, dw) : OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_CloseDefFiles(x->archive);
    if (rc == OTF2_SUCCESS) rc = otf2_write_defs(x);
    return rc;
}

/* 0, or an exit status after one line. */
static int write_archive(struct otf2_export *x, const char *out)
{
    x->archive = OTF2_Archive_Open(out, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!x->archive) {
        cli_error("export: cannot make an OTF2 archive in %s: %s", out, otf2_msg[0] ? otf2_msg : "?");
        return CLI_EXIT_USAGE;
    }
    OTF2_ErrorCode rc = OTF2_Archive_SetFlushCallbacks(x->archive, &flush_cbs, NULL);
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetSerialCollectiveCallbacks(x->archive);
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetCreator(x->archive, "mpirr export");
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetProperty(x->archive, "MPIRR::TIMES", export_time_note(x->clk), false);
    if (rc == OTF2_SUCCESS) rc = OTF2_Archive_OpenEvtFiles(x->archive);
    int walked = 0;
    if (rc == OTF2_SUCCESS) {
        struct export_sink s = otf2_event_sink;
        s.arg = x;
        walked = export_walk(x->a, x->clk, &s);
        rc = x->failed;
        if (x->w) OTF2_Archive_CloseEvtWriter(x->archive, x->w);
    }
    if (rc == OTF2_SUCCESS && walked == 0) rc = OTF2_Archive_CloseEvtFiles(x->archive);
    if (rc == OTF2_SUCCESS && walked == 0) rc = close_defs(x);
    OTF2_ErrorCode closed = OTF2_Archive_Close(x->archive);
    if (walked < 0) {
        cli_error("export: out of memory writing %s", out);
        return CLI_EXIT_FAIL;
    }
    if (rc == OTF2_SUCCESS) rc = closed;
    if (rc != OTF2_SUCCESS) {
        cli_error("export: writing the OTF2 archive in %s failed: %s", out,
                  otf2_msg[0] ? otf2_msg : OTF2_Error_GetDescription(rc));
        return CLI_EXIT_FAIL;
    }
    return 0;
}

int export_otf2(struct analysis *a, const char *out)
{
    char stage[PATH_MAX + 32];
    int rc = prepare(out, stage, sizeof stage);
    if (rc) return rc;
    OTF2_Error_RegisterCallback(on_error, NULL);
    struct export_clock clk = {0};
    struct otf2_export x = {.a = a, .clk = &clk};
    size_t n = a->run->nranks > 0 ? (size_t)a->run->nranks : 1;
    x.nevents = calloc(n, sizeof *x.nevents);
    x.local = calloc(a->run->ncomms ? a->run->ncomms : 1, sizeof *x.local);
    if (!x.nevents || !x.local || export_clock_init(&clk, a->run) || otf2_attrs_init(&x)) {
        cli_error("export: out of memory");
        rc = CLI_EXIT_FAIL;
    } else {
        rc = write_archive(&x, stage);
        if (!rc) rc = place(stage, out);
    }
    remove_stage(stage);
    for (uint32_t c = 0; x.local && c < a->run->ncomms; c++) free(x.local[c]);
    free(x.local);
    free(x.nevents);
    otf2_attrs_free(&x);
    export_clock_free(&clk);
    return rc;
}

#endif
