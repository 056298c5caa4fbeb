/* race_outcomes_cmd.c: the command line of `mpirr races --outcomes [--budget N] [--per-race K]
 * [--timeout S] [-o OUTDIR] [--json] [--noise US] [--mpi IMPL] DIR [-- COMMAND...]`: its
 * options and checks (nothing is created or run on bad input), the directory the runs go to,
 * and the exit status: 0 when no racing receive is harmful, 1 when one is, 128+N when signal
 * N interrupted it. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "opts.h"
#include "race_outcomes.h"
#include "run_opts.h"
#include "runs_dir.h"

enum { OPT_OUTCOMES, OPT_OUTPUT, OPT_BUDGET, OPT_PER_RACE, OPT_TIMEOUT, OPT_JSON };

static const struct cli_opt outcomes_opts[] = {
    {"outcomes", 0, 0, OPT_OUTCOMES},
    {"output", 'o', 1, OPT_OUTPUT},
    {"budget", 0, 1, OPT_BUDGET},
    {"per-race", 0, 1, OPT_PER_RACE},
    {"timeout", 0, 1, OPT_TIMEOUT},
    {"json", 0, 0, OPT_JSON},
    RUN_OPTS_TABLE,
    {NULL, 0, 0, 0},
};

enum {
    DEFAULT_BUDGET = 40, MAX_BUDGET = 1000000, DEFAULT_PER_RACE = 2, MAX_PER_RACE = 1000,
    MAX_TIMEOUT = 7 * 24 * 3600
};

/* 0, OPT_HELP, or OPT_BAD (reported). Options go before or after DIR; a command after "--". */
static int parse(int argc, char **argv, struct outcomes_config *cfg, struct run_opts *run)
{
    struct opt_scan s;
    opt_init(&s, "races", argc, argv);
    memset(cfg, 0, sizeof *cfg);
    cfg->budget = DEFAULT_BUDGET;
    cfg->per_race = DEFAULT_PER_RACE;
    run_opts_init(run);
    int operands = 0;
    int64_t n;
    const char *v;
    for (int id; (id = opt_next_mixed(&s, outcomes_opts, &v)) != OPT_DONE;) {
        if (id == OPT_OPERAND && s.dashdash) { /* COMMAND: the rest of the words */
            cfg->argc = argc - (s.i - 1);
            cfg->argv = argv + (s.i - 1);
            break;
        }
        switch (id) {
        case OPT_BAD:
        case OPT_HELP: return id;
        case OPT_OPERAND: cfg->recording = v, operands++; break;
        case OPT_OUTCOMES: break;
        case OPT_OUTPUT: cfg->dir = v; break;
        case OPT_BUDGET:
            if (opt_number("races --outcomes: --budget", v, 1, MAX_BUDGET, &n))
                return OPT_BAD;
            cfg->budget = (long)n;
            break;
        case OPT_PER_RACE:
            if (opt_number("races --outcomes: --per-race", v, 1, MAX_PER_RACE, &n))
                return OPT_BAD;
            cfg->per_race = (long)n;
            break;
        case OPT_TIMEOUT: /* seconds per run */
            if (opt_number("races --outcomes: --timeout", v, 1, MAX_TIMEOUT, &n))
                return OPT_BAD;
            cfg->timeout = (double)n;
            break;
        case OPT_JSON: cfg->json = 1; break;
        default:
            if (run_opts_apply(run, "races", id, v) != 0)
                return OPT_BAD;
        }
    }
    if (operands != 1) {
        cli_error("races --outcomes takes one recording directory (mpirr races --outcomes "
                  "[options] DIR [-- COMMAND...])");
        return OPT_BAD;
    }
    if (s.dashdash && !cfg->argc) {
        cli_error("races --outcomes: nothing after '--' (give the command to run, or leave "
                  "out '--' to run the recorded one)");
        return OPT_BAD;
    }
    return 0;
}

int races_outcomes_main(int argc, char **argv)
{
    struct outcomes_config cfg;
    struct run_opts run;
    int rc = parse(argc, argv, &cfg, &run);
    if (rc == OPT_HELP)
        return help_for("races");
    if (rc)
        return CLI_EXIT_USAGE;
    struct race_outcomes ro;
    if ((rc = race_outcomes_load(&cfg, &ro))) {
        race_outcomes_free(&ro);
        return rc;
    }
    char given[PATH_MAX + 16], dir[PATH_MAX];
    if (!cfg.dir) { /* beside the recording: DIR.outcomes */
        snprintf(given, sizeof given, "%s.outcomes", ro.recdir);
        cfg.dir = given;
    }
    if ((rc = runs_dir_prepare(cfg.dir, "races --outcomes", dir, sizeof dir))) {
        race_outcomes_free(&ro);
        return rc;
    }
    cfg.dir = dir;
    cfg.noise = run_opts_noise(&run);
    cfg.mpi = run.mpi != IMPL_UNKNOWN ? mpi_impl_name(run.mpi) : NULL;
    /* --json: stdout is the one JSON object; the verdict lines go to stderr */
    rc = race_outcomes_run(&cfg, &ro, cfg.json ? stderr : stdout);
    if (!rc && cfg.json)
        race_outcomes_json(&cfg, &ro, stdout);
    else if (!rc)
        race_outcomes_summary(&cfg, &ro, stdout);
    if (!rc && ro.interrupted)
        rc = 128 + ro.interrupted;
    else if (!rc && ro.harmful)
        rc = CLI_EXIT_FAIL; /* a racing receive matters: for scripts and CI, as the line says */
    race_outcomes_free(&ro);
    return rc;
}
