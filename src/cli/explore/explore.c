/* explore.c: `mpirr explore`: searches a program's schedules for a failing order by forcing
 * the other outcomes of racing receives (mpirr replay --flip), run after run. This file owns
 * the command line and its checks (nothing is created or run on bad input) and the directory
 * the runs go to; explore_search.c is the search, explore_report.c what it prints. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "elf_mpi.h"
#include "explore_report.h"
#include "explore_search.h"
#include "number_parse.h"
#include "opts.h"
#include "out_file.h"
#include "paths.h"
#include "run_opts.h"
#include "run_command.h"
#include "runs_dir.h"

enum {
    OPT_OUTPUT, OPT_BUDGET, OPT_DEPTH, OPT_UNTIL_FAIL, OPT_ALL, OPT_STRATEGY, OPT_SEED,
    OPT_TIMEOUT, OPT_JSON
};

static const struct cli_opt explore_opts[] = {
    {"output", 'o', 1, OPT_OUTPUT},
    {"budget", 0, 1, OPT_BUDGET},
    {"depth", 0, 1, OPT_DEPTH},
    {"until-fail", 0, 0, OPT_UNTIL_FAIL},
    {"all", 0, 0, OPT_ALL},
    {"strategy", 0, 1, OPT_STRATEGY},
    {"seed", 0, 1, OPT_SEED},
    {"timeout", 0, 1, OPT_TIMEOUT},
    {"json", 0, 0, OPT_JSON},
    RUN_OPTS_TABLE,
    {NULL, 0, 0, 0},
};

enum {
    DEFAULT_BUDGET = 100, MAX_BUDGET = 1000000, DEFAULT_DEPTH = 3, MAX_DEPTH = 1000,
    MAX_TIMEOUT = 7 * 24 * 3600, DEFAULT_SEED = 1
};

/* A number option: 0, or -1 after "explore: --budget 0: expected an integer from 1 to ...". */
static int number_value(const char *option, const char *v, int64_t min, int64_t max,
                        const char *unit, int64_t *out)
{
    if (mpirr_parse_int(v, min, max, out)) {
        cli_error("explore: --%s %s: expected %s (%s)", option, v,
                  opt_number_expected(min, max), unit);
        return -1;
    }
    return 0;
}

static int count_value(const char *option, const char *v, long max, const char *unit, long *out)
{
    int64_t n;
    if (number_value(option, v, 1, max, unit, &n))
        return -1;
    *out = (long)n;
    return 0;
}

/* 0, OPT_HELP, or OPT_BAD (reported). */
static int parse(int argc, char **argv, struct explore_config *cfg, struct run_opts *run)
{
    struct opt_scan s;
    opt_init(&s, "explore", argc, argv);
    memset(cfg, 0, sizeof *cfg);
    cfg->budget = DEFAULT_BUDGET;
    cfg->depth = DEFAULT_DEPTH;
    cfg->strategy = STRATEGY_LOCAL;
    cfg->seed = DEFAULT_SEED;
    run_opts_init(run);
    int64_t n;
    int until_fail = 0;
    const char *v;
    for (int id; (id = opt_next(&s, explore_opts, &v)) != OPT_DONE;) {
        switch (id) {
        case OPT_BAD:
        case OPT_HELP: return id;
        case OPT_OUTPUT: cfg->dir = v; break;
        case OPT_BUDGET:
            if (count_value("budget", v, MAX_BUDGET, "runs", &cfg->budget))
                return OPT_BAD;
            break;
        case OPT_DEPTH:
            if (count_value("depth", v, MAX_DEPTH, "forced choices per run", &cfg->depth))
                return OPT_BAD;
            break;
        case OPT_UNTIL_FAIL: until_fail = 1; break;
        case OPT_ALL: cfg->all = 1; break;
        case OPT_STRATEGY:
            if (explore_strategy_parse(v, &cfg->strategy)) {
                cli_error("explore: --strategy %s: expected local, dfs or random", v);
                return OPT_BAD;
            }
            break;
        case OPT_SEED:
            if (number_value("seed", v, 0, INT64_MAX, "the random strategy's seed", &n))
                return OPT_BAD;
            cfg->seed = (uint64_t)n;
            break;
        case OPT_TIMEOUT:
            if (number_value("timeout", v, 1, MAX_TIMEOUT, "seconds per run", &n))
                return OPT_BAD;
            cfg->timeout = (double)n;
            break;
        case OPT_JSON: cfg->json = 1; break;
        default:
            if (run_opts_apply(run, "explore", id, v) != 0)
                return OPT_BAD;
        }
    }
    if (until_fail && cfg->all) {
        cli_error("explore: --until-fail and --all exclude each other");
        return OPT_BAD;
    }
    if (!cfg->dir) {
        cli_error("explore needs a directory for its runs (mpirr explore [options] -o DIR -- "
                  "COMMAND...)");
        return OPT_BAD;
    }
    return opt_command_words(&s, &cfg->argc, &cfg->argv);
}

/* A tool in front of the program (env X=1 ./app, gdb --args ./app): whether a later word of
 * the application's part of the command is an executable linked against MPI. */
static int mpi_word_after(const struct launch_info *li, const char *cwd)
{
    for (int i = li->scan.app + 1; i < li->argc && strcmp(li->argv[i], ":") != 0; i++) {
        char path[PATH_MAX];
        if (path_find_exec(li->argv[i], cwd, path, sizeof path) == 0 &&
            elf_mpi_impl(path) != IMPL_UNKNOWN)
            return 1;
    }
    return 0;
}

/* The command must start an MPI program mpirr can record: checked as record checks it, and
 * an application that links no MPI library at all is refused here rather than after a run
 * that records nothing. 0, or an exit status after a message. */
static int check_command(const struct explore_config *cfg, const struct run_opts *run)
{
    char cwd[PATH_MAX];
    if (path_cwd(cwd, sizeof cwd) != 0)
        return CLI_EXIT_FAIL;
    struct session s = {.mode = "record"};
    int rc = session_prepare(&s, cfg->argc, cfg->argv, cwd, run->mpi);
    if (rc)
        return rc;
    const char *app = s.li.scan.app >= 0 ? s.li.scan.app_path : NULL;
    if (app && elf_is_elf(app) && elf_mpi_impl(app) == IMPL_UNKNOWN &&
        !mpi_word_after(&s.li, cwd)) {
        cli_error("explore: %s is not an MPI program (it links no MPI library): explore forces "
                  "the message races of MPI programs", app);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* DIR made (with parents) or found empty, and explore.tsv created in it: a directory that
 * cannot hold the runs is bad input, refused before anything runs. */
static int prepare_dir(const char *dir, char *abs, size_t n, FILE **tsv)
{
    int rc = runs_dir_prepare(dir, "explore", abs, n);
    if (rc)
        return rc;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/explore.tsv", abs);
    if (!(*tsv = out_file_new(path))) {
        cli_error("cannot write %s: %s", path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cmd_explore(int argc, char **argv)
{
    struct explore_config cfg;
    struct run_opts run;
    int rc = parse(argc, argv, &cfg, &run);
    if (rc == OPT_HELP)
        return help_for("explore");
    if (rc)
        return CLI_EXIT_USAGE;
    if ((rc = check_command(&cfg, &run)))
        return rc;
    char dir[PATH_MAX];
    FILE *tsv;
    if ((rc = prepare_dir(cfg.dir, dir, sizeof dir, &tsv)))
        return rc;
    cfg.dir = dir;
    cfg.noise = run_opts_noise(&run);
    cfg.mpi = run.mpi != IMPL_UNKNOWN ? mpi_impl_name(run.mpi) : NULL;
    explore_report_header(tsv);

    struct explore_state st;
    /* --json: stdout is the one JSON object; the per-run lines go to stderr */
    rc = explore_search(&cfg, &st, cfg.json ? stderr : stdout, tsv);
    if (!rc && cfg.json)
        explore_report_json(&cfg, &st, stdout);
    else if (!rc)
        explore_report_summary(&cfg, &st, stdout);
    if (fclose(tsv) != 0 && !rc) {
        cli_error("cannot write %s/explore.tsv: %s", dir, strerror(errno));
        rc = CLI_EXIT_FAIL;
    }
    if (!rc && st.interrupted)
        rc = 128 + st.interrupted;
    else if (!rc && st.failing >= 0)
        rc = CLI_EXIT_FAIL; /* a run ended otherwise: for scripts and CI, as the line says */
    explore_state_free(&st);
    return rc;
}
