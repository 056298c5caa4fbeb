/* runs_dir.c: a new or empty directory for the runs a command makes (runs_dir.h). */
#include "runs_dir.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "recdir.h"

/* Entries of dir besides . and ..; -1 if it cannot be read. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

int runs_dir_prepare(const char *dir, const char *cmd, char *abs, size_t n)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && count_entries(dir) != 0) {
        cli_error("%s exists and is not empty (%s keeps every run there: give a new or empty "
                  "directory)", dir, cmd);
        return CLI_EXIT_USAGE;
    }
    if (recdir_prepare(dir, 0, abs, n) != 0)
        return CLI_EXIT_USAGE; /* said: not a directory, cannot be created or read */
    return 0;
}
