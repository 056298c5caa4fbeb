/* divergence.c: how the runtime reports what it cannot go on with: a replay that no longer
 * follows its recording, bad input, or a recording that ends before the program does. One line
 * on stderr, then the whole job is aborted so nothing hangs. In a replay the rank's control
 * slot says so too (endings.h), for the verdict mpirr prints at the end. Holding a rank at the
 * end of its recording is the replay cursor's (replay_cursor.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control_wire.h"
#include "divergence.h"
#include "endings.h"
#include "libc_runtime.h"
#include "replay_control.h"
#include "runtime.h"
#include "settings.h"

/* One line to the user: in a replay, sent to mpirr (control_channel.c), which keeps it in its
 * errors file; else appended to MPIRR_ERRLOG when the CLI set it (a launcher tearing the job
 * down may drop a rank's last stderr output; the CLI prints the file), else to stderr. */
static void say(const char *prefix, const char *what)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "mpirr: %s%s\n", prefix, what);
    if (n <= 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1, line[n - 1] = '\n';
    if (mpirr_channel_line(MPIRR_CW_LINE_ERROR, line, (size_t)n) >= 0) return;
    const char *path = mpirr_setting_text(MPIRR_SET_ERRLOG);
    /* never through a symlink planted at that name (docs/runtime.md, Guarantees); appending
     * to a file is the point, as every rank adds its lines to the one the CLI named */
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666) : -1;
    if (fd >= 0) {
        /* one write: lines of concurrent ranks do not interleave */
        ssize_t w = write(fd, line, (size_t)n);
        close(fd);
        if (w == n) return;
    }
    fputs(line, stderr);
}

void mpirr_end_job(void)
{
    fflush(stderr);
    int up = 0, down = 0;
    PMPI_Initialized(&up);
    PMPI_Finalized(&down);
    if (up && !down) PMPI_Abort(MPI_COMM_WORLD, MPIRR_DIVERGENCE_EXIT);
    _exit(MPIRR_DIVERGENCE_EXIT);
}

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
    char what[1024];
    vsnprintf(what, sizeof what, fmt, ap);
    say(prefix, what);
}

void mpirr_diverged(uint64_t event, const char *fmt, ...)
{
    mpirr_replay_ended(MPIRR_CTL_DIVERGED, 0, mpirr_pos_before(event));
    char prefix[600];
    snprintf(prefix, sizeof prefix, "replay of rank %d diverged at event %llu (%s): ",
             mpirr_rt.rank, (unsigned long long)event, mpirr_rt.log_path);
    char what[768], note[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    mpirr_libc_divergence_note(note, sizeof note); /* live values the recording lacks */
    say(prefix, strncat(what, note, sizeof what - strlen(what) - 1));
    mpirr_end_job();
}

static _Noreturn void vfatal(const char *fmt, va_list ap)
{
    mpirr_replay_ended(MPIRR_CTL_DIVERGED, 0, MPIRR_POS_NONE);
    vsay("", fmt, ap);
    mpirr_end_job();
}

void mpirr_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfatal(fmt, ap);
}

/* How long a rank other than 0 waits to be ended by rank 0's MPI_Abort. */
enum { OTHER_RANKS_WAIT_SECONDS = 10 };

void mpirr_fatal_shared(const char *fmt, ...)
{
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        struct timespec left = {.tv_sec = OTHER_RANKS_WAIT_SECONDS};
        while (nanosleep(&left, &left) && errno == EINTR) {
        }
    }
    va_list ap;
    va_start(ap, fmt);
    vfatal(fmt, ap);
}

void mpirr_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("warning: ", fmt, ap);
    va_end(ap);
}

void mpirr_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
}
