/* test_out_file.c: the CLI's output files (src/cli/common/out_file.h) and its escaping of
 * untrusted strings for text (text_escape.h), in a scratch directory: a new or regular FILE
 * is replaced whole on success and left as it was on failure, with no temporary left; a
 * FIFO is written through and stays a FIFO; a directory is refused; "-" is standard output
 * only when asked; out_file_new never writes through a planted symlink. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "out_file.h"
#include "text_escape.h"

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int entries(void)
{
    DIR *d = opendir(".");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

static int write_out(const char *path, const char *text, int rc, int flags)
{
    struct out_file o;
    int r = out_file_open(&o, "test", path, flags);
    if (r) return r;
    fputs(text, o.f);
    return out_file_close(&o, rc);
}

static void test_regular(void)
{
    CHECK(write_out("new", "one", 0, 0) == 0);
    CHECK(!strcmp(slurp("new"), "one"));
    CHECK(write_out("new", "two", 0, 0) == 0);
    CHECK(!strcmp(slurp("new"), "two"));
    CHECK(write_out("new", "three", CLI_EXIT_FAIL, 0) == CLI_EXIT_FAIL); /* failed: kept */
    CHECK(!strcmp(slurp("new"), "two"));
    CHECK(write_out("gone", "x", -1, 0) == CLI_EXIT_FAIL); /* never made */
    CHECK(access("gone", F_OK) != 0);
    CHECK(entries() == 1); /* no temporary left */
    struct stat st;
    CHECK(stat("new", &st) == 0 && (st.st_mode & 0777) == (0666 & ~022)); /* the umask's mode */
    /* a symlink to a file: the target is replaced, the link stays */
    put("target", "old");
    CHECK(symlink("target", "link") == 0);
    CHECK(write_out("link", "new", 0, 0) == 0);
    CHECK(lstat("link", &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(!strcmp(slurp("target"), "new"));
    unlink("link"), unlink("target"), unlink("new");
}

static void test_fifo(void)
{
    CHECK(mkfifo("fifo", 0600) == 0);
    int rd = open("fifo", O_RDONLY | O_NONBLOCK); /* a reader, so the writer does not wait */
    CHECK(rd >= 0);
    CHECK(write_out("fifo", "through", 0, 0) == 0);
    char buf[16] = {0};
    CHECK(read(rd, buf, sizeof buf - 1) == 7 && !strcmp(buf, "through"));
    close(rd);
    struct stat st;
    CHECK(lstat("fifo", &st) == 0 && S_ISFIFO(st.st_mode));
    /* a failed write does not remove it either */
    rd = open("fifo", O_RDONLY | O_NONBLOCK);
    CHECK(write_out("fifo", "x", CLI_EXIT_FAIL, 0) == CLI_EXIT_FAIL);
    CHECK(lstat("fifo", &st) == 0 && S_ISFIFO(st.st_mode));
    close(rd);
    unlink("fifo");
}

static void test_refused(void)
{
    CHECK(mkdir("dir", 0700) == 0);
    struct out_file o;
    CHECK(out_file_open(&o, "test", "dir", 0) == CLI_EXIT_USAGE);
    CHECK(out_file_open(&o, "test", "no/such/dir/file", 0) == CLI_EXIT_USAGE);
    CHECK(out_file_open(&o, "test", "", 0) == CLI_EXIT_USAGE);
    rmdir("dir");
    /* "-": standard output when asked, else a file of that name */
    CHECK(out_file_open(&o, "test", "-", OUT_FILE_STDOUT) == 0 && o.f == stdout && !o.tmp[0]);
    CHECK(out_file_close(&o, 0) == 0);
    CHECK(write_out("-", "dash", 0, 0) == 0 && !strcmp(slurp("-"), "dash"));
    unlink("-");
    CHECK(entries() == 0);
}

static void test_new(void)
{
    put("victim", "victim");
    CHECK(symlink("victim", "planted") == 0);
    errno = 0;
    CHECK(out_file_new("planted") == NULL && errno == EEXIST);
    CHECK(!strcmp(slurp("victim"), "victim"));
    FILE *f = out_file_new("fresh");
    CHECK(f != NULL);
    if (f) fclose(f);
    CHECK(out_file_new("fresh") == NULL); /* never one already there */
    unlink("planted"), unlink("victim"), unlink("fresh");
}

static void test_escape(void)
{
    char buf[64];
    CHECK(!strcmp(text_escape("a\x1b[31mb\a\n\t\xff\xc2\x9b""c\xc3\xa9", buf, sizeof buf),
                  "a\\x1b[31mb\\x07\\n\\t\\xff\\xc2\\x9bc\xc3\xa9"));
    CHECK(!text_needs_escape("plain/path/f\xc3\xa9.c:12 (main)"));
    CHECK(text_needs_escape("x\x7f"));
    char small[8] = "ab\x1b\x1b";
    text_escape_in_place(small, sizeof small); /* cut before an escape that does not fit */
    CHECK(!strcmp(small, "ab\\x1b"));
}

int main(void)
{
    char dir[] = "/tmp/mpirr-out-file.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    if (chdir(dir)) return 1;
    umask(022);
    test_regular();
    test_fifo();
    test_refused();
    test_new();
    test_escape();
    if (chdir("/") == 0) rmdir(dir);
    return CHECK_DONE();
}
