/* out_file.c: opening and finishing a command's output file (out_file.h). */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "file_io.h"

static int refuse(const struct out_file *o, const char *why)
{
    cli_error("%s: cannot write %s: %s", o->cmd, o->path, why);
    return CLI_EXIT_USAGE;
}

/* An existing FIFO or device: opened as it is (a FIFO waits for its reader, as a shell
 * redirection would), without O_CREAT or O_TRUNC, so it stays what it was. */
static int write_through(struct out_file *o)
{
    int fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) close(fd);
        return refuse(o, strerror(e));
    }
    return 0;
}

/* A temporary beside final: "DIR/.NAME.XXXXXX", with the mode a plain fopen would give. */
static int make_temporary(struct out_file *o)
{
    const char *slash = strrchr(o->final, '/');
    int dirlen = slash ? (int)(slash - o->final + 1) : 0;
    snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dirlen, o->final, o->final + dirlen);
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        o->tmp[0] = 0;
        return refuse(o, strerror(e));
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        o->tmp[0] = 0;
        return refuse(o, strerror(e));
    }
    return 0;
}

int out_file_open(struct out_file *o, const char *cmd, const char *path, int flags)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->path = path;
    int rc = 0;
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if ((flags & OUT_FILE_STDOUT) && !strcmp(path, "-")) {
        o->f = stdout;
    } else if (!*path) {
        rc = refuse(o, "no file name");
    } else if (strlen(path) >= sizeof o->final) {
        rc = refuse(o, strerror(ENAMETOOLONG));
    } else if (exists && S_ISDIR(st.st_mode)) {
        rc = refuse(o, "it is a directory (give a file name)");
    } else if (exists && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
        rc = write_through(o);
    } else if (exists && !S_ISREG(st.st_mode)) {
        rc = refuse(o, "it is not a regular file, FIFO or device");
    } else {
        /* a symlink is replaced through: its target gets the new file, the link stays */
        char real[PATH_MAX];
        int link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && realpath(path, real);
        snprintf(o->final, sizeof o->final, "%s", link ? real : path);
        rc = make_temporary(o);
    }
    if (!rc) setvbuf(o->f, NULL, _IOFBF, 1 << 20); /* outputs are many small writes */
    return rc;
}

int out_file_close(struct out_file *o, int rc)
{
    int to_stdout = o->f == stdout;
    int err = fflush(o->f) ? errno : 0; /* first: it says why the disk refused (ENOSPC) */
    int io = ferror(o->f);
    if (!to_stdout && fclose(o->f) && !err) err = errno;
    o->f = NULL;
    if (err || io) {
        cli_error("%s: writing %s failed: %s", o->cmd, o->path, strerror(err ? err : EIO));
        rc = CLI_EXIT_FAIL;
    }
    if (rc < 0) rc = CLI_EXIT_FAIL;
    if (!o->tmp[0]) return rc; /* written through: a FIFO or device is never removed */
    if (!rc && rename(o->tmp, o->final)) {
        cli_error("%s: cannot write %s: %s", o->cmd, o->path, strerror(errno));
        rc = CLI_EXIT_FAIL;
    }
    if (rc) unlink(o->tmp);
    return rc;
}

FILE *out_file_new(const char *path)
{
    int fd = mpirr_create_file(path, O_WRONLY);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}
