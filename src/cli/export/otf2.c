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

/* OUT is a directory that exists or can be made, writable, without an archive in it. */
static int prepare(const char *out)
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
    char path[4200];
    snprintf(path, sizeof path, "%s/traces.otf2", out);
    if (!access(path, F_OK)) {
        cli_error("export: %s already holds an OTF2 archive (traces.otf2); remove it or pick "
                  "another directory", out);
        return CLI_EXIT_USAGE;
    }
    return 0;
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
    int rc = prepare(out);
    if (rc) return rc;
    OTF2_Error_RegisterCallback(on_error, NULL);
    struct export_clock clk = {0};
    struct otf2_export x = {.a = a, .clk = &clk};
    size_t n = a->run->nranks > 0 ? (size_t)a->run->nranks : 1;
    x.nevents = calloc(n, sizeof *x.nevents);
    x.local = calloc(a->run->ncomms ? a->run->ncomms : 1, sizeof *x.local);
    if (!x.nevents || !x.local || export_clock_init(&clk, a->run)) {
        cli_error("export: out of memory");
        rc = CLI_EXIT_FAIL;
    } else {
        rc = write_archive(&x, out);
    }
    for (uint32_t c = 0; x.local && c < a->run->ncomms; c++) free(x.local[c]);
    free(x.local);
    free(x.nevents);
    export_clock_free(&clk);
    return rc;
}

#endif
