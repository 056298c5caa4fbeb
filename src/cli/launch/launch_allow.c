/* launch_allow.c: the allow-list a recorded launcher command line must pass before mpirr runs
 * it on its own (launch_allow.h). Conservative by design: refusing costs the user one
 * explicit `mpirr replay DIR -- COMMAND`, accepting the wrong thing runs someone else's code. */
#include "launch_allow.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launch_scan.h"

/* Variables that glibc ignores in setuid programs because they load code or name files
 * (its "unsecure" list), the shell's startup files, and whole families read by the MPI
 * libraries and their transports (component and provider paths, launch agents) or by mpirr. */
static const char *const unsafe_env_names[] = {
    "GETCONF_DIR", "HOSTALIASES", "LOCALDOMAIN", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR",
    "TZDIR", "BASH_ENV", "ENV", "IFS", NULL,
};
static const char *const unsafe_env_prefixes[] = {
    "LD_", "GLIBC_", "MALLOC_", "MPIRR_", "OMPI_", "OPAL_", "ORTE_", "PMIX_", "PRTE_", "HYDRA_",
    "MPIR_", "MPICH_", "MPIEXEC_", "UCX_", "FI_", NULL,
};

/* MCA parameters of the transports, collectives, one-sided, mapping and binding: they tune
 * how messages move and where ranks sit. Any name mentioning files, paths, agents or
 * components is refused even there (mca_base_component_path loads libraries). Whatever the
 * framework, the network interfaces a component uses (btl_tcp_if_include, oob_tcp_if_exclude,
 * ...) are accepted: on a cluster they are what makes the recorded command run at all. */
static const char *const mca_prefixes[] = {"btl", "pml", "mtl", "coll", "osc", "rmaps", "hwloc",
                                           "mpi_", NULL};
static const char *const mca_unsafe_words[] = {"file", "path", "dir", "agent", "exec", "prefix",
                                               "cmd", "command", "script", "env", "launch",
                                               "component", "module", "param", NULL};

static const char *const mca_interface_suffixes[] = {"_if_include", "_if_exclude", NULL};

/* hydra's ways of reaching hosts that start its proxies and nothing else ("manual" waits for
 * the user to start them, "persist" for daemons): -bootstrap-exec names the program. */
static const char *const bootstrap_names[] = {"ssh", "rsh", "fork", "slurm", "pbs", "sge",
                                              "lsf", "ll", "cobalt", NULL};

/* srun --export's words for the environment as a whole. */
static const char *const export_words[] = {"ALL", "NONE", "NIL", NULL};

static int is_any(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strcmp(s, *words) == 0)
            return 1;
    return 0;
}

static int ends_with_any(const char *s, const char *const *suffixes)
{
    size_t len = strlen(s);
    for (; *suffixes; suffixes++) {
        size_t n = strlen(*suffixes);
        if (len > n && strcmp(s + len - n, *suffixes) == 0)
            return 1;
    }
    return 0;
}

static int starts_with_any(const char *s, const char *const *prefixes)
{
    for (; *prefixes; prefixes++)
        if (strncmp(s, *prefixes, strlen(*prefixes)) == 0)
            return 1;
    return 0;
}

static int contains_any(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strstr(s, *words))
            return 1;
    return 0;
}

static int is_name_char(char c, int first)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

int launch_allow_env_name(const char *name)
{
    size_t len = strlen(name);
    if (!len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!is_name_char(name[i], i == 0))
            return 0;
    for (const char *const *p = unsafe_env_names; *p; p++)
        if (strcmp(name, *p) == 0)
            return 0;
    /* *PATH: PATH itself, GCONV_PATH, LOCPATH, NLSPATH, LIBRARY_PATH, PYTHONPATH ... */
    if (len >= 4 && strcmp(name + len - 4, "PATH") == 0)
        return 0;
    return !starts_with_any(name, unsafe_env_prefixes) && !strstr(name, "PRELOAD") &&
           !strstr(name, "LIBRARY");
}

/* -x NAME=VALUE or -x NAME (exported from mpirr's environment); -genv NAME VALUE. */
static int env_assignment_ok(const char *word)
{
    char name[256];
    size_t len = strcspn(word, "=");
    if (len >= sizeof name)
        return 0;
    memcpy(name, word, len);
    name[len] = '\0';
    return launch_allow_env_name(name);
}

/* Each item of a comma-separated list passes ok (and there is at least one). */
static int each_item_ok(const char *list, int (*ok)(const char *))
{
    char item[256];
    do {
        size_t len = strcspn(list, ",");
        if (len == 0 || len >= sizeof item)
            return 0;
        memcpy(item, list, len);
        item[len] = '\0';
        if (!ok(item))
            return 0;
        list += len;
    } while (*list++ == ',');
    return 1;
}

static int export_item_ok(const char *item)
{
    return is_any(item, export_words) || env_assignment_ok(item);
}

static int mca_name_ok(const char *name)
{
    if (strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
        return 0;
    if (ends_with_any(name, mca_interface_suffixes))
        return 1;
    return starts_with_any(name, mca_prefixes) && !contains_any(name, mca_unsafe_words);
}

/* host, host:slots. Host names go on ssh's command line, where "-oProxyCommand=..." would be
 * an option: only the characters of host names and addresses. */
static int host_ok(const char *host)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_";
    size_t len = strspn(host, chars);
    if (len == 0 || host[0] == '-' || host[0] == '.')
        return 0;
    if (host[len] == ':')
        return host[len + 1] && strspn(host + len + 1, "0123456789") == strlen(host + len + 1);
    return host[len] == '\0';
}

/* Slurm node names and host list expressions: node[01-04],gpu7 (never a '/': a file). */
static int nodelist_ok(const char *list)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                ".-_[],";
    return list[0] && list[0] != '-' && strspn(list, chars) == strlen(list);
}

/* real is dir or below it. */
static int is_inside(const char *real, const char *dir)
{
    char d[PATH_MAX];
    if (!dir || !realpath(dir, d))
        return 0;
    size_t len = strlen(d);
    if (len == 1) /* "/" */
        return 1;
    return strncmp(real, d, len) == 0 && (real[len] == '/' || real[len] == '\0');
}

/* A file a recorded command names: a regular file within the reach (launch_allow.h). */
static int file_in_reach(const char *path, const struct launch_reach *reach)
{
    char joined[PATH_MAX * 2], real[PATH_MAX];
    struct stat st;
    if (path[0] == '/')
        snprintf(joined, sizeof joined, "%s", path);
    else
        snprintf(joined, sizeof joined, "%s/%s", reach->cwd, path);
    if (!realpath(joined, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return is_inside(real, reach->cwd) || is_inside(real, reach->recdir);
}

#define OUTSIDE_REACH                                                                      \
    "that is not a regular file within the recorded working directory or the recording"

/* NULL if the option used is allowed, else why not (a phrase). */
static const char *refusal(const struct launcher_opt_use *u, const struct launch_reach *reach)
{
    const struct launcher_opt *o = u->opt;
    const char *const *args = u->args;
    switch (o->trust) {
    case LOPT_HARMLESS:
        return NULL;
    case LOPT_ENV_ASSIGN:
        return env_assignment_ok(args[0]) ? NULL
               : "which sets a variable that can load code or redirect files in the ranks";
    case LOPT_ENV_LIST:
    case LOPT_EXPORT: /* srun's list may also hold ALL, NONE and NAME=VALUE */
        return each_item_ok(args[0], o->trust == LOPT_EXPORT ? export_item_ok
                                                             : launch_allow_env_name)
               ? NULL
               : "which passes a variable that can load code or redirect files in the ranks";
    case LOPT_MCA:
        return mca_name_ok(args[0]) ? NULL
               : "an MCA parameter outside the transport, collective, mapping, binding and "
                 "network interface ones mpirr accepts";
    case LOPT_HOSTS:
        return each_item_ok(args[0], host_ok) ? NULL
               : "a host list with something else than host names and slot counts";
    case LOPT_HOSTFILE:
        return file_in_reach(args[0], reach) ? NULL : "a host file " OUTSIDE_REACH;
    case LOPT_NODELIST:
        if (strchr(args[0], '/'))
            return file_in_reach(args[0], reach) ? NULL : "a node list file " OUTSIDE_REACH;
        return nodelist_ok(args[0]) ? NULL
               : "a node list with something else than Slurm node names and ranges";
    case LOPT_BOOTSTRAP:
        return is_any(args[0], bootstrap_names) ? NULL
               : "a bootstrap mpirr does not know to start only hydra's proxies";
    default:
        return "which can change what runs, what is preloaded or where files are written";
    }
}

/* 'word arg...' for messages, each word cut at 100 bytes. */
static void quote_words(char *out, size_t n, char *const *words, int count)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < count && len < n; i++) {
        int w = snprintf(out + len, n - len, "%s%.100s", i ? " " : "'", words[i]);
        if (w < 0)
            return;
        len += (size_t)w;
    }
    if (len + 1 < n)
        strcat(out, "'");
}

static void say_mpmd(char *why, size_t n)
{
    snprintf(why, n, "starts more than one program (':', MPMD)");
}

int launch_allow_check(enum launcher_kind kind, const struct launch_reach *reach, int argc,
                       char *const *argv, int app, char *why, size_t n)
{
    char shown[400];
    for (int i = 1; i < app; i++) {
        const char *w = argv[i];
        if (strcmp(w, ":") == 0) {
            say_mpmd(why, n);
            return i;
        }
        struct launcher_opt_use u = {NULL, {NULL, NULL}, 1};
        int complete = w[0] != '-' || launch_scan_option(kind, app, argv, i, &u) == 0;
        const struct launcher_opt *o = u.opt;
        quote_words(shown, sizeof shown, argv + i, complete ? u.words : 1);
        if (!o) {
            snprintf(why, n, w[0] == '-' ? "passes %s to the launcher, an option mpirr does not "
                                           "know to be harmless"
                                         : "passes %s to the launcher before the program",
                     shown);
            return i;
        }
        if (!complete) {
            snprintf(why, n, "passes %s to the launcher without its value", shown);
            return i;
        }
        const char *no = refusal(&u, reach);
        if (no) {
            snprintf(why, n, "passes %s to the launcher, %s", shown, no);
            return i;
        }
        i += u.words - 1;
    }
    for (int i = app + 1; i < argc; i++)
        if (strcmp(argv[i], ":") == 0) {
            say_mpmd(why, n);
            return i;
        }
    return 0;
}
