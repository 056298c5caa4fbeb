/* runtime_lib.c: locating libmpirr.so relative to the mpirr executable. */
#include "runtime_lib.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "paths.h"
#include "settings.h"

#ifndef MPIRR_INSTALL_LIBDIR
#define MPIRR_INSTALL_LIBDIR "lib"
#endif

/* 0 if root/<impl>/file is there; its absolute path (no ".." left: it travels to other
 * hosts inside LD_PRELOAD) goes to out. The path looked at is added to tried. */
static int probe(const char *root, enum mpi_impl impl, const char *file, char *out, size_t n,
                 char *tried, size_t tn)
{
    char path[PATH_MAX + 64], real[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/%s", root, mpi_impl_name(impl), file);
    size_t len = strlen(tried);
    snprintf(tried + len, tn - len, "%s%s", len ? " or " : "", path);
    if (access(path, R_OK) != 0 || !realpath(path, real) || strlen(real) >= n)
        return -1;
    strcpy(out, real);
    return 0;
}

int runtime_lib_path(enum mpi_impl impl, char *out, size_t n)
{
    return runtime_file_path(impl, "libmpirr.so", "runtime library", out, n);
}

int runtime_file_path(enum mpi_impl impl, const char *file, const char *what, char *out, size_t n)
{
    char tried[3 * PATH_MAX] = "";
    const char *env = mpirr_setting_text(MPIRR_SET_RUNTIME_DIR); /* checked: environment_check */
    if (env) {
        if (probe(env, impl, file, out, n, tried, sizeof tried) == 0)
            return 0;
        cli_error("%s for %s not found: %s (from MPIRR_RUNTIME_DIR)", what, mpi_impl_name(impl),
                  tried);
        return -1;
    }
    char self[PATH_MAX], root[PATH_MAX + 64];
    if (path_self_dir(self, sizeof self) != 0) {
        cli_error("cannot find the mpirr executable through /proc/self/exe");
        return -1;
    }
    /* The build tree has bin/ and lib/mpirr/; an install has bin/ and <libdir>/mpirr/, where
     * libdir may be lib/x86_64-linux-gnu (GNUInstallDirs under /usr). */
    snprintf(root, sizeof root, "%s/../lib/mpirr", self);
    if (probe(root, impl, file, out, n, tried, sizeof tried) == 0)
        return 0;
    if (strcmp(MPIRR_INSTALL_LIBDIR, "lib") != 0) {
        if (MPIRR_INSTALL_LIBDIR[0] == '/')
            snprintf(root, sizeof root, "%s/mpirr", MPIRR_INSTALL_LIBDIR);
        else
            snprintf(root, sizeof root, "%s/../%s/mpirr", self, MPIRR_INSTALL_LIBDIR);
        if (probe(root, impl, file, out, n, tried, sizeof tried) == 0)
            return 0;
    }
    cli_error("%s for %s not found: %s", what, mpi_impl_name(impl), tried);
    return -1;
}
