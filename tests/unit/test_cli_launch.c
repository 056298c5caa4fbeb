/* test_cli_launch.c: the CLI's handling of launcher command lines: launch_rewrite (how the
 * MPIRR_* variables are put on an Open MPI / MPICH command line, or left to the environment
 * of a singleton), launch_scan (finding the application and the process count among the
 * launcher's options) and launch_allow (which recorded command lines replay may run unasked).
 * Uses /bin/true and /bin/false as stand-in applications. */
#include <string.h>

#include "check.h"
#include "launch_allow.h"
#include "launch_rewrite.h"
#include "launch_scan.h"

static const struct env_var vars[] = {{"MPIRR_MODE", "record"}, {"B", "two words=x"}};
enum { NVARS = sizeof vars / sizeof vars[0] };

/* argv equals want (NULL-terminated both). */
static int same_argv(char **argv, const char *const *want)
{
    int i = 0;
    for (; want[i]; i++)
        if (!argv[i] || strcmp(argv[i], want[i]) != 0)
            return 0;
    return argv[i] == NULL;
}

static void check_rewrite(int argc, char *const *in, enum mpi_impl launcher, int nvars,
                          const char *const *want)
{
    char **out = launch_rewrite(argc, in, launcher, vars, nvars);
    CHECK(out != NULL);
    if (out)
        CHECK(same_argv(out, want));
    launch_argv_free(out);
}

static void test_rewrite(void)
{
    char *ompi[] = {"mpirun", "-np", "4", "./app", "-x", NULL};
    const char *const ompi_want[] = {"mpirun", "-x", "MPIRR_MODE=record", "-x", "B=two words=x",
                                     "-np", "4", "./app", "-x", NULL};
    check_rewrite(5, ompi, IMPL_OPENMPI, NVARS, ompi_want);
    /* the input is left as it was */
    CHECK(strcmp(ompi[1], "-np") == 0 && ompi[5] == NULL);

    char *mpich[] = {"mpiexec.hydra", "-n", "2", "./app", NULL};
    const char *const mpich_want[] = {"mpiexec.hydra", "-genv", "MPIRR_MODE", "record", "-genv",
                                      "B", "two words=x", "-n", "2", "./app", NULL};
    check_rewrite(4, mpich, IMPL_MPICH, NVARS, mpich_want);

    /* singleton: unchanged copy, the variables go to the environment instead */
    char *single[] = {"./app", "arg", NULL};
    const char *const single_want[] = {"./app", "arg", NULL};
    check_rewrite(2, single, IMPL_UNKNOWN, NVARS, single_want);

    /* no variables, and a bare launcher */
    const char *const novars_want[] = {"mpirun", "-np", "4", "./app", "-x", NULL};
    check_rewrite(5, ompi, IMPL_OPENMPI, 0, novars_want);
    const char *const bare_want[] = {"mpirun", "-x", "MPIRR_MODE=record", NULL};
    check_rewrite(1, ompi, IMPL_OPENMPI, 1, bare_want);
}

static void test_scan(void)
{
    struct launch_scan sc;

    char *ompi[] = {"mpirun", "-np", "4", "--mca", "btl", "self", "-x", "FOO",
                    "--oversubscribe", "/bin/true", "-n", "9", NULL};
    launch_scan(12, ompi, 1, "/", &sc);
    CHECK(sc.app == 9);
    CHECK(strcmp(sc.app_path, "/bin/true") == 0);
    CHECK(sc.nprocs == 4); /* the application's own "-n 9" is not the launcher's */
    CHECK(strcmp(sc.np_text, "-np 4") == 0);

    char *mpmd[] = {"mpiexec", "-n", "2", "/bin/true", ":", "-np", "3", "/bin/false", NULL};
    launch_scan(8, mpmd, 1, "/", &sc);
    CHECK(sc.app == 3);
    CHECK(sc.nprocs == 5);
    CHECK(strcmp(sc.np_text, "-n 2 : -np 3") == 0);

    char *partial[] = {"mpiexec", "-n", "2", "/bin/true", ":", "/bin/false", NULL};
    launch_scan(6, partial, 1, "/", &sc);
    CHECK(sc.nprocs == -1);

    /* a count that overflows (strtol clamped it to LONG_MAX), is signed or trails garbage is
     * no count: unknown, never a huge number of ranks */
    const char *bad_counts[] = {"99999999999999999999", "16777217", "+4", " 4", "4x", "0"};
    for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; i++) {
        char *huge[] = {"mpirun", "-np", (char *)bad_counts[i], "/bin/true", NULL};
        launch_scan(4, huge, 1, "/", &sc);
        CHECK(sc.app == 3 && sc.nprocs == -1);
    }

    char *nonp[] = {"mpirun", "/bin/true", NULL};
    launch_scan(2, nonp, 1, "/", &sc);
    CHECK(sc.app == 1 && sc.nprocs == -1);

    /* a name without a slash is looked up in PATH; relative names against base */
    char *bypath[] = {"mpirun", "-c", "2", "true", NULL};
    launch_scan(4, bypath, 1, "/", &sc);
    CHECK(sc.app == 3 && sc.nprocs == 2);
    char *relative[] = {"mpirun", "-np", "2", "./true", NULL};
    launch_scan(4, relative, 1, "/bin", &sc);
    CHECK(sc.app == 3 && strcmp(sc.app_path, "/bin/./true") == 0);

    char *missing[] = {"mpirun", "-np", "2", "./no-such-program-here", NULL};
    launch_scan(4, missing, 1, "/", &sc);
    CHECK(sc.app == -1 && sc.nprocs == 2);

    char *single[] = {"/bin/true", "-np", "7", NULL};
    launch_scan(3, single, 0, "/", &sc);
    CHECK(sc.app == 0 && sc.nprocs == 1);
}

/* launch_allow_check on a NULL-terminated command whose program is argv[app]. */
static int allow(char *const *argv, int app)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    char why[600] = "";
    int bad = launch_allow_check(argc, argv, app, why, sizeof why);
    CHECK(!bad == !why[0]); /* a refusal always says why */
    return bad;
}

static void test_allow(void)
{
    char *harmless[] = {"mpirun", "-np", "4", "--oversubscribe", "--bind-to", "none", "--mca",
                        "btl", "self,vader", "-x", "OMP_NUM_THREADS=2", "-x", "HOME", "-host",
                        "node1,node-2:4", "--map-by", "core", "/bin/true", "--prefix", NULL};
    CHECK(allow(harmless, 17) == 0); /* the program's own arguments are its business */
    char *hydra[] = {"mpiexec", "-n", "2", "-ppn", "1", "-genv", "OMP_NUM_THREADS", "2",
                     "-genvlist", "HOME,USER", "-hosts", "a,b", "-l", "/bin/true", NULL};
    CHECK(allow(hydra, 13) == 0);

    char *preload[] = {"mpirun", "-np", "4", "-x", "LD_PRELOAD=/tmp/x.so", "/bin/true", NULL};
    CHECK(allow(preload, 5) == 3);
    char *path[] = {"mpirun", "-x", "PATH", "/bin/true", NULL};
    CHECK(allow(path, 3) == 1);
    char *prefix[] = {"mpirun", "--prefix", "/opt/x", "-np", "4", "/bin/true", NULL};
    CHECK(allow(prefix, 5) == 1);
    char *app[] = {"mpirun", "-np", "4", "--app", "/tmp/appfile", NULL};
    CHECK(allow(app, 5) == 3); /* no program: every word is the launcher's */
    char *agent[] = {"mpirun", "--launch-agent", "/tmp/orted", "/bin/true", NULL};
    CHECK(allow(agent, 3) == 1);
    char *preload_bin[] = {"mpirun", "--preload-binary", "/bin/true", NULL};
    CHECK(allow(preload_bin, 2) == 1);
    char *genv[] = {"mpiexec", "-genv", "LD_PRELOAD", "/tmp/x.so", "-n", "2", "/bin/true", NULL};
    CHECK(allow(genv, 6) == 1);
    char *env[] = {"mpiexec", "-n", "2", "-env", "LD_LIBRARY_PATH", "/tmp", "/bin/true", NULL};
    CHECK(allow(env, 6) == 3);
    char *envlist[] = {"mpiexec", "-genvlist", "HOME,LD_PRELOAD", "/bin/true", NULL};
    CHECK(allow(envlist, 3) == 1);
    char *config[] = {"mpiexec", "-configfile", "/tmp/cfg", NULL};
    CHECK(allow(config, 3) == 1);
    char *bootstrap[] = {"mpiexec", "-bootstrap-exec", "/tmp/sh", "-n", "1", "/bin/true", NULL};
    CHECK(allow(bootstrap, 5) == 1);
    char *mca_path[] = {"mpirun", "--mca", "mca_base_component_path", "/tmp", "/bin/true", NULL};
    CHECK(allow(mca_path, 4) == 1);
    char *mca_agent[] = {"mpirun", "--mca", "plm_rsh_agent", "sh", "/bin/true", NULL};
    CHECK(allow(mca_agent, 4) == 1);
    char *mca_file[] = {"mpirun", "--mca", "mpi_show_mca_params_file", "/x", "/bin/true", NULL};
    CHECK(allow(mca_file, 4) == 1);
    char *host[] = {"mpirun", "-host", "-oProxyCommand=sh", "/bin/true", NULL};
    CHECK(allow(host, 3) == 1);
    char *hostfile[] = {"mpirun", "--hostfile", "/tmp/hosts", "/bin/true", NULL};
    CHECK(allow(hostfile, 3) == 1);
    char *mpmd[] = {"mpirun", "-np", "2", "/bin/true", ":", "-np", "2", "/bin/sh", NULL};
    CHECK(allow(mpmd, 3) == 4);
    char *unknown[] = {"mpirun", "--frobnicate", "/bin/true", NULL};
    CHECK(allow(unknown, 2) == 1);
    char *stray[] = {"mpirun", "-np", "2", "no-such-program", "/bin/true", NULL};
    CHECK(allow(stray, 4) == 3);

    CHECK(launch_allow_env_name("OMP_NUM_THREADS"));
    CHECK(launch_allow_env_name("MY_INPUT"));
    const char *const refused[] = {"LD_PRELOAD", "LD_AUDIT", "GLIBC_TUNABLES", "GCONV_PATH",
                                   "PYTHONPATH", "PATH", "MPIRR_DIR", "OMPI_MCA_plm_rsh_agent",
                                   "FI_PROVIDER_PATH", "UCX_MODULE_DIR", "MALLOC_TRACE", "BASH_ENV",
                                   "TMPDIR", "1ABC", "A-B", "", NULL};
    for (const char *const *name = refused; *name; name++)
        CHECK(!launch_allow_env_name(*name));
}

int main(void)
{
    test_rewrite();
    test_scan();
    test_allow();
    return CHECK_DONE();
}
