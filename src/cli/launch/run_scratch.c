/* run_scratch.c: see run_scratch.h. */
#include "run_scratch.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "settings.h"

static char scratch[PATH_MAX];
static char kept[NAME_MAX + 1];
static pid_t owner; /* a forked child that gets a signal before its exec leaves it alone */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Removes every file of the directory but the kept one, then the directory (which stays if
 * the kept file is there). Only unlink, rmdir and directory reads: safe in a signal handler
 * that interrupted anything but this (the one in ranks' files is a plain name). */
static void remove_scratch(void)
{
    if (!scratch[0] || getpid() != owner) return;
    DIR *d = opendir(scratch);
    if (d) {
        char path[PATH_MAX + NAME_MAX + 2];
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, kept))
                continue;
            snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(scratch);
    scratch[0] = 0;
}

static void remove_and_die(int sig)
{
    remove_scratch();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* At exit, and when one of cleanup_signals ends mpirr. While a command runs, child_run puts
 * its forwarding handlers in their place and mpirr outlives the signal (then exits here). */
static void arm_cleanup(void)
{
    atexit(remove_scratch);
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++) {
        struct sigaction old;
        sigaction(cleanup_signals[i], NULL, &old);
        if (old.sa_handler == SIG_IGN) continue; /* nohup: stays ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_and_die;
        sigfillset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static int make_scratch(void)
{
    const char *root = mpirr_setting_text(MPIRR_SET_TMPDIR); /* checked: environment_check */
    if (!root) root = getenv("TMPDIR");
    if (!root || !*root) root = "/tmp";
    char tmpl[PATH_MAX];
    if (snprintf(tmpl, sizeof tmpl, "%s/mpirr-XXXXXX", root) >= (int)sizeof tmpl) {
        cli_error("cannot make a private directory under %s: the name is too long", root);
        return -1;
    }
    if (!mkdtemp(tmpl)) {
        cli_error("cannot make a private directory under %s: %s (set MPIRR_TMPDIR or TMPDIR "
                  "to a writable directory)", root, strerror(errno));
        return -1;
    }
    /* the ranks get absolute paths: they run in another directory */
    if (!realpath(tmpl, scratch)) {
        cli_error("cannot resolve %s: %s", tmpl, strerror(errno));
        rmdir(tmpl);
        return -1;
    }
    owner = getpid();
    arm_cleanup();
    return 0;
}

int run_scratch_path(const char *name, char *out, size_t n)
{
    if (!scratch[0] && make_scratch()) return -1;
    if (snprintf(out, n, "%s/%s", scratch, name) < (int)n) return 0;
    cli_error("the path %s/%s is too long", scratch, name);
    return -1;
}

void run_scratch_keep(const char *name)
{
    snprintf(kept, sizeof kept, "%s", name);
}
