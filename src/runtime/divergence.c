/* divergence.c: how the runtime reports what it cannot go on with: a replay that no longer
 * follows its recording, bad input, or a recording that ends before the program does. One line
 * on stderr, then the whole job is aborted so nothing hangs. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "runtime.h"
#include "settings.h"

#define DIVERGENCE_EXIT 70 /* EX_SOFTWARE */

/* One line to the user: appended to MPIRR_ERRLOG when the CLI set it (a launcher tearing the
 * job down may drop a rank's last stderr output; the CLI prints the file), else to stderr. */
static void say(const char *prefix, const char *what)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "mpirr: %s%s\n", prefix, what);
    if (n <= 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1, line[n - 1] = '\n';
    const char *path = mpirr_setting_text(MPIRR_SET_ERRLOG);
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0) {
        /* one write: lines of concurrent ranks do not interleave */
        ssize_t w = write(fd, line, (size_t)n);
        close(fd);
        if (w == n) return;
    }
    fputs(line, stderr);
}

static _Noreturn void die(void)
{
    fflush(stderr);
    int up = 0, down = 0;
    PMPI_Initialized(&up);
    PMPI_Finalized(&down);
    if (up && !down) PMPI_Abort(MPI_COMM_WORLD, DIVERGENCE_EXIT);
    _exit(DIVERGENCE_EXIT);
}

static void vsay(const char *prefix, const char *fmt, va_list ap)
{
    char what[768];
    vsnprintf(what, sizeof what, fmt, ap);
    say(prefix, what);
}

void mpirr_diverged(uint64_t event, const char *fmt, ...)
{
    char prefix[600];
    snprintf(prefix, sizeof prefix, "replay of rank %d diverged at event %llu (%s): ",
             mpirr_rt.rank, (unsigned long long)event, mpirr_rt.log_path);
    va_list ap;
    va_start(ap, fmt);
    vsay(prefix, fmt, ap);
    va_end(ap);
    die();
}

void mpirr_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
    die();
}

void mpirr_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("warning: ", fmt, ap);
    va_end(ap);
}

/* The recording was cut off (the rank was killed while the run died elsewhere): past this
 * point its outcomes are unknown. In the recorded run this rank was killed about here, so the
 * faithful thing is to stop and let the launcher end the job when the crash replays; if that
 * does not happen within MPIRR_STALL_SECONDS, give up loudly rather than hang. */
void mpirr_past_end(const mpirr_call *c)
{
    int detail = 0;
    int ending = mpirr_rt.cursor ? mpirr_cursor_ending(mpirr_rt.cursor, &detail) : MPIRR_END_CUT;
    long secs = (long)mpirr_setting_value(MPIRR_SET_STALL_SECONDS);
    struct timespec ts = {.tv_sec = 1};
    for (long waited = 0; waited < secs; waited++)
        while (nanosleep(&ts, &ts) && errno == EINTR) {
        }
    char line[1024];
    snprintf(line, sizeof line, "replay of rank %d reached the end of its recording at event %llu "
                                "(%s; the recorded run ended: %s %d) and the job did not end "
                                "within %lds", mpirr_rt.rank, (unsigned long long)c->event,
             mpirr_rt.log_path, mpirr_log_ending_name(ending), detail, secs);
    say("", line);
    die();
}
