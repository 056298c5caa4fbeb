/* child.c: fork/exec of the launched command and of probes. mpirr stays alive while the
 * command runs so that it can complete the manifest afterwards, even after ^C; if mpirr is
 * killed outright, the command gets SIGTERM (PR_SET_PDEATHSIG). */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "launcher_reaping.h"

static const int forwarded[] = {SIGINT, SIGTERM};
enum { NFORWARDED = sizeof forwarded / sizeof forwarded[0] };

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stop_signal; /* last SIGINT/SIGTERM mpirr received */
static int last_stop_signal;              /* stop_signal of the last child_run */

static void forward(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    stop_signal = sig;
    /* ^C at a terminal is sent by the kernel to the whole foreground process group, which
     * includes the child already; passing it on would deliver it twice, and mpirun takes a
     * second SIGINT as "abort at once". Only signals sent to mpirr alone are forwarded. */
    if (info->si_code == SI_KERNEL)
        return;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

/* Installs the forwarding handlers, remembering the previous dispositions. A signal that was
 * ignored when mpirr started (nohup, `&` in a script) stays ignored, for mpirr and the child. */
static void install_forwarding(struct sigaction *old)
{
    for (int i = 0; i < NFORWARDED; i++) {
        sigaction(forwarded[i], NULL, &old[i]);
        if (old[i].sa_handler == SIG_IGN)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = forward;
        /* SIGTERM interrupts what mpirr waits for (a session's next command on stdin), so
         * that a terminated mpirr ends; ^C at a terminal also reaches gdb in a session */
        sa.sa_flags = SA_SIGINFO | (forwarded[i] == SIGTERM ? 0 : SA_RESTART);
        sigemptyset(&sa.sa_mask);
        sigaction(forwarded[i], &sa, NULL);
    }
}

static void restore_signals(const struct sigaction *old)
{
    for (int i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &old[i], NULL);
}

static void block_forwarded(int how, sigset_t *saved)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < NFORWARDED; i++)
        sigaddset(&set, forwarded[i]);
    sigprocmask(how, &set, saved);
}

/* In the child, after fork: never returns. */
static void exec_child(const struct child_spec *c, const struct sigaction *old,
                       const sigset_t *mask, pid_t mpirr)
{
    /* The command dies with mpirr: a SIGKILLed mpirr must not leave the job running on,
     * still writing into its recording. SIGTERM, which launchers pass on to their ranks
     * (a SIGKILLed mpirun would orphan them). It fires when the thread that forked ends:
     * mpirr has only one. Set before the check, so that a parent gone already counts too. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != mpirr)
        _exit(CLI_EXIT_NOEXEC);
    restore_signals(old);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (c->workdir && chdir(c->workdir) != 0) {
        cli_error("cannot enter %s: %s", c->workdir, strerror(errno));
        _exit(CLI_EXIT_NOEXEC);
    }
    for (int i = 0; i < c->nenv; i++)
        setenv(c->env[i].name, c->env[i].value, 1);
    if (c->stdin_null) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull > 0) {
            dup2(devnull, 0);
            close(devnull);
        }
    }
    execvp(c->argv[0], c->argv);
    cli_error("cannot run '%s': %s", c->argv[0], strerror(errno));
    _exit(CLI_EXIT_NOEXEC);
}

static int status_of(int st)
{
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

static int wait_status(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            cli_error("waiting for process %d: %s", (int)pid, strerror(errno));
            return -1;
        }
    return status_of(st);
}

/* The watched run in progress, for child_restart (called from its watch). */
static struct {
    const struct child_spec *spec;
    const struct sigaction *old;
    const sigset_t *mask;
    pid_t pid;
} watched;

enum { END_POLL_MS = 20, KILL_AFTER_POLLS = 10000 / END_POLL_MS };

/* One poll of a child sent SIGTERM: 1 when it is gone (*status set), else 0; SIGKILL once it
 * has had KILL_AFTER_POLLS polls. */
static int ended_poll(pid_t pid, int *polls, int *status)
{
    int st;
    pid_t got = waitpid(pid, &st, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) {
        *status = got == pid ? status_of(st) : -1;
        return 1;
    }
    if (++*polls == KILL_AFTER_POLLS)
        kill(pid, SIGKILL);
    return 0;
}

static void poll_pause(void)
{
    struct timespec ts = {0, END_POLL_MS * 1000000L};
    nanosleep(&ts, NULL);
}

/* SIGTERM, then SIGKILL if it is still there after 10 s; its exit status. */
static int end_child(pid_t pid)
{
    int polls = 0, status;
    kill(pid, SIGTERM);
    while (!ended_poll(pid, &polls, &status))
        poll_pause();
    return status;
}

/* Launchers of jobs a restart replaced, sent SIGTERM and still ending: the new job starts at
 * once rather than after the old one's teardown (Open MPI's mpirun takes about a second to
 * end its daemons and ranks, more than reaching a stopline), and they are reaped while it
 * runs, and all before child_run returns. */
enum { MAX_ENDING = 16 };
static struct ending_job { pid_t pid; int polls; } ending[MAX_ENDING];
static int nending;

static void reap_ending(int wait_all)
{
    do {
        for (int i = 0; i < nending;) {
            int status;
            if (ended_poll(ending[i].pid, &ending[i].polls, &status))
                ending[i] = ending[--nending];
            else
                i++;
        }
        if (wait_all && nending)
            poll_pause();
    } while (wait_all && nending);
}

/* Forks and execs c with the signal mask mask; its pid, or -1 after a message. */
static pid_t start_child(const struct child_spec *c, const struct sigaction *old,
                         const sigset_t *mask)
{
    /* Blocked across fork so that a signal cannot slip in before child_pid is known (it would
     * be lost) or reach the child while it still runs our handler. */
    sigset_t during;
    block_forwarded(SIG_BLOCK, &during);
    pid_t self = getpid();
    pid_t pid = fork();
    if (pid == 0)
        exec_child(c, old, mask, self);
    int fork_errno = errno;
    if (pid > 0)
        child_pid = pid;
    sigprocmask(SIG_SETMASK, &during, NULL);
    if (pid < 0)
        cli_error("cannot start '%s': %s", c->argv[0], strerror(fork_errno));
    return pid;
}

/* Replaces was by now (as long) in every argument of c, in place. */
static void replace_in_args(const struct child_spec *c, const char *was, const char *now)
{
    size_t n = strlen(was);
    if (n == 0 || strlen(now) != n)
        return;
    for (char *const *a = c->argv; *a; a++)
        for (char *p = strstr(*a, was); p; p = strstr(p + n, was))
            memcpy(p, now, n);
}

int child_restart(const char *was, const char *now)
{
    if (!watched.spec || watched.pid <= 0)
        return -1;
    if (was)
        replace_in_args(watched.spec, was, now);
    if (nending < MAX_ENDING) {
        kill(watched.pid, SIGTERM);
        ending[nending++] = (struct ending_job){watched.pid, 0};
    } else {
        end_child(watched.pid);
    }
    child_pid = 0;
    fflush(NULL);
    watched.pid = start_child(watched.spec, watched.old, watched.mask);
    return watched.pid > 0 ? 0 : -1;
}

int child_exited(void)
{
    if (watched.pid <= 0)
        return 1;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    /* WNOWAIT: child_run still collects its status */
    if (waitid(P_PID, (id_t)watched.pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
        return errno != EINTR;
    return info.si_pid != 0;
}

/* Waits while asking c->watch whether to end the command early, and whether a launcher
 * still reaps its ranks. */
static int wait_watched(pid_t pid, const struct child_spec *c, const struct sigaction *old,
                        const sigset_t *mask)
{
    watched.spec = c;
    watched.old = old;
    watched.mask = mask;
    watched.pid = pid;
    struct reaping_watch reaping;
    reaping_watch_init(&reaping, pid);
    int st, status;
    for (;;) {
        pid_t got = waitpid(watched.pid, &st, WNOHANG);
        if (got == watched.pid) {
            status = status_of(st);
            break;
        }
        if (got < 0 && errno != EINTR) {
            cli_error("waiting for process %d: %s", (int)watched.pid, strerror(errno));
            status = -1;
            break;
        }
        if (c->watch && c->watch(c->watch_arg)) {
            status = watched.pid > 0 ? end_child(watched.pid) : -1;
            break;
        }
        if (c->launcher && watched.pid > 0) {
            if (reaping.launcher != watched.pid) reaping_watch_init(&reaping, watched.pid);
            if (reaping_watch_due(&reaping, stderr)) {
                status = end_child(watched.pid);
                break;
            }
        }
        if (watched.pid <= 0) { /* a restart could not start it again */
            status = -1;
            break;
        }
        reap_ending(0);
        poll_pause();
    }
    memset(&watched, 0, sizeof watched);
    reap_ending(1);
    return status;
}

int child_run(const struct child_spec *c)
{
    struct sigaction old[NFORWARDED];
    sigset_t mask;
    fflush(NULL); /* nothing of ours may be written twice by the forked copy */
    install_forwarding(old);
    sigprocmask(SIG_SETMASK, NULL, &mask); /* the child gets mpirr's mask as it is */
    pid_t pid = start_child(c, old, &mask);
    int status = -1;
    if (pid > 0)
        status = c->watch || c->launcher ? wait_watched(pid, c, old, &mask) : wait_status(pid);
    /* An interrupted run is not a success, even when the launcher says so (mpiexec.hydra may
     * exit 0 after passing SIGTERM on to the ranks). */
    if (status == 0 && stop_signal)
        status = 128 + stop_signal;
    child_pid = 0;
    last_stop_signal = stop_signal;
    stop_signal = 0;
    restore_signals(old);
    return status;
}

int child_stop_signal(void)
{
    return last_stop_signal;
}

int child_capture(char *const *argv, char *buf, size_t n)
{
    int fds[2];
    if (n == 0 || pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        execvp(argv[0], argv);
        _exit(CLI_EXIT_NOEXEC);
    }
    close(fds[1]);
    size_t len = 0;
    if (pid > 0)
        for (;;) {
            ssize_t got = read(fds[0], buf + len, n - 1 - len);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            len += (size_t)got;
            if (len == n - 1)
                break; /* enough to recognise it; closing the pipe ends the probe */
        }
    close(fds[0]);
    buf[len] = '\0';
    if (pid < 0 || wait_status(pid) == CLI_EXIT_NOEXEC)
        return -1;
    return (int)len;
}
