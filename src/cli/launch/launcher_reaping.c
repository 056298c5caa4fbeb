/* launcher_reaping.c: see launcher_reaping.h. The launcher's children are listed by
 * /proc/PID/task/TID/children of each of its threads (a launcher may fork from any); a child's
 * state is the letter after the command in /proc/CHILD/stat. Where the kernel has no children
 * files nothing is ever due. */
#include "launcher_reaping.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "mono_clock.h"
#include "settings.h"

void reaping_watch_init(struct reaping_watch *w, pid_t launcher)
{
    w->launcher = launcher;
    w->limit_s = (double)mpirr_setting_value(MPIRR_SET_TEARDOWN_SECONDS);
    w->zombies_since = 0;
    w->next_look = 0;
}

static int is_zombie(long pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 1; /* reaped meanwhile: not a child that runs */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *end = strrchr(buf, ')'); /* the command may hold spaces and parentheses */
    return end && end[1] == ' ' && end[2] == 'Z';
}

/* 1 if the launcher has children and all are zombies, 0 if not (or it cannot be told). */
static int all_children_zombies(pid_t launcher)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)launcher);
    DIR *tasks = opendir(path);
    if (!tasks) return 0;
    int children = 0, running = 0;
    for (struct dirent *t; !running && (t = readdir(tasks));) {
        if (t->d_name[0] == '.') continue;
        char list[128];
        snprintf(list, sizeof list, "/proc/%ld/task/%.20s/children", (long)launcher, t->d_name);
        FILE *f = fopen(list, "r");
        if (!f) continue;
        for (long pid; !running && fscanf(f, "%ld", &pid) == 1;) {
            children++;
            running = !is_zombie(pid);
        }
        fclose(f);
    }
    closedir(tasks);
    return children > 0 && !running;
}

int reaping_watch_due(struct reaping_watch *w, FILE *err)
{
    double now = mono_seconds();
    if (now < w->next_look) return 0;
    w->next_look = now + 0.25;
    if (!all_children_zombies(w->launcher)) {
        w->zombies_since = 0;
        return 0;
    }
    if (w->zombies_since == 0) w->zombies_since = now;
    if (now - w->zombies_since < w->limit_s) return 0;
    fprintf(err, "mpirr: the launcher has not reaped its ended processes for %.0f s "
                 "(MPIRR_TEARDOWN_SECONDS): mpirr ends it\n", w->limit_s);
    return 1;
}
