/* test_manifest.c: the manifest round-trips any command line (spaces, newlines, backslashes,
 * arguments of any length) and the run id, and rejects damaged files, impossible rank counts,
 * malformed run ids and non-regular files with a message naming the file and line. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "manifest.h"

static char dir[] = "/tmp/mpirr-test-manifest-XXXXXX";

static void write_text(const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/manifest", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    char err[512];
    mpirr_manifest m, r;
    mpirr_manifest_init(&m);
    snprintf(m.mode, sizeof m.mode, "sources");
    snprintf(m.mpi, sizeof m.mpi, "openmpi");
    snprintf(m.cwd, sizeof m.cwd, "/home/me/with space");
    m.wtime = 1;
    m.created = 1700000000;
    char *argv[] = {"mpirun", "-np", "4", "./app", "arg with\nnewline", "back\\slash\ttab", ""};
    m.argc = 7;
    m.argv = argv;
    CHECK(mpirr_manifest_write(dir, &m, err, sizeof err) == 0);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == 0);
    CHECK(r.argc == 7);
    for (int i = 0; i < 7 && i < r.argc; i++) CHECK(!strcmp(r.argv[i], argv[i]));
    CHECK(!strcmp(r.cwd, m.cwd) && !strcmp(r.mode, "sources") && !strcmp(r.mpi, "openmpi"));
    CHECK(r.wtime == 1 && r.created == 1700000000 && r.nranks == -1 && r.exit_status == -1);
    CHECK(mpirr_run_id_is_none(&r.run_id)); /* none written, none read: an older recording */
    mpirr_manifest_free(&r);

    /* the run id: 32 hexadecimal digits, either case, round-trips */
    CHECK(mpirr_run_id_parse("81C0ff00112233445566778899aabbcc", &m.run_id) == 0);
    CHECK(mpirr_manifest_write(dir, &m, err, sizeof err) == 0);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == 0);
    CHECK(mpirr_run_id_equal(&r.run_id, &m.run_id) && r.run_id.b[0] == 0x81 && r.run_id.b[15] == 0xcc);
    char text[MPIRR_RUN_ID_DIGITS + 1];
    mpirr_run_id_text(&r.run_id, text);
    CHECK(!strcmp(text, "81c0ff00112233445566778899aabbcc"));
    mpirr_manifest_free(&r);
    static const char *const bad_ids[] = {
        "81c0", "81c0ff00112233445566778899aabbcc0", "81c0ff00112233445566778899aabbcg",
        "81c0ff00112233445566778899aabb c", "", "00000000000000000000000000000000",
        "-1c0ff00112233445566778899aabbcc",
    };
    for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
        char text_bad[256];
        snprintf(text_bad, sizeof text_bad,
                 "mpirr-manifest 1\nmode sources\nmpi openmpi\nrun-id %s\nargc 1\narg a\n", bad_ids[i]);
        write_text(text_bad);
        CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1);
        CHECK(strstr(err, "manifest:4: bad run id") != NULL);
    }
    mpirr_run_id none = {{0}};
    mpirr_run_id_text(&none, text);
    CHECK(!strcmp(text, "none"));

    /* completed after the run */
    m.nranks = 8;
    m.fingerprint = 0x1234abcdull;
    snprintf(m.exe, sizeof m.exe, "/bin/app");
    m.exit_status = 0;
    CHECK(mpirr_manifest_write(dir, &m, err, sizeof err) == 0);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == 0);
    CHECK(r.nranks == 8 && r.fingerprint == 0x1234abcdull && r.exit_status == 0);
    CHECK(!strcmp(r.exe, "/bin/app"));
    mpirr_manifest_free(&r);

    /* an argument of any length round-trips exactly (no line buffer cuts it) */
    size_t big = 100 * 1024;
    char *long_arg = malloc(big + 1);
    for (size_t i = 0; i < big; i++) long_arg[i] = i % 997 == 0 ? '\n' : (char)('a' + i % 26);
    long_arg[big] = 0;
    char *argv_long[] = {"mpirun", long_arg, "tail"};
    char **saved_argv = m.argv;
    m.argc = 3;
    m.argv = argv_long;
    CHECK(mpirr_manifest_write(dir, &m, err, sizeof err) == 0);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == 0);
    CHECK(r.argc == 3 && strlen(r.argv[1]) == big && !strcmp(r.argv[1], long_arg));
    CHECK(r.argc == 3 && !strcmp(r.argv[2], "tail") && r.nranks == 8);
    mpirr_manifest_free(&r);
    free(long_arg);
    m.argc = 7;
    m.argv = saved_argv;

    /* rank counts a recording cannot have are refused, not allocated for */
    write_text("mpirr-manifest 1\nmode sources\nmpi openmpi\nargc 1\narg a\nranks 100000000\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "manifest:6") && strstr(err, "bad rank count"));
    write_text("mpirr-manifest 1\nmode sources\nmpi openmpi\nargc 1\narg a\nranks -1\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, "bad rank count"));
    /* a run that wrote no rank log at all (it failed before MPI_Init) is a valid recording */
    write_text("mpirr-manifest 1\nmode sources\nmpi openmpi\nargc 1\narg a\nranks 0\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == 0 && r.nranks == 0);
    mpirr_manifest_free(&r);
    /* numbers that overflow, carry a sign or trail garbage are refused, not clamped; the
     * recorded command runs in cwd: a relative one is damage too, named with its line */
#define HEAD "mpirr-manifest 1\nmode sources\nmpi openmpi\n"
    static const char *const damaged[][2] = {
        {HEAD "argc 1\narg a\nranks 99999999999999999999\n", "manifest:6: bad rank count"},
        {HEAD "argc 1x\narg a\n", "manifest:4: bad argc"},
        {HEAD "argc 1\narg a\nexit-status 4294967296\n", "manifest:6: bad exit-status"},
        {HEAD "argc 1\narg a\nfingerprint 1ffffffffffffffff\n", "manifest:6: bad fingerprint"},
        {HEAD "created -\nargc 1\narg a\n", "manifest:4: bad creation time"},
        {"mpirr-manifest 1x\nmode sources\nmpi openmpi\nargc 1\narg a\n",
         "manifest:1: unsupported manifest version"},
        {HEAD "cwd work/dir\nargc 1\narg a\n",
         "manifest:4: cwd 'work/dir' is not an absolute directory"},
    };
#undef HEAD
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        write_text(damaged[i][0]);
        CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, damaged[i][1]));
    }
    /* no command line at all */
    write_text("mpirr-manifest 1\nmode sources\nmpi openmpi\nranks 2\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, "argc"));

    /* a FIFO where the manifest belongs is refused at once, not read (it would block) */
    char path[256];
    snprintf(path, sizeof path, "%s/manifest", dir);
    unlink(path);
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "manifest is not a regular file (a FIFO)"));
    unlink(path);

    /* damage */
    write_text("hello world\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "manifest:1") && strstr(err, "not an mpirr manifest"));
    write_text("mpirr-manifest 1\nmode sources\nmpi openmpi\nargc 3\narg a\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "fewer 'arg' lines"));
    write_text("mpirr-manifest 99\n");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, "version"));
    write_text("");
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, "empty"));
    unlink(path);
    CHECK(mpirr_manifest_read(dir, &r, err, sizeof err) == -1 && strstr(err, "not an mpirr recording"));
    rmdir(dir);
    return CHECK_DONE();
}
