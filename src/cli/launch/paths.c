/* paths.c: PATH search, executable checks, and where mpirr lives. */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

int path_join(char *out, size_t n, const char *base, const char *rel)
{
    int len = rel[0] == '/' || !base || !base[0] ? snprintf(out, n, "%s", rel)
                                                 : snprintf(out, n, "%s/%s", base, rel);
    return len >= 0 && (size_t)len < n ? 0 : -1;
}

int path_is_exec_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int path_find_exec(const char *word, const char *base, char *out, size_t n)
{
    if (!word[0])
        return -1;
    if (strchr(word, '/'))
        return path_join(out, n, base, word) == 0 && path_is_exec_file(out) ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin"; /* what execvp uses without PATH */
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        int len = colon ? (int)(colon - p) : (int)strlen(p);
        char cand[PATH_MAX];
        /* An empty PATH entry means the current directory, as for execvp. */
        int w = len ? snprintf(cand, sizeof cand, "%.*s/%s", len, p, word)
                    : snprintf(cand, sizeof cand, "./%s", word);
        if (w > 0 && (size_t)w < sizeof cand && path_join(out, n, base, cand) == 0 &&
            path_is_exec_file(out))
            return 0;
        if (!colon)
            return -1;
        p = colon + 1;
    }
}

const char *path_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int path_cwd(char *out, size_t n)
{
    if (getcwd(out, n))
        return 0;
    cli_error("cannot determine the current directory: %s", strerror(errno));
    return -1;
}

int path_self_dir(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return -1;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    int w = snprintf(out, n, "%s", exe[0] ? exe : "/");
    return w >= 0 && (size_t)w < n ? 0 : -1;
}
