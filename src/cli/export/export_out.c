/* export_out.c: opening and closing a single-file export's output (export_out.h). */
#include "export_out.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

static int is_stdout(const char *out) { return !strcmp(out, "-"); }

FILE *export_out_open(const char *out)
{
    FILE *f = is_stdout(out) ? stdout : fopen(out, "w");
    if (!f) {
        cli_error("export: cannot write %s: %s", out, strerror(errno));
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20); /* events are many and small */
    return f;
}

int export_out_close(FILE *f, const char *out, int rc)
{
    struct stat st;
    /* only a regular file is removed: never a device or pipe the user named */
    int regular = !is_stdout(out) && !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
    int err = fflush(f) ? errno : 0; /* first: it says why the disk refused (ENOSPC) */
    int io = ferror(f);
    if (!is_stdout(out) && fclose(f) && !err) err = errno;
    if (err || io) {
        cli_error("export: writing %s failed: %s", out, strerror(err ? err : EIO));
        rc = CLI_EXIT_FAIL;
    }
    if (rc < 0) rc = CLI_EXIT_FAIL;
    if (rc && regular) unlink(out);
    return rc;
}
