/* recdir.c: creating, cleaning and inspecting recording directories. */
#include "recdir.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "manifest.h"
#include "rank_pack.h"

/* The files a recording consists of: what --force may remove. A stale rank-*.pending (races
 * mode, left by a rank that died) would otherwise be read back as part of the new recording;
 * and the runtime creates its files only where none exists (mpirr_create_file), so every
 * name it writes must be cleared here (rank-*.tail covers rank-*.events.tail too; *.log.new is
 * a log whose process was killed before its header was whole). Removing a symlink planted
 * under one of these names removes the link, never its target. */
static const char rank_log_pattern[] = "rank-*.log";
static const char *const recording_files[] = {
    rank_log_pattern, "rank-*.tail", "rank-*.pending", "rank-*.events", "sync-*.log",
    "sync-*.tail", "*.log.new", "node-*.pack", ".node-*.pack.tmp", "manifest", "manifest.tmp", "flip",
    ".*.moving", MPIRR_ERRLOG_NAME,
    MPIRR_HOLDLOG_NAME, NULL,
};

static int is_recording_file(const char *name)
{
    for (const char *const *p = recording_files; *p; p++)
        if (fnmatch(*p, name, 0) == 0)
            return 1;
    return 0;
}

void recdir_default_name(char *out, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(out, n, "mpirr-%Y%m%d-%H%M%S", &tm);
}

/* mkdir -p. */
static int make_dirs(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Calls visit on every entry except . and ..; with visit NULL just counts. Returns the count
 * of entries (matching filter if given), or -1 if dir cannot be read. */
static int walk(const char *dir, int (*filter)(const char *), int (*visit)(const char *dir,
                                                                            const char *name))
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (filter && !filter(e->d_name))
            continue;
        if (visit && visit(dir, e->d_name) != 0) {
            count = -1;
            break;
        }
        count++;
    }
    closedir(d);
    return count;
}

static int remove_file(const char *dir, const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (unlink(path) != 0 && errno != ENOENT) {
        cli_error("cannot remove %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int recdir_prepare(const char *dir, int force, char *abs, size_t n)
{
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        cli_error("%s exists and is not a directory", dir);
        return CLI_EXIT_USAGE;
    }
    if (make_dirs(dir) != 0) {
        cli_error("cannot create %s: %s", dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    int entries = walk(dir, NULL, NULL);
    if (entries < 0) {
        cli_error("cannot read %s: %s", dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    if (entries > 0 && !force) {
        cli_error("%s exists and is not empty (--force replaces the recording in it)", dir);
        return CLI_EXIT_USAGE;
    }
    if (entries > 0 && walk(dir, is_recording_file, remove_file) < 0)
        return CLI_EXIT_FAIL;
    char real[PATH_MAX];
    if (!realpath(dir, real) || strlen(real) >= n) {
        cli_error("cannot resolve %s: %s", dir, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    strcpy(abs, real);
    return 0;
}

int recdir_find(const char *dir, char *abs, size_t n)
{
    struct stat st;
    char real[PATH_MAX];
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(dir, real) ||
        strlen(real) >= n) {
        cli_error("%s: no such recording directory", dir);
        return CLI_EXIT_USAGE;
    }
    strcpy(abs, real);
    return 0;
}

int recdir_count_logs(const char *dir)
{
    mpirr_name_list names;
    char err[1024];
    if (mpirr_rank_files_list(dir, &names, NULL, err, sizeof err)) return 0; /* opening says why */
    int n = 0;
    for (size_t i = 0; i < names.n; i++) n += fnmatch(rank_log_pattern, names.v[i], 0) == 0;
    mpirr_name_list_free(&names);
    return n;
}
