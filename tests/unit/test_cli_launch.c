/* test_cli_launch.c: the CLI's handling of launcher command lines: launch_rewrite (how the
 * MPIRR_* variables are put on an Open MPI / MPICH / srun command line, or left to the
 * environment of a singleton), launch_scan (finding the application and the process count
 * among the launcher's options) and launch_allow (which recorded command lines replay may run
 * unasked). Uses /bin/true and /bin/false as stand-in applications, and host files in a
 * temporary directory. srun need not be installed: these are functions of the words. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static void check_rewrite(int argc, char *const *in, enum launcher_kind launcher, int app,
                          int nvars, const char *const *want)
{
    char **out = launch_rewrite(argc, in, launcher, app, vars, nvars);
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
    check_rewrite(5, ompi, LAUNCH_OPENMPI, 3, NVARS, ompi_want);
    /* the input is left as it was */
    CHECK(strcmp(ompi[1], "-np") == 0 && ompi[5] == NULL);

    char *mpich[] = {"mpiexec.hydra", "-n", "2", "./app", NULL};
    const char *const mpich_want[] = {"mpiexec.hydra", "-genv", "MPIRR_MODE", "record", "-genv",
                                      "B", "two words=x", "-n", "2", "./app", NULL};
    check_rewrite(4, mpich, LAUNCH_HYDRA, 3, NVARS, mpich_want);

    /* srun: one --export word, the last of srun's options (after the command's own
     * --export=NONE, which it overrides), right before the program */
    char *srun[] = {"srun", "--export=NONE", "-n", "2", "./app", "-n", "3", NULL};
    const char *const srun_want[] = {"srun", "--export=NONE", "-n", "2",
                                     "--export=ALL,MPIRR_MODE=record,B=two words=x", "./app",
                                     "-n", "3", NULL};
    check_rewrite(7, srun, LAUNCH_SRUN, 4, NVARS, srun_want);
    const char *const srun_noapp_want[] = {"srun", "--export=ALL,MPIRR_MODE=record",
                                           "--export=NONE", NULL};
    check_rewrite(2, srun, LAUNCH_SRUN, -1, 1, srun_noapp_want);
    const char *const srun_novars_want[] = {"srun", "--export=NONE", NULL};
    check_rewrite(2, srun, LAUNCH_SRUN, -1, 0, srun_novars_want);
    const struct env_var comma[] = {{"MPIRR_MODE", "replay"}, {"MPIRR_DIR", "/tmp/a,b"}};
    CHECK(launch_rewrite_uncarried(LAUNCH_SRUN, comma, 2) == 1);
    CHECK(launch_rewrite_uncarried(LAUNCH_SRUN, comma, 1) == -1);
    CHECK(launch_rewrite_uncarried(LAUNCH_OPENMPI, comma, 2) == -1);
    CHECK(launch_rewrite_uncarried(LAUNCH_HYDRA, comma, 2) == -1);

    /* singleton: unchanged copy, the variables go to the environment instead */
    char *single[] = {"./app", "arg", NULL};
    const char *const single_want[] = {"./app", "arg", NULL};
    check_rewrite(2, single, LAUNCH_NONE, 0, NVARS, single_want);

    /* no variables, and a bare launcher */
    const char *const novars_want[] = {"mpirun", "-np", "4", "./app", "-x", NULL};
    check_rewrite(5, ompi, LAUNCH_OPENMPI, 3, 0, novars_want);
    const char *const bare_want[] = {"mpirun", "-x", "MPIRR_MODE=record", NULL};
    check_rewrite(1, ompi, LAUNCH_OPENMPI, -1, 1, bare_want);
}

static void test_scan(void)
{
    struct launch_scan sc;

    char *ompi[] = {"mpirun", "-np", "4", "--mca", "btl", "self", "-x", "FOO",
                    "--oversubscribe", "/bin/true", "-n", "9", NULL};
    launch_scan(12, ompi, LAUNCH_OPENMPI, "/", &sc);
    CHECK(sc.app == 9);
    CHECK(strcmp(sc.app_path, "/bin/true") == 0);
    CHECK(sc.nprocs == 4); /* the application's own "-n 9" is not the launcher's */
    CHECK(strcmp(sc.np_text, "-np 4") == 0);

    char *mpmd[] = {"mpiexec", "-n", "2", "/bin/true", ":", "-np", "3", "/bin/false", NULL};
    launch_scan(8, mpmd, LAUNCH_HYDRA, "/", &sc);
    CHECK(sc.app == 3);
    CHECK(sc.nprocs == 5);
    CHECK(strcmp(sc.np_text, "-n 2 : -np 3") == 0);

    char *partial[] = {"mpiexec", "-n", "2", "/bin/true", ":", "/bin/false", NULL};
    launch_scan(6, partial, LAUNCH_HYDRA, "/", &sc);
    CHECK(sc.nprocs == -1);

    /* a count that overflows (strtol clamped it to LONG_MAX), is signed or trails garbage is
     * no count: unknown, never a huge number of ranks */
    const char *bad_counts[] = {"99999999999999999999", "16777217", "+4", " 4", "4x", "0"};
    for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; i++) {
        char *huge[] = {"mpirun", "-np", (char *)bad_counts[i], "/bin/true", NULL};
        launch_scan(4, huge, LAUNCH_OPENMPI, "/", &sc);
        CHECK(sc.app == 3 && sc.nprocs == -1);
    }

    char *nonp[] = {"mpirun", "/bin/true", NULL};
    launch_scan(2, nonp, LAUNCH_OPENMPI, "/", &sc);
    CHECK(sc.app == 1 && sc.nprocs == -1);

    /* a name without a slash is looked up in PATH; relative names against base */
    char *bypath[] = {"mpirun", "-c", "2", "true", NULL};
    launch_scan(4, bypath, LAUNCH_OPENMPI, "/", &sc);
    CHECK(sc.app == 3 && sc.nprocs == 2);
    char *relative[] = {"mpirun", "-np", "2", "./true", NULL};
    launch_scan(4, relative, LAUNCH_OPENMPI, "/bin", &sc);
    CHECK(sc.app == 3 && strcmp(sc.app_path, "/bin/./true") == 0);

    char *missing[] = {"mpirun", "-np", "2", "./no-such-program-here", NULL};
    launch_scan(4, missing, LAUNCH_OPENMPI, "/", &sc);
    CHECK(sc.app == -1 && sc.nprocs == 2);

    char *single[] = {"/bin/true", "-np", "7", NULL};
    launch_scan(3, single, LAUNCH_NONE, "/", &sc);
    CHECK(sc.app == 0 && sc.nprocs == 1);
}

/* srun: -n/--ntasks, or --nodes times --ntasks-per-node; attached values; -c is not a count */
static void test_scan_srun(void)
{
    struct launch_scan sc;
    char *ntasks[] = {"srun", "-N", "2", "-c", "3", "--mpi=pmix", "-n", "4", "/bin/true", "-n",
                      "9", NULL};
    launch_scan(11, ntasks, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 8 && sc.nprocs == 4);
    CHECK(strcmp(sc.np_text, "-N 2 -n 4") == 0);

    char *attached[] = {"srun", "--ntasks=6", "-p", "debug", "-w", "n[1-2]", "true", NULL};
    launch_scan(7, attached, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 6 && sc.nprocs == 6 && strcmp(sc.np_text, "--ntasks=6") == 0);
    char *short_attached[] = {"srun", "-n3", "/bin/true", NULL};
    launch_scan(3, short_attached, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 2 && sc.nprocs == 3);

    char *per_node[] = {"srun", "--nodes=2", "--ntasks-per-node", "2", "/bin/true", NULL};
    launch_scan(5, per_node, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 4 && sc.nprocs == 4);
    char *nodes_only[] = {"srun", "-N", "2", "/bin/true", NULL};
    launch_scan(4, nodes_only, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 3 && sc.nprocs == -1); /* tasks per node from the allocation: unknown */
    char *cpus[] = {"srun", "-c", "4", "/bin/true", NULL};
    launch_scan(4, cpus, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 3 && sc.nprocs == -1);
    char *range[] = {"srun", "-N", "2-4", "--ntasks-per-node=2", "/bin/true", NULL};
    launch_scan(5, range, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.nprocs == -1);

    /* a heterogeneous job adds up; an output file's name is skipped, not taken as the program */
    char *het[] = {"srun", "-n", "1", "-o", "true", "/bin/true", ":", "-n", "2", "/bin/false",
                   NULL};
    launch_scan(10, het, LAUNCH_SRUN, "/", &sc);
    CHECK(sc.app == 5 && sc.nprocs == 3 && strcmp(sc.np_text, "-n 1 : -n 2") == 0);
}

static char reach_dir[] = "/tmp/mpirr-test-launch-XXXXXX";
static char rec_dir[PATH_MAX], cwd_dir[PATH_MAX], hosts_in_cwd[PATH_MAX], hosts_in_rec[PATH_MAX];
static const struct launch_reach reach = {cwd_dir, rec_dir};

/* reach_dir/cwd/hosts and reach_dir/rec/hosts: the recorded working directory and the
 * recording, each with a host file. */
static void make_reach(void)
{
    CHECK(mkdtemp(reach_dir) != NULL);
    snprintf(cwd_dir, sizeof cwd_dir, "%s/cwd", reach_dir);
    snprintf(rec_dir, sizeof rec_dir, "%s/rec", reach_dir);
    snprintf(hosts_in_cwd, sizeof hosts_in_cwd, "%s/hosts", cwd_dir);
    snprintf(hosts_in_rec, sizeof hosts_in_rec, "%s/hosts", rec_dir);
    CHECK(mkdir(cwd_dir, 0700) == 0 && mkdir(rec_dir, 0700) == 0);
    const char *files[] = {hosts_in_cwd, hosts_in_rec};
    for (int i = 0; i < 2; i++) {
        int fd = open(files[i], O_WRONLY | O_CREAT | O_EXCL, 0600);
        CHECK(fd >= 0 && write(fd, "localhost slots=4\n", 18) == 18);
        close(fd);
    }
    char fifo[PATH_MAX], link[PATH_MAX];
    snprintf(fifo, sizeof fifo, "%s/fifo", cwd_dir);
    snprintf(link, sizeof link, "%s/etc-hosts", cwd_dir);
    CHECK(mkfifo(fifo, 0600) == 0 && symlink("/etc/hosts", link) == 0);
}

static void remove_reach(void)
{
    const char *names[] = {"cwd/hosts", "cwd/fifo", "cwd/etc-hosts", "rec/hosts", "cwd", "rec"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", reach_dir, names[i]);
        CHECK(remove(path) == 0);
    }
    CHECK(rmdir(reach_dir) == 0);
}

/* launch_allow_check on a NULL-terminated command of launcher kind whose program is argv[app]. */
static int allow_kind(enum launcher_kind kind, char *const *argv, int app)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    char why[600] = "";
    int bad = launch_allow_check(kind, &reach, argc, argv, app, why, sizeof why);
    CHECK(!bad == !why[0]); /* a refusal always says why */
    return bad;
}

static int allow(char *const *argv, int app)
{
    return allow_kind(LAUNCH_OPENMPI, argv, app);
}

static int allow_hydra(char *const *argv, int app)
{
    return allow_kind(LAUNCH_HYDRA, argv, app);
}

static int allow_srun(char *const *argv, int app)
{
    return allow_kind(LAUNCH_SRUN, argv, app);
}

static void test_allow(void)
{
    char *harmless[] = {"mpirun", "-np", "4", "--oversubscribe", "--bind-to", "none", "--mca",
                        "btl", "self,vader", "-x", "OMP_NUM_THREADS=2", "-x", "HOME", "-host",
                        "node1,node-2:4", "--map-by", "core", "/bin/true", "--prefix", NULL};
    CHECK(allow(harmless, 17) == 0); /* the program's own arguments are its business */
    char *hydra[] = {"mpiexec", "-n", "2", "-ppn", "1", "-genv", "OMP_NUM_THREADS", "2",
                     "-genvlist", "HOME,USER", "-hosts", "a,b", "-l", "/bin/true", NULL};
    CHECK(allow_hydra(hydra, 13) == 0);

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
    CHECK(allow_hydra(genv, 6) == 1);
    char *env[] = {"mpiexec", "-n", "2", "-env", "LD_LIBRARY_PATH", "/tmp", "/bin/true", NULL};
    CHECK(allow_hydra(env, 6) == 3);
    char *envlist[] = {"mpiexec", "-genvlist", "HOME,LD_PRELOAD", "/bin/true", NULL};
    CHECK(allow_hydra(envlist, 3) == 1);
    char *config[] = {"mpiexec", "-configfile", "/tmp/cfg", NULL};
    CHECK(allow_hydra(config, 3) == 1);
    char *bootstrap[] = {"mpiexec", "-bootstrap-exec", "/tmp/sh", "-n", "1", "/bin/true", NULL};
    CHECK(allow_hydra(bootstrap, 5) == 1);
    char *mca_path[] = {"mpirun", "--mca", "mca_base_component_path", "/tmp", "/bin/true", NULL};
    CHECK(allow(mca_path, 4) == 1);
    char *mca_agent[] = {"mpirun", "--mca", "plm_rsh_agent", "sh", "/bin/true", NULL};
    CHECK(allow(mca_agent, 4) == 1);
    char *mca_file[] = {"mpirun", "--mca", "mpi_show_mca_params_file", "/x", "/bin/true", NULL};
    CHECK(allow(mca_file, 4) == 1);
    char *host[] = {"mpirun", "-host", "-oProxyCommand=sh", "/bin/true", NULL};
    CHECK(allow(host, 3) == 1);
    /* host files: regular files in the recorded working directory or the recording */
    char *hostfile[] = {"mpirun", "--hostfile", "/etc/hosts", "/bin/true", NULL};
    CHECK(allow(hostfile, 3) == 1);
    const char *in_reach[] = {"hosts", "./hosts", hosts_in_cwd, hosts_in_rec, "../rec/hosts"};
    const char *out_of_reach[] = {"fifo", "etc-hosts", "no-such-file", "..", "../../../etc/hosts",
                                  "/dev/zero", ""};
    const char *hostfile_opts[] = {"--hostfile", "-hostfile", "--machinefile", "-machinefile",
                                   "--default-hostfile", "-f"};
    for (unsigned k = 0; k < sizeof hostfile_opts / sizeof hostfile_opts[0]; k++) {
        for (unsigned i = 0; i < sizeof in_reach / sizeof in_reach[0]; i++) {
            char *hf[] = {"mpiexec", (char *)hostfile_opts[k], (char *)in_reach[i], "-n", "2",
                          "/bin/true", NULL};
            CHECK(allow_hydra(hf, 5) == 0);
            CHECK(allow(hf, 5) == 0);
        }
        for (unsigned i = 0; i < sizeof out_of_reach / sizeof out_of_reach[0]; i++) {
            char *hf[] = {"mpiexec", (char *)hostfile_opts[k], (char *)out_of_reach[i],
                          "/bin/true", NULL};
            CHECK(allow_hydra(hf, 3) == 1);
        }
    }
    /* network interfaces: any component's *_if_include / *_if_exclude */
    char *ifaces[] = {"mpirun", "--mca", "btl_tcp_if_include", "eth0", "-mca",
                      "oob_tcp_if_include", "eth0", "--mca", "btl_tcp_if_exclude", "lo,docker0",
                      "--mca", "oob_tcp_if_exclude", "10.0.0.0/8", "-np", "2", "/bin/true", NULL};
    CHECK(allow(ifaces, 15) == 0);
    const char *bad_mca[] = {"orte_launch_agent", "plm_rsh_agent", "oob_tcp_static_ipv4_ports",
                             "plm_rsh_args", "btl_tcp_if_include_path", "OOB_TCP_IF_INCLUDE",
                             "_if_include", "oob/../tcp_if_include"};
    for (unsigned i = 0; i < sizeof bad_mca / sizeof bad_mca[0]; i++) {
        char *mca[] = {"mpirun", "--mca", (char *)bad_mca[i], "x", "/bin/true", NULL};
        CHECK(allow(mca, 4) == 1);
    }
    char *placement[] = {"mpirun", "-npernode", "1", "--rank-by", "node", "--map-by", "ppr:1:node",
                         "--bind-to", "core", "-H", "n1,n2", "--oversubscribe", "/bin/true", NULL};
    CHECK(allow(placement, 12) == 0);
    char *ompi_prefix[] = {"mpirun", "-prefix", "/opt/openmpi", "/bin/true", NULL};
    CHECK(allow(ompi_prefix, 3) == 1);

    /* hydra: interfaces, hosts, bootstraps that start its proxies, and not their programs */
    char *hydra_net[] = {"mpiexec", "-iface", "lo", "-hosts", "n1,n2", "-host", "n1", "-ppn", "1",
                         "-bootstrap", "ssh", "-launcher", "slurm", "-rmk", "slurm",
                         "-n", "2", "/bin/true", NULL};
    CHECK(allow_hydra(hydra_net, 17) == 0);
    const char *bad_bootstrap[] = {"manual", "persist", "/bin/sh", "ssh -oProxyCommand=x", ""};
    for (unsigned i = 0; i < sizeof bad_bootstrap / sizeof bad_bootstrap[0]; i++) {
        char *bs[] = {"mpiexec", "-bootstrap", (char *)bad_bootstrap[i], "/bin/true", NULL};
        CHECK(allow_hydra(bs, 3) == 1);
    }
    char *launcher_exec[] = {"mpiexec", "-launcher-exec", "/tmp/sh", "/bin/true", NULL};
    CHECK(allow_hydra(launcher_exec, 3) == 1);
    char *hydra_hosts[] = {"mpiexec", "-hosts", "-oProxyCommand=sh", "/bin/true", NULL};
    CHECK(allow_hydra(hydra_hosts, 3) == 1);
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

/* srun: node and task options pass; files written or read, programs run, do not */
static void test_allow_srun(void)
{
    char *harmless[] = {"srun", "-N", "2", "-n", "4", "--ntasks-per-node=2", "-c", "1", "-p",
                        "debug", "--partition=batch", "-w", "node[01-02],gpu7", "--nodelist=n1",
                        "-t", "10:00", "--time=1", "--mpi=pmix", "--exclusive", "-J", "rr",
                        "--cpu-bind=cores", "--distribution=block:cyclic", "-m", "block",
                        "--export=ALL,OMP_NUM_THREADS=2,HOME", "-l", "-n2", "/bin/true", "-o",
                        "x", NULL};
    CHECK(allow_srun(harmless, 28) == 0); /* the program's own -o is its business */
    char *nodefile[] = {"srun", "-w", hosts_in_rec, "--nodelist", "./hosts", "/bin/true", NULL};
    CHECK(allow_srun(nodefile, 5) == 0);

    struct {
        const char *opt, *value; /* value NULL: the option alone, or its value attached */
    } refused[] = {
        {"-o", "out.txt"}, {"--output=/tmp/x", NULL}, {"-e", "err"}, {"--error", "err"},
        {"-i", "in"}, {"--input=in", NULL}, {"-D", "/tmp"}, {"--chdir=/tmp", NULL},
        {"--prolog", "/bin/sh"}, {"--epilog=/bin/sh", NULL}, {"--task-prolog", "/bin/sh"},
        {"--task-epilog", "/bin/sh"}, {"--multi-prog", NULL}, {"--bcast=/tmp/x", NULL},
        {"--bcast", NULL}, {"--wrap", "sh"}, {"--container", "/tmp/c"}, {"--uid", "0"},
        {"--export=ALL,LD_PRELOAD=/tmp/x.so", NULL}, {"--export", "PATH"},
        {"-w", "/etc/hosts"}, {"-w", "-oProxyCommand=x"}, {"--nodelist=n1;sh", NULL},
        {"-lu", NULL}, {"--frobnicate", NULL}, {"-x", NULL},
    };
    for (unsigned i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char *cmd[] = {"srun", "-n", "2", (char *)refused[i].opt,
                       (char *)(refused[i].value ? refused[i].value : "/bin/true"),
                       refused[i].value ? "/bin/true" : NULL, NULL};
        int app = refused[i].value ? 5 : 4;
        CHECK(allow_srun(cmd, app) == 3);
    }
    char *het[] = {"srun", "-n", "1", "/bin/true", ":", "-n", "1", "/bin/sh", NULL};
    CHECK(allow_srun(het, 3) == 4);
}

int main(void)
{
    make_reach();
    test_rewrite();
    test_scan();
    test_scan_srun();
    test_allow();
    test_allow_srun();
    remove_reach();
    return CHECK_DONE();
}
