/* app_stacks.c: see app_stacks.h. Threads are grouped by their whole stack before they go
 * into the merged tree, so that a rank's identical workers make one branch ("threads 2-5")
 * and the same groups on other ranks merge with it. */
#include "app_stacks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rank_set.h"
#include "stack_merge.h"

enum { MAX_FRAMES = 256, MAX_THREAD = 65535 };

int app_stack_labels(const char *text, char **labels, int max)
{
    int n = 0;
    char *copy = strdup(text ? text : ""), *save = NULL;
    if (!copy) return 0;
    for (char *line = strtok_r(copy, "\n", &save); line && n < max;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[4] = {0};
        int nf = 0;
        for (char *p = line; nf < 4; nf++) {
            f[nf] = p;
            p = strchr(p, '\t');
            if (!p) {
                nf++;
                break;
            }
            *p++ = 0;
        }
        char label[512];
        if (nf == 2 && !strcmp(f[0], "M")) snprintf(label, sizeof label, "%s", f[1]);
        else if (nf == 4 && !strcmp(f[0], "F") && f[2][0])
            snprintf(label, sizeof label, "%s (%s:%s)", f[1], f[2], f[3]);
        else if (nf == 4 && !strcmp(f[0], "F")) snprintf(label, sizeof label, "%s", f[1]);
        else continue; /* gdb's own chatter */
        if (!(labels[n] = strdup(label))) break;
        n++;
    }
    free(copy);
    for (int i = 0; i < n / 2; i++) { /* newest first -> outermost first */
        char *t = labels[i];
        labels[i] = labels[n - 1 - i];
        labels[n - 1 - i] = t;
    }
    return n;
}

void app_stack_free(char **labels, int n)
{
    for (int i = 0; i < n; i++) free(labels[i]);
}

/* One thread's stack: its number and labels (outermost first). */
struct thread_stack {
    int num, n;
    char *labels[MAX_FRAMES + 1]; /* room for the thread label */
};

static int same_stack(const struct thread_stack *a, const struct thread_stack *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->labels[i], b->labels[i])) return 0;
    return 1;
}

/* Splits text at its "T<tab>N" lines (in place): each thread's stack read into ts. The number
 * of threads with a stack, or -1 out of memory. */
static int read_threads(char *text, struct thread_stack **ts)
{
    int n = 0, cap = 0;
    *ts = NULL;
    char *at = NULL; /* the section of thread num, not yet read */
    int num = 0;
    for (char *p = text;; ) {
        char *nl = strchr(p, '\n'), *next = nl ? nl + 1 : p + strlen(p);
        int header = !strncmp(p, "T\t", 2);
        if ((header || !*p) && at) { /* the section before ends here */
            if (header) p[-1] = 0; /* its newline */
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                struct thread_stack *grown = realloc(*ts, (size_t)cap * sizeof **ts);
                if (!grown) {
                    for (int i = 0; i < n; i++) app_stack_free((*ts)[i].labels, (*ts)[i].n);
                    return -1;
                }
                *ts = grown;
            }
            struct thread_stack *t = &(*ts)[n];
            t->num = num;
            t->n = app_stack_labels(at, t->labels, MAX_FRAMES);
            if (t->n > 0) n++;
            at = NULL;
        }
        if (!*p) break;
        if (header) {
            num = atoi(p + 2);
            if (num >= 1 && num <= MAX_THREAD) at = next;
        }
        p = next;
    }
    return n;
}

int app_stacks_add_threads(struct stack_tree *tree, int rank, const char *text)
{
    char *copy = strdup(text ? text : "");
    struct thread_stack *ts = NULL;
    int n = copy ? read_threads(copy, &ts) : -1, added = 0, max = 0;
    for (int i = 0; i < n; i++)
        if (ts[i].num > max) max = ts[i].num;
    unsigned char *done = n > 0 ? calloc((size_t)n, 1) : NULL;
    unsigned char *members = n > 0 ? calloc((size_t)max + 1, 1) : NULL;
    if (n > 0 && (!done || !members)) added = -1;
    for (int i = 0; i < n && added >= 0; i++) {
        if (done[i]) continue;
        memset(members, 0, (size_t)max + 1);
        for (int j = i; j < n; j++)
            if (!done[j] && same_stack(&ts[i], &ts[j])) {
                done[j] = 1;
                members[ts[j].num] = 1;
            }
        char nums[256], label[300];
        rank_set_format(members, max + 1, nums, sizeof nums);
        int count = rank_set_count(members, max + 1);
        snprintf(label, sizeof label, "thread%s %s", count > 1 ? "s" : "", nums);
        struct thread_stack *t = &ts[i];
        t->labels[t->n] = label;
        if (stack_tree_add(tree, rank, (const char *const *)t->labels, t->n + 1)) added = -1;
        else added += count;
        t->labels[t->n] = NULL;
    }
    for (int i = 0; i < n; i++) app_stack_free(ts[i].labels, ts[i].n);
    free(ts);
    free(done);
    free(members);
    free(copy);
    return n < 0 ? -1 : added;
}
